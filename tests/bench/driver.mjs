// The official TypeScript SDK's client as one side of the benchmark suite (src-tauri/crates/plugboard-bench): it
// connects to one server and then runs the rounds the suite asks for on stdin, answering each with its timings on
// stdout. With `cold` it makes one call and exits, so a whole process can be timed. Run with Node 22.
//
//   node driver.mjs loop|cold stdio PREFIX COMMAND [ARGS...]
//   node driver.mjs loop|cold http PREFIX URL
//
// A round is `run TOOL CALLS CONCURRENCY`; the answer is `done WALL_US LATENCY_US...`. Every result is checked, so
// a client that answered wrongly cannot look fast.
import { createInterface } from "node:readline";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const BIG_BYTES = 5 * 1024 * 1024;
const [mode, wire, prefix, ...target] = process.argv.slice(2);

// Over HTTP every POST adds an abort listener to the transport's one AbortSignal and they pile up (~1 per call,
// thousands a run; Node's fetch resets the signal's limit to 1,500 on each request). Their cost stays in the
// figures; only Node's warning per listener past the limit is dropped, as it would bury the suite's tables. Every
// other warning is still printed.
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  if (warning.name !== "MaxListenersExceededWarning") console.error(warning);
});
const transport =
  wire === "stdio"
    ? new StdioClientTransport({ command: target[0], args: target.slice(1), env: process.env, stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(target[0]));
const client = new Client({ name: "plugboard-bench", version: "1.0.0" });
await client.connect(transport);

async function call(tool) {
  const args = tool === "big" ? { bytes: BIG_BYTES } : { message: "benchmark" };
  const result = await client.callTool({ name: prefix + tool, arguments: args });
  const text = result.content?.[0]?.text ?? "";
  const right = tool === "big" ? text.length === BIG_BYTES : text === "Echo: benchmark";
  if (result.isError || !right) throw new Error(`wrong answer to ${tool}: ${JSON.stringify(result).slice(0, 200)}`);
}

/** `calls` calls of `tool`, `concurrency` at a time; resolves with the wall time and each call's latency (µs). */
async function round(tool, calls, concurrency) {
  const latencies = [];
  const worker = async (count) => {
    for (let i = 0; i < count; i += 1) {
      const started = process.hrtime.bigint();
      await call(tool);
      latencies.push(Number(process.hrtime.bigint() - started) / 1e3);
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, () => worker(Math.floor(calls / concurrency))));
  return { wall: Number(process.hrtime.bigint() - started) / 1e3, latencies };
}

await call("echo");
if (mode === "cold") {
  await client.close();
  process.exit(0);
}
process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  const [command, tool, calls, concurrency] = line.trim().split(" ");
  if (command !== "run") throw new Error(`unknown command: ${line}`);
  const { wall, latencies } = await round(tool, Number(calls), Number(concurrency));
  process.stdout.write(`done ${wall.toFixed(1)} ${latencies.map((l) => l.toFixed(1)).join(" ")}\n`);
}
await client.close();
