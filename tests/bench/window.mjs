// The window's costs beside a minimal Tauri 2 window built and measured in the same run (the floor): (1) cold start,
// from the process's exec to the first painted server list (Plugboard) or page (the minimal window), read from the
// pages' performance marks over WebDriver; (2) the whole app's memory (PSS of the window's process and its WebKit
// processes, not the MCP servers it runs) idle, and after 10,000 calls in the history and a 1,000-event console
// stream. Release builds, under the isolated harness's Xvfb (`make bench-window`). Rounds alternate the two windows,
// so load from elsewhere hits both alike. It prints figures and never fails on one; it fails only when what it
// measures did not happen (a mark never set, a call that failed).
import { readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { remote } from "webdriverio";

import { previousWindowGone, serversReady } from "../e2e/app.mjs";
import { cliBin, processTree, testServer, writeConfig } from "../support/system.mjs";

const ROUNDS = 5;
/** How long a window is left alone before its memory is read: start-up work (GC, caches, fonts) settles first. */
const SETTLE_MS = 5_000;
const SERVERS = 5;
const HISTORY_CALLS = 10_000;
const STREAM_EVENTS = 1_000;
const WAIT = { timeout: 60_000 };

const SIDES = {
  minimal: { label: "minimal Tauri 2 window", bin: required("PLUGBOARD_MINIMAL_WINDOW_BIN"), mark: "plugboard:minimal-painted" },
  plugboard: { label: "Plugboard (Servers page)", bin: required("PLUGBOARD_APP_BIN"), mark: "plugboard:servers-painted" },
};

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the bench through \`make bench-window\``);
  return value;
}

/**
 * Starts `side`'s binary through WebDriver from a launcher that writes its pid and the clock just before it becomes
 * the window (exec keeps the pid), and returns the session with them.
 */
async function launch(side, round) {
  const sandbox = required("PLUGBOARD_TEST_SANDBOX");
  const record = join(sandbox, `launch-${basename(side.bin)}-${round}.txt`);
  const launcher = join(sandbox, `launch-${basename(side.bin)}.sh`);
  writeFileSync(launcher, `#!/bin/sh\necho "$$ $(date +%s%N)" > "$1"\nshift\nexec '${side.bin}' "$@"\n`, { mode: 0o755 });
  await previousWindowGone();
  const browser = await remote({
    hostname: "127.0.0.1",
    port: Number(required("WEBDRIVER_PORT")),
    logLevel: "warn",
    capabilities: { "tauri:options": { application: launcher, args: [record] } },
  });
  const [pid, startedNs] = readFileSync(record, "utf8").trim().split(" ");
  const ns = BigInt(startedNs);
  return { browser, pid: Number(pid), startedMs: Number(ns / 1_000_000n) + Number(ns % 1_000_000n) / 1e6 };
}

/**
 * The wall-clock times (ms since the epoch) at which the page began loading (`origin`) and set its mark `name`
 * (`painted`), once it has set it.
 */
async function markTime(browser, name) {
  let at = null;
  await browser.waitUntil(
    async () => {
      at = await browser.execute((mark) => {
        const entry = performance.getEntriesByName(mark, "mark")[0];
        return entry ? { origin: performance.timeOrigin, painted: performance.timeOrigin + entry.startTime } : null;
      }, name);
      return at !== null;
    },
    { ...WAIT, interval: 20, timeoutMsg: `the page never set the mark ${name}` },
  );
  return at;
}

/**
 * The window's memory: PSS (each shared page split among the processes sharing it) of the window's process and the
 * WebKit processes below it, in MiB, with what was counted. The MCP servers (and their keepers) are not the window.
 */
function windowPss(pid) {
  const counted = [];
  let kib = 0;
  for (const member of processTree(pid)) {
    let name;
    try {
      name = basename(readlinkSync(`/proc/${member}/exe`));
    } catch {
      continue;
    }
    if (member !== pid && !name.startsWith("WebKit")) continue;
    const rollup = readFileSync(`/proc/${member}/smaps_rollup`, "utf8");
    kib += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    counted.push(name);
  }
  return { mib: kib / 1024, counted };
}

/** One cold start of `side` and its idle memory. */
async function coldStart(side, round) {
  const { browser, pid, startedMs } = await launch(side, round);
  try {
    const { origin, painted } = await markTime(browser, side.mark);
    if (side === SIDES.plugboard) await serversReady(browser, SERVERS, WAIT.timeout);
    await sleep(SETTLE_MS);
    return { coldMs: painted - startedMs, toPageMs: origin - startedMs, ...windowPss(pid) };
  } finally {
    await browser.deleteSession();
  }
}

