// The one action a server's live status allows (Connect, Disconnect or Retry), with its pending state and error.
import { useMutation } from "@tanstack/react-query";
import { LoaderCircle, Plug, RotateCw, Unplug, type LucideIcon } from "lucide-react";
import { commands, type ServerStatus } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { revealHidden } from "./revealHidden";

/** What a person can do to a server in a given state. */
type Action = "connect" | "disconnect" | "retry";

const LABELS: Record<Action, { label: string; verb: string; icon: LucideIcon }> = {
  connect: { label: "Connect", verb: "connect", icon: Plug },
  disconnect: { label: "Disconnect", verb: "disconnect", icon: Unplug },
  retry: { label: "Retry", verb: "retry", icon: RotateCw },
};

/** The action for a state, or null when there is none (disabled servers are enabled elsewhere, in a later release). */
function actionFor(state: ServerStatus["state"]): Action | null {
  switch (state) {
    case "stopped":
    case "needsLogin":
      return "connect";
    case "failed":
      return "retry";
    case "ready":
    case "connecting":
    case "reconnecting":
      return "disconnect";
    case "disabled":
      return null;
  }
}

/** What a press asked for, and in which state, so an error is only shown while it still describes the server. */
type Press = { action: Action; from: ServerStatus["state"] };

/** Props for {@link ServerActions}. */
type ServerActionsProps = {
  /** The server's name: what the commands take, and part of each button's accessible name ("Connect files"). */
  server: string;
  /** The server's live status, or undefined while none has been reported (then there is no action). */
  status: ServerStatus | undefined;
};

export default function ServerActions({ server, status }: ServerActionsProps) {
  // No cache invalidation on success: the backend reports the resulting states through serverStatusChanged.
  const mutation = useMutation({
    mutationFn: ({ action }: Press) =>
      call(action === "disconnect" ? commands.disconnectServer(server) : commands.connectServer(server)),
  });

  const action = status === undefined ? null : actionFor(status.state);
  if (status === undefined || action === null) return null;

  const { label, verb, icon: Icon } = LABELS[action];
  // Pending only for this very action: while a slow connect runs, Disconnect (to give up) must stay pressable.
  const pending = mutation.isPending && mutation.variables.action === action;
  const failure = mutation.isError && mutation.variables.from === status.state ? mutation.error : null;

  return (
    <>
      {/* One button whose label follows the state, so keyboard focus stays put when Connect turns into Disconnect. */}
      <button
        type="button"
        onClick={pending ? undefined : () => mutation.mutate({ action, from: status.state })}
        aria-disabled={pending}
        className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-2.5 py-0.5 text-sm whitespace-nowrap hover:bg-canvas aria-disabled:opacity-60"
      >
        {pending ? (
          <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />
        ) : (
          <Icon size={14} aria-hidden="true" />
        )}
        {/* The space sits outside the hidden span: accessible-name algorithms drop a span's leading space. */}
        {label}{" "}
        <span className="sr-only">{server}</span>
      </button>
      {failure !== null && (
        // role="status", not "alert": alerts on this page are reserved for a config file that cannot be read.
        <p role="status" className="mt-1 text-xs text-danger wrap-anywhere">
          Couldn't {verb}: {revealHidden(failure.message)}
        </p>
      )}
    </>
  );
}
