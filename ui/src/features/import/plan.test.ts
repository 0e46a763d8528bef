// Tests for the import plan helpers: counts, the choices sent to apply_import, and reading difference lines.
import { describe, expect, it } from "vitest";
import { cursorFile, entry, plan } from "../../test/importFixtures";
import { countOutcomes, countToWrite, parseDifference, toImportChoices } from "./plan";

describe("plan helpers", () => {
  // Pins: every outcome kind is counted across all files.
  it("counts outcomes", () => {
    expect(countOutcomes(plan([cursorFile(), cursorFile({ path: "/p", entries: [] })]))).toEqual({
      new: 1,
      identical: 1,
      conflict: 1,
      invalid: 1,
    });
  });

  // Pins: new entries are written, a conflict only when its choice is not skip (skip being the default).
  it("counts what would be written", () => {
    expect(countToWrite(plan(), {})).toBe(1);
    expect(countToWrite(plan(), { linear: "rename" })).toBe(2);
    expect(countToWrite(plan(), { linear: "skip" })).toBe(1);
  });

  // Pins: one choice per conflicting name, defaults made explicit, nothing for other outcomes.
  it("builds the apply_import choices", () => {
    const twice = cursorFile({
      entries: [
        entry({ name: "a", outcome: { kind: "conflict", differences: [] } }),
        entry({ name: "a", outcome: { kind: "conflict", differences: [] } }),
        entry({ name: "b", outcome: { kind: "new" } }),
      ],
    });
    expect(toImportChoices(plan([twice]), {})).toEqual([{ name: "a", choice: "skip" }]);
    expect(toImportChoices(plan(), { linear: "overwrite" })).toEqual([{ name: "linear", choice: "overwrite" }]);
  });

  // Pins: a difference line splits into field, Plugboard's value and the client's; an ambiguous one stays whole.
  it("reads difference lines", () => {
    expect(parseDifference('url: "https://a" → "https://b"')).toEqual({
      field: "url",
      ours: '"https://a"',
      theirs: '"https://b"',
    });
    expect(parseDifference("env: (none) → {\"A\":\"1\"}")).toEqual({ field: "env", ours: "(none)", theirs: '{"A":"1"}' });
    expect(parseDifference('args: ["a → b"] → ["c"]')).toEqual({ raw: 'args: ["a → b"] → ["c"]' });
    expect(parseDifference("no separator here")).toEqual({ raw: "no separator here" });
  });
});