/** 10,000 calls through `plugboard serve --stdio`, each a row in the history the window's console shows. */
async function fillHistory() {
  const client = new Client({ name: "plugboard-window-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: cliBin(), args: ["serve", "--stdio"], env: process.env, stderr: "ignore" }));
  const { tools } = await client.listTools();
  const echo = tools.find((tool) => tool.name.endsWith("echo"));
  if (!echo) throw new Error(`the gateway offers no echo tool: ${tools.map((t) => t.name).join(", ")}`);
  for (let i = 0; i < HISTORY_CALLS; i += 1) {
    const result = await client.callTool({ name: echo.name, arguments: { message: `history row ${i}` } });
    if (result.isError) throw new Error(`call ${i} failed: ${JSON.stringify(result)}`);
  }
  // The gateway flushes the last rows as it shuts down.
  await client.close();
}

/** The console with the full history, after one call that streamed 1,000 progress events into it. */
async function afterHistoryAndStream() {
  const { browser, pid } = await launch(SIDES.plugboard, "loaded");
  try {
    await markTime(browser, SIDES.plugboard.mark);
    await serversReady(browser, SERVERS, WAIT.timeout);
    await browser.execute(() => {
      window.location.hash = "#/console?server=bench-0";
    });
    const history = await browser.$("//section[@aria-labelledby='history-heading']");
    await history.waitForDisplayed(WAIT);
    await browser.waitUntil(async () => (await history.getProperty("textContent")).includes("history row"), {
      ...WAIT,
      timeoutMsg: "the console never showed the filled history",
    });
    const toolPicker = await browser.$("//span[normalize-space()='Tool']/following-sibling::button[1]");
    await toolPicker.waitForClickable(WAIT);
    await toolPicker.click();
    await (await browser.$("[cmdk-input]")).waitForDisplayed(WAIT);
    await browser.keys("progress".split(""));
    await browser.keys(["Enter"]);
    const steps = await browser.$("#root_steps");
    await steps.waitForDisplayed(WAIT);
    await steps.setValue(String(STREAM_EVENTS));
    await (await browser.$("#root_interval_ms")).setValue("1");
    const run = await browser.$("//button[normalize-space()='Run']");
    await run.waitForClickable(WAIT);
    await run.click();
    await browser.waitUntil(async () => (await (await browser.$("main")).getText()).includes(`done after ${STREAM_EVENTS} steps`), {
      ...WAIT,
      timeoutMsg: `the console never showed the end of the ${STREAM_EVENTS}-event call`,
    });
    await sleep(SETTLE_MS);
    return windowPss(pid);
  } finally {
    await browser.deleteSession();
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const pad = (text, width) => String(text).padEnd(width);

async function main() {
  writeConfig({
    mcpServers: Object.fromEntries(
      Array.from({ length: SERVERS }, (_, i) => [`bench-${i}`, { command: testServer(), args: ["--tag", `window-bench-${i}`] }]),
    ),
  });
  console.log(`window bench: ${ROUNDS} rounds, the two windows alternating; memory read ${SETTLE_MS / 1000} s after each start`);
  const runs = { minimal: [], plugboard: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which window goes first, so neither always starts on a machine the other just warmed.
    const order = round % 2 ? ["plugboard", "minimal"] : ["minimal", "plugboard"];
    for (const key of order) runs[key].push(await coldStart(SIDES[key], round));
  }
  console.log(`\n${pad("", 28)}${pad("cold start (p50)", 18)}${pad("of it, to page load", 21)}${pad("PSS idle (p50)", 16)}processes counted`);
  for (const key of ["minimal", "plugboard"]) {
    const cold = median(runs[key].map((r) => r.coldMs));
    const toPage = median(runs[key].map((r) => r.toPageMs));
    const pss = median(runs[key].map((r) => r.mib));
    console.log(
      `${pad(SIDES[key].label, 28)}${pad(`${cold.toFixed(0)} ms`, 18)}${pad(`${toPage.toFixed(0)} ms`, 21)}` +
        `${pad(`${pss.toFixed(1)} MiB`, 16)}${runs[key][0].counted.join(", ")}`,
    );
  }
  const coldRatio = median(runs.plugboard.map((r, i) => r.coldMs / runs.minimal[i].coldMs));
  const idleRatio = median(runs.plugboard.map((r, i) => r.mib / runs.minimal[i].mib));
  console.log(`paired ratios: cold start ${coldRatio.toFixed(2)}×, idle PSS ${idleRatio.toFixed(2)}× (goal ≤ 1.3×)`);
  console.log(`  every round (ms, MiB): ${runs.plugboard.map((r, i) => `${r.coldMs.toFixed(0)}/${runs.minimal[i].coldMs.toFixed(0)} ${r.mib.toFixed(1)}/${runs.minimal[i].mib.toFixed(1)}`).join("  ")}`);

  const filling = Date.now();
  await fillHistory();
  console.log(`\nfilled the history with ${HISTORY_CALLS} calls through serve --stdio in ${((Date.now() - filling) / 1000).toFixed(1)} s`);
  const loaded = await afterHistoryAndStream();
  const floor = median(runs.minimal.map((r) => r.mib));
  console.log(
    `Plugboard, console open on ${HISTORY_CALLS} history rows after a ${STREAM_EVENTS}-event call: ${loaded.mib.toFixed(1)} MiB PSS, ` +
      `${(loaded.mib / floor).toFixed(2)}× the minimal window's ${floor.toFixed(1)} MiB (goal ≤ 1.6×)`,
  );
}

await main();
