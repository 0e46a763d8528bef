// Tests for the allowlist draft: how the core's view becomes a draft, how ticks change it and what saving writes.
import { describe, expect, it } from "vitest";
import type { AllowlistView, ToolInfo } from "../../../ipc/bindings";
import { draftFrom, dropUnknown, isDirty, isTicked, setMode, setTicked, toSave } from "./allowlistDraft";

const OFFERED = ["echo", "add", "sleep"];

function tool(name: string, allowed: boolean): ToolInfo {
  return { name, exposedName: `mcp__s__${name}`, title: null, description: null, allowed, withheld: null, hiddenContent: [], inputSchema: "{}" };
}

function view(entries: string[] | null, allowed: string[], unknownEntries: string[] = []): AllowlistView {
  return { entries, tools: OFFERED.map((name) => tool(name, entries === null || allowed.includes(name))), unknownEntries, withheldBesidesTools: [] };
}

describe("allowlistDraft", () => {
  // Pins: no list means every tool, and saving it writes null (no `tools` key), not the current tool names.
  it("keeps 'all tools' apart from an explicit list", () => {
    const all = draftFrom(view(null, []));
    expect(all).toEqual({ mode: "all" });
    expect(OFFERED.every((name) => isTicked(all, name))).toBe(true);
    expect(toSave(all, OFFERED)).toBeNull();
    expect(toSave(setMode(all, "only", OFFERED), OFFERED)).toEqual(OFFERED);
  });

  // Pins: the ticks come from the core's `allowed` (it matched raw and namespaced entries), and saving writes raw
  // names in the server's order followed by the unknown entries still kept.
  it("builds the list from the core's matches", () => {
    const draft = draftFrom(view(["mcp__s__sleep", "echo", "ecco"], ["echo", "sleep"], ["ecco"]));
    expect(isTicked(draft, "add")).toBe(false);
    expect(toSave(draft, OFFERED)).toEqual(["echo", "sleep", "ecco"]);
    expect(toSave(dropUnknown(draft, "ecco"), OFFERED)).toEqual(["echo", "sleep"]);
  });

  // Pins: unticking one tool while all are allowed makes a list of all the others; ticking in 'all' changes nothing.
  it("unticking under 'all tools' lists the others", () => {
    const all = draftFrom(view(null, []));
    expect(setTicked(all, OFFERED, ["echo"], true)).toBe(all);
    expect(toSave(setTicked(all, OFFERED, ["add"], false), OFFERED)).toEqual(["echo", "sleep"]);
    const none = setTicked(all, OFFERED, OFFERED, false);
    expect(toSave(none, OFFERED)).toEqual([]);
  });

  // Pins: dirty compares what would be written, so a namespaced entry read back as raw is not a change.
  it("is dirty only when the saved value would differ", () => {
    const current = view(["mcp__s__echo"], ["echo"]);
    expect(isDirty(draftFrom(current), current)).toBe(false);
    expect(isDirty(setTicked(draftFrom(current), OFFERED, ["add"], true), current)).toBe(true);
    expect(isDirty(setMode(draftFrom(current), "all", OFFERED), current)).toBe(true);
  });
});
