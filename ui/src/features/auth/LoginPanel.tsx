// A login in progress or failed, under its server's row: the authorization URL to open by hand, the browser
// problem, Cancel; or the failure in words. Everything the server or the backend supplied is shown as inert text.
import { Copy, LoaderCircle, X } from "lucide-react";
import { useId } from "react";
import { useCopyText } from "../../shell/useCopyText";
import { revealHidden } from "../servers/revealHidden";
import type { LoginController } from "./useLogin";

/** Props for {@link LoginPanel}. */
type LoginPanelProps = {
  /** The server logging in: named in the labels so several panels stay distinguishable. */
  server: string;
  /** The login from {@link useLogin}; the panel shows nothing while it is idle. */
  login: LoginController;
};

export default function LoginPanel({ server, login }: LoginPanelProps) {
  if (login.phase === "waiting") return <Waiting server={server} login={login} />;
  if (login.phase === "failed") {
    return (
      <div role="status" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 text-sm">
        <div className="flex items-start justify-between gap-3">
          <p className="text-xs font-semibold text-danger">
            {login.refused ? "Plugboard refused this server's login" : "The login did not complete"}
          </p>
          <button
            type="button"
            onClick={login.dismiss}
            className="-mt-0.5 rounded p-0.5 text-muted hover:text-fg"
            aria-label={`Dismiss the login error of ${server}`}
          >
            <X size={14} aria-hidden="true" />
          </button>
        </div>
        <p className="mt-1 font-mono text-[13px] wrap-anywhere whitespace-pre-wrap">{revealHidden(login.message)}</p>
        {login.refused && (
          <p className="mt-2 text-xs text-muted">
            This is on purpose: the server's OAuth metadata breaks a rule of the MCP specification that keeps logins
            safe, so Plugboard did not open it. Ask the server's operator to fix it.
          </p>
        )}
      </div>
    );
  }
  return null;
}

/** Props for {@link Waiting}. */
type WaitingProps = {
  /** The server logging in. */
  server: string;
  /** The waiting login. */
  login: Extract<LoginController, { phase: "waiting" }>;
};

/** "Waiting for the browser…" with the page's URL (selectable and copyable), the browser problem and Cancel. */
function Waiting({ server, login }: WaitingProps) {
  const urlId = useId();
  // "Copied." goes after two seconds, so a second press is confirmed again; a refusal stays (copy by hand).
  const { state: copied, copy } = useCopyText();
  const url = login.started?.authorizationUrl;
  const problem = login.started?.browserProblem ?? null;

  return (
    <section
      aria-label={`Login to ${server}`}
      className="rounded-md border border-accent/40 bg-accent-soft px-4 py-3 text-sm"
    >
      <div className="flex items-center justify-between gap-3">
        <p role="status" className="flex items-center gap-1.5 font-medium">
          <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />
          Waiting for the browser…
        </p>
        <button
          type="button"
          onClick={login.cancel}
          aria-disabled={login.cancelling}
          className="rounded-md border border-line bg-surface px-2.5 py-0.5 hover:bg-canvas aria-disabled:opacity-60"
        >
          Cancel <span className="sr-only">the login to {server}</span>
        </button>
      </div>
      {problem !== null && (
        <p className="mt-2 text-xs text-danger wrap-anywhere">
          The browser could not be opened: {revealHidden(problem)}. Open the link below by hand.
        </p>
      )}
      {url === undefined ? (
        <p className="mt-2 text-xs text-muted">Opening the authorization page…</p>
      ) : (
        <>
          <label htmlFor={urlId} className="mt-2 block text-xs text-muted">
            Finish in your browser. If no page opened, copy this link into one:
          </label>
          <div className="mt-1 flex items-start gap-2">
            {/* A read-only field: selectable and copyable, and inert whatever the server put in the URL. */}
            <textarea
              id={urlId}
              readOnly
              rows={2}
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              aria-label={`Authorization link for ${server}`}
              className="min-w-0 flex-1 resize-none rounded border border-line bg-surface px-2 py-1 font-mono text-[12px] wrap-anywhere"
            />
            <button
              type="button"
              onClick={() => copy(url)}
              className="inline-flex items-center gap-1 rounded-md border border-line bg-surface px-2 py-0.5 text-xs hover:bg-canvas"
            >
              <Copy size={12} aria-hidden="true" />
              Copy <span className="sr-only">the authorization link</span>
            </button>
          </div>
          <p role="status" className="mt-1 text-xs text-muted">
            {copied === "copied" && "Copied."}
            {copied === "refused" && "Could not copy: select the link and copy it by hand."}
          </p>
        </>
      )}
    </section>
  );
}
