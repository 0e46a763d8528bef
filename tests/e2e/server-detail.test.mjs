// A server's page in the real app: opened from the Servers table, its allowlist changed and saved into servers.json
// (read back from the isolated HOME), an external edit of the file shown live, and a hostile tool description inert.
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";

import { configPath, everythingServer, launchApp, pidsWith, screenshot, testServer, writeConfig } from "./app.mjs";

const WAIT = { timeout: 30_000 };
// An extra argument both servers ignore, so their processes are this run's.
const MARKER = `plugboard-e2e-detail-${process.pid}`;

/** servers.json as the app last wrote it. */
function readConfig() {
  return JSON.parse(readFileSync(configPath(), "utf8"));
}


/** The row of the tool named `name` in the allowlist editor (its label starts with the name, then the title). */
function toolRow(name) {
  return `//li[.//label[normalize-space(text()[1])="${name}"]]`;
}

/** The checkbox of the tool named `name` in the allowlist editor. */
function toolCheckbox(browser, name) {
  return browser.$(`${toolRow(name)}//button[@role="checkbox"]`);
}

/** Opens a server's page from the Servers table by its name link. */
async function openServer(browser, name) {
  const link = await browser.$(`//table//a[normalize-space()="${name}"]`);
  await link.waitForClickable(WAIT);
  await link.click();
  await browser.waitUntil(async () => (await browser.$("h1").getText()) === name, WAIT);
}

