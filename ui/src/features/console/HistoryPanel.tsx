// The history panel: a debounced search, the list of past calls, the selected call beside it, and Clear history
// (asked twice; the safe choice takes the focus).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { commands, type HistoryEntry } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { revealHidden } from "../servers/revealHidden";
import { useDebounced } from "../servers/detail/useDebounced";
import { HISTORY_QUERY_KEY } from "./consoleQueries";
import HistoryEntryView from "./HistoryEntryView";
import HistoryList from "./HistoryList";

/** How long typing in the search must pause before the history is asked again. */
export const SEARCH_DELAY_MS = 300;

/** Props for {@link HistoryPanel}. */
type HistoryPanelProps = {
  /** Re-runs a saved call in the editor above. */
  onRerun: (entry: HistoryEntry) => void;
};

export default function HistoryPanel({ onRerun }: HistoryPanelProps) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const clear = useMutation({
    mutationFn: () => call(commands.clearCallHistory()),
    onSuccess: () => {
      setSelectedId(null);
      return queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY });
    },
    onSettled: () => setConfirming(false),
  });

  useEffect(() => {
    if (confirming) keepRef.current?.focus();
  }, [confirming]);

  return (
    <section aria-labelledby="history-heading" className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4">
      <header className="flex flex-wrap items-center gap-3">
        <h2 id="history-heading" className="font-semibold">
          History
        </h2>
        <input
          type="search"
          aria-label="Search history"
          placeholder="Search server, tool or arguments"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="min-w-0 flex-1 rounded-md border border-line bg-surface px-2.5 py-1 text-sm"
        />
        {confirming ? (
          <div
            role="group"
            aria-label="Confirm clearing the history"
            onKeyDown={(event) => {
              if (event.key === "Escape") setConfirming(false);
            }}
            className="flex items-center gap-2 text-sm"
          >
            <span>Delete every saved call?</span>
            <button
              type="button"
              onClick={() => clear.mutate()}
              className="rounded-md border border-danger/50 bg-surface px-2 py-0.5 text-danger hover:bg-danger-soft"
            >
              Delete all
            </button>
            <button ref={keepRef} type="button" onClick={() => setConfirming(false)} className="rounded-md border border-line bg-surface px-2 py-0.5 hover:bg-canvas">
              Keep
            </button>
          </div>
        ) : (
          <button
            type="button"
            onClick={() => setConfirming(true)}
            className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-2.5 py-0.5 text-sm hover:bg-canvas"
          >
            <Trash2 size={14} aria-hidden="true" />
            Clear history
          </button>
        )}
      </header>
      {clear.isError && (
        <p role="alert" className="text-sm text-danger wrap-anywhere">
          {`Couldn't clear the history: ${revealHidden(clear.error.message)}`}
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <HistoryList query={query} selectedId={selectedId} onSelect={setSelectedId} />
        <div className="min-w-0">
          {selectedId === null ? (
            <p className="text-sm text-muted">Select a call to see its arguments and result.</p>
          ) : (
            <HistoryEntryView id={selectedId} onRerun={onRerun} />
          )}
        </div>
      </div>
    </section>
  );
}
