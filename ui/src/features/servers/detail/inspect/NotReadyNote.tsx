// Says in words, as a status note, why a server's resources, prompts or log cannot be shown right now.
import type { ServerStatus } from "../../../../ipc/bindings";
import { notReadyText } from "./notReadyText";

/** Props for {@link NotReadyNote}. */
type NotReadyNoteProps = {
  /** The server's live status, or undefined while none has been reported. */
  status: ServerStatus | undefined;
  /** What the tab would show, in the plural: "resources", "prompts", … */
  what: string;
};

export default function NotReadyNote({ status, what }: NotReadyNoteProps) {
  return (
    <p role="status" className="rounded-md border border-line bg-surface px-4 py-3 text-sm text-muted wrap-anywhere">
      {notReadyText(status, what)}
    </p>
  );
}
