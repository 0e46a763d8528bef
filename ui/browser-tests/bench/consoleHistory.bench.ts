// Bench: the Console's history with 10,000 recorded calls, paged as the backend pages it (200 rows a request as the
// list asks). Times navigation to the first history row painted, then records frame times while the list is wheeled
// from the newest call to the oldest, loading every page on the way. Never fails on a figure; only when the rows did
// not paint or the oldest call was not reached.
import { HISTORY_PAGE_SIZE } from "../../src/features/console/consoleQueries";
import { expect, test } from "../test";
import { reportFigures, summarise } from "./benchFigures";
import { markFromNavigation, markFromNow, markTime, pageNow } from "./firstFrameShowing";
import { recordFrames } from "./frameRecorder";
import { generatedHistory, historyArguments, serveHistory } from "./manyHistory";
import { wheelToEnd } from "./wheelScroll";

const CALLS = 10_000;
const CALLS_TEXT = CALLS.toLocaleString("en");
/** Twenty 52 px rows: a fast spin, so 10,000 rows take hundreds of steps rather than thousands. */
const WHEEL_STEP_PX = 1_040;

const CALLS_LIST = 'ul[aria-label="Calls"]';
/** A row button (the loader row has none) at the list's last place. */
const OLDEST_ROW = `${CALLS_LIST} > li[aria-posinset="${CALLS}"] button`;

test(`Console, ${CALLS_TEXT} history rows: first painted, then wheeled to the oldest`, async ({ page, ipc, open }, info) => {
  serveHistory(ipc, generatedHistory(CALLS));
  await markFromNavigation(page, { name: "firstRow", selector: `${CALLS_LIST} > li button` });
  await open("/console");
  const firstRowPainted = await markTime(page, "firstRow");
  const calls = page.getByRole("list", { name: "Calls" });
  await expect(page.getByText(`${CALLS} calls`, { exact: true })).toBeVisible();

  const recording = await recordFrames(page);
  const scrollStart = await pageNow(page);
  await markFromNow(page, { name: "oldestRow", selector: OLDEST_ROW });
  const steps = await wheelToEnd(page, {
    over: calls.getByRole("button").first(),
    scroller: `div:has(> ${CALLS_LIST})`,
    last: OLDEST_ROW,
    stepPx: WHEEL_STEP_PX,
    maxSteps: 5_000,
  });
  const oldestShown = (await markTime(page, "oldestRow")) - scrollStart;
  const frames = await recording.stop();

  // The oldest call is on screen, and it came the way the app asks: every page of 200, none skipped.
  await expect(calls.getByText(historyArguments(1), { exact: true })).toBeVisible();
  const pages = ipc.calls("callHistory");
  expect(pages.length).toBeGreaterThanOrEqual(CALLS / HISTORY_PAGE_SIZE);
  expect(pages.every(([, , limit]) => limit === HISTORY_PAGE_SIZE)).toBe(true);

  await reportFigures(info, {
    scenario: `Console, ${CALLS_TEXT} history rows`,
    measured: `wheel scroll newest to oldest (${steps} steps of ${WHEEL_STEP_PX} px, ${pages.length} pages loaded)`,
    frames: summarise(frames),
    timings: {
      "navigation → first history row painted": firstRowPainted,
      [`scroll start → row ${CALLS_TEXT} painted`]: oldestShown,
    },
  });
});
