// Launches the real Plugboard binary through tauri-driver (started by tests/harness/isolated-env.sh --webdriver).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { remote } from "webdriverio";

const here = dirname(fileURLToPath(import.meta.url));

/** Where screenshots of this run go; kept after the run for people (and the README) to look at. */
export const outputDir = join(here, "..", "output", "e2e");

/** The app binary, built with the custom-protocol feature so it serves ui/dist rather than the Vite dev server. */
function appBinary() {
  const bin = process.env.PLUGBOARD_APP_BIN;
  if (!bin) throw new Error("PLUGBOARD_APP_BIN is not set: run the e2e suite through `make test-e2e`");
  return bin;
}

/** The session-bus name a running window owns (tauri-plugin-single-instance: the app identifier + ".SingleInstance"). */
const INSTANCE_NAME = "dev.plugboard.desktop.SingleInstance";

/** Whether a Plugboard window still owns its single-instance name on the session bus. */
function windowRunning() {
  const reply = execFileSync("dbus-send", [
    "--session",
    "--print-reply",
    "--dest=org.freedesktop.DBus",
    "/org/freedesktop/DBus",
    "org.freedesktop.DBus.NameHasOwner",
    `string:${INSTANCE_NAME}`,
  ]).toString();
  return reply.includes("boolean true");
}

/**
 * Waits until the previous test's window has let go of the single-instance name: a window started before that
 * would hand its arguments to the dying one and quit, and WebDriver would wait for it forever.
 */
export async function previousWindowGone() {
  const deadline = Date.now() + 20_000;
  while (windowRunning()) {
    if (Date.now() > deadline) throw new Error(`${INSTANCE_NAME} is still owned: an earlier window did not quit`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A launcher for the app binary whose `BROWSER` is `command` (the harness's is a program that does not exist, so no
 * real browser starts): WebDriver starts the launcher, which becomes the app.
 */
function appWithBrowser(command) {
  const sandbox = process.env.PLUGBOARD_TEST_SANDBOX;
  if (!sandbox) throw new Error("PLUGBOARD_TEST_SANDBOX is not set: run inside tests/harness/isolated-env.sh");
  const launcher = join(sandbox, "app-with-browser.sh");
  const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;
  writeFileSync(launcher, `#!/bin/sh\nexport BROWSER=${quote(command)}\nexec ${quote(appBinary())} "$@"\n`, { mode: 0o755 });
  return launcher;
}

/**
 * Starts a new app process (with `args`, e.g. a `plugboard://` link) and returns the WebDriver session driving its
 * window. `browser`, when given, is the program the app opens web pages with (called with the address).
 */
export async function launchApp(args = [], { browser: browserCommand } = {}) {
  const port = Number(process.env.WEBDRIVER_PORT);
  if (!port) throw new Error("WEBDRIVER_PORT is not set: run inside tests/harness/isolated-env.sh --webdriver");
  // The bus name can be released a moment before the old process is gone; a window started in that moment may still
  // hand off to it and quit, which WebDriver reports as an invalid session. Such a launch is made again, once.
  for (let attempt = 1; ; attempt += 1) {
    await previousWindowGone();
    const browser = await remote({
      hostname: "127.0.0.1",
      port,
      logLevel: "warn",
      capabilities: {
        "tauri:options": { application: browserCommand ? appWithBrowser(browserCommand) : appBinary(), args },
      },
    });
    try {
      await (await browser.$("h1")).waitForExist({ timeout: 20_000 });
      return browser;
    } catch (error) {
      if (attempt > 1 || !String(error).includes("invalid session id")) throw error;
      await browser.deleteSession().catch(() => {});
    }
  }
}

/**
 * Saves a screenshot of the window as `<name>.png` in the output folder and returns its path. It is taken from the
 * X server, as a person sees the window: WebKit's own snapshot (WebDriver's screenshot) never returns when
 * accelerated compositing is off, which the app chooses where there is no GPU (src-tauri/src/webkit_env.rs).
 */
export async function screenshot(browser, name) {
  mkdirSync(outputDir, { recursive: true });
  const path = join(outputDir, `${name}.png`);
  const { x, y, width, height } = await browser.getWindowRect();
  // Let the last render reach the screen: the page may have changed a moment ago.
  await new Promise((resolve) => setTimeout(resolve, 300));
  execFileSync("import", ["-window", "root", "-crop", `${width}x${height}+${x}+${y}`, "+repage", path]);
  return path;
}

/** The pid of the running app process (the one whose executable is the binary under test), or null. */
export function appPid() {
  const binary = realpathSync(appBinary());
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/exe`) === binary) return Number(entry);
    } catch {
      // A process that ended or is not ours to read.
    }
  }
  return null;
}

/**
 * Approves `server` in the window's approval dialog, as the person would after reading it, once the dialog shows it;
 * returns the command line (or origin) the dialog showed for it.
 */
export async function approveInWindow(browser, server, timeout = 30_000) {
  const card = await browser.$(`//section[.//h3[normalize-space()="${server}"]]`);
  await card.waitForDisplayed({ timeout, timeoutMsg: `the approval dialog did not show ${server}` });
  const shown = await card.$("code").getText();
  const approve = await card.$(`//button[normalize-space()="Approve ${server}"]`);
  await approve.waitForClickable({ timeout });
  await approve.click();
  await card.waitForDisplayed({ timeout, reverse: true });
  return shown;
}

export {
  approveAll,
  configPath,
  cpuSeconds,
  everythingServer,
  pidsWith,
  processTree,
  testServer,
  writeConfig,
} from "../support/system.mjs";

/** Waits until the Servers table shows `count` ready servers. */
export async function serversReady(browser, count, timeout = 30_000) {
  const table = await browser.$("table");
  await table.waitForDisplayed({ timeout });
  await browser.waitUntil(async () => ((await table.getText()).match(/Ready · \d+ tools?/g) ?? []).length === count, {
    timeout,
  });
}

/**
 * Answers the system's file picker titled `title` (GTK's, a window of its own beside the webview, which WebDriver
 * cannot reach) as a person does from the keyboard: in the folder it opens on (the home folder), type the name of
 * the entry to choose (GTK's search selects it), then Alt+O for Open.
 */
export async function answerSystemPicker(title, name) {
  const id = await waitForWindow(title);
  const xdotool = (...args) => execFileSync("xdotool", args, { timeout: 30_000 });
  xdotool("windowfocus", "--sync", id);
  xdotool("type", "--delay", "30", name);
  // The search finds and selects the entry before Open has anything to open.
  await new Promise((resolve) => setTimeout(resolve, 800));
  xdotool("key", "alt+o");
}

/** The id of the visible X window named exactly `title`, once there is one (xdotool's own name regex misses some). */
async function waitForWindow(title) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ids = execFileSync("xdotool", ["search", "--onlyvisible", "--name", ""], { encoding: "utf8" }).trim().split("\n");
    for (const id of ids.filter(Boolean)) {
      let name = "";
      try {
        name = execFileSync("xdotool", ["getwindowname", id], { encoding: "utf8" }).trim();
      } catch {
        continue; // gone meanwhile
      }
      if (name === title) return id;
    }
    if (Date.now() > deadline) throw new Error(`no window titled ${JSON.stringify(title)} appeared`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
