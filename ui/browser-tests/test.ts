// The `test` every browser test imports: a page whose Tauri IPC is mocked by `ipc` (fixtures.ts answers unless the
// test says otherwise), and which fails the test on any uncaught page error or Content Security Policy violation
// (serveDist.ts sends the app's CSP). Never talks to a real backend.
import { test as base, expect, type Page } from "@playwright/test";
import { defaultResponses } from "./fixtures";
import { MockIpc } from "./ipc";
import { watchCsp } from "./watchCsp";

// Fixture bodies name Playwright's `use` callback `provide`: the React hooks lint rule reads `use(` as React's hook.
type Fixtures = {
  /** The page's mocked backend: `respond`, `calls`, `emit`. */
  ipc: MockIpc;
  /** Opens a route of the built app (hash routing, e.g. "/servers") with the IPC mock in place. */
  open: (route: string) => Promise<void>;
};

export const test = base.extend<Fixtures>({
  page: async ({ page }, provide) => {
    const errors: Error[] = [];
    page.on("pageerror", (error) => errors.push(error));
    const violations = await watchCsp(page);
    await provide(page);
    expect(errors, "uncaught errors in the page").toEqual([]);
    expect(violations, "Content Security Policy violations").toEqual([]);
  },
  ipc: async ({ page }, provide) => {
    const ipc = new MockIpc(page, defaultResponses());
    await ipc.install();
    await provide(ipc);
  },
  // Depends on `ipc` so that the mock is installed before the first navigation.
  open: async ({ page, ipc }, provide) => {
    void ipc;
    await provide(async (route) => {
      await page.goto(`/#${route}`);
      // The app is up once the sidebar is (also behind a modal dialog, which hides it from the accessibility tree);
      // pages then load their data through `ipc`.
      await expect(page.getByRole("navigation", { name: "Main", includeHidden: true })).toBeVisible();
    });
  },
});

export { expect, type Page };
