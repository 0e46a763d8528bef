// `plugboard serve --stdio` as a client sees it, with the official TypeScript SDK's client against real upstream
// servers (the reference server-everything and Plugboard's testserver): exactly the allowlisted tools under their
// gateway names, calls, progress, a cancel, list_changed after another program edits the allowlist, a SIGKILLed
// upstream that the next call survives, and no upstream process left once the client is gone.
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { everythingServer, pidsWith, testServer, writeConfig } from "../support/system.mjs";
import { connectGateway, eventually, firstText, nextListChanged } from "./client.mjs";

const marker = `plugboard-gateway-${process.pid}`;
const journal = join(tmpdir(), `${marker}.journal`);

function config(everythingTools) {
  return {
    mcpServers: {
      everything: { command: everythingServer(), args: ["stdio", marker], tools: everythingTools },
      jobs: { command: testServer(), args: ["--journal", journal, "--tag", marker], tools: ["progress", "slow"] },
      off: { command: testServer(), args: ["--tag", marker], enabled: false },
    },
  };
}

describe("serve --stdio with the TypeScript SDK client", () => {
  let gateway;
  before(async () => {
    rmSync(journal, { force: true });
    writeConfig(config(["echo", "get-sum"]));
    gateway = await connectGateway();
  });
  after(async () => {
    await gateway?.client.close();
    rmSync(journal, { force: true });
  });

  test("lists exactly the allowlisted tools of the enabled servers, under their gateway names", async () => {
    const { tools } = await gateway.client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["mcp__everything__echo", "mcp__everything__get-sum", "mcp__jobs__progress", "mcp__jobs__slow"]);
    const echo = tools.find((t) => t.name === "mcp__everything__echo");
    assert.equal(echo.inputSchema.type, "object", "the upstream's schema is passed on");
    assert.equal(gateway.client.getServerVersion()?.name, "plugboard");
  });

  test("a call reaches the upstream tool and its result comes back", async () => {
    const result = await gateway.client.callTool({ name: "mcp__everything__get-sum", arguments: { a: 2, b: 40 } });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.match(firstText(result), /42/);
  });

  test("a hidden or unknown tool is refused", async () => {
    await assert.rejects(
      gateway.client.callTool({ name: "mcp__everything__get-env", arguments: {} }),
      /offers no tool named/,
    );
  });

  test("progress and the server's log lines during a call are passed to the client", async () => {
    const seen = [];
    const result = await gateway.client.callTool(
      { name: "mcp__jobs__progress", arguments: { steps: 3, interval_ms: 50, log: true } },
      undefined,
      { onprogress: (progress) => seen.push(progress.progress) },
    );
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.ok(seen.length >= 3, `three progress notifications arrived: ${JSON.stringify(seen)}`);
    const logged = gateway.logs.filter((line) => line.logger === "progress");
    assert.ok(logged.length >= 3, `three log lines arrived: ${JSON.stringify(gateway.logs)}`);
  });

  test("a client's cancel reaches the upstream server", async () => {
    const abort = new AbortController();
    const call = gateway.client.callTool({ name: "mcp__jobs__slow", arguments: { ms: 30_000 } }, undefined, {
      signal: abort.signal,
      timeout: 60_000,
    });
    await eventually(() => readJournal().includes("call slow"), "the upstream to receive the call");
    abort.abort("the person changed their mind");
    await assert.rejects(call);
    await eventually(() => readJournal().includes("cancelled slow"), "the upstream to hear the cancel");
  });

  test("another program's allowlist edit is announced with list_changed and applied", async () => {
    const changed = nextListChanged(gateway.changes.tools);
    writeConfig(config(["echo"]));
    await changed;
    const names = (await gateway.client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["mcp__everything__echo", "mcp__jobs__progress", "mcp__jobs__slow"]);
  });

  test("an upstream killed with SIGKILL between two calls: the second call succeeds", async () => {
    const first = await gateway.client.callTool({ name: "mcp__everything__echo", arguments: { message: "one" } });
    assert.match(firstText(first), /one/);
    const [victim] = everythingPids();
    assert.ok(victim, "the everything server is running");
    process.kill(victim, "SIGKILL");
    await eventually(() => !everythingPids().includes(victim), "the killed server to be gone");
    const second = await gateway.client.callTool({ name: "mcp__everything__echo", arguments: { message: "two" } });
    assert.notEqual(second.isError, true, JSON.stringify(second));
    assert.match(firstText(second), /two/);
  });

  test("no upstream process is left once the client closes", async () => {
    assert.ok(pidsWith(marker).length > 0, "upstream servers are running while the client is connected");
    await gateway.client.close();
    gateway = undefined;
    await eventually(() => pidsWith(marker).length === 0, "every upstream process to stop", 15_000);
  });
});

function readJournal() {
  try {
    return readFileSync(journal, "utf8");
  } catch {
    return "";
  }
}

/** The server-everything processes (node runs it: its command line holds the marker). */
function everythingPids() {
  return pidsWith(marker).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("mcp-server-everything");
    } catch {
      return false;
    }
  });
}
