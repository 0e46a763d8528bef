// "Remove" for a server on the Servers list, asked twice: the first press asks to confirm (with what removing does),
// the second removes its entry and deletes its secrets. It must never remove on a single press.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { revealHidden } from "./revealHidden";
import { SERVERS_QUERY_KEY } from "./useServers";

/** Props for {@link RemoveServerAction}. */
type RemoveServerActionProps = {
  /** The server to remove: what remove_server takes and part of each button's accessible name. */
  server: string;
};

export default function RemoveServerAction({ server }: RemoveServerActionProps) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  const remove = useMutation({
    mutationFn: () => call(commands.removeServer(server)),
    // The config-changed event refreshes the list too; invalidating here keeps the row from lingering until it comes.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVERS_QUERY_KEY }),
    onSettled: () => setAsking(false),
  });

  // Keep takes the focus, so a second Enter never removes by accident.
  useEffect(() => {
    if (asking) keep.current?.focus();
  }, [asking]);

  if (asking) {
    return (
      <div
        role="group"
        aria-label={`Confirm removing ${server}`}
        onKeyDown={(event) => {
          if (event.key === "Escape") setAsking(false);
        }}
        className="mt-1.5 rounded-md border border-line bg-canvas p-2 text-xs"
      >
        <p className="mb-1.5">Remove it from servers.json and delete its secrets?</p>
        <div className="flex flex-wrap gap-1.5">
          <button
            type="button"
            onClick={() => remove.mutate()}
            // Named by aria-label, not hidden text: the row already shows the name as text once.
            aria-label={`Remove ${server} now`}
            className="rounded-md border border-danger/50 bg-surface px-2 py-0.5 text-danger hover:bg-danger-soft"
          >
            Remove
          </button>
          <button
            ref={keep}
            type="button"
            onClick={() => setAsking(false)}
            className="rounded-md border border-line bg-surface px-2 py-0.5 hover:bg-canvas"
          >
            Keep
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="mt-1.5">
      <button
        type="button"
        onClick={remove.isPending ? undefined : () => setAsking(true)}
        aria-disabled={remove.isPending}
        aria-label={`Remove ${server}`}
        className="inline-flex items-center gap-1.5 rounded-md px-1 text-xs text-muted whitespace-nowrap hover:text-danger aria-disabled:opacity-60"
      >
        {remove.isPending ? (
          <LoaderCircle size={12} aria-hidden="true" className="animate-spin" />
        ) : (
          <Trash2 size={12} aria-hidden="true" />
        )}
        Remove
      </button>
      {remove.isError && (
        <p role="status" className="mt-1 text-xs text-danger wrap-anywhere">
          Couldn't remove: {revealHidden(remove.error.message)}
        </p>
      )}
    </div>
  );
}
