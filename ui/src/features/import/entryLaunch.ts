// What an import entry would run: its command line or URL and its transport, as the plan says (none for an entry
// that cannot be used as written).
import type { EntryPlan, TransportKind } from "../../ipc/bindings";

/** How an entry runs: a local command (stdio) or a remote URL, as written in its file. */
export type EntryLaunch = { transport: TransportKind; target: string };

/** The entry's command line or URL and transport; null when the plan does not say (an invalid entry). */
export function entryLaunch(entry: EntryPlan): EntryLaunch | null {
  const { transport, target } = entry;
  if (transport === null || target === null) return null;
  return { transport, target };
}

/** Whether the entry is reached by URL (not a local command); null when the plan does not say. */
export function isRemote(entry: EntryPlan): boolean | null {
  const launch = entryLaunch(entry);
  return launch === null ? null : launch.transport !== "stdio";
}
