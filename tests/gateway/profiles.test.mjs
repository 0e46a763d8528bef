// Profiles through `plugboard serve --stdio --profile NAME` (and `serve --http --profile NAME`), with the official TypeScript SDK client against real
// upstreams (server-everything and Plugboard's testserver): a profile shows exactly its servers' tools and never one
// the allowlist hides, an edit of it in the file is announced with list_changed, a search-mode profile lists only
// find_tools / describe_tool / call_tool (finding, describing and calling through the history, hidden names
// refused), and an unknown profile stops serve with the list of the profiles there are.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";

import { everythingServer, historyPath, testServer, writeConfig } from "../support/system.mjs";
import { connectGateway, eventually, firstText, nextListChanged, plugboardBinary } from "./client.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const marker = `plugboard-profiles-${process.pid}`;
const clientName = "profiles-test-client";

function config(pickServers) {
  return {
    mcpServers: {
      // The allowlist: get-env is curated, get-tiny-image is not.
      everything: { command: everythingServer(), args: ["stdio", marker], tools: ["echo", "get-sum", "get-env"] },
      jobs: { command: testServer(), args: ["--tag", marker], tools: ["echo", "slow"] },
    },
    profiles: {
      pick: { servers: pickServers },
      finder: { mode: "search", servers: { everything: { tools: ["echo", "get-sum"] } } },
    },
  };
}

// get-tiny-image is named but not allowlisted: the profile cannot bring it back. `nowhere` is not configured.
const pick = { everything: { tools: ["get-sum", "get-tiny-image"] }, jobs: {}, nowhere: {} };

for (const wire of ["stdio", "http"]) describe(`serve --${wire} --profile with the TypeScript SDK client`, () => {
  let gateway;
  before(async () => {
    writeConfig(config(pick));
    gateway = await connectGateway({ wire, profile: "pick" });
  });
  after(async () => {
    await gateway?.close();
  });

  test("lists exactly the profile's tools, never one the allowlist hides", async () => {
    const names = (await gateway.client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["mcp__everything__get-sum", "mcp__jobs__echo", "mcp__jobs__slow"]);
    await assert.rejects(gateway.client.callTool({ name: "mcp__everything__echo", arguments: { message: "x" } }), /offers no tool named/);
    const result = await gateway.client.callTool({ name: "mcp__everything__get-sum", arguments: { a: 2, b: 40 } });
    assert.match(firstText(result), /42/);
  });

  test("a server the profile names but the file does not configure is reported on stderr", () => {
    assert.match(gateway.stderr.join(""), /profile "pick" names server "nowhere"/);
  });

  test("another program's edit of the profile is announced with list_changed and applied", async () => {
    const changed = nextListChanged(gateway.changes.tools);
    writeConfig(config({ jobs: { tools: ["echo"] } }));
    await changed;
    const names = (await gateway.client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["mcp__jobs__echo"]);
  });
});

describe("serve --stdio --profile in search mode", () => {
  let gateway;
  before(async () => {
    writeConfig(config(pick));
    gateway = await connectGateway({ profile: "finder", name: clientName });
  });
  after(async () => {
    await gateway?.client.close();
  });

  test("lists only find_tools, describe_tool and call_tool", async () => {
    const names = (await gateway.client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names, ["find_tools", "describe_tool", "call_tool"]);
  });

  test("find_tools finds a tool by a word of its description, and only the profile's tools", async () => {
    const found = await gateway.client.callTool({ name: "find_tools", arguments: { query: "numbers" } });
    assert.notEqual(found.isError, true, JSON.stringify(found));
    assert.equal(found.structuredContent.tools[0].name, "mcp__everything__get-sum", JSON.stringify(found));
    assert.match(found.structuredContent.tools[0].description, /sum of two numbers/);
    const everything = await gateway.client.callTool({ name: "find_tools", arguments: { query: "", limit: 50 } });
    const names = everything.structuredContent.tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["mcp__everything__echo", "mcp__everything__get-sum"], "get-env and jobs are not in it");
    const quoted = await gateway.client.callTool({ name: "find_tools", arguments: { query: '"echoes* back' } });
    assert.equal(quoted.structuredContent.tools[0].name, "mcp__everything__echo", "query syntax is only text");
  });

  test("describe_tool gives the full definition", async () => {
    const described = await gateway.client.callTool({ name: "describe_tool", arguments: { name: "mcp__everything__get-sum" } });
    assert.equal(described.structuredContent.name, "mcp__everything__get-sum");
    assert.ok(described.structuredContent.inputSchema.properties.a, JSON.stringify(described));
  });

  test("call_tool calls the tool through the history, under this client's name", async () => {
    const result = await gateway.client.callTool({
      name: "call_tool",
      arguments: { name: "mcp__everything__get-sum", arguments: { a: 20, b: 22 } },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.match(firstText(result), /42/);
    // The gateway answers first and writes the history row just after.
    const expected = JSON.stringify(["everything", "get-sum", clientName]);
    await eventually(() => JSON.stringify(lastHistoryRow()) === expected, "the call's history row", 5_000);
  });

  test("a tool the profile hides can be neither described nor called, directly or through call_tool", async () => {
    for (const name of ["mcp__everything__get-env", "mcp__jobs__echo"]) {
      await assert.rejects(gateway.client.callTool({ name: "call_tool", arguments: { name, arguments: {} } }), /offers no tool named/);
      await assert.rejects(gateway.client.callTool({ name: "describe_tool", arguments: { name } }), /offers no tool named/);
    }
    await assert.rejects(gateway.client.callTool({ name: "mcp__everything__get-sum", arguments: { a: 1, b: 2 } }), /search mode/);
  });
});

test("an unknown profile stops serve with the list of the profiles there are", () => {
  writeConfig(config(pick));
  const run = spawnSync(plugboardBinary(), ["serve", "--stdio", "--profile", "nope"], { encoding: "utf8", input: "", timeout: 30_000 });
  assert.notEqual(run.status, 0, "serve failed");
  assert.match(run.stderr, /no profile named "nope"/);
  assert.match(run.stderr, /finder, pick/);
  assert.equal(run.stdout, "", "nothing but MCP on stdout, and there was no MCP");
});

/** server, tool and origin of the newest call in the history (read with the Python the SDK venv has). */
function lastHistoryRow() {
  const python = join(here, "..", "..", ".tools", "py", "bin", "python3");
  const script = "import json,sqlite3,sys; db=sqlite3.connect(sys.argv[1]); " +
    "print(json.dumps(db.execute('SELECT server, tool, origin FROM calls ORDER BY id DESC LIMIT 1').fetchone()))";
  return JSON.parse(execFileSync(python, ["-c", script, historyPath()], { encoding: "utf8" }));
}
