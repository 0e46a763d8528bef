// A server asking the person, in the real app: a tool call on Plugboard's test server elicits a form, the dialog
// appears over the page, the person fills and accepts it, and the server receives the values (its result echoes
// them). The call is made through the `callTool` command from the webview, as the console would.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";

import { configPath, launchApp, screenshot, serversReady, testServer, writeConfig } from "./app.mjs";

const WAIT = { timeout: 30_000 };
// An extra argument the server ignores, so its processes are this run's.
const MARKER = `plugboard-e2e-requests-${process.pid}`;


describe("pending requests", () => {
  let browser;
  before(async () => {
    writeConfig({ mcpServers: { asker: { command: testServer(), args: ["--tag", MARKER] } } });
    browser = await launchApp();
    await browser.setWindowSize(1024, 768).catch(() => {});
    await serversReady(browser, 1);
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(configPath(), { force: true });
  });

  // The form a tool call elicits shows as a dialog naming the server; the values the person accepts reach the server.
  test("an elicitation form is answered and the server receives the values", async () => {
    await browser.execute(() => {
      window.__e2eAnswer = undefined;
      const args = JSON.stringify({ message: "Who are you? <b>not bold</b>" });
      window.__TAURI_INTERNALS__.invoke("call_tool", { server: "asker", tool: "ask_person", args }).then(
        (result) => (window.__e2eAnswer = { result }),
        (error) => (window.__e2eAnswer = { error: JSON.stringify(error) }),
      );
    });

    const dialog = await browser.$('[role="dialog"]');
    await dialog.waitForDisplayed(WAIT);
    // The form generator loads with the first form a server sends, so the dialog shows its title first.
    const name = await dialog.$('.//label[contains(normalize-space(), "Name")]/following::input[1]');
    await name.waitForDisplayed(WAIT);
    assert.match(await dialog.getText(), /asker asks for information/);
    assert.match(await dialog.getText(), /Who are you\? <b>not bold<\/b>/, "the message is inert text");
    await name.setValue("Ann");
    const age = await dialog.$('.//label[contains(normalize-space(), "Age")]/following::input[1]');
    await age.setValue("41");
    await screenshot(browser, "pending-request-form");
    await (await dialog.$('//button[normalize-space()="Accept"]')).click();

    await dialog.waitForExist({ ...WAIT, reverse: true });
    await browser.waitUntil(() => browser.execute(() => window.__e2eAnswer !== undefined), WAIT);
    const answer = await browser.execute(() => window.__e2eAnswer);
    assert.equal(answer.error, undefined, `the call failed: ${answer.error}`);
    const text = JSON.parse(answer.result).content[0].text;
    assert.match(text, /^accept /);
    assert.deepEqual(JSON.parse(text.slice("accept ".length)), { name: "Ann", age: 41 });
  });
});
