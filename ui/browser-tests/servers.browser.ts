// Browser flows of the Servers list: statuses from the backend, live status events, and connect/disconnect.
import { CONFIG_PATH, SERVERS, STATUSES } from "./fixtures";
import { rejectWith } from "./ipc";
import { expect, test } from "./test";

test("lists every server with its status from the backend", async ({ page, open }) => {
  await open("/servers");
  const table = page.getByRole("table", { name: "Configured servers" });
  await expect(table.getByRole("row", { name: /files/ })).toContainText("Ready · 3 tools");
  await expect(table.getByRole("row", { name: /github/ })).toContainText("Stopped");
  await expect(table.getByRole("row", { name: /weather/ })).toContainText("Failed");
});

test("a status event updates the badge without a refetch", async ({ page, ipc, open }) => {
  await open("/servers");
  const github = page.getByRole("row", { name: /github/ });
  await expect(github).toContainText("Stopped");
  const fetched = ipc.calls("serverStatuses").length;

  await ipc.emitWhenHeard("serverStatusChanged", { server: "github", status: { state: "connecting" } });
  await expect(github.getByRole("status")).toHaveText("Connecting…");
  await ipc.emit("serverStatusChanged", {
    server: "github",
    status: { state: "ready", tools: 41, protocolVersion: "2025-06-18", serverName: "github" },
  });
  await expect(github).toContainText("Ready · 41 tools");
  expect(ipc.calls("serverStatuses")).toHaveLength(fetched);
});

test("Connect and Disconnect invoke their commands with the server's name", async ({ page, ipc, open }) => {
  await open("/servers");
  await page.getByRole("button", { name: "Connect github" }).click();
  await expect.poll(() => ipc.calls("connectServer")).toEqual([["github"]]);

  await page.getByRole("button", { name: "Disconnect files" }).click();
  await expect.poll(() => ipc.calls("disconnectServer")).toEqual([["files"]]);
  expect(ipc.calls("connectServer")).toHaveLength(1);
});

test("a failed server's Retry connects it again and its details show the stderr tail", async ({ page, ipc, open }) => {
  await open("/servers");
  const weather = STATUSES.find((entry) => entry.server === "weather");
  expect(weather?.status.state).toBe("failed");
  await page.getByRole("button", { name: "Retry weather" }).click();
  await expect.poll(() => ipc.calls("connectServer")).toEqual([["weather"]]);
  await page.getByRole("row", { name: /weather/ }).getByRole("button", { expanded: false }).click();
  await expect(page.getByText("ModuleNotFoundError: httpx")).toBeVisible();
});


test("a refused connect says why next to the server", async ({ page, ipc, open }) => {
  ipc.respond({ connectServer: rejectWith({ code: "KeychainUnavailable", message: "the keychain is locked" }) });
  await open("/servers");
  await page.getByRole("button", { name: "Connect github" }).click();
  await expect(page.getByRole("row", { name: /github/ })).toContainText("Couldn't connect: the keychain is locked");
});

test("Remove asks first, and only the confirming press removes the server", async ({ page, ipc, open }) => {
  let servers = SERVERS;
  ipc.respond({
    listServers: () => ({ configPath: CONFIG_PATH, servers, invalid: [], fileProblem: null }),
    removeServer: (name) => {
      servers = servers.filter((entry) => entry.name !== name);
      return 1;
    },
  });
  await open("/servers");
  const row = page.getByRole("row", { name: /github/ });
  await row.getByRole("button", { name: "Remove github" }).click();
  await expect(row.getByRole("button", { name: "Keep" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(row.getByRole("group", { name: "Confirm removing github" })).toHaveCount(0);
  expect(ipc.calls("removeServer")).toEqual([]);

  await row.getByRole("button", { name: "Remove github" }).click();
  await row.getByRole("button", { name: "Remove github now" }).click();
  await expect(page.getByRole("row", { name: /github/ })).toHaveCount(0);
  expect(ipc.calls("removeServer")).toEqual([["github"]]);
  await expect(page.getByRole("row", { name: /files/ })).toBeVisible();
});
