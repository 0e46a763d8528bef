// Looking inside a real server from its page in the real app (server-everything): what it says about itself, a
// resource read from its list and one from a filled-in template, a prompt got with arguments, and its log.
import assert from "node:assert/strict";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { after, before, describe, test } from "node:test";

import { approveAll, configPath, everythingServer, launchApp, screenshot } from "./app.mjs";

const WAIT = { timeout: 30_000 };
// An extra argument the server ignores, so its process is this run's.
const MARKER = `plugboard-e2e-inspect-${process.pid}`;

/** Clicks the tab named `name` on the server's page. */
async function openTab(browser, name) {
  const tab = await browser.$(`//button[@role="tab"][normalize-space()="${name}"]`);
  await tab.waitForClickable(WAIT);
  await tab.click();
  await browser.waitUntil(async () => (await tab.getAttribute("aria-selected")) === "true", WAIT);
}

describe("looking inside a server", () => {
  let browser;
  before(async () => {
    mkdirSync(dirname(configPath()), { recursive: true });
    const temp = `${configPath()}.e2e-tmp`;
    // The allowlist names a tool that does not exist, so Plugboard has a warning of its own for the log.
    const entry = { command: everythingServer(), args: ["stdio", MARKER], tools: ["echo", "no-such-tool"] };
    writeFileSync(temp, JSON.stringify({ mcpServers: { everything: entry } }, null, 2));
    renameSync(temp, configPath());
    approveAll();
    browser = await launchApp();
    await browser.setWindowSize(1024, 768).catch(() => {});
    const table = await browser.$("table");
    await table.waitForDisplayed(WAIT);
    await browser.waitUntil(async () => /Ready · \d+ tools?/.test(await table.getText()), WAIT);
    const link = await browser.$('//table//a[normalize-space()="everything"]');
    await link.click();
    await browser.waitUntil(async () => (await browser.$("h1").getText()) === "everything", WAIT);
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(configPath(), { force: true });
  });

  // The overview shows what initialize said: name and version, capabilities in words, and the instructions.
  test("the overview says what the server said about itself", async () => {
    const facts = await browser.$('section[aria-label="What the server says about itself"]');
    await facts.waitForDisplayed(WAIT);
    const text = await facts.getText();
    // server-everything gives a title, which is shown rather than its name (mcp-servers/everything).
    assert.match(text, /Calls itself Everything Reference Server, version \d+\.\d+/);
    assert.match(text, /Offers .*resources \(subscriptions/);
    assert.match(text, /prompts/);
    assert.ok(await browser.$("summary=Instructions from the server").isDisplayed());
  });

  // A listed resource is read from its row; a template is filled in and its blob described by type and size.
  test("reads a resource and a template's resource", async () => {
    await openTab(browser, "Resources");
    const read = await browser.$('//button[@aria-label="Read features.md"]');
    await read.waitForClickable(WAIT);
    await read.click();
    const text = await browser.$('pre[aria-label="Text content"]');
    await text.waitForDisplayed(WAIT);
    assert.match(await text.getProperty("textContent"), /#/, "the markdown is shown as text");
    assert.match(await browser.$("#read-heading").getText(), /demo:\/\/resource\/static\/document\/features\.md/);
    await screenshot(browser, "server-detail-resources");

    const form = await browser.$('form[aria-label="Template Dynamic Blob Resource"]');
    await form.scrollIntoView();
    await form.$("input").setValue("4");
    await form.$("button=Read").click();
    await browser.waitUntil(
      async () => /Binary content, \d+ bytes \(text\/plain\)/.test(await browser.$('[aria-label="Contents"]').getText()),
      WAIT,
    );
    assert.match(await browser.$("#read-heading").getText(), /demo:\/\/resource\/dynamic\/blob\/4/);
  });

  // A prompt with arguments is got from its form; the message the server made from them is shown.
  test("gets a prompt with arguments", async () => {
    await openTab(browser, "Prompts");
    const pick = await browser.$('//button[contains(., "Arguments Prompt")]');
    await pick.waitForClickable(WAIT);
    await pick.click();
    const city = await browser.$('//label[starts-with(normalize-space(), "city")]/following::input[1]');
    await city.setValue("Paris");
    await browser.$("button=Get prompt").click();
    const messages = await browser.$('ol[aria-label="Messages"]');
    await messages.waitForDisplayed(WAIT);
    assert.match(await messages.getText(), /What's weather in Paris\?/);
    await screenshot(browser, "server-detail-prompts");
  });

  // The log holds Plugboard's warning from when the server connected (before the page was opened).
  test("the log shows what happened before the page opened", async () => {
    await openTab(browser, "Log");
    const lines = await browser.$('ul[aria-label="Log lines"]');
    await lines.waitForDisplayed(WAIT);
    await browser.waitUntil(async () => /no-such-tool/.test(await lines.getText()), WAIT);
    await screenshot(browser, "server-detail-log");
  });
});
