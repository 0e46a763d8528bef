// The Settings screen of the real app: the real Secret Service of the harness is reported as in use, the paths are
// the isolated HOME's, starting at login writes (and removes) the desktop's autostart entry, which starts Plugboard
// hidden, choosing the dark theme repaints the window (and is remembered after a restart), and the
// gateway's HTTP endpoint, switched on there, serves the window's servers to the TypeScript SDK client holding the
// token (read by the `plugboard` command from the same keychain), comes back after a restart, and goes when off.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

import { gatewayToken } from "../gateway/client.mjs";
import { freePort, listening } from "../support/system.mjs";
import { configPath, everythingServer, launchApp, screenshot, writeConfig } from "./app.mjs";

const WAIT = { timeout: 20_000 };

/** The body's background colour (the canvas token), as the browser computed it. */
async function canvasColour(browser) {
  return browser.execute(() => getComputedStyle(document.body).backgroundColor);
}

describe("settings", () => {
  let browser;
  before(async () => {
    browser = await launchApp();
  });
  after(async () => browser?.deleteSession());

  // The keychain in use, the config path of this HOME, and the version are shown.
  test("shows the keychain and the files", async () => {
    await (await browser.$("=Settings")).click();
    const heading = await browser.$("h1=Settings");
    await heading.waitForDisplayed(WAIT);
    await (await browser.$("span=OS keychain")).waitForDisplayed(WAIT);
    await (await browser.$(`span=${configPath()}`)).waitForDisplayed(WAIT);
    await screenshot(browser, "settings");
  });

  // Off at first; on, the autostart entry of the isolated HOME launches this window binary with --hidden; off again,
  // it is gone.
  test("starts at login only when asked", async () => {
    const autostart = join(process.env.HOME, ".config", "autostart");
    const entries = () => (existsSync(autostart) ? readdirSync(autostart) : []);
    const box = await browser.$("label*=Start Plugboard when I log in").$("input");
    await box.waitForEnabled(WAIT);
    assert.equal(await box.isSelected(), false);
    assert.deepEqual(entries(), []);
    await box.click();
    await browser.waitUntil(async () => (await box.isSelected()) && entries().length === 1, WAIT);
    const entry = readFileSync(join(autostart, entries()[0]), "utf8");
    assert.match(entry, /^Exec=.*plugboard-desktop --hidden$/m);
    await box.click();
    await browser.waitUntil(async () => !(await box.isSelected()) && entries().length === 0, WAIT);
  });

  // Dark repaints the window at once; after a restart the choice is still applied.
  test("switches to the dark theme and keeps it", async () => {
    await (await browser.$("label*=Light")).click();
    const light = await canvasColour(browser);
    await (await browser.$("label*=Dark")).click();
    const dark = await canvasColour(browser);
    assert.notEqual(dark, light, "the theme changes the colours");
    assert.equal(await browser.execute(() => document.documentElement.dataset.theme), "dark");
    await screenshot(browser, "settings-dark");

    await browser.deleteSession();
    browser = await launchApp();
    await (await browser.$("h1")).waitForDisplayed(WAIT);
    assert.equal(await browser.execute(() => document.documentElement.dataset.theme), "dark");
    assert.equal(await canvasColour(browser), dark);
  });
});

describe("the window's gateway endpoint", () => {
  let browser;
  let port;
  before(async () => {
    writeConfig({ mcpServers: { everything: { command: everythingServer(), args: ["stdio"], tools: ["echo"] } } });
    port = await freePort();
    browser = await launchApp();
    await (await browser.$("=Settings")).click();
    await (await browser.$("h2=Gateway for other apps")).waitForDisplayed(WAIT);
  });
  after(async () => browser?.deleteSession());

  /**
   * Types `value` into the port field, replacing what is there. The field's text is selected by the page (`select()`
   * changes no value, so React has nothing to undo) and the typed digits replace the selection through real key
   * events. Not WebDriver's clear, which fires no input event: the next render (a server turning ready) puts the old
   * value back into the controlled field and the digits are appended.
   */
  async function usePort(value) {
    const field = await browser.$("input[inputmode=numeric]");
    await field.waitForDisplayed(WAIT);
    await browser.waitUntil(
      async () => {
        if ((await field.getValue()) === String(value)) return true;
        await field.click();
        await browser.execute((input) => input.select(), field);
        // One key at a time: WebdriverIO's keys() presses every key of its argument before releasing any, and a
        // digit pressed while its twin is still down (the 4s of 44187) is dropped.
        for (const digit of String(value)) await browser.keys(digit);
        return (await field.getValue()) === String(value);
      },
      { ...WAIT, timeoutMsg: `the port field did not take ${value}` },
    );
  }

  /** Clicks the endpoint's checkbox once it can be clicked, and waits until it shows `checked`. */
  async function switchEndpoint(checked) {
    const checkbox = await browser.$("input[type=checkbox]");
    await checkbox.waitForEnabled(WAIT);
    await checkbox.click();
    await browser.waitUntil(async () => (await checkbox.isSelected()) === checked, {
      ...WAIT,
      timeoutMsg: `the endpoint's checkbox did not turn ${checked ? "on" : "off"}`,
    });
  }

  test("switched on, it serves the curated tools to a client holding the token", async () => {
    await usePort(port);
    await switchEndpoint(true);
    const url = `http://127.0.0.1:${port}/mcp`;
    await (await browser.$(`code=${url}`)).waitForDisplayed(WAIT);
    await screenshot(browser, "settings-gateway");

    const client = new Client({ name: "e2e-http-client", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${gatewayToken()}` } },
    });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names, ["mcp__everything__echo"]);
    const result = await client.callTool({ name: "mcp__everything__echo", arguments: { message: "through the window" } });
    assert.match(JSON.stringify(result.content), /through the window/);
    await client.close();

    const refused = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(refused.status, 401, "no token, no entry");
  });

  test("it is back after a restart, and gone once switched off", async () => {
    await browser.deleteSession();
    browser = await launchApp();
    await listening(port);
    await (await browser.$("=Settings")).click();
    await (await browser.$("label*=Serve over HTTP on this computer")).waitForDisplayed(WAIT);
    await switchEndpoint(false);
    await (await browser.$(`code=http://127.0.0.1:${port}/mcp`)).waitForDisplayed({ ...WAIT, reverse: true });
    await assert.rejects(fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST" }), "nothing listens any more");
  });
});
