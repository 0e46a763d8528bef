// The call history as a virtualised list (it may hold 50,000 calls), loaded a page at a time as it scrolls: each row
// the time, server, tool, status, duration and an arguments preview (server-side text, shown inert).
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import type { HistorySummary } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import { originLabel } from "./originLabel";
import { useHistoryPages } from "./consoleQueries";
import { formatDuration, formatStartedAt } from "./format";

const ROW_PX = 52;

/** How each status reads in the list, and its colour. */
const STATUS: Record<HistorySummary["status"], { label: string; className: string }> = {
  ok: { label: "OK", className: "text-ok" },
  toolError: { label: "Tool error", className: "text-danger" },
  failed: { label: "Failed", className: "text-danger" },
  cancelled: { label: "Cancelled", className: "text-muted" },
};

/** Props for {@link HistoryList}. */
type HistoryListProps = {
  /** The search (already debounced): matches server, tool, arguments or the calling client. */
  query: string;
  selectedId: number | null;
  onSelect: (id: number) => void;
};

export default function HistoryList({ query, selectedId, onSelect }: HistoryListProps) {
  const history = useHistoryPages(query);
  const rows = history.data?.pages.flatMap((page) => page.entries) ?? [];
  const total = history.data?.pages[0]?.total ?? 0;
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer re-renders this component itself on scroll; nothing here is memoised by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library -- known and intended, see above.
  const virtualizer = useVirtualizer({
    count: rows.length + (history.hasNextPage ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;

  // The loader row came into view: ask for the calls older than the last one loaded.
  useEffect(() => {
    if (lastIndex >= rows.length && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (history.isPending) {
    return (
      <p role="status" className="text-sm text-muted">
        Loading the history…
      </p>
    );
  }
  if (history.isError) {
    return (
      <p role="alert" className="text-sm text-danger wrap-anywhere">
        {`Couldn't load the history: ${revealHidden(history.error.message)}`}
      </p>
    );
  }
  if (rows.length === 0) {
    return <p className="text-sm text-muted">{query === "" ? "No calls yet." : "No call matches the search."}</p>;
  }
  return (
    <div className="flex min-h-0 flex-col gap-1">
      <p className="text-xs text-muted">{`${total} ${total === 1 ? "call" : "calls"}`}</p>
      <div ref={scroller} className="h-80 overflow-y-auto rounded-md border border-line bg-surface">
        <ul aria-label="Calls" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index];
            return (
              <li
                key={row?.id ?? "loader"}
                aria-setsize={total}
                aria-posinset={item.index + 1}
                className="absolute inset-x-0 top-0 border-b border-line"
                style={{ height: ROW_PX, transform: `translateY(${item.start}px)` }}
              >
                {row === undefined ? (
                  <p role="status" className="px-3 py-3 text-sm text-muted">
                    Loading older calls…
                  </p>
                ) : (
                  <HistoryRow row={row} selected={row.id === selectedId} onSelect={onSelect} />
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

/** Props for {@link HistoryRow}. */
type HistoryRowProps = { row: HistorySummary; selected: boolean; onSelect: (id: number) => void };

/** One call as a button that opens it. */
function HistoryRow({ row, selected, onSelect }: HistoryRowProps) {
  const status = STATUS[row.status];
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={() => onSelect(row.id)}
      className="flex h-full w-full flex-col justify-center px-3 text-left text-sm hover:bg-canvas aria-pressed:bg-accent-soft"
    >
      <span className="flex w-full min-w-0 items-baseline gap-2">
        <span className="shrink-0 text-xs text-muted tabular-nums">{formatStartedAt(row.startedAtMs)}</span>
        <span className="min-w-0 truncate font-mono text-[13px]">{`${revealHidden(row.server)} · ${revealHidden(row.tool)}`}</span>
        {row.origin !== null && <span className="shrink-0 truncate text-xs text-muted">{originLabel(row.origin)}</span>}
        <span className={`ml-auto shrink-0 text-xs ${status.className}`}>{status.label}</span>
        <span className="shrink-0 text-xs text-muted tabular-nums">{formatDuration(row.durationMs)}</span>
      </span>
      <span className="w-full truncate font-mono text-xs text-muted">{revealHidden(row.argumentsPreview)}</span>
    </button>
  );
}
