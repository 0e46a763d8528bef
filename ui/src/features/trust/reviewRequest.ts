// Which server the person asked to review (a row's or a page's Review button), for the approval dialog mounted once
// in the shell. A tiny store rather than a context: a button anywhere can ask, with no provider to forget.
import { useSyncExternalStore } from "react";

let asked: string | null = null;
const listeners = new Set<() => void>();

function set(server: string | null) {
  asked = server;
  for (const listener of listeners) listener();
}

/** Opens the approval dialog on `server`'s request, whatever was decided before. */
export function requestReview(server: string) {
  set(server);
}

/** Closes the review the person asked for. */
export function endReview() {
  set(null);
}

/** The server whose review the person asked for, if any. */
export function useReviewRequest(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => asked,
  );
}
