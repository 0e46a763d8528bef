// Query hooks of the Clients screen: every client's status (re-read after any change to a client's file or to
// servers.json, whose servers and profiles the budget counts), and choosing a client's tool limit.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useConfigChanged } from "../../ipc/useConfigChanged";

/** Cache key of the clients' statuses. */
export const CLIENTS_QUERY_KEY = ["clients"] as const;

/** Every client Plugboard can connect, with its files, connection and tool budget. */
export function useClients() {
  const queryClient = useQueryClient();
  // A profile edited in servers.json changes what each client would see.
  useConfigChanged(() => void queryClient.invalidateQueries({ queryKey: CLIENTS_QUERY_KEY }));
  return useQuery({ queryKey: CLIENTS_QUERY_KEY, queryFn: () => call(commands.listClients()) });
}

/** Chooses `client`'s tool limit (`null`: the one it documents), then reads the statuses again. */
export function useChooseLimit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ client, limit }: { client: string; limit: number | null }) =>
      call(commands.chooseClientLimit(client, limit)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CLIENTS_QUERY_KEY }),
  });
}
