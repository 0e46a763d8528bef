// One server's login as the window runs it: start (the backend opens the browser), the authorization URL it reports,
// cancel, and the failure to explain. Success needs no handling: the server's status events bring it to Ready.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { commands, events, type LoginStarted } from "../../ipc/bindings";
import { call, IpcError } from "../../ipc/client";
import { useBackendEvent } from "../../ipc/useBackendEvent";

/** Where a login is: not running, waiting for the browser to come back, or failed with words to show. */
export type LoginPhase =
  | { phase: "idle" }
  /** `started` is null until the backend has reported the authorization page it opened (or tried to). */
  | { phase: "waiting"; started: LoginStarted | null }
  /** `refused`: Plugboard turned the server's metadata down on purpose (a MUST of the spec), not a failure on the way. */
  | { phase: "failed"; message: string; refused: boolean };

/** What {@link useLogin} gives a server's row: the phase and the actions that change it. */
export type LoginController = LoginPhase & {
  /** Starts the login; ignored while one is waiting. */
  start: () => void;
  /** Gives up on the waiting login (the backend's cancel_login). */
  cancel: () => void;
  /** Whether a cancel is on its way. */
  cancelling: boolean;
  /** Forgets a shown failure. */
  dismiss: () => void;
};

/** The login of `server`, kept for as long as the calling component is mounted. */
export function useLogin(server: string): LoginController {
  const [started, setStarted] = useState<LoginStarted | null>(null);
  // A cancelled login rejects like a failed one; the person asked for it, so it is not shown as a failure.
  const [cancelled, setCancelled] = useState(false);
  useBackendEvent(
    events.loginStarted,
    (event) => {
      if (event.server === server) setStarted(event);
    },
    "login progress",
  );
  const login = useMutation({
    mutationFn: () => call(commands.loginServer(server)),
    onMutate: () => {
      setStarted(null);
      setCancelled(false);
    },
  });
  const cancelMutation = useMutation({ mutationFn: () => call(commands.cancelLogin(server)) });

  const controls = {
    start: () => {
      if (!login.isPending) login.mutate();
    },
    cancel: () => {
      setCancelled(true);
      cancelMutation.mutate();
    },
    cancelling: cancelMutation.isPending,
    dismiss: () => login.reset(),
  };
  if (login.isPending) return { phase: "waiting", started, ...controls };
  if (login.isError && !cancelled) return { phase: "failed", ...failureOf(login.error), ...controls };
  return { phase: "idle", ...controls };
}

/** The words of a failed login; `refused` only from the backend's LoginFailed. */
function failureOf(error: Error): { message: string; refused: boolean } {
  if (error instanceof IpcError && error.detail.code === "LoginFailed") {
    return { message: error.detail.message, refused: error.detail.refused };
  }
  return { message: error.message, refused: false };
}
