// The window at rest costs nothing, also after another program edited servers.json: the watcher once woke on its
// own reloads' reads and spun a core from the first external edit on. CPU time is read from /proc.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { after, before, describe, test } from "node:test";

import {
  appPid,
  configPath,
  cpuSeconds,
  everythingServer,
  launchApp,
  processTree,
  serversReady,
  writeConfig,
} from "./app.mjs";

const WAIT = { timeout: 30_000 };
const MEASURE_MS = 10_000;
// A generous bound: an idle window uses well under 1% here; the defect used 100% of a core.
const MAX_SHARE_OF_A_CORE = 0.1;

/** Writes servers.json the way an editor does: in place, as a person saving a file would. */
function editConfig(config) {
  mkdirSync(dirname(configPath()), { recursive: true });
  writeFileSync(configPath(), JSON.stringify(config, null, 2));
}

/** CPU seconds the app and every process under it used over `ms`. */
async function cpuOver(pid, ms) {
  const total = () => processTree(pid).reduce((sum, p) => sum + (safeCpu(p) ?? 0), 0);
  const start = total();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return total() - start;
}

function safeCpu(pid) {
  try {
    return cpuSeconds(pid);
  } catch {
    return null;
  }
}

describe("the idle window", () => {
  let browser;
  const config = { mcpServers: { everything: { command: everythingServer(), args: ["stdio"] } } };
  before(async () => {
    writeConfig(config);
    browser = await launchApp();
    await serversReady(browser, 1);
  });
  after(async () => {
    await browser?.deleteSession();
    rmSync(configPath(), { force: true });
  });

  // One edit by another program, then ten seconds at rest: the app and its processes stay near zero CPU.
  test("after an external edit the window costs almost no CPU", async () => {
    const pid = appPid();
    assert.ok(pid, "the app process is running");
    editConfig({ mcpServers: { ...config.mcpServers, added: { command: "plugboard-e2e-no-such-program" } } });
    const table = await browser.$("table");
    await browser.waitUntil(async () => (await table.getText()).includes("added"), WAIT);
    assert.ok(readFileSync(configPath(), "utf8").includes("added"), "the edit is on disk");
    // Let the reload and the new server's failed start settle before measuring rest.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const used = await cpuOver(pid, MEASURE_MS);
    const share = used / (MEASURE_MS / 1000);
    console.log(`idle CPU after one external edit: ${used.toFixed(3)} s over ${MEASURE_MS / 1000} s (${(share * 100).toFixed(1)}% of a core)`);
    assert.ok(share < MAX_SHARE_OF_A_CORE, `the idle app used ${(share * 100).toFixed(1)}% of a core`);
  });
});
