// Browser flows of a server's page: the allowlist editor saves exactly the ticked tools, the raw config editor shows
// the core's validation error as you type, a hostile tool description stays inert text, and the inspect tabs read a
// resource (also through a template), get a prompt with its arguments and filter the log; an OAuth server shows its
// login facts inert.
import { CONFIG_PATH, server, tool } from "./fixtures";
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
      withheldBesidesTools: [],
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
      withheldBesidesTools: [],
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

test("Resources: Read shows a resource's contents, and a template's filled URI is what is read", async ({
  page,
  ipc,
  open,
}) => {
  await open("/servers/files");
  await page.getByRole("tab", { name: "Resources" }).click();
  await page.getByRole("button", { name: "Read hosts" }).click();
  await expect(page.getByText("contents of file:///etc/hosts", { exact: true })).toBeVisible();

  const template = page.getByRole("form", { name: "Template A person's notes" });
  await template.getByRole("textbox", { name: "user" }).fill("ada lovelace");
  await expect(template.getByText("file:///home/ada%20lovelace/notes.txt")).toBeVisible();
  await template.getByRole("button", { name: "Read" }).click();
  await expect(page.getByText("contents of file:///home/ada%20lovelace/notes.txt", { exact: true })).toBeVisible();
  expect(ipc.calls("readResource")).toEqual([
    ["files", "file:///etc/hosts"],
    ["files", "file:///home/ada%20lovelace/notes.txt"],
  ]);
});

test("Prompts: Get prompt sends the arguments filled in (empty optional ones left out) and shows the messages", async ({
  page,
  ipc,
  open,
}) => {
  await open("/servers/files");
  await page.getByRole("tab", { name: "Prompts" }).click();
  await page.getByRole("button", { name: /Summarise a file/ }).click();
  const form = page.getByRole("form", { name: "Arguments of Summarise a file" });
  await form.getByRole("textbox", { name: /path/ }).fill("/etc/hosts");
  await form.getByRole("button", { name: "Get prompt" }).click();
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages).toContainText("summarise /etc/hosts");

  await form.getByRole("textbox", { name: "style" }).fill("brief");
  await form.getByRole("button", { name: "Get prompt" }).click();
  await expect(messages).toContainText("summarise /etc/hosts brief");
  expect(ipc.calls("getPrompt")).toEqual([
    ["files", "summarise", { path: "/etc/hosts" }],
    ["files", "summarise", { path: "/etc/hosts", style: "brief" }],
  ]);
});

test("Log: the level filter hides the quieter lines, and a live line arrives by event", async ({ page, ipc, open }) => {
  await open("/servers/files");
  await page.getByRole("tab", { name: "Log" }).click();
  const lines = page.getByRole("list", { name: "Log lines" });
  await expect(page.getByText("3 of 3 lines")).toBeVisible();
  await expect(lines).toContainText("watching /etc");

  await page.getByRole("combobox", { name: "Show" }).selectOption("warning and above");
  await expect(page.getByText("1 of 3 lines")).toBeVisible();
  await expect(lines).toContainText("cannot read /root");
  await expect(lines).not.toContainText("watching /etc");
  await expect(lines).not.toContainText("ready to serve");

  await ipc.emitWhenHeard("serverMessaged", {
    server: "files",
    seq: 4,
    atMs: Date.now(),
    level: "critical",
    logger: null,
    message: "<img src=x onerror=alert(1)> disk full",
  });
  await expect(lines).toContainText("<img src=x onerror=alert(1)> disk full");
  await expect(page.getByText("2 of 4 lines")).toBeVisible();
  expect(await lines.locator("img").count()).toBe(0);
});

test("an OAuth server's page shows its login facts, the authorization server's text inert", async ({ page, ipc, open }) => {
  ipc.respond({
    listServers: {
      configPath: CONFIG_PATH,
      servers: [server({ name: "linear", transport: "streamableHttp", target: "https://mcp.linear.app/mcp", oauth: true })],
      invalid: [],
      fileProblem: null,
    },
    serverLoginState: {
      loggedIn: true,
      issuer: "<img src=x onerror=alert(1)>https://linear.app",
      scopes: ["read", "<b>admin</b>"],
      expiresAtMs: null,
      renewsByItself: true,
      clientId: "plugboard-client",
      boundToKey: false,
    },
  });
  await open("/servers/linear");
  const login = page.getByRole("region", { name: "Login" });
  await expect(login.getByText("Logged in")).toBeVisible();
  await expect(login.getByText("<img src=x onerror=alert(1)>https://linear.app")).toBeVisible();
  await expect(login.getByText("read <b>admin</b>")).toBeVisible();
  expect(await login.locator("img, b").count()).toBe(0);
  expect(ipc.calls("serverLoginState")).toContainEqual(["linear"]);
});
