// A busy server's notifications for the console bench: `count` progress and log events pushed into a running call's
// Channel in bursts, each burst one message as the backend sends a frame's worth, from inside the page. Sending them from Node (MockChannel.send) costs a CDP round trip each,
// awaited, so 1,000 of them would be paced by the bridge (tens of ms each on a busy machine) rather than by the
// stream the bench means to time; here a timer in the page delivers each burst at once, exactly as Tauri hands the
// page a Channel's messages. It only delivers events: it never reads or waits on the UI.
import type { Page } from "@playwright/test";
import type { CallEvent } from "../../src/ipc/bindings";
import type { MockChannel } from "../ipc";

/** How the events arrive: `count` in `bursts` equal bursts, one every `everyMs`. */
export type StreamPlan = { count: number; bursts: number; everyMs: number };

/** When the stream ran, on the page's clock (performance.now()). */
export type StreamTimes = { firstSentAt: number; lastSentAt: number };

/** The progress text the UI shows once the last event of a `count`-event stream has arrived. */
export function lastProgressText(count: number): string {
  return `${count} of ${count} · event ${count}`;
}

/** Page side (self-contained): event n of `count` is progress every tenth, otherwise a log line. */
function streamInPage({ channelId, count, bursts, everyMs }: StreamPlan & { channelId: number }): Promise<StreamTimes> {
  const event = (n: number) =>
    n % 10 === 0
      ? { kind: "progress", progress: n, total: count, message: `event ${n}` }
      : { kind: "log", level: "info", logger: "bench", message: `event ${n}: processed rows ${n * 100} to ${n * 100 + 99}` };
  const perBurst = Math.ceil(count / bursts);
  const start = performance.now();
  let sent = 0;
  let firstSentAt = 0;
  return new Promise((resolve, reject) => {
    const burst = (number: number) => {
      if (number === 0) firstSentAt = performance.now();
      const batch = [];
      for (const end = Math.min(count, sent + perBurst); sent < end; sent++) batch.push(event(sent + 1));
      // Tauri's raw Channel message: the index orders delivery, the message is the batch of CallEvents.
      if (!window.__PLUGBOARD_IPC__.runCallback(channelId, { index: number, message: batch })) {
        reject(new Error(`channel ${channelId} is no longer listened to`));
        return;
      }
      if (sent === count) {
        resolve({ firstSentAt, lastSentAt: performance.now() });
        return;
      }
      // Scheduled from the start, so a late burst does not push every later one back.
      setTimeout(() => burst(number + 1), Math.max(0, start + (number + 1) * everyMs - performance.now()));
    };
    burst(0);
  });
}

/**
 * Streams the events into `channel` (the running call's, as its responder got it) and resolves once the last was
 * delivered. The channel's own `send` must not be used on it afterwards: its message index did not advance.
 */
export async function streamCallEvents(
  page: Page,
  channel: MockChannel<CallEvent[]>,
  plan: StreamPlan,
): Promise<StreamTimes> {
  return page.evaluate(streamInPage, { channelId: channel.id, ...plan });
}
