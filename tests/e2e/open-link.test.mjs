// A server asking the person to open a page (elicitation, URL mode), in the real app: the dialog shows the whole
// address with its site picked out, nothing is opened until the person chooses "Open in browser", and then exactly
// that address goes to the browser (here a recorder standing in for one) while the server hears "accept".
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { configPath, launchApp, screenshot, serversReady, testServer, writeConfig } from "./app.mjs";

const WAIT = { timeout: 30_000 };
const MARKER = `plugboard-e2e-open-link-${process.pid}`;
const sandbox = process.env.PLUGBOARD_TEST_SANDBOX;
/** Where the stand-in browser writes each address it is asked to open, one a line. */
const opened = join(sandbox, "browser-opened.txt");
const recorder = join(sandbox, "record-browser.sh");

/** Starts the test server's `open_link` tool from the webview, as the console would; the answer lands in a global. */
async function openLink(browser, url) {
  await browser.execute((url) => {
    window.__e2eAnswer = undefined;
    const args = JSON.stringify({ url });
    window.__TAURI_INTERNALS__.invoke("call_tool", { server: "linker", tool: "open_link", args }).then(
      (result) => (window.__e2eAnswer = { result }),
      (error) => (window.__e2eAnswer = { error: JSON.stringify(error) }),
    );
  }, url);
}

/** The text the tool answered with ("accept", "decline", "cancel"). */
async function answered(browser) {
  await browser.waitUntil(() => browser.execute(() => window.__e2eAnswer !== undefined), WAIT);
  const answer = await browser.execute(() => window.__e2eAnswer);
  assert.equal(answer.error, undefined, `the call failed: ${answer.error}`);
  return JSON.parse(answer.result).content[0].text;
}

const openedSoFar = () => (existsSync(opened) ? readFileSync(opened, "utf8").split("\n").filter(Boolean) : []);

describe("a link a server asks the person to open", () => {
  let browser;
  before(async () => {
    writeFileSync(recorder, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
    rmSync(opened, { force: true });
    writeConfig({ mcpServers: { linker: { command: testServer(), args: ["--tag", MARKER] } } });
    browser = await launchApp([], { browser: recorder });
    await browser.setWindowSize(1024, 768).catch(() => {});
    await serversReady(browser, 1);
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(configPath(), { force: true });
  });

  test("the page opens only when the person chooses to, and exactly the address shown", async () => {
    await openLink(browser, "https://Accounts.Example.com/connect?state=e2e");
    const dialog = await browser.$('[role="dialog"]');
    await dialog.waitForDisplayed(WAIT);
    assert.match(await dialog.getText(), /linker asks you to open a page/);
    const address = await dialog.$('[data-testid="link-address"]');
    assert.equal(await address.getText(), "https://accounts.example.com/connect?state=e2e");
    assert.equal(await (await address.$("strong")).getText(), "accounts.example.com");
    assert.equal((await dialog.$$("a")).length, 0, "the address is text, not a link");
    await screenshot(browser, "open-link-dialog");
    assert.deepEqual(openedSoFar(), [], "nothing is opened before the person chooses");

    await (await dialog.$('//button[normalize-space()="Open in browser"]')).click();
    await dialog.waitForExist({ ...WAIT, reverse: true });
    assert.equal(await answered(browser), "accept");
    await browser.waitUntil(() => openedSoFar().length > 0, { ...WAIT, timeoutMsg: "the browser was not asked" });
    assert.deepEqual(openedSoFar(), ["https://accounts.example.com/connect?state=e2e"]);
  });

  test("a declined page is never opened", async () => {
    await openLink(browser, "https://example.com/pay");
    const dialog = await browser.$('[role="dialog"]');
    await dialog.waitForDisplayed(WAIT);
    await (await dialog.$('//button[normalize-space()="Decline"]')).click();
    assert.equal(await answered(browser), "decline");
    assert.equal(openedSoFar().length, 1, "only the first test's page was opened");
  });
});
