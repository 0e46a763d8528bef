// The words for why a server's resources, prompts, log or facts cannot be shown right now, from its live status.
import type { ServerStatus } from "../../../../ipc/bindings";
import { revealHidden } from "../../revealHidden";

/** Why `what` cannot be shown for a server in `status`, and what brings them. */
export function notReadyText(status: ServerStatus | undefined, what: string): string {
  switch (status?.state) {
    case undefined:
      return `Plugboard has not heard from this server yet; its ${what} appear once it is ready.`;
    case "disabled":
      return `The server is turned off. Press Turn on above to see its ${what}.`;
    case "stopped":
      return `The server is disconnected. Connect it to see its ${what}.`;
    case "connecting":
      return `The server is connecting; its ${what} appear once it is ready.`;
    case "needsApproval":
      return `The server awaits your approval of what it runs, so it shows no ${what} yet: ${revealHidden(status.hint)}`;
    case "needsLogin":
      return `The server needs a login before it shows its ${what}: ${revealHidden(status.hint)}`;
    case "keychainLocked":
      return `The OS keychain holding its secrets is locked, so it shows no ${what} yet: ${revealHidden(status.hint)}`;
    case "reconnecting":
      return `The connection broke (${revealHidden(status.reason)}); Plugboard is reconnecting (attempt ${status.attempt}). Its ${what} appear once it is ready.`;
    case "failed":
      return `The server failed, so its ${what} cannot be shown: ${revealHidden(status.error)}`;
    case "ready":
      return `The server is ready.`;
  }
}
