// A server's resources and prompts change while its page is open in the real app: the testserver adds one when a
// client of the window's own HTTP gateway calls add_resource or add_prompt, says so (list_changed), and the tab
// shows it without any navigation. (The page shows what the server offers; a new prompt is withheld from the
// gateway's clients until approved, which tests/gateway/resources-prompts.test.mjs pins.)
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

import { gatewayToken } from "../gateway/client.mjs";
import { freePort, listening, testServer } from "../support/system.mjs";
import { launchApp, screenshot, writeConfig } from "./app.mjs";

const WAIT = { timeout: 30_000 };
// An extra argument the server ignores, so its process is this run's.
const MARKER = `plugboard-e2e-list-changed-${process.pid}`;

/** Clicks the tab named `name` on the server's page. */
async function openTab(browser, name) {
  const tab = await browser.$(`//button[@role="tab"][normalize-space()="${name}"]`);
  await tab.waitForClickable(WAIT);
  await tab.click();
  await browser.waitUntil(async () => (await tab.getAttribute("aria-selected")) === "true", WAIT);
}

/** The text of the open tab's panel. */
async function panelText(browser) {
  return (await browser.$('[role="tabpanel"][data-state="active"]')).getText();
}

describe("a server's lists changing while its page is open", () => {
  let browser;
  let client;
  let port;
  before(async () => {
    writeConfig({ mcpServers: { growing: { command: testServer(), args: ["--list-changed", "--tag", MARKER] } } });
    port = await freePort();
    // The endpoint switched on, as Settings saves it.
    const data = join(process.env.XDG_DATA_HOME, "plugboard");
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, "gateway-endpoint.json"), JSON.stringify({ enabled: true, port }));
    browser = await launchApp();
    await browser.setWindowSize(1024, 768).catch(() => {});
    await listening(port);
    const table = await browser.$("table");
    await table.waitForDisplayed(WAIT);
    await browser.waitUntil(async () => /Ready · \d+ tools?/.test(await table.getText()), WAIT);
    await (await browser.$('//table//a[normalize-space()="growing"]')).click();
    await browser.waitUntil(async () => (await browser.$("h1").getText()) === "growing", WAIT);

    client = new Client({ name: "e2e-list-changed", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${gatewayToken()}` } },
    });
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    await browser?.deleteSession();
    writeFileSync(join(process.env.XDG_DATA_HOME, "plugboard", "gateway-endpoint.json"), JSON.stringify({ enabled: false, port }));
  });

  test("a resource the server adds appears in the open Resources tab", async () => {
    await openTab(browser, "Resources");
    await browser.waitUntil(async () => (await panelText(browser)).includes("The server lists no resources."), WAIT);

    await client.callTool({ name: "mcp__growing__add_resource", arguments: { name: "fresh-resource" } });

    await browser.waitUntil(async () => (await panelText(browser)).includes("fresh-resource"), {
      ...WAIT,
      timeoutMsg: "the new resource never showed in the open tab",
    });
    assert.match(await panelText(browser), /test:\/\/fresh-resource/);
    await screenshot(browser, "list-changed-resources");
  });

  test("a prompt the server adds appears in the open Prompts tab", async () => {
    await openTab(browser, "Prompts");
    await browser.waitUntil(async () => (await panelText(browser)).includes("The server offers no prompts."), WAIT);

    await client.callTool({ name: "mcp__growing__add_prompt", arguments: { name: "fresh-prompt" } });

    await browser.waitUntil(async () => (await panelText(browser)).includes("fresh-prompt"), {
      ...WAIT,
      timeoutMsg: "the new prompt never showed in the open tab",
    });
  });
});
