// What an import entry would run, its command line or URL and its transport, as far as the plan says. Today's
// generated EntryPlan does not carry them (the backend keeps the parsed server to itself); this reads the `transport`
// and `target` fields proposed for it, named as on ServerSummary, and reports "unknown" until the backend sends them.
import type { EntryPlan, TransportKind } from "../../ipc/bindings";

/**
 * The fields read beyond the generated EntryPlan. Once the bindings have them this type and the cast below go, and
 * the compiler checks the names.
 */
type LaunchFields = { transport?: TransportKind | null; target?: string | null };

/** How an entry runs: a local command (stdio) or a remote URL, as written in its file. */
export type EntryLaunch = { transport: TransportKind; target: string };

/** The entry's command line or URL and transport; null when the plan does not say (an invalid entry, or no field). */
export function entryLaunch(entry: EntryPlan): EntryLaunch | null {
  const { transport, target } = entry as EntryPlan & LaunchFields;
  if (typeof transport !== "string" || typeof target !== "string") return null;
  return { transport, target };
}

/** Whether the entry is reached by URL (not a local command); null when the plan does not say. */
export function isRemote(entry: EntryPlan): boolean | null {
  const launch = entryLaunch(entry);
  return launch === null ? null : launch.transport !== "stdio";
}
