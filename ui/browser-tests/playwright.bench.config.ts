// Playwright config for the UI frame-time benchmarks (`bench/*.bench.ts`, `npm run bench:browser`): the test config's
// browser, launch options and served build, but one worker, so no measurement competes with another page. A bench
// prints figures (bench/benchReporter.ts); it never fails on a figure, only when what it measures did not happen.
import { defineConfig } from "@playwright/test";
import browserTests from "./playwright.config";

export default defineConfig({
  ...browserTests,
  testDir: "./bench",
  testMatch: "**/*.bench.ts",
  workers: 1,
  fullyParallel: false,
  // Scrolling 10,000 history rows a wheel step at a time on a busy machine takes a while; the figures say how long.
  timeout: 180_000,
  // Retries would report the figures of a run that once failed to do what it measures.
  retries: 0,
  reporter: [["list"], ["./bench/benchReporter.ts"]],
  outputDir: "../node_modules/.cache/browser-benches",
});
