// The one action a server's live status allows (Connect, Disconnect or Retry; Log in for an OAuth server that needs
// it), with its pending state and error, plus Log out for a logged-in OAuth server.
import { useMutation } from "@tanstack/react-query";
import { LoaderCircle, LogIn, Plug, RotateCw, Unplug, type LucideIcon } from "lucide-react";
import { commands, type ServerStatus } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import LogoutAction from "../auth/LogoutAction";
import ReviewButton from "../trust/ReviewButton";
import type { LoginController } from "../auth/useLogin";
import { revealHidden } from "./revealHidden";

/** What a person can do to a server in a given state. */
type Action = "connect" | "disconnect" | "retry";

const LABELS: Record<Action, { label: string; verb: string; icon: LucideIcon }> = {
  connect: { label: "Connect", verb: "connect", icon: Plug },
  disconnect: { label: "Disconnect", verb: "disconnect", icon: Unplug },
  retry: { label: "Retry", verb: "retry", icon: RotateCw },
};

/**
 * The action for a state, or null when there is none (a disabled server is turned on by the Turn on button; one
 * awaiting approval is approved in the approval dialog, which Review opens).
 */
function actionFor(state: ServerStatus["state"]): Action | null {
  switch (state) {
    case "stopped":
    case "needsLogin":
      return "connect";
    case "failed":
    case "keychainLocked":
      return "retry";
    case "ready":
    case "connecting":
    case "reconnecting":
      return "disconnect";
    case "disabled":
    case "needsApproval":
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
  /** Whether the server logs in with OAuth: then "needs login" offers Log in, and Ready offers Log out. */
  oauth: boolean;
  /** The server's login (from `useLogin`), which Log in starts; its progress shows under the row. */
  login: LoginController;
};

export default function ServerActions({ server, status, oauth, login }: ServerActionsProps) {
  // No cache invalidation on success: the backend reports the resulting states through serverStatusChanged.
  const mutation = useMutation({
    mutationFn: ({ action }: Press) =>
      call(action === "disconnect" ? commands.disconnectServer(server) : commands.connectServer(server)),
  });

  const action = status === undefined ? null : actionFor(status.state);
  if (status?.state === "needsApproval") return <ReviewButton server={server} />;
  if (status === undefined || action === null) return null;
  if (oauth && status.state === "needsLogin") return <LoginButton server={server} login={login} />;

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
      {oauth && status.state === "ready" && (
        <div className="mt-1.5">
          <LogoutAction server={server} />
        </div>
      )}
    </>
  );
}

/** Props for {@link LoginButton}. */
type LoginButtonProps = {
  /** The server to log in to, part of the button's accessible name ("Log in github"). */
  server: string;
  /** Its login; pressing starts it, and it is marked busy while it waits for the browser. */
  login: LoginController;
};

/** "Log in": the login's progress, URL and Cancel show in the panel under the row. */
function LoginButton({ server, login }: LoginButtonProps) {
  const waiting = login.phase === "waiting";
  return (
    <button
      type="button"
      onClick={waiting ? undefined : login.start}
      aria-disabled={waiting}
      className="inline-flex items-center gap-1.5 rounded-md border border-accent/60 bg-surface px-2.5 py-0.5 text-sm whitespace-nowrap text-accent hover:bg-accent-soft aria-disabled:opacity-60"
    >
      {waiting ? (
        <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />
      ) : (
        <LogIn size={14} aria-hidden="true" />
      )}
      Log in <span className="sr-only">{server}</span>
    </button>
  );
}
