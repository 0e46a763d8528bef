// Query hook for one server's entry as JSON text (get_server), refetched whenever servers.json changes.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { commands } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { useConfigChanged } from "../../../ipc/useConfigChanged";

/** Cache key of a server's entry text. */
export function serverEntryQueryKey(server: string) {
  return ["serverEntry", server] as const;
}

/** The entry exactly as servers.json has it, pretty-printed; follows external edits live. Errors arrive as `IpcError`. */
export function useServerEntry(server: string) {
  const queryClient = useQueryClient();
  useConfigChanged(() => {
    void queryClient.invalidateQueries({ queryKey: serverEntryQueryKey(server) });
  });
  return useQuery({
    queryKey: serverEntryQueryKey(server),
    queryFn: () => call(commands.getServer(server)),
  });
}
