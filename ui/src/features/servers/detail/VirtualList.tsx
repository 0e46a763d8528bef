// A virtualised list of rows that may grow large (tools, resources, log lines): only the rows in view are in the DOM.
// With `follow`, it keeps the newest row in view until the person scrolls up, and follows again at the bottom.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState, type ReactNode } from "react";

/** How close to the bottom (px) still counts as "at the bottom" for following. */
const BOTTOM_SLACK_PX = 24;

/** Props for {@link VirtualList}. */
type VirtualListProps<T> = {
  /** The rows, in order. */
  items: readonly T[];
  /** The list's accessible name. */
  label: string;
  /** A stable key for a row. */
  itemKey: (item: T, index: number) => string | number;
  /** A first guess of a row's height before it is measured. */
  estimateRowPx: number;
  /** Renders one row. */
  renderItem: (item: T, index: number) => ReactNode;
  /** Keep the last row in view as rows arrive, until the person scrolls up. */
  follow?: boolean;
  /** The scroller's height classes. */
  heightClass?: string;
};

export default function VirtualList<T>({
  items,
  label,
  itemKey,
  estimateRowPx,
  renderItem,
  follow = false,
  heightClass = "max-h-[min(22rem,45vh)]",
}: VirtualListProps<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  // The virtualizer re-renders this component itself on scroll; nothing here is memoised by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library -- known and intended, see above.
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimateRowPx,
    getItemKey: (index) => {
      const item = items[index];
      return item === undefined ? index : itemKey(item, index);
    },
    overscan: 8,
  });

  const stuckToEnd = follow && following;
  useEffect(() => {
    if (stuckToEnd && items.length > 0) virtualizer.scrollToIndex(items.length - 1, { align: "end" });
  }, [stuckToEnd, items.length, virtualizer]);

  const onScroll = () => {
    const element = scroller.current;
    if (!follow || element === null) return;
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK_PX;
    if (atBottom !== following) setFollowing(atBottom);
  };

  return (
    <>
      <div
        ref={scroller}
        onScroll={onScroll}
        tabIndex={0}
        aria-label={`${label} (scrollable)`}
        className={`${heightClass} overflow-y-auto rounded-md border border-line bg-surface`}
      >
        <ul aria-label={label} className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            if (item === undefined) return null;
            return (
              <li
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                aria-setsize={items.length}
                aria-posinset={row.index + 1}
                className="absolute inset-x-0 top-0 border-b border-line last:border-b-0"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {renderItem(item, row.index)}
              </li>
            );
          })}
        </ul>
      </div>
      {follow && !following && (
        <button
          type="button"
          onClick={() => setFollowing(true)}
          className="mt-1 rounded px-2 py-0.5 text-sm text-accent underline"
        >
          Paused while you look back · Follow new lines
        </button>
      )}
    </>
  );
}
