// Browser flows of the app shell: the first-run view (import offered, or how to add a server), and reaching every
// section through the sidebar with the keyboard alone.
import { SECTIONS } from "../src/shell/sections";
import { sources } from "../src/test/importFixtures";
import { CONFIG_PATH } from "./fixtures";
import { expect, test } from "./test";

const NO_SERVERS = { configPath: CONFIG_PATH, servers: [], invalid: [], fileProblem: null };

test("first run with another client's config offers to import it", async ({ page, ipc, open }) => {
  ipc.respond({ listServers: NO_SERVERS });
  await open("/servers");
  await expect(page.getByRole("heading", { name: "No servers yet" })).toBeVisible();
  await page.getByRole("link", { name: "Import from Cursor" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Import" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Review 4 entries" })).toBeVisible();
});

test("first run with nothing to import says how to add a server and where the file is", async ({ page, ipc, open }) => {
  ipc.respond({ listServers: NO_SERVERS, detectImportSources: sources({ found: [] }) });
  await open("/servers");
  await expect(page.getByText(/No other MCP client's config was found here/)).toBeVisible();
  await expect(page.getByText(CONFIG_PATH)).toBeVisible();
  await expect(page.getByRole("link", { name: /Import from/ })).toHaveCount(0);
});

test("every section is reachable through the sidebar with Tab and Enter", async ({ page, open }) => {
  await open("/servers");
  await expect(page.getByRole("heading", { level: 1, name: "Servers" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  // The sidebar comes first in tab order; after Enter focus stays on the link, so Tab goes on to the next section.
  for (const section of SECTIONS) {
    await page.keyboard.press("Tab");
    const link = nav.getByRole("link", { name: section.label });
    await expect(link).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`#${section.path}$`));
    await expect(link).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  // And back up the sidebar with Shift+Tab.
  for (let step = 1; step < SECTIONS.length; step++) await page.keyboard.press("Shift+Tab");
  await expect(nav.getByRole("link", { name: "Servers" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Servers" })).toBeVisible();
});
