// Query hooks of the console: the Ready servers, a server's allowed tools, the paged call history and one saved call.
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { commands, events, type ToolInfo } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useBackendEvent } from "../../ipc/useBackendEvent";
import { useServerStatuses } from "../servers/useServerStatuses";

/** How many history rows one callHistory request asks for. */
export const HISTORY_PAGE_SIZE = 200;

/** Prefix of every history cache key: invalidating it refreshes the list and the entries after a call or a clear. */
export const HISTORY_QUERY_KEY = ["callHistory"] as const;

/** The names of the servers that are Ready (the only ones a call can reach), sorted; undefined while loading. */
export function useReadyServers(): string[] | undefined {
  const statuses = useServerStatuses();
  if (statuses.data === undefined) return undefined;
  return [...statuses.data]
    .filter(([, status]) => status.state === "ready")
    .map(([server]) => server)
    .sort((a, b) => a.localeCompare(b));
}

/**
 * The tools of `server` that its allowlist lets through (the console calls only those), refetched when the
 * server's tools are discovered again. Disabled while no server is picked.
 */
export function useAllowedTools(server: string | null) {
  const queryClient = useQueryClient();
  useBackendEvent(
    events.toolsChanged,
    (change) => void queryClient.invalidateQueries({ queryKey: ["consoleTools", change.server] }),
    "tool changes",
  );
  return useQuery({
    queryKey: ["consoleTools", server],
    queryFn: () => call(commands.serverTools(server ?? "")),
    enabled: server !== null,
    select: allowedOnly,
  });
}

// Module-level so TanStack Query memoises the filtered list until the cached one changes.
function allowedOnly(tools: ToolInfo[]): ToolInfo[] {
  return tools.filter((tool) => tool.allowed);
}

/**
 * The call history matching `query`, newest first, fetched a page at a time: each next page asks for the rows
 * older than the last one loaded (beforeId).
 */
export function useHistoryPages(query: string) {
  return useInfiniteQuery({
    queryKey: [...HISTORY_QUERY_KEY, "pages", query],
    queryFn: ({ pageParam }) => call(commands.callHistory(query, pageParam, HISTORY_PAGE_SIZE)),
    initialPageParam: null as number | null,
    getNextPageParam: (last) =>
      last.entries.length < HISTORY_PAGE_SIZE ? undefined : (last.entries[last.entries.length - 1]?.id ?? undefined),
  });
}

/** One saved call (arguments, outcome, CLI command); disabled while none is selected. */
export function useHistoryEntry(id: number | null) {
  return useQuery({
    queryKey: [...HISTORY_QUERY_KEY, "entry", id],
    queryFn: () => call(commands.historyEntry(id ?? 0)),
    enabled: id !== null,
  });
}
