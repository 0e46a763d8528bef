// A server asking the person to open a page (elicitation, URL mode): the whole address is shown as text with its site
// picked out, never as a link and never fetched; only "Open in browser" opens it, in the person's own browser (the
// backend does it, so this window never loads the page). The site is what to check, so it is said again in words.
import { TriangleAlert } from "lucide-react";
import { commands, type RequestKind } from "../../ipc/bindings";
import CopyButton from "../../shell/CopyButton";
import { revealHidden } from "../servers/revealHidden";
import AnswerFooter from "./AnswerFooter";
import { DIALOG_BODY } from "./layout";
import type { Answer } from "./RequestDialog";

type OpenLink = Extract<RequestKind, { kind: "openLink" }>;

/**
 * @param id the request's id, for the answer.
 * @param ask the server's message and the vetted link, split around its site.
 * @param answer sends the answer (see RequestDialog).
 * @param sending whether an answer is on its way (buttons disabled).
 */
export default function LinkForm({ id, ask, answer, sending }: { id: number; ask: OpenLink; answer: Answer; sending: boolean }) {
  const { link } = ask;
  return (
    <form
      className="flex min-h-0 flex-1 flex-col"
      onSubmit={(event) => {
        event.preventDefault();
        void answer(() => commands.answerLink(id, "accept"));
      }}
    >
      <div className={DIALOG_BODY}>
        <p className="whitespace-pre-wrap wrap-anywhere">{revealHidden(ask.message)}</p>
        {/* The dialog opens on the address, not on "Open in browser": a server chose when it appears, and an Enter
            typed for something else must not open a page. */}
        <section
          aria-label="Address"
          tabIndex={-1}
          data-autofocus
          className="flex flex-col gap-2 rounded-md border border-line px-3 py-2 focus:outline-none"
        >
          <p className="text-xs text-muted">
            Opening it shows the page in your browser, where the server can take you through a step Plugboard does
            not see. Check the site first:
          </p>
          <p className="font-mono text-sm break-all" data-testid="link-address">
            <span className="text-muted">{link.start}</span>
            <strong className="rounded bg-accent-soft px-0.5 font-semibold text-fg">{link.site}</strong>
            <span className="text-muted">{revealHidden(link.rest)}</span>
          </p>
          <p>
            Site: <strong data-testid="link-site">{link.site}</strong>
          </p>
          {link.cautions.map((caution) => (
            <p key={caution} className="flex items-start gap-1 text-warn">
              <TriangleAlert size={14} aria-hidden="true" className="mt-0.5 shrink-0" />
              {caution}
            </p>
          ))}
          <div className="self-start">
            <CopyButton label="Copy address" text={() => link.url} fallbackLabel="The address, to copy" />
          </div>
        </section>
      </div>
      <AnswerFooter
        submitLabel="Open in browser"
        onDecline={() => void answer(() => commands.answerLink(id, "decline"))}
        onCancel={() => void answer(() => commands.answerLink(id, "cancel"))}
        sending={sending}
      />
    </form>
  );
}
