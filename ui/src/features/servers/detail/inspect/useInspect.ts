// Query hooks that look inside a ready server (info, resources, templates, prompts); they refetch when the server
// connects again (each connection announces its tools) or says a list changed, and never poll. A server that is not
// ready is not asked.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { commands, events } from "../../../../ipc/bindings";
import { call } from "../../../../ipc/client";
import { type BackendEvent, useBackendEvent } from "../../../../ipc/useBackendEvent";

/** Cache key prefix of everything these hooks fetch about `server`. */
export function inspectQueryKey(server: string) {
  return ["inspect", server] as const;
}

/** Invalidates `server`'s looks whenever it (re)connects: a new session may offer other things. */
function useRefreshOnConnect(server: string) {
  const queryClient = useQueryClient();
  useBackendEvent(
    events.toolsChanged,
    (change) => {
      if (change.server === server) void queryClient.invalidateQueries({ queryKey: inspectQueryKey(server) });
    },
    "tool changes",
  );
}

/** Fetches `server`'s `list` again when `event` says that list changed (the server's `list_changed`, or an approval
 * that released an entry). */
function useRefreshOnListChanged(server: string, event: BackendEvent<{ server: string }>, list: string, what: string) {
  const queryClient = useQueryClient();
  useBackendEvent(
    event,
    (change) => {
      if (change.server === server) void queryClient.invalidateQueries({ queryKey: [...inspectQueryKey(server), list] });
    },
    what,
  );
}

/** What the server said about itself in `initialize`; only asked while it is `ready`. */
export function useServerInfo(server: string, ready: boolean) {
  useRefreshOnConnect(server);
  return useQuery({
    queryKey: [...inspectQueryKey(server), "info"],
    queryFn: () => call(commands.serverInfo(server)),
    enabled: ready,
  });
}

/** Every resource the server lists; only asked while it is `ready`. */
export function useResources(server: string, ready: boolean) {
  useRefreshOnConnect(server);
  useRefreshOnListChanged(server, events.resourcesChanged, "resources", "resource changes");
  return useQuery({
    queryKey: [...inspectQueryKey(server), "resources"],
    queryFn: () => call(commands.serverResources(server)),
    enabled: ready,
  });
}

/** Every resource template the server lists; only asked while it is `ready`. */
export function useResourceTemplates(server: string, ready: boolean) {
  useRefreshOnConnect(server);
  useRefreshOnListChanged(server, events.resourcesChanged, "templates", "resource changes");
  return useQuery({
    queryKey: [...inspectQueryKey(server), "templates"],
    queryFn: () => call(commands.serverResourceTemplates(server)),
    enabled: ready,
  });
}

/** Every prompt the server offers; only asked while it is `ready`. */
export function usePrompts(server: string, ready: boolean) {
  useRefreshOnConnect(server);
  useRefreshOnListChanged(server, events.promptsChanged, "prompts", "prompt changes");
  return useQuery({
    queryKey: [...inspectQueryKey(server), "prompts"],
    queryFn: () => call(commands.serverPrompts(server)),
    enabled: ready,
  });
}
