// The words of a change to a client's file: the dialog's title, its confirm button, and what was done.
import type { ChangeKind } from "../../ipc/bindings";

/** The dialog's title, e.g. "Connect Cursor". */
export function changeTitle(kind: ChangeKind, label: string): string {
  switch (kind) {
    case "connect":
      return `Connect ${label}`;
    case "disconnect":
      return `Disconnect ${label}`;
    case "restore":
      return `Restore ${label}'s file`;
  }
}

/** The confirm button: it says that it writes. */
export function confirmLabel(kind: ChangeKind): string {
  switch (kind) {
    case "connect":
      return "Write this change";
    case "disconnect":
      return "Remove the entry";
    case "restore":
      return "Put the old file back";
  }
}

/** What happened, once written. */
export function doneText(kind: ChangeKind, label: string): string {
  switch (kind) {
    case "connect":
      return `${label} is connected to Plugboard. Its previous file is kept: Restore puts it back.`;
    case "disconnect":
      return `${label} no longer launches Plugboard.`;
    case "restore":
      return `${label}'s file is as it was before Plugboard changed it.`;
  }
}
