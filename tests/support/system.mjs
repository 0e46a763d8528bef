// What the app's test suites (WebDriver e2e, the gateway's SDK clients) share: the isolated HOME's config file,
// the servers they run against, and the processes they look at in /proc.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
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

/**
 * Writes servers.json the way editors save (write a temp file, then rename), so the app never reads half a file.
 * Then the test, standing in for the person, approves every server in it with `plugboard approve --all --yes` (a
 * running app or gateway picks the approvals up from the data dir); `{ approve: false }` leaves them waiting.
 */
export function writeConfig(config, { approve = true } = {}) {
  mkdirSync(dirname(configPath()), { recursive: true });
  const temp = `${configPath()}.test-tmp`;
  writeFileSync(temp, JSON.stringify(config, null, 2));
  renameSync(temp, configPath());
  if (approve) approveAll();
}

/** `plugboard approve --all --yes`: every server of servers.json whose definition is not approved yet. */
export function approveAll() {
  execFileSync(cliBin(), ["approve", "--all", "--yes"], { stdio: ["ignore", "ignore", "inherit"] });
}

/** The `plugboard` command under test, built by make. */
export function cliBin() {
  const bin = process.env.PLUGBOARD_CLI_BIN;
  if (!bin) throw new Error("PLUGBOARD_CLI_BIN is not set: run the suite through make");
  return bin;
}


/** A free TCP port on 127.0.0.1 (taken and released: a moment's race, fine on the test's own machine). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on 127.0.0.1:`port`; throws after 20 s or once `gaveUp()` says so. */
export async function listening(port, gaveUp = () => false) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1", () => resolve(socket.end() && true));
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (gaveUp() || Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * server-everything serving Streamable HTTP on a free loopback port, once it accepts connections: its `url` and
 * `stop()`.
 */
export async function startEverythingHttp() {
  const port = await freePort();
  const child = spawn(everythingServer(), ["streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: "ignore" });
  await listening(port, () => child.exitCode !== null);
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill() };
}
