// Turns a failed save into a sentence for the person: what happened and what to do next.
import { IpcError } from "../../../ipc/client";
import { revealHidden } from "../revealHidden";

/** Why saving failed, in words; `what` names what was being saved ("the allowlist", "the entry"). */
export function saveErrorText(error: Error, what: string): string {
  if (!(error instanceof IpcError)) return `Couldn't save ${what}: ${revealHidden(error.message)}`;
  switch (error.detail.code) {
    case "ChangedOnDisk":
      return `Couldn't save ${what}: another program changed servers.json while you were editing. Plugboard has loaded the new version; look it over and save again.`;
    case "InvalidConfig":
      return `Couldn't save ${what}: ${error.detail.field === null ? "" : `${revealHidden(error.detail.field)}: `}${revealHidden(error.detail.message)}`;
    case "NotFound":
      return `Couldn't save ${what}: the server is no longer in servers.json (it was removed or renamed).`;
    default:
      return `Couldn't save ${what}: ${revealHidden(error.detail.message)}`;
  }
}
