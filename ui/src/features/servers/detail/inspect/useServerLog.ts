// Query hook for one server's log: the history the backend keeps (server_log), then each ServerMessaged event for
// that server appended in place, so the page shows what came before it opened and stays live without polling.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { commands, events, type ServerLogEntry, type ServerMessaged } from "../../../../ipc/bindings";
import { call } from "../../../../ipc/client";
import { useBackendEvent } from "../../../../ipc/useBackendEvent";

/** The most lines kept on screen: the backend keeps 500; live lines beyond that drop off the top here too. */
export const MAX_LOG_LINES = 2000;

/** Cache key of a server's log. */
export function serverLogQueryKey(server: string) {
  return ["serverLog", server] as const;
}

/** The server's log lines, oldest first, kept live by ServerMessaged. Errors arrive as `IpcError`. */
export function useServerLog(server: string) {
  const queryClient = useQueryClient();
  useBackendEvent(
    events.serverMessaged,
    (line) => {
      if (line.server !== server) return;
      const key = serverLogQueryKey(server);
      const lines = queryClient.getQueryData<ServerLogEntry[]>(key);
      // Before the history has arrived there is nothing to add to; the history includes the line (or is older).
      if (lines === undefined) return;
      const merged = withLine(lines, line);
      if (merged === null) void queryClient.invalidateQueries({ queryKey: key });
      else if (merged !== lines) queryClient.setQueryData(key, merged);
    },
    "server messages",
  );
  return useQuery({ queryKey: serverLogQueryKey(server), queryFn: () => call(commands.serverLog(server)) });
}

/**
 * `lines` with `line` appended when it is new; `lines` itself when it is already there; null when its number is
 * behind the history without being in it (the server was removed and added again: the history must be fetched anew).
 */
export function withLine(lines: readonly ServerLogEntry[], line: ServerMessaged): ServerLogEntry[] | null {
  const last = lines.at(-1);
  const entry: ServerLogEntry = { seq: line.seq, atMs: line.atMs, level: line.level, logger: line.logger, message: line.message };
  if (last === undefined || line.seq > last.seq) {
    const next = [...lines, entry];
    return next.length > MAX_LOG_LINES ? next.slice(next.length - MAX_LOG_LINES) : next;
  }
  return lines.some((kept) => kept.seq === line.seq) ? (lines as ServerLogEntry[]) : null;
}
