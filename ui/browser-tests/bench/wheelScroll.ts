// Scrolls a list from top to bottom as a person spinning a mouse wheel would: real wheel events at the mouse's place,
// until the list's last element is in the DOM and the scroller is at its end. It never checks a figure; it fails only
// when the end is not reached in `maxSteps` steps (then what was measured was not a full scroll).
import type { Locator, Page } from "@playwright/test";

/** What to scroll, how far a step, and what marks the end. */
export type WheelScroll = {
  /** An element inside the scroller to put the mouse over (wheel events go to what is under the mouse). */
  over: Locator;
  /** CSS selector of the scroller itself. */
  scroller: string;
  /** CSS selector of the element that is in the DOM only once the list's end is loaded and rendered. */
  last: string;
  /** Pixels each wheel step asks for. */
  stepPx: number;
  maxSteps: number;
};

/**
 * Steps sent before the end is looked for again. They go without waiting for each one's acknowledgement, so Chromium
 * takes them at its own pace (its input router hands the page one wheel event at a time, once the last was handled),
 * as it does with a real wheel spun fast; awaiting each from Node would add a round trip per step and time a slow
 * scroll instead.
 */
const STEPS_PER_BURST = 10;

/** Where the scroller is, read in the page at the next frame. */
type ScrollState = { remainingPx: number; lastShown: boolean };

/** Page side (self-contained). */
function stateAtNextFrame({ scroller, last }: { scroller: string; last: string }): Promise<ScrollState> {
  return new Promise((resolve, reject) =>
    requestAnimationFrame(() => {
      const element = document.querySelector(scroller);
      if (element === null) {
        reject(new Error(`no scroller matches ${scroller}`));
        return;
      }
      resolve({
        remainingPx: Math.floor(element.scrollHeight - element.clientHeight - element.scrollTop),
        lastShown: document.querySelector(last) !== null,
      });
    }),
  );
}

/** Scrolls to the end; returns how many wheel steps it took. Waiting for rows to load is bounded by the test timeout. */
export async function wheelToEnd(page: Page, { over, scroller, last, stepPx, maxSteps }: WheelScroll): Promise<number> {
  await over.hover();
  let steps = 0;
  for (;;) {
    const { remainingPx, lastShown } = await page.evaluate(stateAtNextFrame, { scroller, last });
    if (remainingPx <= 0 && lastShown) return steps;
    // At the end of what is loaded: wait for the next rows rather than wheel on. A burst never asks past the end
    // either: the surplus would scroll the page around the list (scroll chaining) and move the list from under the
    // mouse.
    if (remainingPx <= 0) continue;
    if (steps >= maxSteps) {
      throw new Error(`the end of ${scroller} (${last}) was not reached in ${steps} wheel steps of ${stepPx} px`);
    }
    const burst = Array.from({ length: Math.min(STEPS_PER_BURST, Math.ceil(remainingPx / stepPx)) }, (_, index) =>
      Math.min(stepPx, remainingPx - index * stepPx),
    );
    await Promise.all(burst.map((deltaY) => page.mouse.wheel(0, deltaY)));
    steps += burst.length;
  }
}
