// The path a newcomer takes in the real app: add a server by hand, see it connect, try it in the console (pick the
// tool, fill its form, Run, read the result), and find the call in its history (SQLite in the data dir).
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { approveInWindow, configPath, everythingServer, launchApp, screenshot } from "./app.mjs";

const WAIT = { timeout: 30_000 };
// An extra argument the reference server ignores, so its process is this run's.
const MARKER = `plugboard-e2e-console-${process.pid}`;
const MESSAGE = `hello from the console ${process.pid}`;

/** The history database in the isolated data dir. */
function historyPath() {
  const base = process.env.XDG_DATA_HOME;
  if (!base) throw new Error("XDG_DATA_HOME is not set: run inside tests/harness/isolated-env.sh");
  return join(base, "plugboard", "history.sqlite3");
}

/** Types `text` into the element as a person would (element keys: `browser.keys` with an array presses every key
 * down before releasing them, which swallows doubled letters). */
async function typeInto(element, text) {
  await element.click();
  await element.addValue(text);
}

describe("add a server and call a tool from the console", () => {
  let browser;
  before(async () => {
    rmSync(configPath(), { force: true });
    browser = await launchApp();
    await browser.setWindowSize(1024, 768).catch(() => {});
  });
  after(async () => {
    await browser?.deleteSession();
  });

  test("Add server saves the entry and the server connects", async () => {
    const add = await browser.$("//header//button[normalize-space()='Add server']");
    await add.waitForClickable(WAIT);
    await add.click();
    const dialog = await browser.$("[role=dialog]");
    await dialog.waitForDisplayed(WAIT);
    await typeInto(await dialog.$("//label[span[normalize-space()='Name']]//input"), "everything");
    await typeInto(await dialog.$("//label[span[normalize-space()='Program']]//input"), everythingServer());
    const argsBox = await dialog.$("//label[span[starts-with(normalize-space(), 'Arguments')]]//textarea");
    await typeInto(argsBox, "stdio");
    await browser.keys(["Enter"]);
    await argsBox.addValue(MARKER);
    const submit = await dialog.$("button[type=submit]");
    await browser.waitUntil(() => submit.isEnabled(), WAIT);
    await screenshot(browser, "add-server");
    await submit.click();

    await browser.waitUntil(async () => (await browser.$("h1").getText()) === "everything", WAIT);
    const saved = JSON.parse(readFileSync(configPath(), "utf8"));
    assert.deepEqual(saved.mcpServers.everything, { command: everythingServer(), args: ["stdio", MARKER] });
    // Adding is not approving: the approval dialog shows the exact command line, and only then does it run.
    await (await browser.$('//section[.//h3[normalize-space()="everything"]]')).waitForDisplayed(WAIT);
    await screenshot(browser, "approval-dialog");
    const shown = await approveInWindow(browser, "everything");
    assert.ok(shown.endsWith(`stdio ${MARKER}`), shown);
    await browser.waitUntil(async () => /Ready · \d+ tools/.test(await browser.$("dl").getText()), WAIT);
  });

  test("the console calls echo and shows the result", async () => {
    const tryIt = await browser.$("//a[normalize-space()='Try in console']");
    await tryIt.waitForClickable(WAIT);
    await tryIt.click();
    await browser.waitUntil(async () => (await browser.$("h1").getText()) === "Console", WAIT);

    // The server came preselected from its page; the tool is picked by typing, as from the keyboard.
    const toolPicker = await browser.$("//span[normalize-space()='Tool']/following-sibling::button[1]");
    await toolPicker.waitForClickable(WAIT);
    await toolPicker.click();
    const search = await browser.$("[cmdk-input]");
    await search.waitForDisplayed(WAIT);
    await browser.keys("echo".split(""));
    await browser.keys(["Enter"]);

    const message = await browser.$("#root_message");
    await message.waitForDisplayed(WAIT);
    await typeInto(message, MESSAGE);
    const run = await browser.$("//button[normalize-space()='Run']");
    await run.waitForClickable(WAIT);
    await run.click();

    const main = await browser.$("main");
    await browser.waitUntil(async () => (await main.getText()).includes(`Echo: ${MESSAGE}`), WAIT);
    assert.match(await main.getText(), /Done in \d/);
    await screenshot(browser, "console");
  });

  test("the call is in the history, kept in SQLite in the data dir", async () => {
    assert.ok(existsSync(historyPath()), "the history lives in the data dir");
    const history = await browser.$("//section[@aria-labelledby='history-heading']");
    await history.waitForDisplayed(WAIT);
    // textContent: the rows are absolutely positioned by the virtual list, which WebDriver's visible text skips.
    const text = () => history.getProperty("textContent");
    await browser.waitUntil(async () => /everything\s*·\s*echo/.test(await text()), WAIT);
    assert.match(await text(), new RegExp(MESSAGE));
  });
});
