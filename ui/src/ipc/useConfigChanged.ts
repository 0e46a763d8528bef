// Subscribes a component to the backend's configChanged event for as long as it is mounted; it never polls.
import { useEffect, useEffectEvent } from "react";
import { events, type ConfigChanged } from "./bindings";

/**
 * Calls `onChange` every time servers.json is saved by Plugboard, edited by another program, or stops parsing.
 * Subscribes once per mount and unsubscribes on unmount, including when unmount happens before Tauri has finished
 * registering the listener (StrictMode's double mount does exactly that).
 */
export function useConfigChanged(onChange: (change: ConfigChanged) => void) {
  // Always calls the latest `onChange` without re-subscribing when the caller passes a new function each render.
  const handle = useEffectEvent(onChange);

  useEffect(() => {
    let unlisten: (() => void) | undefined;
    let unmounted = false;
    events.configChanged
      .listen((event) => handle(event.payload))
      .then((stop) => {
        if (unmounted) stop();
        else unlisten = stop;
      })
      .catch((error: unknown) => {
        // Without the listener the list only refreshes on remount; the page still works, so report and carry on.
        console.error("Could not subscribe to config changes", error);
      });
    return () => {
      unmounted = true;
      unlisten?.();
    };
  }, []);
}
