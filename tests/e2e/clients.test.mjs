// The Clients screen of the real app over the isolated HOME: connecting Cursor shows the exact change first, writes
// only once confirmed, and Cursor's file then holds exactly one more entry (this Plugboard's command) with every
// byte of the person's own text kept; disconnecting and restoring give the file back. And the app that stays up:
// with the HTTP gateway on, closing the window (as a window manager's close button does) only hides it, and the
// gateway still answers a client holding the token.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

import { gatewayToken } from "../gateway/client.mjs";
import { cliBin, freePort, listening } from "../support/system.mjs";
import { appPid, everythingServer, launchApp, screenshot, writeConfig } from "./app.mjs";

const WAIT = { timeout: 20_000 };
const here = dirname(fileURLToPath(import.meta.url));

/** Cursor's file in the isolated HOME: a comment, another server, settings of its own. */
const CURSOR_TEXT = `{
  // my servers
  "mcpServers": {
    "docs": { "url": "https://docs.example/mcp" }
  },
  "other": [1, 2]
}
`;

function cursorPath() {
  return join(process.env.HOME, ".cursor", "mcp.json");
}

/** The file's JSON with its line comments taken out (the fixture has no comment markers inside strings). */
function parseJsonc(text) {
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, "").replace(/,(\s*[}\]])/g, "$1"));
}

/** Opens the Clients screen and returns Cursor's card. */
async function cursorCard(browser) {
  await (await browser.$("=Clients")).click();
  await (await browser.$("h1=Clients")).waitForDisplayed(WAIT);
  const card = await browser.$('//article[.//h2[normalize-space()="Cursor"]]');
  await card.waitForDisplayed(WAIT);
  return card;
}

describe("the Clients screen", () => {
  let browser;
  before(async () => {
    writeConfig({ mcpServers: { everything: { command: everythingServer(), args: ["stdio"], tools: ["echo"] } } });
    mkdirSync(dirname(cursorPath()), { recursive: true });
    writeFileSync(cursorPath(), CURSOR_TEXT);
    browser = await launchApp();
  });
  after(async () => browser?.deleteSession());

  test("connecting Cursor shows the change, writes it once confirmed, and says what to do next", async () => {
    const card = await cursorCard(browser);
    await browser.waitUntil(async () => (await card.getText()).includes("Found"), WAIT);
    await (await card.$("button=Connect Cursor")).click();
    const dialog = await browser.$('//*[@role="dialog"]');
    await dialog.waitForDisplayed(WAIT);
    const diff = await dialog.$('[aria-label="The change to the file"]');
    await diff.waitForDisplayed(WAIT);
    const command = realpathSync(cliBin());
    const shown = await diff.getText();
    assert.match(shown, /\+\s+"plugboard": \{/);
    assert.ok(shown.includes(`"command": "${command}"`), shown);
    await screenshot(browser, "clients-connect-diff");
    assert.equal(readFileSync(cursorPath(), "utf8"), CURSOR_TEXT, "nothing is written before the confirmation");

    await (await dialog.$("button=Write this change")).click();
    await (await dialog.$("p*=Next:")).waitForDisplayed(WAIT);
    const written = readFileSync(cursorPath(), "utf8");
    assert.deepEqual(parseJsonc(written), {
      mcpServers: {
        docs: { url: "https://docs.example/mcp" },
        plugboard: { command, args: ["serve", "--stdio"] },
      },
      other: [1, 2],
    });
    // Every line of the person's text is still there, but the one that takes a comma before the new entry.
    const kept = CURSOR_TEXT.split("\n").filter((line) => written.split("\n").includes(line));
    assert.ok(kept.length >= CURSOR_TEXT.split("\n").length - 1, written);
    assert.ok(written.includes("// my servers"));
    await (await dialog.$("button=Close")).click();
    await dialog.waitForDisplayed({ ...WAIT, reverse: true });
    await browser.waitUntil(async () => (await card.getText()).includes("Connected"), WAIT);
    await screenshot(browser, "clients");
  });

  test("restoring gives back the very bytes; disconnecting takes only the entry out", async () => {
    const card = await cursorCard(browser);
    await confirmIn(browser, card, "Restore its file", "Put the old file back", "as it was before Plugboard changed it");
    assert.equal(readFileSync(cursorPath(), "utf8"), CURSOR_TEXT);
    await browser.waitUntil(async () => (await card.getText()).includes("Found"), WAIT);

    await confirmIn(browser, card, "Connect Cursor", "Write this change", "Next:");
    assert.notEqual(readFileSync(cursorPath(), "utf8"), CURSOR_TEXT);
    await confirmIn(browser, card, "Disconnect", "Remove the entry", "no longer launches Plugboard");
    assert.equal(readFileSync(cursorPath(), "utf8"), CURSOR_TEXT, "only the entry (and its comma) went");
  });
});

/** Presses `action` in `card`, checks a diff is shown, confirms with `confirm`, waits for `done`, closes the dialog. */
async function confirmIn(browser, card, action, confirm, done) {
  const button = await card.$(`button=${action}`);
  await button.waitForClickable(WAIT);
  await button.click();
  const dialog = await browser.$('//*[@role="dialog"]');
  await (await dialog.$('[aria-label="The change to the file"]')).waitForDisplayed(WAIT);
  const write = await dialog.$(`button=${confirm}`);
  await write.waitForClickable(WAIT);
  await write.click();
  await (await dialog.$(`p*=${done}`)).waitForDisplayed(WAIT);
  await (await dialog.$("button=Close")).click();
  await dialog.waitForDisplayed({ ...WAIT, reverse: true });
}

describe("closing the window while the HTTP gateway runs", () => {
  let browser;
  let port;
  before(async () => {
    writeConfig({ mcpServers: { everything: { command: everythingServer(), args: ["stdio"], tools: ["echo"] } } });
    port = await freePort();
    // The endpoint switched on, as Settings saves it.
    const data = join(process.env.XDG_DATA_HOME, "plugboard");
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, "gateway-endpoint.json"), JSON.stringify({ enabled: true, port }));
    browser = await launchApp();
    await listening(port);
  });
  after(async () => {
    await browser?.deleteSession();
    writeFileSync(join(process.env.XDG_DATA_HOME, "plugboard", "gateway-endpoint.json"), JSON.stringify({ enabled: false, port }));
  });

  test("hides the window, and the gateway still answers an authorized client", async () => {
    const pid = appPid();
    assert.ok(pid, "the app runs");
    execFileSync("python3", [join(here, "..", "support", "close_window.py"), "Plugboard"]);
    await browser.waitUntil(() => !mapped("Plugboard"), { ...WAIT, timeoutMsg: "the window is still shown" });
    assert.equal(appPid(), pid, "the app is still running");

    const client = new Client({ name: "e2e-after-close", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${gatewayToken()}` } },
    });
    await client.connect(transport);
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["mcp__everything__echo"]);
    const result = await client.callTool({ name: "mcp__everything__echo", arguments: { message: "window closed" } });
    assert.match(JSON.stringify(result.content), /window closed/);
    await client.close();
  });
});

/** Whether a top-level window titled `title` is shown on the test display. */
function mapped(title) {
  const tree = execFileSync("xwininfo", ["-root", "-children"]).toString();
  const ids = [...tree.matchAll(/^\s+(0x[0-9a-f]+) "([^"]*)"/gm)].filter((m) => m[2] === title).map((m) => m[1]);
  return ids.some((id) => execFileSync("xwininfo", ["-id", id]).toString().includes("Map State: IsViewable"));
}
