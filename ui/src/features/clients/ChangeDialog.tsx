// The dialog in front of every write to a client's file: it plans the change and shows the exact diff, writes only
// when the person confirms, and sends back the digest of what was shown, so a file changed meanwhile is never
// written unseen (the new change is shown instead). After writing it says what to do next in the client.
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { commands, type ChangePreview, type ChangeRequest } from "../../ipc/bindings";
import { IpcError, call } from "../../ipc/client";
import { useDialogFocus } from "../../shell/useDialogFocus";
import { changeTitle, confirmLabel, doneText } from "./changeText";
import DiffView from "./DiffView";
import { CLIENTS_QUERY_KEY } from "./useClients";

/** Props for {@link ChangeDialog}. */
type ChangeDialogProps = {
  request: ChangeRequest;
  /** The client's name, for the title before the plan arrives. */
  label: string;
  /** The control that opened the dialog: focus returns there. */
  opener: HTMLElement | null;
  onClose: () => void;
};

export default function ChangeDialog({ request, label, opener, onClose }: ChangeDialogProps) {
  const queryClient = useQueryClient();
  const focus = useDialogFocus(opener);
  // Set when the file changed under the diff shown: the new plan comes with a word about it.
  const [replanned, setReplanned] = useState(false);
  const plan = useQuery({
    queryKey: ["client-change-plan", request],
    queryFn: () => call(commands.planClientChange(request)),
    staleTime: 0,
    gcTime: 0,
  });
  const apply = useMutation({
    mutationFn: (shown: ChangePreview) => call(commands.applyClientChange(request, shown.digest)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CLIENTS_QUERY_KEY }),
    onError: (error) => {
      if (error instanceof IpcError && error.code === "ChangedOnDisk") {
        setReplanned(true);
        apply.reset();
        void plan.refetch();
      }
    },
  });
  const title = changeTitle(request.kind, plan.data?.label ?? label);

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          {...focus}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[88vh] w-[min(46rem,94vw)] -translate-x-1/2 -translate-y-1/2 flex-col gap-3 rounded-lg border border-line bg-surface p-5 text-sm text-fg shadow-xl"
        >
          <Dialog.Title className="text-base font-semibold">{title}</Dialog.Title>
          {plan.isPending && <p role="status">Reading the file…</p>}
          {plan.isError && <p role="alert">Nothing was changed: {plan.error.message}</p>}
          {plan.data && apply.isSuccess && <Done applied={apply.data} />}
          {plan.data && !apply.isSuccess && <Shown preview={plan.data} replanned={replanned} />}
          {apply.isError && !(apply.error instanceof IpcError && apply.error.code === "ChangedOnDisk") && (
            <p role="alert">Nothing was written: {apply.error.message}</p>
          )}
          <div className="flex justify-end gap-2 pt-1">
            {plan.data && (!plan.data.noop || plan.data.kind === "restore") && !apply.isSuccess && (
              <button
                type="button"
                data-autofocus
                disabled={apply.isPending || plan.isFetching}
                onClick={() => plan.data && apply.mutate(plan.data)}
                className="rounded-md bg-accent px-3 py-1.5 font-medium text-on-accent disabled:opacity-50"
              >
                {apply.isPending ? "Writing…" : plan.data.noop ? "Drop the backup" : confirmLabel(request.kind)}
              </button>
            )}
            <Dialog.Close className="rounded-md border border-line px-3 py-1.5 hover:bg-canvas">
              {apply.isSuccess || (plan.data?.noop && plan.data.kind !== "restore") ? "Close" : "Cancel"}
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The planned change: which file, the diff, what else moves. */
function Shown({ preview, replanned }: { preview: ChangePreview; replanned: boolean }) {
  if (preview.noop && preview.kind === "restore") {
    return (
      <Dialog.Description>
        <code className="font-mono break-all">{preview.path}</code> already holds what it held before Plugboard changed
        it: nothing to write. Dropping the backup ends the restore.
      </Dialog.Description>
    );
  }
  if (preview.noop) {
    return (
      <Dialog.Description>
        Nothing to change in <code className="font-mono break-all">{preview.path}</code>
        {preview.kind === "connect" ? `: ${preview.label} already launches this Plugboard.` : "."}
      </Dialog.Description>
    );
  }
  return (
    <>
      <Dialog.Description>
        {preview.creates ? "Plugboard will create " : preview.removes ? "Plugboard will remove " : "Plugboard will change "}
        <code className="font-mono break-all">{preview.path}</code>
        {preview.removes
          ? ": the client had no such file before Plugboard made it."
          : " exactly as shown, and nothing else in it. The file as it is now is kept as a backup."}
      </Dialog.Description>
      {replanned && (
        <p role="alert" className="rounded-md bg-warn-soft px-3 py-2">
          The file changed since you saw the change, so nothing was written. This is the change as it is now.
        </p>
      )}
      <DiffView diff={preview.diff} />
      {preview.moved.length > 0 && (
        <p>
          Also moved out of the file (Plugboard serves them, so the client would see them twice):{" "}
          {preview.moved.join(", ")}
        </p>
      )}
    </>
  );
}

/** Written: what happened and what to do next in the client. */
function Done({ applied }: { applied: ChangePreview }) {
  return (
    <div role="status" className="flex flex-col gap-2">
      <p>{doneText(applied.kind, applied.label)}</p>
      <p className="rounded-md bg-accent-soft px-3 py-2">
        <span className="font-medium">Next: </span>
        {applied.nextStep}.
      </p>
    </div>
  );
}
