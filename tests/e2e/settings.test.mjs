// The Settings screen of the real app: the real Secret Service of the harness is reported as in use, the paths are
// the isolated HOME's, and choosing the dark theme repaints the window (and is remembered after a restart).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { configPath, launchApp, screenshot } from "./app.mjs";

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
    await (await browser.$(`dd=${configPath()}`)).waitForDisplayed(WAIT);
    await screenshot(browser, "settings");
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
