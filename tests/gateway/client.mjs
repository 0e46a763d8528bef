// Launches `plugboard serve --stdio` the way an MCP client does, with the official TypeScript SDK's client, and
// finds the upstream servers the gateway started (by a marker in their command line).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
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

/**
 * A TypeScript SDK client connected to a fresh `plugboard serve --stdio`, declaring `capabilities` and answering
 * servers' requests with `requestHandlers` (`[schema, handler]` pairs); `logs` collects the log messages it was sent. `changes.tools`, `.resources` and
 * `.prompts` count the list_changed notifications of each kind it received; `stderr` collects what the gateway wrote.
 */
export async function connectGateway({
  name = "gateway-test-client",
  firstListWaitMs = 20_000,
  capabilities = {},
  requestHandlers = [],
} = {}) {
  const transport = new StdioClientTransport({
    command: plugboardBinary(),
    args: ["serve", "--stdio", "--first-list-wait-ms", String(firstListWaitMs)],
    env: process.env,
    stderr: "pipe",
  });
  const stderr = [];
  transport.stderr?.on("data", (chunk) => stderr.push(String(chunk)));
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
  return { client, transport, changes, logs, stderr, pid: transport.pid };
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
