// Query hook for every server's live status (server_statuses), kept fresh by serverStatusChanged; it never polls.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { commands, events, type ServerStatus, type ServerStatusChanged, type ServerStatusEntry } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useBackendEvent } from "../../ipc/useBackendEvent";

/** Cache key of the live statuses; the serverStatusChanged event writes into it directly. */
export const SERVER_STATUSES_QUERY_KEY = ["serverStatuses"] as const;

/**
 * Every server's live status, as a map from server name to status (a server without an entry has none yet).
 * Fetched once; afterwards each serverStatusChanged event replaces that one server's entry in the cache, so a
 * status change never refetches the list. Errors arrive as `IpcError`.
 */
export function useServerStatuses() {
  const queryClient = useQueryClient();
  useBackendEvent(
    events.serverStatusChanged,
    (change) => {
      queryClient.setQueryData<ServerStatusEntry[]>(SERVER_STATUSES_QUERY_KEY, (entries) => withStatus(entries, change));
    },
    "server status changes",
  );
  return useQuery({
    queryKey: SERVER_STATUSES_QUERY_KEY,
    queryFn: () => call(commands.serverStatuses()),
    select: byServer,
  });
}

/**
 * `entries` with `change.server`'s status replaced (or appended, for a server the list did not have yet).
 * Before the first fetch has answered there is nothing to update: the fetch brings the current statuses anyway.
 */
export function withStatus(
  entries: ServerStatusEntry[] | undefined,
  change: ServerStatusChanged,
): ServerStatusEntry[] | undefined {
  if (entries === undefined) return undefined;
  const entry = { server: change.server, status: change.status };
  if (!entries.some((existing) => existing.server === change.server)) return [...entries, entry];
  return entries.map((existing) => (existing.server === change.server ? entry : existing));
}

// Module-level so TanStack Query memoises the map until the cached list itself changes.
function byServer(entries: ServerStatusEntry[]): ReadonlyMap<string, ServerStatus> {
  return new Map(entries.map((entry) => [entry.server, entry.status]));
}
