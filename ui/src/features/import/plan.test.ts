// Tests for the import plan helpers: counts, the choices sent to apply_import, and reading difference lines.
import { describe, expect, it } from "vitest";
import { CURSOR_PATH, cursorFile, entry, plan } from "../../test/importFixtures";
import { choiceKey, countOutcomes, countToWrite, parseDifference, toImportChoices } from "./plan";

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
    expect(countToWrite(plan(), { [choiceKey(CURSOR_PATH, "linear")]: "rename" })).toBe(2);
    expect(countToWrite(plan(), { [choiceKey(CURSOR_PATH, "linear")]: "skip" })).toBe(1);
    expect(countToWrite(plan(), { [choiceKey("/other/file", "linear")]: "rename" })).toBe(1);
  });

  // Pins: one choice per conflicting entry, named by file and name, defaults made explicit, nothing for other
  // outcomes; the same name in two files gets two choices.
  it("builds the apply_import choices", () => {
    const conflict = entry({ name: "a", outcome: { kind: "conflict", differences: [] } });
    const files = [
      cursorFile({ entries: [conflict, entry({ name: "b", outcome: { kind: "new" } })] }),
      cursorFile({ path: "/p/.cursor/mcp.json", entries: [conflict] }),
    ];
    expect(toImportChoices(plan(files), { [choiceKey("/p/.cursor/mcp.json", "a")]: "rename" })).toEqual([
      { name: "a", path: CURSOR_PATH, choice: "skip" },
      { name: "a", path: "/p/.cursor/mcp.json", choice: "rename" },
    ]);
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
