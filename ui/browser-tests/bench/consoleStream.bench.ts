// Bench: a running console call whose server sends 1,000 progress and log notifications in bursts over about 2 s.
// Records frame times while they arrive and times the first event sent to the last one painted. Never fails on a
// figure; only when the 1,000th event is not shown.
import type { CallEvent } from "../../src/ipc/bindings";
import { historyEntry } from "../fixtures";
import { channelOf, type MockChannel } from "../ipc";
import { expect, test } from "../test";
import { reportFigures, summarise } from "./benchFigures";
import { lastProgressText, type StreamPlan, streamCallEvents } from "./callEventStream";
import { markFromNow, markTime } from "./firstFrameShowing";
import { recordFrames } from "./frameRecorder";

/** 1,000 events: 40 bursts of 25, one every 50 ms, as a server reporting a long job's progress chattily would. */
const PLAN: StreamPlan = { count: 1_000, bursts: 40, everyMs: 50 };
const COUNT_TEXT = PLAN.count.toLocaleString("en");

test(`Console, a ${COUNT_TEXT}-event stream: frames while it arrives, last one painted`, async ({ page, ipc, open }, info) => {
  let streamOpened!: (channel: MockChannel<CallEvent[]>) => void;
  const opened = new Promise<MockChannel<CallEvent[]>>((resolve) => (streamOpened = resolve));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  ipc.respond({
    runToolCall: async (_callId, server, tool, args, onEvent) => {
      streamOpened(channelOf(onEvent));
      // The call stays running until the stream was measured, as a real long call would.
      await finished;
      return historyEntry({ id: 9, server, tool, arguments: args });
    },
  });
  await open("/console?server=files&tool=read_file");
  await page.getByRole("textbox", { name: /path/ }).fill("/var/log/big.log");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const channel = await opened;
  await expect(page.getByText("Running… (Escape cancels)")).toBeVisible();

  const recording = await recordFrames(page);
  const lastEventRendered = `ol[aria-label="Notifications"] > li[aria-setsize="${PLAN.count}"]`;
  await markFromNow(page, { name: "lastEvent", selector: lastEventRendered });
  const { firstSentAt, lastSentAt } = await streamCallEvents(page, channel, PLAN);
  const lastPainted = await markTime(page, "lastEvent");
  const frames = await recording.stop();

  await expect(page.getByText(lastProgressText(PLAN.count))).toBeVisible();
  await expect(page.getByRole("list", { name: "Notifications" }).getByRole("listitem").first()).toHaveAttribute(
    "aria-setsize",
    String(PLAN.count),
  );
  finish();
  await expect(page.getByRole("status").filter({ hasText: "Done in" })).toBeVisible();

  await reportFigures(info, {
    scenario: `Console, ${COUNT_TEXT}-event stream`,
    measured: `${PLAN.bursts} bursts of ${PLAN.count / PLAN.bursts} every ${PLAN.everyMs} ms, until the last is painted`,
    frames: summarise(frames),
    timings: {
      [`first event sent → event ${COUNT_TEXT} painted`]: lastPainted - firstSentAt,
      [`last event sent → event ${COUNT_TEXT} painted`]: lastPainted - lastSentAt,
    },
  });
});