describe("the server detail screen", () => {
  let browser;
  before(async () => {
    writeConfig({
      mcpServers: {
        everything: { command: everythingServer(), args: ["stdio", MARKER] },
        hostile: { command: testServer(), args: ["--hostile-tool", "--tag", MARKER] },
      },
    });
    browser = await launchApp();
    // The screen the app must be usable at.
    await browser.setWindowSize(1024, 768).catch(() => {});
    const table = await browser.$("table");
    await table.waitForDisplayed(WAIT);
    await browser.waitUntil(async () => ((await table.getText()).match(/Ready · \d+ tools?/g) ?? []).length === 2, WAIT);
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(configPath(), { force: true });
  });

  // Unticking a tool and saving writes an explicit allowlist to servers.json and applies it to the running server:
  // the same process (pid) serves on, since an allowlist is a filter on Plugboard's side.
  test("unticking a tool and saving persists the allowlist", async () => {
    // The server's processes (with its containment wrapper, where there is one), found by the marker argument.
    const pidsBefore = pidsWith(`stdio ${MARKER}`).sort();
    assert.ok(pidsBefore.length > 0, "the everything server runs");
    await openServer(browser, "everything");
    await browser.waitUntil(async () => /MCP \d{4}-\d{2}-\d{2}/.test(await browser.$("dl").getText()), WAIT);
    const echo = await toolCheckbox(browser, "echo");
    await echo.waitForDisplayed(WAIT);
    assert.equal(await echo.getAttribute("aria-checked"), "true");
    assert.equal(await browser.$("code=mcp__everything__echo").isDisplayed(), true, "the exposed name is shown");
    await screenshot(browser, "server-detail");

    await echo.click();
    const save = await browser.$('//button[normalize-space()="Save allowlist"]');
    await save.click();

    await browser.waitUntil(() => Array.isArray(readConfig().mcpServers.everything.tools), WAIT);
    const tools = readConfig().mcpServers.everything.tools;
    assert.ok(!tools.includes("echo"), `echo is no longer allowed: ${tools}`);
    assert.ok(tools.includes("get-sum"), `the other tools stay allowed: ${tools}`);
    assert.deepEqual(readConfig().mcpServers.everything.args, ["stdio", MARKER], "nothing else in the entry changed");

    // The running server takes the new allowlist; the editor then shows what the engine applies.
    await browser.waitUntil(async () => {
      const box = await toolCheckbox(browser, "echo");
      return (await box.isExisting()) && (await box.getAttribute("aria-checked")) === "false";
    }, WAIT);
    await browser.waitUntil(async () => /Ready · \d+ tools/.test(await browser.$("dl").getText()), WAIT);
    // Clicking Save scrolled the page: back to the top. Then wait until the server is ready and the editor
    // says the save is applied (no draft, no stale list), and give WebKit a moment to paint before the picture.
    await browser.execute(() => document.querySelector("main")?.scrollTo(0, 0));
    await browser.waitUntil(
      () =>
        browser.execute(() => {
          const panel = document.querySelector('[role="tabpanel"][data-state="active"]');
          const notes = [...(panel?.querySelectorAll('[role="status"]') ?? [])].map((e) => e.textContent);
          return /Ready/.test(document.querySelector("dl")?.textContent ?? "") && notes.join("|") === "Saved.";
        }),
      WAIT,
    );
    await browser.pause(300);
    await screenshot(browser, "server-detail-saved");
    assert.deepEqual(pidsWith(`stdio ${MARKER}`).sort(), pidsBefore, "the allowlist applied without restarting the server");
  });

  // Another program narrowing the allowlist in servers.json is reflected on the open page without a reload.
  test("an external edit of the allowlist shows up live", async () => {
    const config = readConfig();
    config.mcpServers.everything.tools = ["echo", "nonexistent-tool"];
    writeConfig(config);

    await browser.waitUntil(async () => {
      const box = await toolCheckbox(browser, "echo");
      return (await box.isExisting()) && (await box.getAttribute("aria-checked")) === "true";
    }, WAIT);
    assert.equal(await (await toolCheckbox(browser, "get-sum")).getAttribute("aria-checked"), "false");
    const flagged = await browser.$('//section[.//h3[contains(., "matches no tool")]]');
    await flagged.waitForDisplayed(WAIT);
    const text = await flagged.getText();
    assert.match(text, /nonexistent-tool/);
    assert.match(text, /The server offers: .*get-sum/);
    await screenshot(browser, "server-detail-unknown-entry");
  });

  // A tool description full of markup and script is shown as text: no element is created and no script runs;
  // hidden characters are shown as escapes.
  test("a hostile tool description renders inert", async () => {
    await browser.$('//nav[@aria-label="Breadcrumb"]//a').click();
    await openServer(browser, "hostile");
    const description = await browser.$(`${toolRow("hostile")}//p[contains(@id, "-description")]`);
    await description.waitForDisplayed(WAIT);
    const flagged = await browser.$(`${toolRow("hostile")}//p[contains(., "Its description holds")]`).getText();
    assert.match(flagged, /invisible \(zero-width\) characters, characters that reverse the text's direction/);
    // textContent: WebKit's element text leaves out line-clamped blocks, and what matters is the DOM anyway.
    const text = await description.getProperty("textContent");
    assert.match(text, /<img src=x onerror="document\.title='pwned'">/);
    assert.match(text, /<script>document\.title='pwned'<\/script>/);
    assert.match(text, /hidden\\u\{200b\}space and \\u\{202e\}reversed/);
    assert.equal((await browser.$$("main img")).length, 0, "no markup from the server was rendered");
    assert.equal((await browser.$$("main script")).length, 0);
    assert.notEqual(await browser.getTitle(), "pwned", "no script from the server ran");
    await screenshot(browser, "server-detail-hostile");
  });

  // The Config tab shows the raw entry; typing an invalid one is reported by the core with line, column and field,
  // and Revert brings back the file's version.
  test("the config editor validates as you type", async () => {
    await browser.$('//button[@role="tab"][normalize-space()="Config"]').click();
    const editor = await browser.$('[aria-label="Entry of hostile as JSON"]');
    await editor.waitForDisplayed(WAIT);
    assert.match(await editor.getText(), /"--hostile-tool"/);
    await browser.$("span=The entry is valid.").waitForDisplayed(WAIT);
    await screenshot(browser, "server-detail-config");

    await editor.click();
    await browser.keys(["Control", "a"]);
    await browser.keys(["Control"]);
    await browser.keys('{"url": "ftp://x"}'.split(""));
    const problem = await browser.$("span*=(url)");
    await problem.waitForDisplayed(WAIT);
    assert.match(await problem.getText(), /^Line 1, column 2 \(url\): the ftp: scheme is not allowed/);
    assert.equal(await browser.$('//button[normalize-space()="Save entry"]').getAttribute("aria-disabled"), "true");
    await screenshot(browser, "server-detail-config-invalid");

    await browser.$('//div[@role="tabpanel"][@data-state="active"]//button[normalize-space()="Revert"]').click();
    await browser.$("span=The entry is valid.").waitForDisplayed(WAIT);
    assert.match(await editor.getText(), /"--hostile-tool"/);
  });
});
