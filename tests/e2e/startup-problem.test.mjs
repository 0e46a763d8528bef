// The window never quits without a word: when Plugboard cannot start (here its config folder cannot be created,
// because a file stands where the folder should be), the window opens and says what is wrong and what to do.
import assert from "node:assert/strict";
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { after, before, describe, test } from "node:test";

import { configPath, launchApp, screenshot } from "./app.mjs";

describe("a config folder that cannot be created", () => {
  const folder = dirname(configPath());
  const aside = `${folder}.aside-${process.pid}`;
  let browser;

  before(() => {
    if (existsSync(folder)) renameSync(folder, aside);
    writeFileSync(folder, "a file where Plugboard's config folder should be\n");
  });

  after(async () => {
    await browser?.deleteSession();
    if (existsSync(folder) && statSync(folder).isFile()) rmSync(folder);
    if (existsSync(aside)) renameSync(aside, folder);
  });

  test("opens the window with what is wrong and what to do", async () => {
    browser = await launchApp();
    const heading = await browser.$("h1=Plugboard cannot start");
    await heading.waitForDisplayed({ timeout: 30_000 });
    const alert = await browser.$('[role="alert"]').getText();
    assert.ok(alert.includes(configPath()), `it names the file: ${alert}`);
    assert.ok(alert.includes(`Make sure ${folder} is a folder you can write to`), `it says what to do: ${alert}`);
    await screenshot(browser, "startup-problem");
  });
});
