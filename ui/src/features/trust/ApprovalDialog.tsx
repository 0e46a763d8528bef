// The batched approval dialog, over any page: every server whose launch definition (or origin) was never decided —
// added in the window, imported, from a preset, or written into servers.json by another program — with the exact
// command line and what deserves a second look; or the one server the person asked to review (refused ones too).
// Each is approved or refused by the digest of exactly what was shown. "Not now" leaves them waiting.
import * as Dialog from "@radix-ui/react-dialog";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { commands, type ApprovalRequest, type Decision } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useDialogFocus } from "../../shell/useDialogFocus";
import ApprovalCard from "./ApprovalCard";
import { endReview, useReviewRequest } from "./reviewRequest";
import { PENDING_APPROVALS_QUERY_KEY, usePendingApprovals } from "./usePendingApprovals";

export default function ApprovalDialog() {
  const pending = usePendingApprovals();
  const reviewing = useReviewRequest();
  // What "Not now" put aside, by digest: a changed definition asks again.
  const [later, setLater] = useState<ReadonlySet<string>>(new Set());
  const shown = (pending.data ?? []).filter((request) =>
    reviewing === null ? request.decision === null && !later.has(request.digest) : request.server === reviewing,
  );
  if (shown.length === 0) return null;
  const notNow = () => {
    setLater((before) => new Set([...before, ...shown.map((request) => request.digest)]));
    endReview();
  };
  return <Requests requests={shown} onNotNow={notNow} />;
}

/** Props for {@link Requests}. */
type RequestsProps = {
  requests: ApprovalRequest[];
  /** Closes the dialog, leaving the requests waiting. */
  onNotNow: () => void;
};

function Requests({ requests, onNotNow }: RequestsProps) {
  const queryClient = useQueryClient();
  const focus = useDialogFocus();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const decide = async (chosen: ApprovalRequest[], decision: Decision) => {
    setBusy(true);
    setProblem(null);
    try {
      for (const request of chosen) await call(commands.decideApproval(request.server, request.digest, decision));
      endReview();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: PENDING_APPROVALS_QUERY_KEY });
    }
  };
  const count = requests.length;

  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          {...focus}
          onEscapeKeyDown={onNotNow}
          onInteractOutside={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[85vh] w-[min(40rem,92vw)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg border border-line bg-surface text-sm text-fg shadow-xl"
        >
          <div className="flex shrink-0 flex-col gap-1 px-5 pt-5 pb-3">
            <Dialog.Title className="text-base font-semibold">
              {count === 1 ? "Approve what this server runs?" : `Approve what these ${count} servers run?`}
            </Dialog.Title>
            <Dialog.Description className="text-muted">
              Nothing runs, and no secret is sent, until you approve it. Approve only what you recognise: a changed
              command asks again.
            </Dialog.Description>
          </div>
          <div className="flex min-h-0 flex-col gap-3 overflow-y-auto px-5 pb-3">
            {requests.map((request) => (
              <ApprovalCard key={request.digest} request={request}>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void decide([request], "approved")}
                  className="rounded-md border border-accent/60 px-2.5 py-0.5 text-accent hover:bg-accent-soft disabled:opacity-60"
                >
                  Approve <span className="sr-only">{request.server}</span>
                </button>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void decide([request], "refused")}
                  className="rounded-md border border-line px-2.5 py-0.5 hover:bg-canvas disabled:opacity-60"
                >
                  Refuse <span className="sr-only">{request.server}</span>
                </button>
              </ApprovalCard>
            ))}
          </div>
          <div className="flex shrink-0 flex-wrap items-center justify-end gap-2 border-t border-line px-5 py-3">
            {problem !== null && (
              <p role="alert" className="mr-auto text-danger wrap-anywhere">
                Could not record the decision: {problem}
              </p>
            )}
            <button type="button" onClick={onNotNow} className="px-2.5 py-1 hover:underline">
              Not now
            </button>
            {count > 1 && (
              <button
                type="button"
                disabled={busy}
                onClick={() => void decide(requests, "approved")}
                className="rounded-md bg-accent px-3 py-1 font-medium text-on-accent hover:opacity-90 disabled:opacity-60"
              >
                Approve all {count}
              </button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
