// Browser flow of the Import wizard: the configs found → a review with a choice for the conflict → apply → a summary,
// with the literal secret only ever named ("will move to keychain", then how many moved), never shown; files and
// entries left out, Local only, and the Import button in view however long the review.
import { CURSOR_PATH, cursorFile, entry, launching, launchingFiles, plan, PROJECT_PATH } from "../src/test/importFixtures";
import { rejectWith } from "./ipc";
import { expect, test } from "./test";

const TOKEN = "ghp_s3cr3tT0k3nValue";

test("sources → review with a conflict choice → apply → summary", async ({ page, ipc, open }) => {
  await open("/import");
  await expect(page.getByRole("list", { name: "Configs found" })).toContainText(CURSOR_PATH);
  await page.getByRole("button", { name: "Review 4 entries" }).click();

  const review = page.getByRole("heading", { level: 2, name: "Review what will be imported" });
  await expect(review).toBeFocused();
  await expect(page.getByText(/1 new · 1 identical · 1 conflict · 1 invalid/)).toBeVisible();
  await expect(page.getByText("Will move to keychain: env.GITHUB_TOKEN")).toBeVisible();
  await page.getByRole("combobox", { name: "What to do with linear" }).selectOption("rename");
  await page.getByRole("button", { name: "Import 2 servers" }).click();

  await expect(page.getByRole("heading", { level: 2, name: "Import finished" })).toBeFocused();
  expect(ipc.calls("applyImport")).toEqual([[[{ name: "linear", path: CURSOR_PATH, choice: "rename" }]]]);
  await expect(page.getByRole("list", { name: "Added" })).toHaveText("github");
  await expect(page.getByRole("list", { name: "Kept both, renamed" })).toHaveText("linear → linear-2");
  await expect(page.getByText(/1 secret moved to the keychain/)).toBeVisible();
  // The fixtures never hand the UI a secret's value; nothing on any step may look like one either.
  await expect(page.locator("body")).not.toContainText(TOKEN);

  await page.getByRole("link", { name: "Go to Servers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Servers" })).toBeVisible();
});

test("a failed apply says nothing was written and keeps the choices", async ({ page, ipc, open }) => {
  ipc.respond({ applyImport: rejectWith({ code: "KeychainUnavailable", message: "no keychain" }) });
  await open("/import");
  await page.getByRole("button", { name: "Review 4 entries" }).click();
  await page.getByRole("combobox", { name: "What to do with linear" }).selectOption("overwrite");
  await page.getByRole("button", { name: "Import 2 servers" }).click();
  await expect(page.getByRole("alert")).toHaveText("The import failed and nothing was written: no keychain");
  await expect(page.getByRole("combobox", { name: "What to do with linear" })).toHaveValue("overwrite");
});

// Pins: an unticked file and an unticked entry reach apply_import as skip choices with their file's path, the
// conflict as picked, and nothing else.
test("unticked file and entry → apply_import gets exactly their skips and the conflict's pick", async ({ page, ipc, open }) => {
  ipc.respond({ planImport: plan(launchingFiles()) });
  await open("/import");
  await page.getByRole("button", { name: "Review 6 entries" }).click();
  await expect(page.getByText("npx -y @modelcontextprotocol/server-github")).toBeVisible();
  await expect(page.getByText("https://mcp.sentry.dev/mcp")).toBeVisible();

  await page.getByRole("checkbox", { name: `Import this file ${PROJECT_PATH}` }).uncheck();
  await page.getByRole("checkbox", { name: "Add sentry" }).uncheck();
  await page.getByRole("combobox", { name: "What to do with linear" }).selectOption("rename");
  await expect(page.getByRole("checkbox", { name: "Add sqlite" })).toBeDisabled();
  await page.getByRole("button", { name: "Import 2 servers" }).click();

  await expect(page.getByRole("heading", { level: 2, name: "Import finished" })).toBeFocused();
  expect(ipc.calls("applyImport")).toEqual([
    [
      [
        { name: "sentry", path: CURSOR_PATH, choice: "skip" },
        { name: "linear", path: CURSOR_PATH, choice: "rename" },
        { name: "sqlite", path: PROJECT_PATH, choice: "skip" },
        { name: "notion", path: PROJECT_PATH, choice: "skip" },
      ],
    ],
  ]);
});

// Pins: Local only sends skip for every remote new or conflicting entry and keeps the local ones.
test("Local only → apply_import skips every remote entry", async ({ page, ipc, open }) => {
  ipc.respond({ planImport: plan(launchingFiles()) });
  await open("/import");
  await page.getByRole("button", { name: "Review 6 entries" }).click();
  await page.getByRole("checkbox", { name: /^Local only/ }).check();
  await expect(page.getByRole("checkbox", { name: "Add notion" })).not.toBeChecked();
  await page.getByRole("button", { name: "Import 2 servers" }).click();
  await expect.poll(() => ipc.calls("applyImport")).toEqual([
    [
      [
        { name: "sentry", path: CURSOR_PATH, choice: "skip" },
        { name: "linear", path: CURSOR_PATH, choice: "skip" },
        { name: "notion", path: PROJECT_PATH, choice: "skip" },
      ],
    ],
  ]);
});

// Pins: with 40 entries the Import button stays on screen at the top and at the end of the list, nothing scrolled.
test("the Import button stays in view however long the review", async ({ page, ipc, open }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const entries = Array.from({ length: 40 }, (_, i) =>
    launching(entry({ name: `server-${i}`, outcome: { kind: "new" } }), "stdio", `npx -y @example/server-${i}`),
  );
  ipc.respond({ planImport: plan([cursorFile({ entries })]) });
  await open("/import");
  await page.getByRole("button", { name: "Review 40 entries" }).click();
  const importButton = page.getByRole("button", { name: "Import 40 servers" });
  await expect(importButton).toBeInViewport();
  await page.getByRole("checkbox", { name: "Add server-39" }).scrollIntoViewIfNeeded();
  await expect(importButton).toBeInViewport();
  // The footer does not cover the last entry once the list is scrolled to its end.
  await page.getByRole("checkbox", { name: "Add server-39" }).uncheck();
  await expect(page.getByRole("button", { name: "Import 39 servers" })).toBeInViewport();
});
