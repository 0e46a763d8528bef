// Subscribes a component to the backend's configChanged event for as long as it is mounted; it never polls.
import { events, type ConfigChanged } from "./bindings";
import { useBackendEvent } from "./useBackendEvent";

/**
 * Calls `onChange` every time servers.json is saved by Plugboard, edited by another program, or stops parsing.
 * Subscribes once per mount and unsubscribes on unmount (see {@link useBackendEvent}).
 */
export function useConfigChanged(onChange: (change: ConfigChanged) => void) {
  useBackendEvent(events.configChanged, onChange, "config changes");
}
