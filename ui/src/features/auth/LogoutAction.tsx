// "Log out" for a logged-in OAuth server, asked twice: the first press asks to confirm, the second forgets the login.
import { useMutation } from "@tanstack/react-query";
import { LoaderCircle, LogOut } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { revealHidden } from "../servers/revealHidden";

/** Props for {@link LogoutAction}. */
type LogoutActionProps = {
  /** The server to log out of: what logout_server takes and part of each button's accessible name. */
  server: string;
};

export default function LogoutAction({ server }: LogoutActionProps) {
  const [confirming, setConfirming] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  // No cache work on success: the server is disconnected and its status event says so.
  const logout = useMutation({
    mutationFn: () => call(commands.logoutServer(server)),
    onSettled: () => setConfirming(false),
  });

  // The safe choice takes the focus, so a second Enter never logs out by accident.
  useEffect(() => {
    if (confirming) keepRef.current?.focus();
  }, [confirming]);

  if (!confirming) {
    return (
      <>
        <button
          type="button"
          onClick={logout.isPending ? undefined : () => setConfirming(true)}
          aria-disabled={logout.isPending}
          className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-2.5 py-0.5 text-sm whitespace-nowrap hover:bg-canvas aria-disabled:opacity-60"
        >
          {logout.isPending ? (
            <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />
          ) : (
            <LogOut size={14} aria-hidden="true" />
          )}
          Log out <span className="sr-only">of {server}</span>
        </button>
        {logout.isError && (
          <p role="status" className="mt-1 text-xs text-danger wrap-anywhere">
            Couldn't log out: {revealHidden(logout.error.message)}
          </p>
        )}
      </>
    );
  }
  return (
    <div
      role="group"
      aria-label={`Confirm logging out of ${server}`}
      onKeyDown={(event) => {
        if (event.key === "Escape") setConfirming(false);
      }}
      className="rounded-md border border-line bg-canvas p-2 text-xs"
    >
      <p className="mb-1.5">Log out? Its tokens leave the keychain.</p>
      <div className="flex flex-wrap gap-1.5">
        <button
          type="button"
          onClick={() => logout.mutate()}
          className="rounded-md border border-danger/50 bg-surface px-2 py-0.5 text-danger hover:bg-danger-soft"
        >
          Log out <span className="sr-only">of {server} now</span>
        </button>
        <button
          ref={keepRef}
          type="button"
          onClick={() => setConfirming(false)}
          className="rounded-md border border-line bg-surface px-2 py-0.5 hover:bg-canvas"
        >
          Keep
        </button>
      </div>
    </div>
  );
}
