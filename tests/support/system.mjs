// What the app's test suites (WebDriver e2e, the gateway's SDK clients) share: the isolated HOME's config file,
// the servers they run against, and the processes they look at in /proc.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The Plugboard config file the app reads in the harness's isolated HOME. */
export function configPath() {
  const base = process.env.XDG_CONFIG_HOME;
  if (!base) throw new Error("XDG_CONFIG_HOME is not set: run inside tests/harness/isolated-env.sh");
  return join(base, "plugboard", "servers.json");
}

/** The console's call history (SQLite) in the harness's isolated data dir, as the core's paths.rs finds it. */
export function historyPath() {
  const base = process.env.PLUGBOARD_DATA_DIR || (process.env.XDG_DATA_HOME && join(process.env.XDG_DATA_HOME, "plugboard"));
  if (!base) throw new Error("XDG_DATA_HOME is not set: run inside tests/harness/isolated-env.sh");
  return join(base, "history.sqlite3");
}

/** The reference MCP server installed under tests/node_modules (a real server the app can connect to). */
export function everythingServer() {
  return join(here, "..", "node_modules", ".bin", "mcp-server-everything");
}

/** Plugboard's own misbehaving MCP server (src-tauri/crates/plugboard-testservers), built by `make test-e2e`. */
export function testServer() {
  const bin = process.env.PLUGBOARD_TESTSERVER_BIN;
  if (!bin) throw new Error("PLUGBOARD_TESTSERVER_BIN is not set: run the suite through make");
  return bin;
}

/** CPU time (user + system, all threads) the process `pid` has used so far, in seconds (from /proc/<pid>/stat). */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces, so it is skipped by its closing parenthesis).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** The pids of processes whose command line contains `marker` (e.g. a server launched with a marker argument). */
export function pidsWith(marker) {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ");
      if (cmdline.includes(marker) && Number(entry) !== process.pid) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

/** `pid` and every process below it (the app's WebKit processes and the servers it launched). */
export function processTree(pid) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone, or not ours to read.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** Writes servers.json the way editors save (write a temp file, then rename), so the app never reads half a file. */
export function writeConfig(config) {
  mkdirSync(dirname(configPath()), { recursive: true });
  const temp = `${configPath()}.test-tmp`;
  writeFileSync(temp, JSON.stringify(config, null, 2));
  renameSync(temp, configPath());
}

