// The Presets page of the real app: from the first-run view to the catalog, add the Filesystem preset with its
// folder chosen in the system's folder picker after seeing the exact command, land on the new server's page, and
// find it in the servers list.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { after, before, describe, test } from "node:test";

import { answerSystemPicker, approveInWindow, configPath, launchApp, screenshot } from "./app.mjs";

const WAIT = { timeout: 20_000 };
const COMMAND = "npx -y @modelcontextprotocol/server-filesystem@2026.8.31";

describe("adding a preset", () => {
  let browser;
  let folder;
  before(async () => {
    rmSync(configPath(), { force: true });
    // In the home folder, where the system's folder picker opens.
    folder = mkdtempSync(join(homedir(), "notes-"));
    browser = await launchApp();
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(configPath(), { force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  // With no other client's config here, the first-run view offers the presets.
  test("the first-run view leads to the presets", async () => {
    const link = await browser.$("a=Browse presets");
    await link.waitForDisplayed(WAIT);
    await link.click();
    const heading = await browser.$("h1");
    await browser.waitUntil(async () => (await heading.getText()) === "Presets", WAIT);
    await (await browser.$('ul[aria-label="Presets"]')).waitForDisplayed(WAIT);
  });

  // The dialog shows the exact command before anything is saved; the folder is chosen in the system's folder picker
  // (nothing typed into the form), and the command shows it; Add saves the entry and opens the server's page.
  test("adds Filesystem after showing the command", async () => {
    await (await browser.$('input[type="search"]')).setValue("filesystem");
    await (await browser.$('button[aria-label="Add Filesystem"]')).click();
    const dialog = await browser.$('[role="dialog"]');
    await dialog.waitForDisplayed(WAIT);
    const target = await browser.$('[data-testid="preset-target"]');
    await browser.waitUntil(async () => (await target.getText()) === `${COMMAND} <allowed_folder>`, WAIT);
    const input = await dialog.$('input[aria-describedby="preset-input-allowed_folder-hint"]');
    await (await dialog.$('button[aria-label="Choose folder: allowed_folder"]')).click();
    await answerSystemPicker("Choose the folder for allowed_folder", basename(folder));
    await browser.waitUntil(async () => (await input.getValue()) === folder, {
      ...WAIT,
      timeoutMsg: "the folder chosen in the picker did not reach the field",
    });
    await browser.waitUntil(async () => (await target.getText()) === `${COMMAND} ${folder}`, WAIT);
    await screenshot(browser, "presets-add-dialog");
    await (await dialog.$("button=Add server")).click();

    const heading = await browser.$("h1");
    await browser.waitUntil(async () => (await heading.getText()).includes("filesystem"), WAIT);
    const saved = JSON.parse(readFileSync(configPath(), "utf8"));
    assert.deepEqual(saved.mcpServers.filesystem, {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", folder],
    });
    // A preset is not an approval either: the dialog shows the pinned package before anything runs.
    const shown = await approveInWindow(browser, "filesystem");
    assert.ok(shown.includes(`-y @modelcontextprotocol/server-filesystem@2026.8.31 ${folder}`), shown);
  });

  // The Servers list has the new server with a live status. There is no internet here, so npx may not be able to
  // fetch the package: the test records whichever status the server reaches rather than requiring Ready.
  test("the new server is in the servers list", async () => {
    await (await (await browser.$('nav[aria-label="Main"]')).$("a=Servers")).click();
    const table = await browser.$("table");
    await table.waitForDisplayed(WAIT);
    const names = [];
    for (const th of await browser.$$("table tbody th")) names.push(await th.getText());
    assert.deepEqual(names, ["filesystem"]);
    const row = await browser.$("table tbody tr");
    await browser.waitUntil(async () => /Ready|Connecting|Failed|Reconnecting|approval/i.test(await row.getText()), WAIT);
    console.log(`filesystem preset reached: ${(await row.getText()).replace(/\s+/g, " ")}`);
    await screenshot(browser, "presets-added");
  });
});
