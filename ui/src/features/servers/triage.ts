// Pure triage of the server list: the status group of each server, the counts the summary shows, and the search,
// filter and sort the Servers page applies. Nothing here renders, fetches or changes a server.
import type { ServerStatus, ServerSummary } from "../../ipc/bindings";
import { hasEveryWord } from "../../textSearch";

/**
 * The groups the summary counts and the filter offers, in the order "Sort by status" uses: what needs the person
 * first (failed), what runs last. "connecting" includes reconnecting (both come up by themselves).
 */
export const GROUPS = [
  "failed",
  "needsApproval",
  "needsLogin",
  "keychainLocked",
  "connecting",
  "stopped",
  "ready",
  "disabled",
] as const;

/** One status group. */
export type StatusGroup = (typeof GROUPS)[number];

/** What the filter shows: every server, or one group. */
export type Show = "all" | StatusGroup;

/** How the table is ordered. */
export type SortBy = "name" | "status";

/** What the person asked the table to show. */
export type Triage = { query: string; show: Show; sort: SortBy };

/** A group's name in the summary, the filter and the empty result ("Needs login"). */
export const GROUP_LABELS: Record<StatusGroup, string> = {
  failed: "Failed",
  needsApproval: "Needs approval",
  needsLogin: "Needs login",
  keychainLocked: "Keychain locked",
  connecting: "Connecting",
  stopped: "Stopped",
  ready: "Ready",
  disabled: "Disabled",
};

/** Live status by server name, as useServerStatuses gives it (undefined while it loads). */
export type Statuses = ReadonlyMap<string, ServerStatus> | undefined;

/** The group of a live status; null while the backend has reported none. */
export function groupOf(status: ServerStatus | undefined): StatusGroup | null {
  if (status === undefined) return null;
  return status.state === "reconnecting" ? "connecting" : status.state;
}

/** How many of the configured servers are in each group (a server with no status yet counts in none). */
export function countGroups(servers: readonly ServerSummary[], statuses: Statuses): Record<StatusGroup, number> {
  const counts = Object.fromEntries(GROUPS.map((group) => [group, 0])) as Record<StatusGroup, number>;
  for (const server of servers) {
    const group = groupOf(statuses?.get(server.name));
    if (group !== null) counts[group] += 1;
  }
  return counts;
}

/** The configured servers whose live status is failed, in list order: what "Retry all failed" connects. */
export function failedServers(servers: readonly ServerSummary[], statuses: Statuses): string[] {
  return servers.filter((server) => statuses?.get(server.name)?.state === "failed").map((server) => server.name);
}

/**
 * Whether a server matches the search: every word of `query` appears in its name or its command/URL, ignoring
 * case. An empty query matches every server.
 */
export function matchesQuery(server: ServerSummary, query: string): boolean {
  return hasEveryWord([server.name, server.target], query);
}

// Names compare as people read them: "files-2" before "files-10", "GitHub" next to "github".
const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
// A server with no status yet sorts after every group.
const UNKNOWN_RANK = GROUPS.length;

/** The servers the table shows: those that match the search and the filter, in the chosen order. */
export function visibleServers(servers: readonly ServerSummary[], statuses: Statuses, triage: Triage): ServerSummary[] {
  const rank = (server: ServerSummary) => {
    const group = groupOf(statuses?.get(server.name));
    return group === null ? UNKNOWN_RANK : GROUPS.indexOf(group);
  };
  return servers
    .filter(
      (server) =>
        matchesQuery(server, triage.query) &&
        (triage.show === "all" || groupOf(statuses?.get(server.name)) === triage.show),
    )
    .sort((a, b) => (triage.sort === "status" ? rank(a) - rank(b) : 0) || byName.compare(a.name, b.name));
}
