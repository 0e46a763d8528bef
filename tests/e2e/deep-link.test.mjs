// Logging in to a real OAuth server from the window: the deep-link redirect (`dev.plugboard.desktop:/oauth/callback`, delivered
// by a second launch of the app, the way a browser hands it over) with hostile links refused while the login waits,
// and the loopback redirect, for a server added by its URL alone (no `oauth` section). The TypeScript SDK's demo OAuth server plays the authorization server; the test plays
// the browser (the harness lets no real one start).
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";

import { freePort, listening } from "../support/system.mjs";
import { approveAll, configPath, launchApp, screenshot } from "./app.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const WAIT = { timeout: 30_000 };
const DEMO_SERVER = join(
  here,
  "..",
  "node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js",
);
const UNKNOWN = /no login is waiting for this callback/;

/** The SDK's example server with its demo OAuth provider (which consents at once); returns its MCP URL and process. */
async function startDemoServer() {
  const [mcpPort, authPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [DEMO_SERVER, "--oauth"], {
    env: { ...process.env, MCP_PORT: String(mcpPort), MCP_AUTH_PORT: String(authPort) },
    stdio: "ignore",
  });
  await listening(mcpPort);
  await listening(authPort);
  // Exactly the resource URL the server advertises (`localhost`, not 127.0.0.1).
  return { url: `http://localhost:${mcpPort}/mcp`, child };
}

/**
 * Launches the app binary a second time with `url` as its only argument, as a browser does with a
 * `plugboard://` link; the running window receives it over the session bus. Resolves with the exit code.
 */
function openLink(url) {
  return new Promise((resolve) => {
    execFile(process.env.PLUGBOARD_APP_BIN, [url], { env: process.env, timeout: 60_000 }, (error) =>
      resolve(error === null ? 0 : (error.code ?? -1)),
    );
  });
}

/**
 * Opens `url` the way a browser hands a link to the desktop: `gio open` finds the handler the app registered for
 * the scheme (a development build registers itself at start) and launches it, which forwards the link.
 */
function openThroughDesktop(url) {
  return new Promise((resolve) => {
    execFile("gio", ["open", url], { env: process.env, timeout: 60_000 }, (error, _out, stderr) =>
      resolve(error === null ? "" : `${error.message} ${stderr}`),
    );
  });
}

/** Plays the browser: GETs the authorization URL without following redirects and returns where it sends us. */
async function consent(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  assert.ok(response.status >= 300 && response.status < 400, `the consent redirects (got ${response.status})`);
  return response.headers.get("location");
}

/** Resolves after the page has painted twice more, so a screenshot shows the latest state (under load, one taken
 * right after a change once came out blank). */
