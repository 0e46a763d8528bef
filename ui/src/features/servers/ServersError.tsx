// The Servers page when list_servers failed: the backend's message as text (its first letter capitalised), and a way
// to try again.
import { RotateCw } from "lucide-react";
import { sentenceStart } from "./sentenceStart";

/** Props for {@link ServersError}. */
type ServersErrorProps = {
  /** The failure, usually an `IpcError`; its message is shown as plain text. */
  error: Error;
  /** Runs the query again. */
  onRetry: () => void;
  /** True while the retry is in flight; the button ignores presses meanwhile (but keeps keyboard focus). */
  retrying: boolean;
};

export default function ServersError({ error, onRetry, retrying }: ServersErrorProps) {
  return (
    <div role="alert" className="rounded-lg border border-danger/40 bg-danger-soft px-5 py-4">
      <h2 className="mb-1 text-sm font-semibold text-danger">Couldn't load servers</h2>
      <p className="mb-3 wrap-anywhere">{sentenceStart(error.message)}</p>
      <button
        type="button"
        onClick={retrying ? undefined : onRetry}
        aria-disabled={retrying}
        className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-3 py-1 text-sm hover:bg-canvas aria-disabled:opacity-60"
      >
        <RotateCw size={14} aria-hidden="true" className={retrying ? "animate-spin" : undefined} />
        Retry
      </button>
    </div>
  );
}
