// Playwright reporter for the UI benches: collects each scenario's figures (attached by benchFigures.ts) and prints
// them as one aligned table when the run ends, and writes them as JSON to the file PLUGBOARD_BENCH_JSON names, if it
// names one. It only reports: it never judges a figure or changes a test's outcome.
import { writeFileSync } from "node:fs";
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";
import { type BenchFigures, FIGURES_ATTACHMENT, LONG_FRAME_MS } from "./benchFigures";

const ms = (value: number) => value.toFixed(1);

/** Lays out rows of cells in columns: the first `leftAligned` columns padded right, the rest (numbers) left. */
function table(rows: string[][], leftAligned: number): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return column < leftAligned ? cell.padEnd(width) : cell.padStart(width);
      })
      .join("  ")
      .trimEnd(),
  );
}

export default class BenchReporter implements Reporter {
  private readonly figures: BenchFigures[] = [];

  printsToStdio() {
    return false;
  }

  onTestEnd(_test: TestCase, result: TestResult) {
    for (const attachment of result.attachments) {
      if (attachment.name === FIGURES_ATTACHMENT && attachment.body !== undefined) {
        this.figures.push(JSON.parse(attachment.body.toString("utf8")) as BenchFigures);
      }
    }
  }

  onEnd() {
    if (this.figures.length === 0) return;
    const frameRows = this.figures.map(({ scenario, measured, frames }) => [
      scenario,
      measured,
      String(frames.frames),
      ms(frames.p50),
      ms(frames.p95),
      ms(frames.p99),
      ms(frames.max),
      String(frames.longFrames),
      frames.longEntries === null ? "–" : String(frames.longEntries),
      (frames.windowMs / 1000).toFixed(1),
    ]);
    const longFrames = `>${LONG_FRAME_MS}ms`;
    const header = ["scenario", "frames recorded over", "frames", "p50", "p95", "p99", "max", longFrames, "LoAF", "s"];
    const timingRows = this.figures.flatMap(({ scenario, timings }) =>
      Object.entries(timings).map(([what, value]) => [scenario, what, ms(value)]),
    );
    const entryType = this.figures.find((figures) => figures.frames.longEntryType !== null)?.frames.longEntryType;
    const lines = [
      "",
      "UI frame times (ms between animation frames, Chromium headless, IPC mocked)",
      ...table([header, ...frameRows], 2),
      `LoAF: Chromium's ${entryType ?? "long-animation-frame"} entries in the window; s: the window's length.`,
      "",
      "UI timings (ms)",
      ...table(timingRows, 2),
      "",
    ];
    console.log(lines.join("\n"));

    const jsonPath = process.env.PLUGBOARD_BENCH_JSON;
    if (jsonPath !== undefined && jsonPath !== "") {
      const json = { measuredAt: new Date().toISOString(), scenarios: this.figures };
      writeFileSync(jsonPath, `${JSON.stringify(json, null, 2)}\n`);
      console.log(`Figures written to ${jsonPath}`);
    }
  }
}
