// Why a server failed: the error (as a sentence) and the tail of its stderr, as inert text with hidden characters made
// visible.
import { revealHidden } from "./revealHidden";
import { sentenceStart } from "./sentenceStart";

/** Props for {@link FailureDetails}. */
type FailureDetailsProps = {
  /** The server's name, used to label the stderr region. */
  server: string;
  /** The backend's error from the failed status; shown verbatim but for a capital first letter. */
  error: string;
  /** The last lines the server wrote to stderr; null for remote servers or when it wrote nothing. */
  stderrTail: string | null;
};

export default function FailureDetails({ server, error, stderrTail }: FailureDetailsProps) {
  return (
    <div className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 text-sm">
      <p className="mb-1 text-xs font-semibold text-danger">Error</p>
      <p className="font-mono text-[13px] wrap-anywhere whitespace-pre-wrap">{revealHidden(sentenceStart(error))}</p>
      {stderrTail !== null && stderrTail !== "" && (
        <>
          <p className="mt-3 mb-1 text-xs font-semibold text-muted">Last lines of stderr</p>
          {/* Focusable so a keyboard can scroll a long tail. */}
          <pre
            tabIndex={0}
            aria-label={`stderr of ${server}`}
            className="max-h-64 overflow-auto rounded bg-surface px-3 py-2 font-mono text-[12px] whitespace-pre-wrap wrap-anywhere"
          >
            {revealHidden(stderrTail)}
          </pre>
        </>
      )}
    </div>
  );
}
