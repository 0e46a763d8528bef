// The Servers page of the real app: its empty state on a first run, and the servers of an existing config file.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";

import { approveAll, configPath, everythingServer, launchApp, outputDir, screenshot } from "./app.mjs";

const WAIT = { timeout: 20_000 };
// An extra argument the reference server ignores, so the test can find (and kill) exactly its process.
const MARKER = `plugboard-e2e-${process.pid}`;

/** The pids of processes whose command line holds MARKER. */
function serverPids() {
  try {
    return execFileSync("pgrep", ["-f", MARKER]).toString().trim().split(/\s+/).filter(Boolean).sort();
  } catch {
    return [];
  }
}

describe("first run, no config file", () => {
  let browser;
  before(async () => {
    rmSync(configPath(), { force: true });
    browser = await launchApp();
  });
  after(async () => browser?.deleteSession());

  // The window opens on Servers, says there are none yet, and shows where the config file will live.
  test("shows the empty state with the config path", async () => {
    const heading = await browser.$("h1");
    await heading.waitForDisplayed(WAIT);
    assert.equal(await heading.getText(), "Servers");

    const empty = await browser.$('section[aria-labelledby="servers-empty-title"]');
    await empty.waitForDisplayed(WAIT);
    assert.equal(await browser.$("#servers-empty-title").getText(), "No servers yet");
    assert.equal(await empty.$("code").getText(), configPath());

    await screenshot(browser, "servers-empty");
    // The whole X screen too: what a person sees, window and all (used for the README).
    if (process.env.DISPLAY) {
      execFileSync("import", ["-window", "root", join(outputDir, "screen-servers-empty.png")]);
    }
  });

  // The navigation names every section of the product, and Servers is the current one.
  test("offers the six sections", async () => {
    const links = await browser.$$('nav[aria-label="Main"] a');
    const names = [];
    for (const link of links) names.push(await link.getText());
    assert.deepEqual(names, ["Servers", "Presets", "Import", "Clients", "Console", "Settings"]);
    const current = await browser.$('nav[aria-label="Main"] a[aria-current="page"]');
    assert.equal(await current.getText(), "Servers");
  });
});

describe("an existing config file", () => {
  let browser;
  before(async () => {
    mkdirSync(dirname(configPath()), { recursive: true });
    writeFileSync(
      configPath(),
      JSON.stringify({
        mcpServers: {
          files: { command: everythingServer(), args: ["stdio", MARKER] },
          tools: { type: "sse", url: "http://127.0.0.1:9/sse?q=<img src=x onerror=alert(1)>", enabled: false },
          "<img src=x onerror=alert(2)>": { command: "x" },
        },
      }),
    );
    approveAll();
    browser = await launchApp();
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(configPath(), { force: true });
  });

  // Each configured server is listed by name and transport; hostile text is shown as text, never as markup, and
  // an entry whose name is not allowed is listed under "Needs fixing" with the reason.
  test("lists the servers, hostile text inert", async () => {
    const table = await browser.$("table");
    await table.waitForDisplayed(WAIT);
    const rowHeaders = await browser.$$("table tbody th");
    const names = [];
    for (const th of rowHeaders) names.push(await th.getText());
    assert.deepEqual(names, ["files", "tools"]);
    const text = await table.getText();
    assert.match(text, /stdio/);
    assert.match(text, /SSE/);
    assert.match(text, /<img src=x onerror=alert\(1\)>/);

    // The real reference server comes up by itself; its row says so with its tool count.
    await browser.waitUntil(async () => /Ready · \d+ tools/.test(await table.getText()), WAIT);
    assert.match(await table.getText(), /Disabled/);

    const fixing = await browser.$("h2=Needs fixing");
    await fixing.waitForDisplayed(WAIT);
    const body = await browser.$("main").getText();
    assert.match(body, /<img src=x onerror=alert\(2\)>/);
    assert.equal((await browser.$$("img")).length, 0, "no markup from the config was rendered");
    await screenshot(browser, "servers-list");
  });

  // Killing the server's process is healed without the person doing anything: a new process, Ready again.
  test("a killed server reconnects by itself", async () => {
    const before = serverPids();
    assert.ok(before.length > 0, "the server process is running");
    execFileSync("pkill", ["-9", "-f", MARKER]);
    const table = await browser.$("table");
    await browser.waitUntil(async () => {
      const now = serverPids();
      return now.length > 0 && now.every((pid) => !before.includes(pid)) && /Ready · \d+ tools/.test(await table.getText());
    }, WAIT);
  });
});
