// Query hook for the configured servers (list_servers); the only way the UI reads that list.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useConfigChanged } from "../../ipc/useConfigChanged";

/** Cache key of the server list; invalidate it after anything that changes the config. */
export const SERVERS_QUERY_KEY = ["servers"] as const;

/**
 * The config file path, the servers it declares, the entries that need fixing and any problem reading the file.
 * Refetches whenever the backend reports that servers.json changed (no polling). Errors arrive as `IpcError`.
 */
export function useServers() {
  const queryClient = useQueryClient();
  useConfigChanged(() => {
    void queryClient.invalidateQueries({ queryKey: SERVERS_QUERY_KEY });
  });
  return useQuery({
    queryKey: SERVERS_QUERY_KEY,
    queryFn: () => call(commands.listServers()),
  });
}
