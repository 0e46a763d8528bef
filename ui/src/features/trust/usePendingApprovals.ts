// Query hook for the servers whose launch definition (or origin) awaits the person's approval, refreshed when a
// server starts or stops waiting for one or servers.json changes; it never polls.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { commands, events, type ApprovalRequest } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useBackendEvent } from "../../ipc/useBackendEvent";

/** Cache key of the pending approvals; a decision invalidates it. */
export const PENDING_APPROVALS_QUERY_KEY = ["pendingApprovals"] as const;

/** Every enabled server whose current definition is not approved (new, changed, or refused before). */
export function usePendingApprovals() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: PENDING_APPROVALS_QUERY_KEY });
  useBackendEvent(
    events.serverStatusChanged,
    ({ server, status }) => {
      // A server starts waiting, or one that waited moves on (approved here or in another process).
      const waited = queryClient
        .getQueryData<ApprovalRequest[]>(PENDING_APPROVALS_QUERY_KEY)
        ?.some((request) => request.server === server);
      if (status.state === "needsApproval" || waited === true) refresh();
    },
    "servers awaiting approval",
  );
  useBackendEvent(events.configChanged, refresh, "config changes");
  return useQuery({ queryKey: PENDING_APPROVALS_QUERY_KEY, queryFn: () => call(commands.pendingApprovals()) });
}
