// What the Clients screen says about one client: its state (not found, found, connected, stale, error) and whether
// it is over its tool budget, from the ClientStatus the backend sends. Pure, so the wording is tested in one place.
import type { ClientStatus } from "../../ipc/bindings";

/** The one state a client is shown in. */
export type ClientState = "notFound" | "found" | "connected" | "stale" | "error";

/** The client's state: an unreadable file first, then its entry, then whether any of its files exists. */
export function clientState(status: ClientStatus): ClientState {
  if (status.problem !== null) return "error";
  switch (status.connection.state) {
    case "current":
      return "connected";
    case "stale":
      return "stale";
    case "notConnected":
      return status.lookedAt.some((place) => place.found) ? "found" : "notFound";
  }
}

/** The badge text of a state. */
export const STATE_LABELS: Record<ClientState, string> = {
  notFound: "Not found",
  found: "Found",
  connected: "Connected",
  stale: "Stale",
  error: "Cannot read",
};

/** The profile its entry names, when connected with one. */
export function connectedProfile(status: ClientStatus): string | null {
  return status.connection.state === "current" ? status.connection.profile : null;
}

/** "12 tools" / "1 tool". */
export function toolCount(count: number): string {
  return `${count} ${count === 1 ? "tool" : "tools"}`;
}
