// The plugboard:// links Plugboard turned away, as dismissible notices above every page: those refused while the
// window runs (an event) and those the app was started with (asked for once, as they came before the page could
// listen). The reason is the backend's fixed text (nothing from the link is echoed), still shown as inert text.
import { ShieldAlert, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { commands, events } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useBackendEvent } from "../../ipc/useBackendEvent";
import { revealHidden } from "../servers/revealHidden";

/** At most this many notices stay; a flood of links (any local program can send them) cannot fill the window. */
const MAX_NOTICES = 3;

/** One refused link. */
type Notice = { id: number; reason: string };

export default function DeepLinkBanner() {
  const [notices, setNotices] = useState<Notice[]>([]);
  // Ids for React keys only; a ref, so two links in one tick still get distinct ones.
  const nextId = useRef(0);
  const add = (reasons: string[]) => {
    const added = reasons.map((reason) => ({ id: nextId.current++, reason }));
    setNotices((shown) => [...shown, ...added].slice(-MAX_NOTICES));
  };
  useBackendEvent(events.deepLinkRejected, ({ reason }) => add([reason]), "refused links");
  useEffect(() => {
    call(commands.missedDeepLinkRejections()).then(
      (missed) => add(missed.map(({ reason }) => reason)),
      // Only the notices of a cold start are lost; the app works on.
      (error: unknown) => console.error("Could not read the refused links of the start", error),
    );
    // Once per mount: the backend hands each missed refusal out once.
  }, []);

  // The live region is always present, so a notice added to it is announced.
  return (
    <div role="status" aria-label="Refused links" className="empty:hidden">
      {notices.map((notice) => (
        <div
          key={notice.id}
          className="mb-3 flex items-start gap-2 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm"
        >
          <ShieldAlert size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-danger" />
          <p className="min-w-0 flex-1 wrap-anywhere">
            {/* The reason is a whole sentence that says what was refused ("A login link was refused: …"). */}
            {revealHidden(notice.reason)}
          </p>
          <button
            type="button"
            onClick={() => setNotices((shown) => shown.filter((other) => other.id !== notice.id))}
            className="rounded p-0.5 text-muted hover:text-fg"
            aria-label="Dismiss this notice"
          >
            <X size={14} aria-hidden="true" />
          </button>
        </div>
      ))}
    </div>
  );
}
