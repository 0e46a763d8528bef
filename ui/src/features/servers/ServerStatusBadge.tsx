// One server's live status as an icon plus words (never colour alone); every server-supplied string stays plain text.
import { useId } from "react";
import type { ServerStatus } from "../../ipc/bindings";
import { protocolLabel } from "./protocol";
import { revealHidden } from "./revealHidden";
import { sentenceStart } from "./sentenceStart";
import { STATUS_LOOK } from "./statusLook";
import { statusText } from "./statusText";

/** Props for {@link ServerStatusBadge}. */
type ServerStatusBadgeProps = {
  /** The server's live status, or undefined while the backend has not reported one. */
  status: ServerStatus | undefined;
};

export default function ServerStatusBadge({ status }: ServerStatusBadgeProps) {
  const noteId = useId();
  if (status === undefined) {
    return (
      <span className="text-muted">
        <span aria-hidden="true">—</span>
        <span className="sr-only">No status yet</span>
      </span>
    );
  }

  const look = STATUS_LOOK[status.state];
  const Icon = look.icon;
  // The login hint and the reason for reconnecting are shown as text too: a tooltip alone is out of keyboard reach.
  const note = noteFor(status);
  return (
    <>
      <span
        // Only "Connecting…" is announced as it happens; the other states are settled facts, read on demand.
        role={status.state === "connecting" ? "status" : undefined}
        title={note ?? titleFor(status)}
        aria-describedby={note === undefined ? undefined : noteId}
        className={`inline-flex items-start gap-1.5 ${look.className}`}
      >
        <Icon size={14} aria-hidden="true" className={`mt-[3px] shrink-0 ${look.spin ? "animate-spin" : ""}`} />
        <span>{statusText(status)}</span>
      </span>
      {note !== undefined && (
        <p id={noteId} className="mt-0.5 text-xs text-muted wrap-anywhere">
          {note}
        </p>
      )}
    </>
  );
}

/** The server-supplied sentence that explains a state, with hidden characters made visible. */
function noteFor(status: ServerStatus): string | undefined {
  if (status.state === "needsLogin" || status.state === "keychainLocked") return revealHidden(status.hint);
  // Why the connection broke, shown on its own line: a sentence, whatever case the backend started it in.
  if (status.state === "reconnecting") return revealHidden(sentenceStart(status.reason));
  return undefined;
}

/** Extra detail for the tooltip of a ready server: what it calls itself and the protocol version and era it speaks. */
function titleFor(status: ServerStatus): string | undefined {
  if (status.state !== "ready") return undefined;
  const name = status.serverName === null ? "" : `${revealHidden(status.serverName)} · `;
  return `${name}${protocolLabel(revealHidden(status.protocolVersion))}`;
}
