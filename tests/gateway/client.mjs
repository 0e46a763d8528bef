// Connects the official TypeScript SDK's client to Plugboard's gateway the way an MCP client does: launching
// `plugboard serve --stdio`, or reaching a `plugboard serve --http` started for it with the token from
// `plugboard gateway token`.
import { spawn, spawnSync } from "node:child_process";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** The `plugboard` command under test (crates/plugboard-cli; `make test-gateway` builds it). */
export function plugboardBinary() {
  const bin = process.env.PLUGBOARD_CLI_BIN;
  if (!bin) throw new Error("PLUGBOARD_CLI_BIN is not set: run the gateway suite through `make test-gateway`");
  return bin;
}

/** The gateway's bearer token, as `plugboard gateway token` prints it. */
export function gatewayToken() {
  const run = spawnSync(plugboardBinary(), ["gateway", "token"], { encoding: "utf8", env: process.env });
  if (run.status !== 0) throw new Error(`plugboard gateway token failed: ${run.stderr}`);
  return run.stdout.trim();
}

/**
 * A fresh `plugboard serve --http --port 0` (with `extraArgs`), once it says where it listens: its `url`, the
 * `process`, and `stop()`, which sends SIGTERM and resolves with the exit code once it is gone.
 */
export async function startHttpGateway({ firstListWaitMs = 20_000, extraArgs = [] } = {}) {
  const args = ["serve", "--http", "--port", "0", "--first-list-wait-ms", String(firstListWaitMs), ...extraArgs];
  const child = spawn(plugboardBinary(), args, { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
  const stderr = [];
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve --http did not start: ${stderr.join("")}`)), 20_000);
    child.stderr.on("data", (chunk) => {
      stderr.push(String(chunk));
      const found = stderr.join("").match(/serving (http:\/\/\S+\/mcp)/);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    exited.then((code) => reject(new Error(`serve --http exited (${code}): ${stderr.join("")}`)));
  });
  return {
    url,
    process: child,
    stderr,
    exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * A TypeScript SDK client connected to a fresh gateway over `wire` ("stdio": it launches `serve --stdio`; "http":
 * a `serve --http` is started for it and reached with the token), declaring `capabilities` and answering servers'
 * requests with `requestHandlers` (`[schema, handler]` pairs); `logs` collects the log messages it was sent,
 * `received` every message the gateway sent, in the order read.
 * `changes.tools`, `.resources` and `.prompts` count the list_changed notifications of each kind it received;
 * With `profile`, the gateway runs with `--profile` it; with `endpoint`, the client joins that running `serve --http`. `stderr` collects what the gateway wrote. `close()` closes the client and, over HTTP, stops the gateway.
 */
export async function connectGateway({
  name = "gateway-test-client",
  wire = "stdio",
  firstListWaitMs = 20_000,
  capabilities = {},
  requestHandlers = [],
  profile,
  endpoint,
} = {}) {
  let transport;
  let stderr = [];
  let http;
  if (wire === "http") {
    // A given `endpoint` (from startHttpGateway) is shared: this client's close() leaves it running.
    http = endpoint ?? (await startHttpGateway({ firstListWaitMs, extraArgs: profile ? ["--profile", profile] : [] }));
    stderr = http.stderr;
    const headers = { Authorization: `Bearer ${gatewayToken()}` };
    transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } });
  } else {
    transport = new StdioClientTransport({
      command: plugboardBinary(),
      args: ["serve", "--stdio", "--first-list-wait-ms", String(firstListWaitMs), ...(profile ? ["--profile", profile] : [])],
      env: process.env,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk) => stderr.push(String(chunk)));
  }
  const client = new Client({ name, version: "1.0.0" }, { capabilities });
  for (const [schema, handler] of requestHandlers) client.setRequestHandler(schema, handler);
  const changes = {};
  for (const [kind, schema] of [
    ["tools", ToolListChangedNotificationSchema],
    ["resources", ResourceListChangedNotificationSchema],
    ["prompts", PromptListChangedNotificationSchema],
  ]) {
    const seen = { count: 0, waiters: [] };
    changes[kind] = seen;
    client.setNotificationHandler(schema, () => {
      seen.count += 1;
      for (const wake of seen.waiters.splice(0)) wake();
    });
  }
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => logs.push(notification.params));
  await client.connect(transport);
  // Every message the gateway sent, in the order the transport read it: what the gateway did, before the SDK's
  // dispatch (which defers notifications to a microtask but settles a response at once) can reorder it.
  const received = [];
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    received.push(message);
    dispatch?.(message, extra);
  };
  const close = async () => {
    await client.close();
    if (!endpoint) await http?.stop();
  };
  return { client, transport, changes, logs, received, stderr, close, pid: http?.process.pid ?? transport.pid };
}

/** Resolves at the next list_changed notification of one kind (`gateway.changes.tools`, …), or rejects after `ms`. */
export function nextListChanged(changes, ms = 20_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no list_changed within ${ms / 1000} s`)), ms);
    changes.waiters.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Polls `check` every 100 ms until it returns a truthy value (returned), or throws after `ms`. */
export async function eventually(check, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The text of a tool result's first content block. */
export function firstText(result) {
  return result.content?.find((block) => block.type === "text")?.text ?? "";
}