async function painted(browser) {
  await browser.execute(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** The XPath of the table row of `server`. */
const row = (server) => `//tr[th[normalize-space()="${server}"]]`;

describe("OAuth login in the window", () => {
  let browser;
  let linkServer;
  let loopServer;
  before(async () => {
    [linkServer, loopServer] = [await startDemoServer(), await startDemoServer()];
    mkdirSync(dirname(configPath()), { recursive: true });
    writeFileSync(
      configPath(),
      JSON.stringify({
        mcpServers: {
          "demo-link": { type: "http", url: linkServer.url, oauth: { redirect: "deep-link" } },
          // Added by its URL alone, as a person pastes it: its 401 says it is an OAuth server.
          "demo-loop": { type: "http", url: loopServer.url },
        },
      }),
    );
    approveAll();
    browser = await launchApp();
    // Usable at the smallest size the issue names; WebKitWebDriver may refuse, then the default size stays.
    await browser.setWindowSize(1024, 768).catch(() => {});
  });
  after(async () => {
    await browser?.deleteSession();
    linkServer?.child.kill();
    loopServer?.child.kill();
  });

  /** The text of `server`'s row. */
  const rowText = async (server) => browser.$(row(server)).getText();

  /** Presses Log in on `server`'s row and returns the authorization URL the waiting panel shows. */
  async function logIn(server) {
    const button = await browser.$(`${row(server)}//button[contains(., "Log in")]`);
    await button.waitForDisplayed(WAIT);
    await button.click();
    const link = await browser.$(`textarea[aria-label="Authorization link for ${server}"]`);
    await link.waitForDisplayed(WAIT);
    return link.getValue();
  }

  /** Waits for a refused-link notice matching `reason`, checks the login still waits, and dismisses the notice. */
  async function expectRefused(reason, server) {
    const notices = await browser.$('[aria-label="Refused links"]');
    await browser.waitUntil(async () => reason.test(await notices.getText()), {
      ...WAIT,
      timeoutMsg: `no notice matching ${reason}`,
    });
    const text = await notices.getText();
    assert.doesNotMatch(text, /<script|alert\(/, "nothing from the link is echoed");
    assert.equal(await browser.execute(() => document.querySelectorAll("#root script, #root img").length), 0);
    assert.match(await rowText(server), /Needs login/);
    assert.ok(await browser.$(`section[aria-label="Login to ${server}"]`).isDisplayed(), "the login still waits");
    for (const dismiss of await notices.$$('button[aria-label="Dismiss this notice"]')) await dismiss.click();
    await browser.waitUntil(async () => (await notices.getText()) === "", WAIT);
  }

  // Both servers come up needing a login, and offer Log in.
  test("OAuth servers start in needs-login", async () => {
    await browser.$("table").waitForDisplayed(WAIT);
    for (const server of ["demo-link", "demo-loop"]) {
      await browser.waitUntil(async () => /Needs login/.test(await rowText(server)), WAIT);
    }
  });

  // The deep-link flavour: hostile links from a second launch are refused as inert text while the login keeps
  // waiting; the real callback completes it (the server turns Ready by itself); a replay of it, opened through the
  // desktop's scheme handler, is refused.
  test("a deep-link login survives hostile links, completes, and refuses a replay", async () => {
    const authorizationUrl = await logIn("demo-link");
    const panel = await browser.$('section[aria-label="Login to demo-link"]');
    assert.match(await panel.getText(), /Waiting for the browser…/);
    // The harness lets no browser start: the app says so and the link is there to open by hand.
    assert.match(await panel.getText(), /The browser could not be opened/);
    assert.match(authorizationUrl, /redirect_uri=dev\.plugboard\.desktop%3A%2Foauth%2Fcallback/);
    await painted(browser);
    await screenshot(browser, "login-waiting");

    const callback = await consent(authorizationUrl);
    assert.match(callback, /^dev\.plugboard\.desktop:\/oauth\/callback\?/, "the demo server accepted the deep-link redirect");
    const state = new URL(callback).searchParams.get("state");
    assert.ok(state, "the callback carries a state");
    const forged = `${state.slice(0, -1)}${state.endsWith("A") ? "B" : "A"}`;
    const hostile = [
      [`dev.plugboard.desktop:/oauth/callback?code=forged&state=${encodeURIComponent(forged)}`, UNKNOWN],
      ["dev.plugboard.desktop:/oauth/callback?code=x&state=never-issued-by-plugboard", UNKNOWN],
      [`${callback}&pad=${"A".repeat(64 * 1024)}`, /longer than 8192 bytes/],
      [`${callback}&junk=%zz`, /broken percent-encoding/],
      [`${callback}&state=${encodeURIComponent(state)}`, /`state` more than once/],
      [
        "dev.plugboard.desktop:/oauth/callback?error=access_denied&error_description=<script>alert(1)</script>&state=x",
        UNKNOWN,
      ],
    ];
    for (const [link, reason] of hostile) {
      assert.equal(await openLink(link), 0, "the second launch handed the link over and quit");
      await expectRefused(reason, "demo-link");
    }

    assert.equal(await openLink(callback), 0);
    await browser.waitUntil(async () => /Ready · \d+ tools?/.test(await rowText("demo-link")), WAIT);
    assert.equal(await panel.isExisting(), false, "the waiting panel went away by itself");
    assert.ok(await browser.$(`${row("demo-link")}//button[contains(., "Log out")]`).isDisplayed());

    // The replay goes the desktop's way this time: the scheme handler the app registered, then the forwarding.
    const handler = readFileSync(join(process.env.XDG_DATA_HOME, "applications", "plugboard-desktop-handler.desktop"), "utf8");
    assert.match(handler, /MimeType=.*x-scheme-handler\/plugboard/);
    assert.match(handler, /^Exec=.* %u$/m);
    assert.equal(await openThroughDesktop(callback), "", "gio opened the link with the registered handler");
    const notices = await browser.$('[aria-label="Refused links"]');
    await browser.waitUntil(async () => UNKNOWN.test(await notices.getText()), WAIT);
    assert.match(await rowText("demo-link"), /Ready/);
    await painted(browser);
    await screenshot(browser, "deep-link-rejected");
    await notices.$('button[aria-label="Dismiss this notice"]').click();
  });

  // The loopback flavour, refused first: an authorization error whose description is markup ends the login with
  // that description shown as literal text (no element made); Log in again, the consent redirects to Plugboard's
  // listener on 127.0.0.1, which completes the login.
  test("a loopback login shows an error as text, then completes", async () => {
    const refused = new URL(await consent(await logIn("demo-loop")));
    const payload = "<script>document.title='owned'</script><img src=x onerror=alert(1)>";
    const error = `${refused.origin}${refused.pathname}?error=access_denied&error_description=${encodeURIComponent(
      payload,
    )}&state=${encodeURIComponent(refused.searchParams.get("state"))}`;
    await fetch(error);
    const failure = await browser.$(`${row("demo-loop")}/following-sibling::tr[1]`);
    await browser.waitUntil(async () => /The login did not complete/.test(await failure.getText()), WAIT);
    assert.ok((await failure.getText()).includes(payload), "the description is shown as literal text");
    assert.equal(await browser.execute(() => document.querySelectorAll("#root script, #root img").length), 0);
    assert.notEqual(await browser.getTitle(), "owned");
    await failure.$('button[aria-label="Dismiss the login error of demo-loop"]').click();

    const authorizationUrl = await logIn("demo-loop");
    const callback = await consent(authorizationUrl);
    assert.match(callback, /^http:\/\/127\.0\.0\.1:\d+\/callback\?/, "the redirect goes to the loopback receiver");
    const page = await fetch(callback);
    assert.equal(page.status, 200);
    await browser.waitUntil(async () => /Ready · \d+ tools?/.test(await rowText("demo-loop")), WAIT);
  });

  // Log out asks first, then forgets the login and disconnects the server.
  test("log out after confirming", async () => {
    await browser.$(`${row("demo-loop")}//button[contains(., "Log out")]`).click();
    const confirm = await browser.$('[aria-label="Confirm logging out of demo-loop"]');
    await confirm.waitForDisplayed(WAIT);
    await confirm.$('button*=Log out').click();
    await browser.waitUntil(async () => !/Ready/.test(await rowText("demo-loop")), WAIT);
    assert.match(await rowText("demo-link"), /Ready/, "the other server keeps its login");
  });
});

describe("a cold start with a link", () => {
  let browser;
  before(async () => {
    browser = await launchApp(["dev.plugboard.desktop:/oauth/callback?code=stale&state=from-an-earlier-run"]);
  });
  after(async () => browser?.deleteSession());

  // A link the app was started with is routed before the page listens; its refusal is still shown (a fresh app has
  // no login waiting, so a login link can only be refused).
  test("its refusal is shown once the window is up", async () => {
    const notices = await browser.$('[aria-label="Refused links"]');
    await notices.waitForExist(WAIT);
    await browser.waitUntil(async () => UNKNOWN.test(await notices.getText()), WAIT);
  });
});
