// Time-to-painted marks: the page's clock (performance.now(), 0 at navigation start) at the first animation frame in
// which an element matching a CSS selector is in the DOM, so that frame paints it. Checked once a frame from the
// page itself, so the mark is as exact as a frame, not as coarse as a poll from Node. It only observes the page.
import type { Page } from "@playwright/test";

/** One mark to watch for: its name and the element whose first frame it records. */
type Watch = { name: string; selector: string };

declare global {
  interface Window {
    __plugboardMarks?: Record<string, number>;
  }
}

/** Page side (self-contained): checks for the selector every frame until it matches, then records the time. */
function watchInPage({ name, selector }: Watch) {
  const check = () => {
    if (document.querySelector(selector) === null) {
      requestAnimationFrame(check);
      return;
    }
    window.__plugboardMarks = { ...window.__plugboardMarks, [name]: performance.now() };
  };
  requestAnimationFrame(check);
}

/** Watches from the start of the next navigation (call before `open`), so the mark counts from navigation start. */
export async function markFromNavigation(page: Page, watch: Watch) {
  await page.addInitScript(watchInPage, watch);
}

/** Watches from now, in the page as it is. */
export async function markFromNow(page: Page, watch: Watch) {
  await page.evaluate(watchInPage, watch);
}

/** The mark's time on the page's clock, once the element has shown (waits up to the test's timeout). */
export async function markTime(page: Page, name: string): Promise<number> {
  const mark = await page.waitForFunction((wanted) => window.__plugboardMarks?.[wanted], name);
  return (await mark.jsonValue()) as number;
}

/** The page's clock now, to measure a mark from something the bench started. */
export async function pageNow(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}
