// The Servers page follows servers.json as other programs edit it: no reload, no polling, and a broken file is
// reported while the last good list stays on screen.
import assert from "node:assert/strict";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { after, before, describe, test } from "node:test";

import { configPath, launchApp, screenshot } from "./app.mjs";

const WAIT = { timeout: 20_000 };

function writeConfig(text) {
  mkdirSync(dirname(configPath()), { recursive: true });
  // Write-then-rename, the way editors save, so the app never reads a half-written file.
  const temp = `${configPath()}.e2e-tmp`;
  writeFileSync(temp, text);
  renameSync(temp, configPath());
}

describe("external edits of servers.json", () => {
  let browser;
  before(async () => {
    rmSync(configPath(), { force: true });
    browser = await launchApp();
    await browser.$('section[aria-labelledby="servers-empty-title"]').waitForDisplayed(WAIT);
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(configPath(), { force: true });
  });

  // A server added by another program appears on the open page by itself.
  test("an added server appears without reloading", async () => {
    writeConfig(JSON.stringify({ mcpServers: { "added-outside": { command: "plugboard-e2e-no-such-program" } } }));
    const row = await browser.$("table tbody th");
    await row.waitForDisplayed(WAIT);
    assert.equal(await row.getText(), "added-outside");
  });

  // A file that stops parsing is reported, and the last good list stays visible.
  test("a broken file shows an alert and keeps the last good list", async () => {
    writeConfig('{ "mcpServers": { "added-outside": ');
    const alert = await browser.$('[role="alert"]');
    await alert.waitForDisplayed(WAIT);
    assert.match(await alert.getText(), /servers\.json cannot be read/);
    assert.equal(await browser.$("table tbody th").getText(), "added-outside");
    await screenshot(browser, "servers-broken-file");
  });

  // Fixing the file clears the alert and shows the fixed list.
  test("fixing the file clears the alert", async () => {
    writeConfig(JSON.stringify({ mcpServers: { fixed: { url: "http://127.0.0.1:9/mcp", type: "http" } } }));
    await browser.waitUntil(async () => (await browser.$$('[role="alert"]')).length === 0, WAIT);
    await browser.waitUntil(async () => (await browser.$("table tbody th").getText()) === "fixed", WAIT);
  });
});
