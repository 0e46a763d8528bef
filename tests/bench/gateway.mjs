// The gateway's costs, printed side by side with their baselines from the same run: (1) the hop — the official
// TypeScript SDK client calling a tool through `plugboard serve --stdio` against the same client calling the same
// server (Plugboard's Rust test server, release build) directly; rounds of the two sides alternate, so other load on
// the machine hits both alike; (2) start-up — `serve --stdio` with no servers configured, from spawn to the answer
// to `initialize`, and its peak memory then (VmHWM), against the test server itself (a bare rmcp server). With the hop,
// how often serve's folder-watch threads woke per call (the history's writes share a folder with the approvals).
// Run with `make bench`; the isolated HOME keeps the person's own config out of it.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const ROUNDS = 6;
const PER_ROUND = 200;
const WARM_UP = 300;
const STARTS = 15;

const plugboard = required("PLUGBOARD_CLI_BIN");
const testserver = required("PLUGBOARD_TESTSERVER_BIN");
const configPath = join(required("XDG_CONFIG_HOME"), "plugboard", "servers.json");

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the bench through \`make bench\``);
  return value;
}

/** Writes servers.json and approves what it runs, as the person would before a client uses the gateway. */
function writeConfig(servers) {
  mkdirSync(dirname(configPath), { recursive: true });
  writeFileSync(configPath, JSON.stringify({ mcpServers: servers }, null, 2));
  execFileSync(plugboard, ["approve", "--all", "--yes"], { stdio: ["ignore", "ignore", "inherit"] });
}

async function connect(command, args) {
  return (await connectProcess(command, args)).client;
}

/** A client of `command args`, and the server process's pid. */
async function connectProcess(command, args) {
  const client = new Client({ name: "plugboard-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "ignore" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** How often the folder-watch threads of process `pid` (Plugboard's, or notify's) have woken so far. */
function watchWakeups(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const comm = readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8");
    if (!comm.startsWith("config-inotify") && !comm.startsWith("notify-rs")) continue;
    const status = readFileSync(`/proc/${pid}/task/${task}/status`, "utf8");
    total += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return total;
}

async function timedCalls(client, name, count) {
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const started = process.hrtime.bigint();
    const result = await client.callTool({ name, arguments: { message: "benchmark" } });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result)}`);
  }
  return times;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** Spawns `command args`, sends `initialize`, and resolves with the milliseconds to its answer and VmHWM (KiB). */
function startUp(command, args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env: process.env, stdio: ["pipe", "pipe", "ignore"] });
    let buffered = "";
    child.on("error", reject);
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      if (!buffered.includes("\n")) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1];
      child.stdin.end();
      child.kill();
      resolve({ ms, kib: Number(hwm) });
    });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "plugboard-bench", version: "1" } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
  });
}

async function hop() {
  writeConfig({ echo: { command: testserver, args: [] } });
  const { client: through, pid: gateway } = await connectProcess(plugboard, ["serve", "--stdio"]);
  const direct = await connect(testserver, []);
  await timedCalls(through, "mcp__echo__echo", WARM_UP);
  await timedCalls(direct, "echo", WARM_UP);
  const sides = { through: [], direct: [] };
  const woken = watchWakeups(gateway);
  for (let round = 0; round < ROUNDS; round += 1) {
    sides.through.push(...(await timedCalls(through, "mcp__echo__echo", PER_ROUND)));
    sides.direct.push(...(await timedCalls(direct, "echo", PER_ROUND)));
  }
  const wakeups = (watchWakeups(gateway) - woken) / (ROUNDS * PER_ROUND);
  await through.close();
  await direct.close();
  const [g, d] = [summary(sides.through), summary(sides.direct)];
  console.log(`gateway hop: TypeScript SDK client, echo on plugboard-testserver, ${ROUNDS * PER_ROUND} calls a side`);
  console.log(`  through serve --stdio   p50 ${g.p50.toFixed(3)} ms   p95 ${g.p95.toFixed(3)} ms`);
  console.log(`  direct                  p50 ${d.p50.toFixed(3)} ms   p95 ${d.p95.toFixed(3)} ms`);
  console.log(`  ratio (p50)             ${(g.p50 / d.p50).toFixed(2)}x   (goal: at most 1.5x)`);
  console.log(`  serve's folder-watch wake-ups per call ${wakeups.toFixed(2)}   (each call's history row is written beside the approvals)`);
}

async function starts() {
  writeConfig({});
  const sides = { gateway: [], bare: [] };
  for (let i = 0; i < STARTS; i += 1) {
    sides.gateway.push(await startUp(plugboard, ["serve", "--stdio"]));
    sides.bare.push(await startUp(testserver, []));
  }
  const median = (runs, key) => summary(runs.map((r) => r[key])).p50;
  console.log(`start-up to the initialize answer, no servers configured, median of ${STARTS}`);
  console.log(`  plugboard serve --stdio ${median(sides.gateway, "ms").toFixed(1)} ms   ${(median(sides.gateway, "kib") / 1024).toFixed(1)} MiB peak   (goal: under 20 ms, under 15 MiB)`);
  console.log(`  plugboard-testserver    ${median(sides.bare, "ms").toFixed(1)} ms   ${(median(sides.bare, "kib") / 1024).toFixed(1)} MiB peak   (a bare rmcp server)`);
}

await starts();
await hop();
