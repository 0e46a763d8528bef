// Tests for the import plan helpers: counts, the choices sent to apply_import, and reading difference lines.
import { describe, expect, it } from "vitest";
import { CURSOR_PATH, cursorFile, entry, launchingFiles, plan, PROJECT_PATH } from "../../test/importFixtures";
import {
  choiceKey,
  countOutcomes,
  countToWrite,
  type LeftOut,
  leftOutBy,
  NOTHING_LEFT_OUT,
  parseDifference,
  secretsToMove,
  toImportChoices,
} from "./plan";

/** Nothing left out but what `fields` says. */
function leftOut(fields: Partial<LeftOut>): LeftOut {
  return { ...NOTHING_LEFT_OUT, ...fields };
}

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

  // Pins: an unticked file leaves out all its entries, Local only every remote one (not an entry whose transport is
  // unknown), a single untick just that entry.
  it("says why an entry is left out", () => {
    const [cursor, project] = launchingFiles();
    const [github, sentry] = cursor!.entries;
    expect(leftOutBy(NOTHING_LEFT_OUT, CURSOR_PATH, github!)).toBeNull();
    expect(leftOutBy(leftOut({ files: new Set([CURSOR_PATH]) }), CURSOR_PATH, github!)).toBe("file");
    expect(leftOutBy(leftOut({ localOnly: true }), CURSOR_PATH, sentry!)).toBe("remote");
    expect(leftOutBy(leftOut({ localOnly: true }), CURSOR_PATH, github!)).toBeNull();
    expect(leftOutBy(leftOut({ localOnly: true }), CURSOR_PATH, cursorFile().entries[0]!)).toBeNull();
    expect(leftOutBy(leftOut({ entries: new Set([choiceKey(PROJECT_PATH, "sqlite")]) }), PROJECT_PATH, project!.entries[0]!)).toBe("entry");
    expect(leftOutBy(leftOut({ entries: new Set([choiceKey(PROJECT_PATH, "sqlite")]) }), CURSOR_PATH, project!.entries[0]!)).toBeNull();
  });

  // Pins: what is left out is not written and moves no secret; identical entries never move one.
  it("counts what is written and the secrets that move", () => {
    const files = plan(launchingFiles());
    const rename = { [choiceKey(CURSOR_PATH, "linear")]: "rename" as const };
    expect(countToWrite(files, {})).toBe(4);
    expect(countToWrite(files, rename)).toBe(5);
    expect(secretsToMove(files, rename, NOTHING_LEFT_OUT)).toBe(2);
    expect(countToWrite(files, rename, leftOut({ files: new Set([PROJECT_PATH]) }))).toBe(3);
    expect(secretsToMove(files, rename, leftOut({ files: new Set([PROJECT_PATH]) }))).toBe(1);
    expect(countToWrite(files, rename, leftOut({ localOnly: true }))).toBe(2);
    expect(secretsToMove(files, rename, leftOut({ entries: new Set([choiceKey(CURSOR_PATH, "github")]) }))).toBe(1);
  });

  // Pins: an unticked file sends skip for every entry (with its path), an unticked new entry skip, Local only skip for
  // remote new and conflicting entries; the other conflicts keep their pick.
  it("sends skip for what is left out", () => {
    const files = plan(launchingFiles());
    const overwrite = { [choiceKey(CURSOR_PATH, "linear")]: "overwrite" as const };
    expect(toImportChoices(files, overwrite, leftOut({ files: new Set([PROJECT_PATH]), entries: new Set([choiceKey(CURSOR_PATH, "sentry")]) }))).toEqual([
      { name: "sentry", path: CURSOR_PATH, choice: "skip" },
      { name: "linear", path: CURSOR_PATH, choice: "overwrite" },
      { name: "sqlite", path: PROJECT_PATH, choice: "skip" },
      { name: "notion", path: PROJECT_PATH, choice: "skip" },
    ]);
    expect(toImportChoices(files, overwrite, leftOut({ localOnly: true }))).toEqual([
      { name: "sentry", path: CURSOR_PATH, choice: "skip" },
      { name: "linear", path: CURSOR_PATH, choice: "skip" },
      { name: "notion", path: PROJECT_PATH, choice: "skip" },
    ]);
    expect(toImportChoices(plan(), {}, leftOut({ files: new Set([CURSOR_PATH]) }))).toEqual(
      ["github", "files", "linear", "broken"].map((name) => ({ name, path: CURSOR_PATH, choice: "skip" })),
    );
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
