// Query hook for one server's login facts (issuer, scopes, expiry; never a token), refreshed when its status changes.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { commands, events } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useBackendEvent } from "../../ipc/useBackendEvent";

/** Cache key of `server`'s login facts. */
export function loginStateKey(server: string) {
  return ["loginState", server] as const;
}

/**
 * The login of `server` (`null` when it does not use OAuth). A login, a logout or an expired session all change the
 * server's status, so each status change of this server refetches; nothing polls.
 */
export function useLoginState(server: string) {
  const queryClient = useQueryClient();
  useBackendEvent(
    events.serverStatusChanged,
    (change) => {
      if (change.server === server) void queryClient.invalidateQueries({ queryKey: loginStateKey(server) });
    },
    "server status changes",
  );
  return useQuery({ queryKey: loginStateKey(server), queryFn: () => call(commands.serverLoginState(server)) });
}
