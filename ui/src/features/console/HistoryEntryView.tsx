// One saved call: what was called with which (redacted) arguments, its result, and Re-run and Copy as CLI. When the
// clipboard is refused, the command is shown selected in a read-only field to copy by hand.
import { RotateCcw } from "lucide-react";
import type { HistoryEntry } from "../../ipc/bindings";
import CopyButton from "../../shell/CopyButton";
import { revealHidden } from "../servers/revealHidden";
import { originLabel } from "./originLabel";
import { useHistoryEntry } from "./consoleQueries";
import { formatStartedAt } from "./format";
import ResultView from "./ResultView";

/** Props for {@link HistoryEntryView}. */
type HistoryEntryViewProps = {
  id: number;
  /** Loads the call's server, tool and arguments into the editor and runs it. */
  onRerun: (entry: HistoryEntry) => void;
};

export default function HistoryEntryView({ id, onRerun }: HistoryEntryViewProps) {
  const entry = useHistoryEntry(id);
  if (entry.isPending) {
    return (
      <p role="status" className="text-sm text-muted">
        Loading the call…
      </p>
    );
  }
  if (entry.isError) {
    return (
      <p role="alert" className="text-sm text-danger wrap-anywhere">
        {`Couldn't load the call: ${revealHidden(entry.error.message)}`}
      </p>
    );
  }
  const data = entry.data;
  return (
    <article aria-label={`Call ${data.id}`} className="flex min-w-0 flex-col gap-3">
      <header className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 font-mono text-sm font-semibold wrap-anywhere">
          {`${revealHidden(data.server)} · ${revealHidden(data.tool)}`}
        </h3>
        <span className="text-xs text-muted">{formatStartedAt(data.startedAtMs)}</span>
        {data.origin !== null && <span className="text-xs text-muted">{originLabel(data.origin)}</span>}
        <div className="ml-auto flex gap-2">
          <button
            type="button"
            onClick={() => onRerun(data)}
            className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-2.5 py-0.5 text-sm hover:bg-canvas"
          >
            <RotateCcw size={14} aria-hidden="true" />
            Re-run
          </button>
          <CopyButton
            label="Copy as CLI"
            text={() => data.cliCommand}
            fallbackLabel="The clipboard was refused; copy the command from here:"
          />
        </div>
      </header>
      <pre aria-label="Arguments" className="max-h-32 overflow-auto rounded-md border border-line bg-canvas px-3 py-2 font-mono text-xs whitespace-pre-wrap wrap-anywhere">
        {revealHidden(data.arguments)}
      </pre>
      <ResultView outcome={data.outcome} durationMs={data.durationMs} headingLevel={4} />
    </article>
  );
}
