// Browser flows of the Servers page's triage over the 23 servers a new user imported (17 failed offline) and over
// 200 servers: the status counts as filters, search, Show, sort (kept across a visit to a server's page), Retry all
// failed, and the virtualised table.
import { generated, IMPORTED, serveMany } from "./manyServers";
import { expect, test } from "./test";

/** The names of the rows the table has in the DOM, in order. */
async function rowNames(page: import("@playwright/test").Page): Promise<string[]> {
  return page.getByRole("table", { name: "Configured servers" }).getByRole("rowheader").allTextContents();
}

test.beforeEach(({ ipc }) => serveMany(ipc, IMPORTED));

// Pins: a count filters the table to its state and the Show filter follows; Sort by status lists failed first.
test("the Failed count and Sort by status bring the failed servers to the top", async ({ page, open }) => {
  await open("/servers");
  const failed = page.getByRole("button", { name: "Failed 17" });
  await expect(page.getByRole("button", { name: "Ready 5" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Needs login 1" })).toBeVisible();

  await page.getByRole("combobox", { name: "Sort by" }).selectOption("status");
  const sorted = await rowNames(page);
  expect(sorted.slice(0, 3)).toEqual(["aws-kb-retrieval", "brave-search", "everart"]);
  await failed.click();
  await expect(failed).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("combobox", { name: "Show" })).toHaveValue("failed");
  await expect(page.getByText("Showing 17 of 23 servers")).toBeVisible();
  await expect(page.getByRole("row", { name: /filesystem/ })).toHaveCount(0);

  await failed.click();
  await expect(page.getByText("23 servers", { exact: true })).toBeVisible();
});

// Pins: the search matches a URL, a search with no match says so, and Show all servers clears search and filter.
test("search by URL, then an empty result and the way back", async ({ page, open }) => {
  await open("/servers");
  const search = page.getByRole("searchbox", { name: "Search servers" });
  await search.fill("mcp.notion.com");
  await expect.poll(() => rowNames(page)).toEqual(["notion"]);

  await page.getByRole("combobox", { name: "Show" }).selectOption("ready");
  await expect(page.getByText("No ready server matches “mcp.notion.com”.")).toBeVisible();
  await page.getByRole("button", { name: "Show all servers" }).click();
  await expect(search).toHaveValue("");
  await expect(page.getByRole("combobox", { name: "Show" })).toHaveValue("all");
  await expect(page.getByText("23 servers", { exact: true })).toBeVisible();
});

// Pins: a visit to a server's page and back by the sidebar finds the same search, Show filter and sort.
test("the search, filter and sort are kept across a visit to a server's page", async ({ page, open }) => {
  await open("/servers");
  await page.getByRole("searchbox", { name: "Search servers" }).fill("https://");
  await page.getByRole("combobox", { name: "Show" }).selectOption("failed");
  await page.getByRole("combobox", { name: "Sort by" }).selectOption("status");
  await expect.poll(() => rowNames(page)).toEqual(["notion", "sentry", "stripe"]);

  await page.getByRole("link", { name: "notion", exact: true }).click();
  await expect(page).toHaveURL(/#\/servers\/notion$/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Servers" }).click();

  await expect(page.getByRole("searchbox", { name: "Search servers" })).toHaveValue("https://");
  await expect(page.getByRole("combobox", { name: "Show" })).toHaveValue("failed");
  await expect(page.getByRole("combobox", { name: "Sort by" })).toHaveValue("status");
  await expect(page.getByText("Showing 3 of 23 servers")).toBeVisible();
});

// Pins: Retry all failed calls connect_server once for each of the 17 failed servers, says so, and keeps the focus
// when they recover.
test("Retry all failed connects every failed server once", async ({ page, ipc, open }) => {
  await open("/servers");
  const retry = page.getByRole("button", { name: "Retry all failed (17)" });
  await retry.click();
  await expect(page.getByText("Retried 17 failed servers.")).toBeVisible();
  const failedNames = IMPORTED.filter((entry) => entry.status.state === "failed").map((entry) => entry.summary.name);
  expect(ipc.calls("connectServer").map(([name]) => name).sort()).toEqual(failedNames.sort());

  for (const name of failedNames) await ipc.emit("serverStatusChanged", { server: name, status: { state: "connecting" } });
  await expect(page.getByRole("button", { name: "Failed 0" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Connecting 17" })).toBeVisible();
  const idle = page.getByRole("button", { name: "Retry all failed", exact: true });
  await expect(idle).toHaveAttribute("aria-disabled", "true");
  await expect(idle).toBeFocused();
});

// Pins: a failure message the backend wrote in lower case starts with a capital letter in the details.
test("a failed server's error reads as a sentence", async ({ page, open }) => {
  await open("/servers");
  await page.getByRole("searchbox", { name: "Search servers" }).fill("gdrive");
  await page.getByRole("button", { name: "Details for gdrive" }).click();
  await expect(page.getByText("Exited with status 1 before it answered initialize")).toBeVisible();
});

// Pins: the three remote servers whose names did not resolve are said once, above the table: the computer looks
// offline.
test("many failed name lookups say the computer looks offline", async ({ page, open }) => {
  await open("/servers");
  const notice = page.getByRole("status").filter({ hasText: "This computer looks offline" });
  await expect(notice).toContainText("3 remote servers could not look up their addresses");
});

// Pins: with 200 servers only a window of rows is in the DOM; scrolling reaches the last, search and filter find any.
test("200 servers: a window of rows, scrolling, search and filter", async ({ page, ipc, open }) => {
  serveMany(ipc, generated(200));
  await open("/servers");
  await expect(page.getByRole("button", { name: "Failed 67" })).toBeVisible();
  const first = await rowNames(page);
  expect(first[0]).toBe("server-000");
  expect(first.length).toBeLessThan(40);

  const table = page.getByRole("table", { name: "Configured servers" });
  await table.hover();
  for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 2000);
  await expect(table.getByRole("rowheader", { name: "server-199" })).toBeVisible();
  expect((await rowNames(page)).length).toBeLessThan(40);

  await page.getByRole("searchbox", { name: "Search servers" }).fill("--port 3150");
  await expect.poll(() => rowNames(page)).toEqual(["server-150"]);
  await page.getByRole("searchbox", { name: "Search servers" }).fill("server-19");
  await page.getByRole("button", { name: "Failed 67" }).click();
  await expect.poll(() => rowNames(page)).toEqual(["server-192", "server-195", "server-198"]);
});
