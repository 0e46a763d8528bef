// The servers as a table with each one's live status and actions, virtualised: only the rows in view (and the few
// that hold state: open details, a login, focus) are in the DOM, so 200 servers scroll as lightly as 3.
import { defaultRangeExtractor, observeElementRect, type Range, useVirtualizer } from "@tanstack/react-virtual";
import { type FocusEvent, type ReactNode, useCallback, useRef, useState } from "react";
import type { ServerStatus, ServerSummary } from "../../ipc/bindings";
import { toggled } from "../../sets";
import ServerRow, { COLUMNS } from "./ServerRow";

/** A first guess of a server's height (a two-line connection cell and Remove under the action) before it is measured. */
const ESTIMATE_ROW_PX = 72;

/** Props for {@link ServerTable}. */
type ServerTableProps = {
  /** The servers to list, in the order shown. */
  servers: ServerSummary[];
  /** Live status by server name; undefined while loading (or when unavailable), and a server may have none yet. */
  statuses: ReadonlyMap<string, ServerStatus> | undefined;
};

export default function ServerTable({ servers, statuses }: ServerTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [openDetails, setOpenDetails] = useState<ReadonlySet<string>>(new Set());
  const [logins, setLogins] = useState<ReadonlySet<string>>(new Set());
  const [focused, setFocused] = useState<string | null>(null);

  // Rows that hold state nobody else keeps stay mounted when they scroll away, or it would be lost: a login's
  // progress, the focus of the row the keyboard is in, open details (kept here, but the focus in them is not).
  const kept = servers.flatMap((server, index) =>
    logins.has(server.name) ||
    focused === server.name ||
    (openDetails.has(server.name) && statuses?.get(server.name)?.state === "failed")
      ? [index]
      : [],
  );

  // The virtualizer re-renders this component itself on scroll; nothing here is memoised by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library -- known and intended, see above.
  const virtualizer = useVirtualizer({
    count: servers.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATE_ROW_PX,
    getItemKey: (index) => servers[index]?.name ?? index,
    overscan: 10,
    // A scroller with no height yet (not laid out: hidden, or a test's DOM) would show no row at all; until it has
    // one, a window's height of rows stands in.
    observeElementRect: (instance, onRect) =>
      observeElementRect(instance, (rect) => onRect(rect.height > 0 ? rect : { ...rect, height: window.innerHeight })),
    rangeExtractor: (range: Range) => [...new Set([...defaultRangeExtractor(range), ...kept])].sort((a, b) => a - b),
  });

  const onKeep = useCallback((server: string, keep: boolean) => setLogins((now) => toggled(now, server, keep)), []);
  const onToggleDetails = useCallback(
    (server: string) => setOpenDetails((now) => toggled(now, server, !now.has(server))),
    [],
  );
  const onFocus = (event: FocusEvent) => setFocused(serverOf(event.target));
  const onBlur = (event: FocusEvent) => {
    if (serverOf(event.relatedTarget) === null) setFocused(null);
  };

  // Rows are positioned by spacer rows above, between (when a kept row is far from the rest) and below them: table
  // layout ignores transforms. Item offsets start under the header, a constant the overscan more than covers.
  const groups: ReactNode[] = [];
  let end = 0;
  for (const item of virtualizer.getVirtualItems()) {
    const server = servers[item.index];
    if (server === undefined) continue;
    if (item.start > end) groups.push(<Spacer key={`gap-${item.index}`} px={item.start - end} />);
    end = item.end;
    groups.push(
      <ServerRow
        key={server.name}
        index={item.index}
        measureRef={virtualizer.measureElement}
        server={server}
        status={statuses?.get(server.name)}
        detailsOpen={openDetails.has(server.name)}
        onToggleDetails={onToggleDetails}
        onKeep={onKeep}
      />,
    );
  }
  const after = virtualizer.getTotalSize() - end;
  if (after > 0) groups.push(<Spacer key="after" px={after} />);

  return (
    <div
      ref={scroller}
      className="max-h-[max(20rem,calc(100vh-19rem))] overflow-y-auto rounded-lg border border-line bg-surface"
    >
      {/* -mb-px: the last row's rule would double the scroller's border. */}
      <table className="-mb-px w-full table-fixed border-collapse text-left text-sm" onFocus={onFocus} onBlur={onBlur}>
        <caption className="sr-only">Configured servers</caption>
        {/* The connection (command or URL) takes what is left: it is the longest text and wraps anywhere. */}
        <colgroup>
          <col className="w-[15%]" />
          <col />
          <col className="w-28" />
          <col className="w-52" />
          <col className="w-36" />
        </colgroup>
        {/* The header stays in view while the rows scroll under it; its rule is a shadow, which sticks with it. */}
        <thead className="sticky top-0 z-10 bg-surface text-xs font-medium text-muted shadow-[inset_0_-1px_0_var(--pb-border)]">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">Name</th>
            <th scope="col" className="px-4 py-2 font-medium">Connection</th>
            <th scope="col" className="px-4 py-2 font-medium">Origin</th>
            <th scope="col" className="px-4 py-2 font-medium">Status</th>
            <th scope="col" className="px-4 py-2 font-medium">Actions</th>
          </tr>
        </thead>
        {groups}
      </table>
    </div>
  );
}

/** Empty space standing in for rows out of view; hidden from assistive technology. */
function Spacer({ px }: { px: number }) {
  return (
    <tbody aria-hidden="true">
      <tr>
        <td colSpan={COLUMNS} style={{ height: px, padding: 0 }} />
      </tr>
    </tbody>
  );
}

/** The server whose row group holds `target`, or null outside the table's rows. */
function serverOf(target: EventTarget | null): string | null {
  if (!(target instanceof Element)) return null;
  return target.closest("tbody[data-server]")?.getAttribute("data-server") ?? null;
}
