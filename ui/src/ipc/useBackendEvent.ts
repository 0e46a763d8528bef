// Subscribes a component to one backend event for as long as it is mounted; it never polls and never leaks a listener.
import { useEffect, useEffectEvent } from "react";

/** The part of a generated `events.*` entry this hook needs (its `listen`). */
export type BackendEvent<T> = {
  listen: (callback: (event: { payload: T }) => void) => Promise<() => void>;
};

/**
 * Calls `onEvent` with each payload of `event`. Subscribes once per mount and unsubscribes on unmount, including
 * when unmount happens before Tauri has finished registering the listener (StrictMode's double mount does exactly
 * that). `what` names the event in the console message when subscribing fails, e.g. "config changes".
 */
export function useBackendEvent<T>(event: BackendEvent<T>, onEvent: (payload: T) => void, what: string) {
  // Always calls the latest `onEvent` without re-subscribing when the caller passes a new function each render.
  const handle = useEffectEvent(onEvent);

  useEffect(() => {
    let unlisten: (() => void) | undefined;
    let unmounted = false;
    event
      .listen((received) => handle(received.payload))
      .then((stop) => {
        if (unmounted) stop();
        else unlisten = stop;
      })
      .catch((error: unknown) => {
        // Without the listener the data only refreshes on remount; the page still works, so report and carry on.
        console.error(`Could not subscribe to ${what}`, error);
      });
    return () => {
      unmounted = true;
      unlisten?.();
    };
  }, [event, what]);
}
