// One server request as a modal dialog: who asks, what for, and the answer controls of its kind (a body that scrolls,
// a footer of buttons that stays in view). Escape declines; a click outside does nothing (the person must choose).
// Server text is shown inert, hidden characters revealed.
import * as Dialog from "@radix-ui/react-dialog";
import { lazy, Suspense, useState } from "react";
import { commands, type PendingRequest } from "../../ipc/bindings";
import { call, IpcError, type CommandResult } from "../../ipc/client";
import { useDialogFocus } from "../../shell/useDialogFocus";
import { revealHidden } from "../servers/revealHidden";
import LinkForm from "./LinkForm";
import RootsForm from "./RootsForm";
import SamplingForm from "./SamplingForm";

// The form generator (rjsf and its validator, the largest part of the dialogs' script) loads with the first form a
// server sends, not with the window.
const ElicitationForm = lazy(() => import("./ElicitationForm"));

/** Sends one answer; resolves when it is taken (or the request is already gone). */
export type Answer = (send: () => Promise<CommandResult<null>>) => Promise<void>;

const TITLES: Record<PendingRequest["ask"]["kind"], string> = {
  elicitation: "asks for information",
  sampling: "asks for a message",
  roots: "asks which folders it may use",
  openLink: "asks you to open a page",
};

/**
 * @param request the request shown.
 * @param others how many more requests wait behind it.
 * @param onDone called once the request is answered (or gone), to show the next one.
 */
export default function RequestDialog({
  request,
  others,
  onDone,
}: {
  request: PendingRequest;
  others: number;
  onDone: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // Opened by a server, not a button: it opens on its first field and gives the focus back to where it was.
  const focus = useDialogFocus();

  const answer: Answer = async (send) => {
    setSending(true);
    setProblem(null);
    try {
      await call(send());
      onDone();
    } catch (error) {
      if (error instanceof IpcError && error.code === "NotFound") onDone();
      else setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };
  const decline = () => {
    const { id, ask } = request;
    if (ask.kind === "elicitation") return answer(() => commands.answerElicitation(id, "decline", null));
    if (ask.kind === "sampling") return answer(() => commands.answerSampling(id, null));
    if (ask.kind === "openLink") return answer(() => commands.answerLink(id, "decline"));
    return answer(() => commands.answerRoots(id, null));
  };

  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          {...focus}
          // The body differs by kind (a form, messages, a list), so no single description fits.
          aria-describedby={undefined}
          onEscapeKeyDown={(event) => {
            event.preventDefault();
            void decline();
          }}
          onInteractOutside={(event) => event.preventDefault()}
          // No scrolling here: each kind's body scrolls between this header and its footer of answer buttons.
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[85vh] w-[min(36rem,92vw)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg border border-line bg-surface text-sm text-fg shadow-xl"
        >
          <div className="flex shrink-0 flex-col gap-1 px-5 pt-5 pb-3">
            <Dialog.Title className="text-base font-semibold wrap-anywhere">
              {revealHidden(request.server)} {TITLES[request.ask.kind]}
            </Dialog.Title>
            {others > 0 && (
              <p className="text-xs text-muted">
                {others} more {others === 1 ? "request is" : "requests are"} waiting after this one.
              </p>
            )}
          </div>
          {request.ask.kind === "elicitation" && (
            <Suspense
              fallback={
                // Where the dialog's first focus goes until the form is there (ElicitationForm takes it on).
                <p data-autofocus tabIndex={-1} className="px-5 pb-5 text-sm text-muted">
                  Loading the form…
                </p>
              }
            >
              <ElicitationForm id={request.id} ask={request.ask} answer={answer} sending={sending} />
            </Suspense>
          )}
          {request.ask.kind === "sampling" && (
            <SamplingForm id={request.id} ask={request.ask} answer={answer} sending={sending} />
          )}
          {request.ask.kind === "roots" && <RootsForm id={request.id} answer={answer} sending={sending} />}
          {request.ask.kind === "openLink" && (
            <LinkForm id={request.id} ask={request.ask} answer={answer} sending={sending} />
          )}
          {problem && (
            <p role="alert" className="mx-5 mb-4 shrink-0 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 wrap-anywhere">
              {revealHidden(problem)}
            </p>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
