// Browser flows of the Add server dialog: it shows the servers.json entry it will save, checks it with the core and
// saves exactly that text (a local command, or a remote URL with its transport), then opens the new server's page.
import { expect, test } from "./test";

test("Add server shows the entry it will save and saves exactly that", async ({ page, ipc, open }) => {
  await open("/servers");
  await page.getByRole("button", { name: "Add server" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a server" });
  await dialog.getByRole("textbox", { name: "Name" }).fill("everything");
  await dialog.getByRole("textbox", { name: "Program" }).fill("npx");
  await dialog.getByRole("textbox", { name: /Arguments/ }).fill("-y\n@modelcontextprotocol/server-everything\n--label 'a b'");

  const expected = JSON.stringify(
    { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything", "--label 'a b'"] },
    null,
    2,
  );
  const shown = dialog.getByRole("region", { name: "The entry that will be saved" });
  await expect(shown.locator("pre")).toHaveText(expected);
  await expect.poll(() => ipc.calls("checkServerEntry").at(-1)).toEqual(["everything", expected]);

  await dialog.getByRole("button", { name: "Add server" }).click();
  await expect(page).toHaveURL(/#\/servers\/everything$/);
  expect(ipc.calls("addServer")).toEqual([["everything", expected, []]]);
});

test("Add server with a remote URL and a chosen transport saves its type", async ({ page, ipc, open }) => {
  await open("/servers");
  await page.getByRole("button", { name: "Add server" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a server" });
  await dialog.getByRole("textbox", { name: "Name" }).fill("legacy");
  await dialog.getByRole("radio", { name: "A remote URL" }).check();
  await dialog.getByRole("textbox", { name: "URL" }).fill("https://mcp.example.com/sse");
  await dialog.getByRole("combobox", { name: "Transport" }).selectOption("Legacy SSE");

  const expected = JSON.stringify({ type: "sse", url: "https://mcp.example.com/sse" }, null, 2);
  await expect(dialog.getByRole("region", { name: "The entry that will be saved" }).locator("pre")).toHaveText(expected);
  await dialog.getByRole("button", { name: "Add server" }).click();
  await expect.poll(() => ipc.calls("addServer")).toEqual([["legacy", expected, []]]);
});

test("Add server keeps a secret header out of the entry and sends it for the keychain", async ({ page, ipc, open }) => {
  await open("/servers");
  await page.getByRole("button", { name: "Add server" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a server" });
  // The dialog opens ready to type: the focus is in Name, not on the close button.
  await expect(dialog.getByRole("textbox", { name: "Name" })).toBeFocused();
  await dialog.getByRole("textbox", { name: "Name" }).fill("api");
  await dialog.getByRole("radio", { name: "A remote URL" }).check();
  await dialog.getByRole("textbox", { name: "URL" }).fill("https://mcp.example.com/mcp");
  await dialog.getByRole("button", { name: "Add header" }).click();
  await dialog.getByRole("textbox", { name: "header 1 name" }).fill("Authorization");
  await dialog.getByRole("checkbox", { name: "Secret" }).check();
  await dialog.getByLabel("header 1 value").fill("Bearer sk-live-123");

  const expected = JSON.stringify(
    { url: "https://mcp.example.com/mcp", headers: { Authorization: "${secret:AUTHORIZATION}" } },
    null,
    2,
  );
  await expect(dialog.getByRole("region", { name: "The entry that will be saved" }).locator("pre")).toHaveText(expected);
  await expect(dialog).not.toContainText("sk-live-123");
  await dialog.getByRole("button", { name: "Add server" }).click();
  await expect.poll(() => ipc.calls("addServer")).toEqual([
    ["api", expected, [{ name: "AUTHORIZATION", value: "Bearer sk-live-123" }]],
  ]);
  // The new page's title has the focus the closed dialog had.
  await expect(page.getByRole("heading", { level: 1, name: "api" })).toBeFocused();
});
