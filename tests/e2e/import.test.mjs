// The import wizard on the real app: a Cursor config in the isolated HOME is offered on the first run, reviewed
// (new, invalid, a secret shown only as moved to the keychain), applied, and its servers appear and connect; the
// token ends up in the keychain only. A second pass changes the file and keeps both sides of the conflict.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { approveInWindow, configPath, everythingServer, launchApp, screenshot } from "./app.mjs";

const WAIT = { timeout: 20_000 };
// An extra argument the reference server ignores, so this test's server processes are recognisable.
const MARKER = `plugboard-import-e2e-${process.pid}`;
// Shaped like a GitHub personal access token (ghp_ + 36), unique to this run so a stray copy cannot be old.
const TOKEN = `ghp_${`e2e${process.pid}${"x".repeat(36)}`.slice(0, 36)}`;
const CURSOR_FILE = join(homedir(), ".cursor", "mcp.json");

/** A screenshot once the window has painted what the DOM holds (WebKit's capture can lag a frame or two). */
async function shot(browser, name) {
  await browser.execute(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await browser.pause(400);
  return screenshot(browser, name);
}

/** Writes Cursor's global config: the reference server, one holding a literal token, and one that is invalid. */
function plantCursorConfig(everythingArgs) {
  mkdirSync(join(homedir(), ".cursor"), { recursive: true });
  writeFileSync(
    CURSOR_FILE,
    JSON.stringify(
      {
        mcpServers: {
          everything: { command: everythingServer(), args: everythingArgs },
          github: { command: everythingServer(), args: ["stdio", MARKER], env: { GITHUB_TOKEN: TOKEN } },
          broken: { args: ["has no command"] },
        },
      },
      null,
      2,
    ),
  );
}

/** Every regular file under `dir` (symlinks are not followed). */
function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Each review row as [name, outcome] (the row header and the badge), read from the DOM. */
async function reviewRows(browser) {
  await (await browser.$("table tbody tr")).waitForDisplayed(WAIT);
  return browser.execute(() =>
    [...document.querySelectorAll("table tbody tr")].map((tr) => [
      tr.querySelector("th")?.firstChild?.textContent ?? "",
      tr.querySelector("td")?.textContent ?? "",
    ]),
  );
}

/** The items of the list named `label`, once it is displayed. */
async function itemsOf(browser, label) {
  await (await browser.$(`ul[aria-label="${label}"]`)).waitForDisplayed(WAIT);
  return browser.execute(
    (name) => [...document.querySelectorAll(`ul[aria-label="${name}"] li`)].map((li) => li.textContent),
    label,
  );
}

/** The text of an element found by selector, once it is displayed. */
async function textOf(browser, selector) {
  const element = await browser.$(selector);
  await element.waitForDisplayed(WAIT);
  return element.getText();
}

describe("import from Cursor", () => {
  let browser;
  before(async () => {
    rmSync(configPath(), { force: true });
    plantCursorConfig(["stdio", MARKER]);
    browser = await launchApp();
    // The smallest window the app promises to be usable at.
    await browser.setWindowSize(1024, 768).catch(() => {});
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(join(homedir(), ".cursor"), { recursive: true, force: true });
    rmSync(configPath(), { force: true });
  });

  // No servers yet and a Cursor config here: the Servers page offers the import and the link opens the wizard on
  // the configs found, with the file's path and its server count.
  test("the first-run view offers the import", async () => {
    const link = await browser.$("a=Import from Cursor");
    await link.waitForDisplayed(WAIT);
    await shot(browser, "import-0-first-run");
    await link.click();

    const found = await textOf(browser, 'ul[aria-label="Configs found"]');
    assert.match(found, /Cursor/);
    assert.ok(found.includes(CURSOR_FILE), found);
    assert.match(found, /3 servers/);
    assert.match(await textOf(browser, "summary"), /^Not found here: Claude Desktop, /);
    await shot(browser, "import-1-sources");
  });

  // The review lists every entry with its outcome; the token is only named as moved to the keychain.
  test("the review shows outcomes, the invalid reason and the moved secret", async () => {
    await (await browser.$("button=Review 3 entries")).click();
    assert.deepEqual(await reviewRows(browser), [
      ["everything", "New"],
      ["github", "New"],
      ["broken", "Invalid"],
    ]);
    const table = await textOf(browser, "table");
    assert.match(table, /Will move to keychain: env\.GITHUB_TOKEN/);
    assert.match(table, /neither a "command"/);
    assert.ok(!(await browser.getPageSource()).includes(TOKEN), "the token is never shown");
    await shot(browser, "import-2-review");
  });

  // Applying adds both valid servers and reports the invalid one as failed; one secret went to the keychain.
  test("applying reports what was done", async () => {
    await (await browser.$("button=Import 2 servers")).click();
    await (await browser.$("h2=Import finished")).waitForDisplayed(WAIT);
    assert.deepEqual(await itemsOf(browser, "Added"), ["everything", "github"]);
    const failed = await itemsOf(browser, "Failed");
    assert.equal(failed.length, 1);
    assert.match(failed[0], /^broken: /);
    assert.match(await browser.$("main").getText(), /1 secret moved to the keychain/);
    await shot(browser, "import-3-summary");
  });

  // The servers are on the Servers page and the reference server connects; the file holds a reference, the token
  // is in no file under HOME but the Cursor config it came from.
  test("the servers appear, connect, and the token is only in the keychain", async () => {
    // Imported entries arrive awaiting approval: the dialog shows both commands; the reference server is approved,
    // GitHub's is left for later.
    const shown = await approveInWindow(browser, "everything");
    assert.ok(shown.endsWith(`stdio ${MARKER}`), shown);
    await (await browser.$("button=Not now")).click();
    await (await browser.$("a=Go to Servers")).click();
    const table = await browser.$("table");
    await table.waitForDisplayed(WAIT);
    const names = [];
    for (const th of await browser.$$("table tbody th")) names.push(await th.getText());
    assert.deepEqual(names.sort(), ["everything", "github"]);
    const everythingRow = () =>
      browser.execute(
        () =>
          [...document.querySelectorAll("table tbody tr")].find((tr) => tr.querySelector("th")?.textContent === "everything")
            ?.textContent ?? "",
      );
    await browser.waitUntil(async () => /Ready · \d+ tools/.test(await everythingRow()), WAIT);
    assert.match(await table.getText(), /Imported from Cursor/);
    await shot(browser, "import-4-servers");

    const written = readFileSync(configPath(), "utf8");
    assert.match(written, /"GITHUB_TOKEN": "\$\{secret:[^}]+\}"/);
    assert.ok(!written.includes(TOKEN));
    const leaks = [];
    for (const file of filesUnder(homedir())) {
      if (file === CURSOR_FILE || statSync(file).size > 50_000_000) continue;
      if (readFileSync(file).includes(TOKEN)) leaks.push(file);
    }
    assert.deepEqual(leaks, [], "the token is in no other file under HOME");
  });

  // The Cursor entry changes: a second import shows the conflict as a difference and keeps both when asked.
  test("a changed entry is a conflict; keeping both renames the import", async () => {
    plantCursorConfig(["stdio", MARKER, "changed"]);
    await (await browser.$("=Import")).click();
    await (await browser.$("button=Review 3 entries")).click();
    assert.deepEqual(await reviewRows(browser), [
      ["everything", "Conflict"],
      ["github", "Identical"],
      ["broken", "Invalid"],
    ]);
    const differences = await textOf(browser, 'ul[aria-label="Differences for everything"]');
    assert.ok(differences.includes(`Cursor has ["stdio","${MARKER}","changed"]`), differences);
    const choice = await browser.$("select");
    await choice.selectByAttribute("value", "rename");
    await shot(browser, "import-5-conflict");

    await (await browser.$("button=Import 1 server")).click();
    assert.deepEqual(await itemsOf(browser, "Kept both, renamed"), ["everything → everything-2"]);
    const servers = JSON.parse(readFileSync(configPath(), "utf8")).mcpServers;
    assert.deepEqual(Object.keys(servers).sort(), ["everything", "everything-2", "github"]);
    assert.deepEqual(servers["everything-2"].args, ["stdio", MARKER, "changed"]);
  });
});
