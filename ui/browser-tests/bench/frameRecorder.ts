// Records a page's frame times over a window the bench chooses: the gap between consecutive requestAnimationFrame
// callbacks (a frame the page could not paint in time shows as a 33 ms or longer gap), and Chromium's
// long-animation-frame entries (or, where those are missing, long tasks) over the same window. It only observes:
// it never changes what the page does, and the page side must stay self-contained (it is serialised into the page).
import type { Page } from "@playwright/test";

/** What one recorded window holds. */
export type FrameTimes = {
  /** Milliseconds between consecutive animation frames, in order. */
  deltas: number[];
  /** Durations (ms) of the long-animation-frame (or longtask) entries Chromium reported in the window. */
  longEntries: number[];
  /** Which entry type `longEntries` are, or null when this Chromium reports neither. */
  longEntryType: "long-animation-frame" | "longtask" | null;
};

declare global {
  interface Window {
    __plugboardFrameRecorder?: { stop: () => FrameTimes };
  }
}

/** Page side: starts recording; `window.__plugboardFrameRecorder.stop()` ends the window and hands it back. */
function startInPage() {
  const deltas: number[] = [];
  const longEntries: number[] = [];
  let previous: number | undefined;
  let recording = true;
  const onFrame = (now: number) => {
    if (!recording) return;
    if (previous !== undefined) deltas.push(now - previous);
    previous = now;
    requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);

  // long-animation-frame names what blocked a frame (script, style, layout); longtask is the older, coarser signal.
  const supported = PerformanceObserver.supportedEntryTypes;
  const longEntryType = supported.includes("long-animation-frame")
    ? ("long-animation-frame" as const)
    : supported.includes("longtask")
      ? ("longtask" as const)
      : null;
  const observer =
    longEntryType === null
      ? null
      : new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longEntries.push(entry.duration);
        });
  observer?.observe({ type: longEntryType ?? "", buffered: false });

  window.__plugboardFrameRecorder = {
    stop: () => {
      recording = false;
      for (const entry of observer?.takeRecords() ?? []) longEntries.push(entry.duration);
      observer?.disconnect();
      return { deltas, longEntries, longEntryType };
    },
  };
}

/** Starts recording `page`'s frames now; `stop()` ends the window and returns what it saw. */
export async function recordFrames(page: Page): Promise<{ stop: () => Promise<FrameTimes> }> {
  await page.evaluate(startInPage);
  return {
    stop: () =>
      page.evaluate(() => {
        const recorder = window.__plugboardFrameRecorder;
        if (recorder === undefined) throw new Error("no frame recording is running in this page");
        window.__plugboardFrameRecorder = undefined;
        return recorder.stop();
      }),
  };
}
