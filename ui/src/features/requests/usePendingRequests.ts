// The queue of servers' requests waiting for the person: those already waiting when the window opened (asked for
// once) plus each arrival, minus each withdrawal (answered, timed out, or cancelled by the server). It never polls.
import { useCallback, useEffect, useState } from "react";
import { commands, events, type PendingRequest } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useBackendEvent } from "../../ipc/useBackendEvent";

/** The waiting requests, oldest first, and a way to drop one the person just answered. */
export function usePendingRequests() {
  const [queue, setQueue] = useState<PendingRequest[]>([]);
  const add = useCallback((requests: PendingRequest[]) => {
    setQueue((waiting) => [...waiting, ...requests.filter((r) => !waiting.some((w) => w.id === r.id))]);
  }, []);
  const remove = useCallback((id: number) => setQueue((waiting) => waiting.filter((r) => r.id !== id)), []);

  useBackendEvent(events.pendingRequestArrived, ({ request }) => add([request]), "requests from servers");
  useBackendEvent(events.pendingRequestWithdrawn, ({ id }) => remove(id), "withdrawn requests");
  useEffect(() => {
    call(commands.pendingRequests()).then(add, (error: unknown) =>
      // Only requests made before the window opened are missed; new ones still arrive as events.
      console.error("Could not read the waiting requests", error),
    );
  }, [add]);

  return { queue, remove };
}
