// Bench: the Servers page with 200 servers. Times navigation to the first row painted, then records frame times
// while the table is scrolled from top to bottom with the mouse wheel. Never fails on a figure; only when the list
// did not paint or the last server was not reached.
import { generated, serveMany } from "../manyServers";
import { expect, test } from "../test";
import { reportFigures, summarise } from "./benchFigures";
import { markFromNavigation, markTime } from "./firstFrameShowing";
import { recordFrames } from "./frameRecorder";
import { wheelToEnd } from "./wheelScroll";

const SERVERS = 200;
/** About one notch of a mouse wheel. */
const WHEEL_STEP_PX = 100;

test(`Servers page, ${SERVERS} servers: first row painted, then wheeled to the last`, async ({ page, ipc, open }, info) => {
  serveMany(ipc, generated(SERVERS));
  await markFromNavigation(page, { name: "firstRow", selector: "tbody[data-server] th a" });
  await open("/servers");
  const firstRowPainted = await markTime(page, "firstRow");
  const table = page.getByRole("table", { name: "Configured servers" });
  await expect(table.getByRole("rowheader", { name: "server-000" })).toBeVisible();
  // The statuses arrive by their own command: scrolling before they show would time a table still filling in.
  await expect(page.getByRole("button", { name: "Failed 67" })).toBeVisible();

  const recording = await recordFrames(page);
  const steps = await wheelToEnd(page, {
    over: table.getByRole("rowheader", { name: "server-000" }),
    scroller: "div:has(> table)",
    last: 'tbody[data-server="server-199"]',
    stepPx: WHEEL_STEP_PX,
    maxSteps: 1_000,
  });
  const frames = await recording.stop();
  await expect(table.getByRole("rowheader", { name: "server-199" })).toBeVisible();

  await reportFigures(info, {
    scenario: `Servers page, ${SERVERS} servers`,
    measured: `wheel scroll top to bottom (${steps} steps of ${WHEEL_STEP_PX} px)`,
    frames: summarise(frames),
    timings: { "navigation → first row painted": firstRowPainted },
  });
});
