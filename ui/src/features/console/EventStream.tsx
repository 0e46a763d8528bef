// The live notifications of a running call: the latest progress as a bar with its message, and every progress and
// log event in arrival order in a virtualised list (a call may send thousands). Server text is shown inert.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import type { CallEvent } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";

const ROW_PX = 24;

/** Props for {@link EventStream}. */
type EventStreamProps = {
  /** The call's events, oldest first. */
  events: readonly CallEvent[];
};

export default function EventStream({ events }: EventStreamProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer re-renders this component itself on scroll; nothing here is memoised by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library -- known and intended, see above.
  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 10,
  });
  const progress = lastProgress(events);
  if (events.length === 0) return null;

  return (
    <section aria-label="Call events" className="flex flex-col gap-2">
      {progress !== null && (
        <div className="flex flex-col gap-1 text-sm">
          <progress
            aria-label="Progress"
            value={progress.total === null ? undefined : Math.min(progress.progress, progress.total)}
            max={progress.total ?? undefined}
            className="h-2 w-full accent-accent"
          />
          <p className="text-muted wrap-anywhere">
            {progress.total === null ? `${progress.progress}` : `${progress.progress} of ${progress.total}`}
            {progress.message !== null && ` · ${revealHidden(progress.message)}`}
          </p>
        </div>
      )}
      <div ref={scroller} className="max-h-48 overflow-y-auto rounded-md border border-line bg-canvas">
        <ol aria-label="Notifications" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const event = events[item.index];
            if (event === undefined) return null;
            return (
              <li
                key={item.key}
                aria-setsize={events.length}
                aria-posinset={item.index + 1}
                className="absolute inset-x-0 top-0 truncate px-3 font-mono text-xs leading-6"
                style={{ height: ROW_PX, transform: `translateY(${item.start}px)` }}
                title={eventText(event)}
              >
                {eventText(event)}
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}

/** The newest progress event, or null when the call sent none. */
function lastProgress(events: readonly CallEvent[]): Extract<CallEvent, { kind: "progress" }> | null {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.kind === "progress") return event;
  }
  return null;
}

/** One event as a line of text, server text revealed. */
function eventText(event: CallEvent): string {
  if (event.kind === "progress") {
    const amount = event.total === null ? `${event.progress}` : `${event.progress}/${event.total}`;
    return `progress ${amount}${event.message === null ? "" : ` ${revealHidden(event.message)}`}`;
  }
  const logger = event.logger === null ? "" : ` [${revealHidden(event.logger)}]`;
  return `${revealHidden(event.level)}${logger} ${revealHidden(event.message)}`;
}
