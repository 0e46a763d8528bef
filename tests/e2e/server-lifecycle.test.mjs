// A server's whole life from its page in the real app, no terminal: a disabled server turned on, a missing secret
// set in a password field (kept in the keychain, never in servers.json) and the server connecting with it, and
// Diagnose saying which step of a failing server fails and what to do.
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";

import { configPath, everythingServer, launchApp, screenshot, writeConfig } from "./app.mjs";

const WAIT = { timeout: 30_000 };
const SECRET_VALUE = `e2e-secret-${process.pid}`;

function readConfig() {
  return JSON.parse(readFileSync(configPath(), "utf8"));
}

/** Opens a server's page from the Servers table by its name link. */
async function openServer(browser, name) {
  await (await (await browser.$('nav[aria-label="Main"]')).$("a=Servers")).click();
  const link = await browser.$(`//table//a[normalize-space()="${name}"]`);
  await link.waitForClickable(WAIT);
  await link.click();
  await browser.waitUntil(async () => (await browser.$("h1").getText()) === name, WAIT);
}

/** The status badge text in the server page's overview. */
async function overviewText(browser) {
  return browser.$("dl").getText();
}

describe("a server's lifecycle from its page", () => {
  let browser;
  before(async () => {
    writeConfig({
      mcpServers: {
        sleeper: { command: everythingServer(), args: ["stdio"], enabled: false },
        keyed: { command: everythingServer(), args: ["stdio"], env: { API_KEY: "${secret:API_KEY}" } },
        missing: { command: "uvx", args: ["plugboard-e2e-no-such-package"], env: { PATH: "/nonexistent" } },
      },
    });
    browser = await launchApp();
    await browser.setWindowSize(1024, 768).catch(() => {});
    await (await browser.$("table")).waitForDisplayed(WAIT);
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(configPath(), { force: true });
  });

  // A disabled server's page offers Turn on; pressing it enables it in servers.json and the server comes up.
  test("a disabled server is turned on from its page", async () => {
    await openServer(browser, "sleeper");
    await browser.waitUntil(async () => /Disabled/.test(await overviewText(browser)), WAIT);
    await (await browser.$('//button[normalize-space()="Turn on"]')).click();
    await browser.waitUntil(async () => /Ready · \d+ tools/.test(await overviewText(browser)), WAIT);
    assert.notEqual(readConfig().mcpServers.sleeper.enabled, false, "servers.json has it on");
    assert.ok(await browser.$('//button[normalize-space()="Turn off"]').isDisplayed());
  });

  // The missing secret is named on the page; typed once into a password field it goes to the keychain, the server
  // connects with it, and neither the page nor servers.json shows the value.
  test("setting a missing secret from the page connects the server", async () => {
    await openServer(browser, "keyed");
    await browser.waitUntil(async () => /Failed/.test(await overviewText(browser)), WAIT);
    const main = await browser.$("main");
    assert.match(await main.getText(), /The secret "API_KEY" is not set/);
    const field = await browser.$("#secret-API_KEY");
    assert.equal(await field.getAttribute("type"), "password");
    await field.setValue(SECRET_VALUE);
    await screenshot(browser, "server-secret-missing");
    await (await browser.$('//button[starts-with(normalize-space(), "Save")][.//span[text()="API_KEY"]]')).click();
    await browser.waitUntil(async () => /Ready · \d+ tools/.test(await overviewText(browser)), WAIT);
    await browser.waitUntil(async () => /Stored in the keychain/.test(await main.getText()), WAIT);
    assert.equal(await field.getValue(), "", "the field is emptied");
    assert.ok(!(await browser.execute(() => document.body.innerText)).includes(SECRET_VALUE), "the page never shows it");
    assert.ok(!readFileSync(configPath(), "utf8").includes(SECRET_VALUE), "servers.json never holds it");
  });

  // Diagnose on a server whose program is not installed: the failing step is named with what to install.
  test("Diagnose says which step fails and what to do", async () => {
    await openServer(browser, "missing");
    await browser.waitUntil(async () => /Failed/.test(await overviewText(browser)), WAIT);
    assert.match(await (await browser.$("main")).getText(), /Install uv \(it brings uvx\)/);
    assert.doesNotMatch(await (await browser.$("main")).getText(), /\/nonexistent/, "the PATH is not dumped");
    await (await browser.$('//button[normalize-space()="Run diagnosis"]')).click();
    const steps = await browser.$('ol[aria-label="Diagnosis"]');
    await steps.waitForDisplayed(WAIT);
    const text = await steps.getText();
    assert.match(text, /Config\s+passed/);
    assert.match(text, /failed/);
    assert.match(text, /What to do:/);
    await screenshot(browser, "server-diagnose");
  });
});
