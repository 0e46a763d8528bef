// Installing from outside the catalog in the real window: an "Add to Plugboard" link delivered to the running app
// (a second launch, as a browser hands it over) opens the consent dialog; once confirmed and approved the server is
// Ready. A link the app is started with is offered too, and Cancel adds nothing. A search of an MCP Registry (a
// loopback registry serving the v0.1 list shape) adds a server the same way.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";

import { startEverythingHttp } from "../support/system.mjs";
import { approveInWindow, configPath, everythingServer, launchApp, screenshot, writeConfig } from "./app.mjs";

const WAIT = { timeout: 30_000 };

/** A Cursor-shape install link for `name` with `config` (base64 of its JSON). */
function installLink(name, config) {
  const encoded = encodeURIComponent(Buffer.from(JSON.stringify(config)).toString("base64"));
  return `plugboard://install?name=${encodeURIComponent(name)}&config=${encoded}`;
}

/** Launches the app binary a second time with `url`, as a browser does; the running window receives it. */
function openLink(url) {
  return new Promise((resolve) => {
    execFile(process.env.PLUGBOARD_APP_BIN, [url], { env: process.env, timeout: 60_000 }, (error) =>
      resolve(error === null ? 0 : (error.code ?? -1)),
    );
  });
}

/** Waits until the server's page (or the servers list) says `server` is Ready. */
async function ready(browser, server) {
  await (await browser.$("a=Servers")).click();
  const row = await browser.$(`//tr[th[normalize-space()="${server}"]]`);
  await row.waitForDisplayed(WAIT);
  await browser.waitUntil(async () => /Ready · \d+ tools?/.test(await row.getText()), {
    ...WAIT,
    timeoutMsg: `${server} did not become Ready`,
  });
}

const saved = () => JSON.parse(readFileSync(configPath(), "utf8")).mcpServers;

describe("an install link", () => {
  let browser;
  const link = installLink("everything-link", { command: everythingServer(), args: ["stdio"], env: { EVERYTHING_TOKEN: "" } });
  before(async () => {
    writeConfig({ mcpServers: {} });
    browser = await launchApp();
  });
  after(async () => {
    await browser?.deleteSession();
  });

  // The link opens the consent dialog with the exact command, the variable as a keychain reference, the trust
  // flag of a program outside PATH, and a password field; nothing is saved before Add; once approved it is Ready.
  test("delivered to the running window, it is confirmed, approved and Ready", async () => {
    assert.equal(await openLink(link), 0);
    const dialog = await browser.$('[role="dialog"][aria-labelledby]');
    await dialog.waitForDisplayed(WAIT);
    assert.match(await dialog.getText(), /Add everything-link from a link\?/);
    const target = await browser.$('[data-testid="preset-target"]');
    await browser.waitUntil(async () => (await target.getText()) === `${everythingServer()} stdio`, WAIT);
    assert.match(await dialog.getText(), /EVERYTHING_TOKEN=\$\{secret:EVERYTHING_TOKEN\}/);
    assert.match(await dialog.getText(), /Worth a second look/);
    assert.deepEqual(saved(), {}, "nothing is added before the person confirms");
    const token = await dialog.$('input[type="password"]');
    await token.setValue("e2e-token-value");
    await screenshot(browser, "install-link-consent");
    await (await dialog.$("button=Add server")).click();

    const shown = await approveInWindow(browser, "everything-link");
    assert.equal(shown, `${everythingServer()} stdio`);
    assert.deepEqual(saved()["everything-link"], {
      command: everythingServer(),
      args: ["stdio"],
      env: { EVERYTHING_TOKEN: "${secret:EVERYTHING_TOKEN}" },
    });
    assert.ok(!readFileSync(configPath(), "utf8").includes("e2e-token-value"), "the secret is not in servers.json");
    await ready(browser, "everything-link");
  });

  // A hostile link (a literal token in it) is refused with the reason, and the notice repeats no value.
  test("a link carrying a secret is refused", async () => {
    const hostile = installLink("leak", { command: "sh", env: { GITHUB_TOKEN: "ghp_0123456789abcdefABCDEF0123456789abcd" } });
    assert.equal(await openLink(hostile), 0);
    const notices = await browser.$('[aria-label="Refused links"]');
    await browser.waitUntil(async () => /looks like a secret in env\.GITHUB_TOKEN/.test(await notices.getText()), WAIT);
    assert.ok(!(await notices.getText()).includes("ghp_"));
    assert.equal(saved().leak, undefined);
  });
});

describe("an install link on a cold start", () => {
  let browser;
  after(async () => {
    await browser?.deleteSession();
  });

  // The link the app was started with is offered once the page is up; Cancel adds nothing.
  test("is offered, and Cancel adds nothing", async () => {
    writeConfig({ mcpServers: {} });
    browser = await launchApp([installLink("cold", { command: everythingServer(), args: ["stdio"] })]);
    const dialog = await browser.$('[role="dialog"][aria-labelledby]');
    await dialog.waitForDisplayed(WAIT);
    assert.match(await dialog.getText(), /Add cold from a link\?/);
    await (await dialog.$("button=Cancel")).click();
    await dialog.waitForDisplayed({ ...WAIT, reverse: true });
    assert.deepEqual(saved(), {});
  });
});

describe("the MCP Registry", () => {
  let browser;
  let everything;
  let registry;
  before(async () => {
    everything = await startEverythingHttp();
    const page = JSON.stringify({
      servers: [
        {
          server: {
            name: "io.github.example/everything-remote",
            title: "Everything (hosted here)",
            description: "The reference test server over Streamable HTTP.",
            version: "1.0.0",
            remotes: [{ type: "streamable-http", url: everything.url }],
          },
          _meta: { "io.modelcontextprotocol.registry/official": { status: "active", isLatest: true } },
        },
      ],
      metadata: { count: 1 },
    });
    registry = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(page);
    });
    await new Promise((resolve) => registry.listen(0, "127.0.0.1", resolve));
    writeConfig({ mcpServers: {} });
    const url = `http://127.0.0.1:${registry.address().port}`;
    writeFileSync(join(dirname(configPath()), "registries.json"), JSON.stringify({ registries: [{ name: "Test registry", url }] }));
    browser = await launchApp();
  });
  after(async () => {
    await browser?.deleteSession();
    everything?.stop();
    registry?.close();
  });

  // A search lists the registry's entry as a card; Add shows its URL, adds it, and once its origin is approved
  // it is Ready.
  test("a search adds a server", async () => {
    await (await browser.$("a=Presets")).click();
    await (await browser.$("button=MCP Registry")).click();
    await (await browser.$('input[type="search"]')).setValue("everything");
    await (await browser.$("button=Search")).click();
    const add = await browser.$('button[aria-label="Add Everything (hosted here)"]');
    await add.waitForDisplayed(WAIT);
    await screenshot(browser, "registry-search");
    await add.click();
    const dialog = await browser.$('[role="dialog"][aria-labelledby]');
    await dialog.waitForDisplayed(WAIT);
    const target = await browser.$('[data-testid="preset-target"]');
    await browser.waitUntil(async () => (await target.getText()) === everything.url, WAIT);
    await (await dialog.$("button=Add server")).click();
    await approveInWindow(browser, "everything-remote");
    assert.deepEqual(saved()["everything-remote"], { type: "http", url: everything.url });
    await ready(browser, "everything-remote");
  });
});
