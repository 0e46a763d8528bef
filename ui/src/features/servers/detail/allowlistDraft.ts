// The allowlist editor's unsaved state and what saving it writes; pure, so every rule is tested without a DOM.
import type { AllowlistView } from "../../../ipc/bindings";

/**
 * What the person is editing. `all`: no `tools` key, every tool including ones the server adds later. `only`: an
 * explicit list made of the ticked tools (raw names, in the server's order) and the unknown entries still kept.
 */
export type AllowlistDraft =
  | { mode: "all" }
  | { mode: "only"; ticked: ReadonlySet<string>; keptUnknown: readonly string[] };

/** The draft the core's view describes: which tools it allows (the core matched raw and namespaced entries). */
export function draftFrom(view: AllowlistView): AllowlistDraft {
  if (view.entries === null) return { mode: "all" };
  return {
    mode: "only",
    ticked: new Set(view.tools.filter((tool) => tool.allowed).map((tool) => tool.name)),
    keptUnknown: view.unknownEntries,
  };
}

/** Whether `tool` is ticked in `draft`. */
export function isTicked(draft: AllowlistDraft, tool: string): boolean {
  return draft.mode === "all" || draft.ticked.has(tool);
}

/**
 * `draft` with `tools` ticked or unticked. Unticking while every tool is allowed turns the draft into an explicit
 * list of all the other offered tools, so one click does what the person means.
 */
export function setTicked(
  draft: AllowlistDraft,
  offered: readonly string[],
  tools: readonly string[],
  ticked: boolean,
): AllowlistDraft {
  if (draft.mode === "all" && ticked) return draft;
  const next = new Set(draft.mode === "all" ? offered : draft.ticked);
  for (const tool of tools) {
    if (ticked) next.add(tool);
    else next.delete(tool);
  }
  return { mode: "only", ticked: next, keptUnknown: draft.mode === "all" ? [] : draft.keptUnknown };
}

/** `draft` switched to `mode`; switching to a list starts from every offered tool ticked. */
export function setMode(draft: AllowlistDraft, mode: AllowlistDraft["mode"], offered: readonly string[]): AllowlistDraft {
  if (mode === draft.mode) return draft;
  if (mode === "all") return { mode: "all" };
  return { mode: "only", ticked: new Set(offered), keptUnknown: [] };
}

/** `draft` without the unknown entry `entry` (a misspelt or removed tool the person no longer wants listed). */
export function dropUnknown(draft: AllowlistDraft, entry: string): AllowlistDraft {
  if (draft.mode === "all") return draft;
  return { ...draft, keptUnknown: draft.keptUnknown.filter((kept) => kept !== entry) };
}

/** What saving writes: `null` for no `tools` key, else the ticked tools in `offered` order, then the kept entries. */
export function toSave(draft: AllowlistDraft, offered: readonly string[]): string[] | null {
  if (draft.mode === "all") return null;
  return [...offered.filter((tool) => draft.ticked.has(tool)), ...draft.keptUnknown];
}

/** Whether saving `draft` would change what `view` has. */
export function isDirty(draft: AllowlistDraft, view: AllowlistView): boolean {
  const offered = view.tools.map((tool) => tool.name);
  return JSON.stringify(toSave(draft, offered)) !== JSON.stringify(toSave(draftFrom(view), offered));
}
