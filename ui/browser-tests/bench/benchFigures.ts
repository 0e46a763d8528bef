// The figures one bench scenario reports: its frame times summed up (frames, percentiles, max, long frames) and its
// timings (e.g. navigation → first row painted), handed to benchReporter.ts through a test attachment. Figures are
// only ever printed: nothing here compares them with a threshold.
import type { TestInfo } from "@playwright/test";
import type { FrameTimes } from "./frameRecorder";

/** A frame that took longer than this is a long frame: the page visibly stuttered (three 60 Hz frames missed). */
export const LONG_FRAME_MS = 50;

/** The frame times of one measured window, summed up. */
export type FrameSummary = {
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Frames longer than {@link LONG_FRAME_MS}. */
  longFrames: number;
  /** Chromium's own count of long animation frames (or long tasks) in the window; null where it reports neither. */
  longEntries: number | null;
  longEntryType: FrameTimes["longEntryType"];
  /** How long the window lasted, ms. */
  windowMs: number;
};

/** One scenario's figures, as the reporter prints them and PLUGBOARD_BENCH_JSON receives them. */
export type BenchFigures = {
  scenario: string;
  /** What the frames were recorded over, e.g. "scroll top to bottom, 100 px wheel steps". */
  measured: string;
  frames: FrameSummary;
  /** Named times in ms, e.g. { "navigation → first row painted": 412 }. */
  timings: Record<string, number>;
};

/** The attachment name benchReporter.ts looks for. */
export const FIGURES_ATTACHMENT = "plugboard-bench-figures";

/** The value below which `share` of the sorted values lie (nearest rank). */
function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil(share * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0;
}

export function summarise(times: FrameTimes): FrameSummary {
  const sorted = [...times.deltas].sort((a, b) => a - b);
  return {
    frames: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? 0,
    longFrames: sorted.filter((delta) => delta > LONG_FRAME_MS).length,
    longEntries: times.longEntryType === null ? null : times.longEntries.length,
    longEntryType: times.longEntryType,
    windowMs: times.deltas.reduce((sum, delta) => sum + delta, 0),
  };
}

/** Hands the scenario's figures to the reporter, which prints every scenario's in one table at the end. */
export async function reportFigures(testInfo: TestInfo, figures: BenchFigures) {
  await testInfo.attach(FIGURES_ATTACHMENT, { body: JSON.stringify(figures), contentType: "application/json" });
}
