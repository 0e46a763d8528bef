// The words for a server's live status, e.g. "Ready · 13 tools"; the badge shows them next to an icon.
import type { ServerStatus } from "../../ipc/bindings";

/**
 * The status in words, never relying on colour: "Connecting…", "Ready · 13 tools", "Needs approval", "Refused", "Needs login",
 * "Keychain locked", "Reconnecting (attempt 2) · next try in 1.0 s", "Failed", "Stopped" or "Disabled".
 * The retry delay is as the backend reported it when the state began; it does not count down.
 */
export function statusText(status: ServerStatus): string {
  switch (status.state) {
    case "disabled":
      return "Disabled";
    case "stopped":
      return "Stopped";
    case "connecting":
      return "Connecting…";
    case "needsApproval":
      return status.refused ? "Refused" : "Needs approval";
    case "needsLogin":
      return "Needs login";
    case "keychainLocked":
      return "Keychain locked";
    case "ready":
      return `Ready · ${status.tools} ${status.tools === 1 ? "tool" : "tools"}`;
    case "reconnecting":
      return `Reconnecting (attempt ${status.attempt}) · next try in ${(status.nextTryMs / 1000).toFixed(1)} s`;
    case "failed":
      return "Failed";
  }
}
