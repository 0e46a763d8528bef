// Browser flow of the Import wizard: the configs found → a review with a choice for the conflict → apply → a summary,
// with the literal secret only ever named as "moved to keychain", never shown.
import { CURSOR_PATH } from "../src/test/importFixtures";
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
