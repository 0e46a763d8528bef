// The Console's server, tool and arguments text: from the link (?server=&tool=) when it names either, else the pick
// the Console last showed (ConsoleMemory, so navigating away and back keeps it), with the text typed for each server
// and tool kept in memory for the app's lifetime. Picking writes the link, so a pick stays shareable and reloadable.
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { useConsoleMemory, type ConsolePick } from "./consoleMemory";

/** What a pick with no arguments typed yet starts from. */
export const EMPTY_ARGS = "{}";

function draftKey({ server, tool }: ConsolePick): string {
  return JSON.stringify([server, tool]);
}

export function useConsoleSelection() {
  const memory = useConsoleMemory();
  const [params, setParams] = useSearchParams();
  const linked = params.has("server") || params.has("tool");
  // Read once: after this the link holds every pick the person makes.
  const [restored] = useState(() => memory.lastPick());
  const server = linked ? params.get("server") : (restored?.server ?? null);
  const tool = linked ? params.get("tool") : (restored?.tool ?? null);
  const key = draftKey({ server, tool });
  const [drafts, setDrafts] = useState(() => memory.drafts());

  useEffect(() => {
    memory.rememberPick({ server, tool });
  }, [memory, server, tool]);

  /** Shows `next` (and writes it to the link). */
  const pick = (next: ConsolePick) => {
    const search: Record<string, string> = {};
    if (next.server !== null) search.server = next.server;
    if (next.tool !== null) search.tool = next.tool;
    setParams(search, { replace: true });
  };
  /** Keeps `text` as the arguments of `forPick` (the current pick unless given). */
  const saveText = (text: string, forPick: ConsolePick = { server, tool }) => {
    const forKey = draftKey(forPick);
    setDrafts((all) => ({ ...all, [forKey]: text }));
    memory.rememberDraft(forKey, text);
  };

  return { server, tool, key, text: drafts[key] ?? EMPTY_ARGS, pick, saveText };
}
