// Browser flows of a server's page: the allowlist editor saves exactly the ticked tools, the raw config editor shows
// the core's validation error as you type, and a hostile tool description stays inert text.
import { tool } from "./fixtures";
import { expect, test } from "./test";

test("unticking a tool and saving sends set_server_tools with the tools left", async ({ page, ipc, open }) => {
  await open("/servers/files");
  await page.getByRole("checkbox", { name: "write_file" }).click();
  await expect(page.getByRole("radio", { name: /Only the ticked tools/ })).toBeChecked();
  await page.getByRole("button", { name: "Save allowlist" }).click();
  await expect.poll(() => ipc.calls("setServerTools")).toEqual([["files", ["read_file", "list_dir"]]]);
});

test("choosing All tools saves no list at all", async ({ page, ipc, open }) => {
  ipc.respond({
    serverAllowlist: {
      entries: ["read_file"],
      tools: [tool("files", { name: "read_file" }), tool("files", { name: "write_file", allowed: false })],
      unknownEntries: [],
    },
  });
  await open("/servers/files");
  await expect(page.getByRole("checkbox", { name: "write_file" })).not.toBeChecked();
  await page.getByRole("radio", { name: /All tools/ }).check();
  await page.getByRole("button", { name: "Save allowlist" }).click();
  await expect.poll(() => ipc.calls("setServerTools")).toEqual([["files", null]]);
});

test("the config editor shows the core's validation error and will not save", async ({ page, ipc, open }) => {
  ipc.respond({
    checkServerEntry: (_name, entry) =>
      entry.includes("ftp:")
        ? { field: "url", message: "the ftp: scheme is not allowed", line: 2, column: 3 }
        : null,
  });
  await open("/servers/files");
  await page.getByRole("tab", { name: "Config" }).click();
  const editor = page.getByRole("textbox", { name: "Entry of files as JSON" });
  await expect(page.getByText("The entry is valid.")).toBeVisible();

  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  // insertText, not typing: CodeMirror would close each bracket typed.
  await page.keyboard.insertText('{\n  "url": "ftp://example.com"\n}');
  await expect(page.getByText("Line 2, column 3 (url): the ftp: scheme is not allowed")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save entry" })).toHaveAttribute("aria-disabled", "true");
  expect(ipc.calls("checkServerEntry").at(-1)).toEqual(["files", '{\n  "url": "ftp://example.com"\n}']);
  expect(ipc.calls("updateServer")).toEqual([]);
});

test("an XSS payload in a tool's title and description stays inert text", async ({ page, ipc, open }) => {
  const payload = `<img src=x onerror="window.__xss='img';alert(1)"><script>window.__xss='script'</script>`;
  ipc.respond({
    serverAllowlist: {
      entries: null,
      tools: [tool("files", { name: "evil", title: `<b onmouseover=alert(2)>T</b>`, description: payload })],
      unknownEntries: [],
    },
  });
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await open("/servers/files");

  const list = page.getByRole("list", { name: "Tools" });
  await expect(list.getByText(payload)).toBeVisible();
  await expect(list.getByText("<b onmouseover=alert(2)>T</b>")).toBeVisible();
  await list.getByText("<b onmouseover=alert(2)>T</b>").hover();
  expect(await list.locator("img, script, b").count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
