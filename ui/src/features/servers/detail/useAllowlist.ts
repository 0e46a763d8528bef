// Query hook for one server's allowlist and tools (server_allowlist), kept fresh by backend events; it never polls.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { commands, events } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { useBackendEvent } from "../../../ipc/useBackendEvent";
import { useConfigChanged } from "../../../ipc/useConfigChanged";

/** Cache key of a server's allowlist view. */
export function allowlistQueryKey(server: string) {
  return ["allowlist", server] as const;
}

/**
 * The server's allowlist as its running config has it, with every tool it offers (exposed names included).
 * Refetches when servers.json changes, when the server's tools are discovered again and when its status changes
 * (a restart after a save clears and then rediscovers the tools). Errors arrive as `IpcError`.
 */
export function useAllowlist(server: string) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: allowlistQueryKey(server) });
  useConfigChanged(refresh);
  useBackendEvent(events.toolsChanged, (change) => change.server === server && refresh(), "tool changes");
  useBackendEvent(events.serverStatusChanged, (change) => change.server === server && refresh(), "status changes");
  return useQuery({
    queryKey: allowlistQueryKey(server),
    queryFn: () => call(commands.serverAllowlist(server)),
  });
}
