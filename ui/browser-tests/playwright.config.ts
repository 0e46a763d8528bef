// Playwright config for the browser tests: the built UI in Debian's Chromium (/usr/bin/chromium, never a downloaded
// browser), headless, with the Tauri IPC mocked in every page (see test.ts). Run with `npm run test:browser`.
import { defineConfig } from "@playwright/test";

const asRoot = process.getuid?.() === 0;

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.browser.ts",
  globalSetup: "./serveDist.ts",
  // Two busy cores: one Chromium per core; a test waits for conditions, never for fixed times.
  workers: 2,
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "../node_modules/.cache/browser-tests",
  use: {
    browserName: "chromium",
    // Set by serveDist.ts (global setup) before the workers start.
    baseURL: process.env.PLUGBOARD_UI_URL,
    viewport: { width: 1280, height: 800 },
    colorScheme: "light",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.PLUGBOARD_CHROMIUM ?? "/usr/bin/chromium",
      // Chromium's sandbox refuses to start as root (CI containers and this machine run tests as root). Turning it
      // off is acceptable only because these pages load nothing but our own built UI from 127.0.0.1 with the IPC
      // mocked: no remote content, no real backend. As any other user the sandbox stays on.
      chromiumSandbox: !asRoot,
    },
  },
});
