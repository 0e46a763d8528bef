// Query hook for the configured servers (list_servers); the only way the UI reads that list.
import { useQuery } from "@tanstack/react-query";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";

/** Cache key of the server list; invalidate it after anything that changes the config. */
export const SERVERS_QUERY_KEY = ["servers"] as const;

/** The config file path and the servers it declares. Errors arrive as `IpcError`. */
export function useServers() {
  return useQuery({
    queryKey: SERVERS_QUERY_KEY,
    queryFn: () => call(commands.listServers()),
  });
}
