// 2026-07-28's `ttlMs` through the gateway: when a client lists the tools, a server whose list's ttl ran out is
// asked again and one still fresh is not. The official TypeScript SDK client against `plugboard serve --stdio` with
// two of Plugboard's test servers speaking 2026-07-28, each counting the tool lists it answers.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, test } from "node:test";

import { testServer, writeConfig } from "../support/system.mjs";
import { connectGateway } from "./client.mjs";

/** Past the supervisor's floor between two listings of one server (a second). */
const PAST_THE_FLOOR_MS = 1_200;

let dir;
const listings = {};
before(() => {
  dir = mkdtempSync(join(tmpdir(), "plugboard-list-ttl-"));
  const server = (name, extra) => {
    listings[name] = join(dir, name);
    return { command: testServer(), args: ["--era", "modern", "--listings", listings[name], ...extra] };
  };
  // "brief" gives no ttl of its own, which rmcp sends as 0 (immediately stale); "lasting" is fresh for ten minutes.
  writeConfig({ mcpServers: { brief: server("brief", []), lasting: server("lasting", ["--tools-ttl-ms", "600000"]) } });
});
after(() => rmSync(dir, { recursive: true, force: true }));

const listed = (name) => {
  try {
    return readFileSync(listings[name], "utf8").split("\n").filter((line) => line === "tools/list").length;
  } catch {
    return 0;
  }
};

/** Waits for each server's listings to come up: once to connect, once more when its change stream is acknowledged. */
async function upAndListening() {
  for (let waited = 0; waited < 20_000; waited += 50) {
    if (listed("brief") >= 2 && listed("lasting") >= 2) return;
    await sleep(50);
  }
  assert.fail(`the servers did not come up: brief listed ${listed("brief")}, lasting ${listed("lasting")}`);
}

test("a client's tools/list asks again the server whose list went stale, and only that one", async () => {
  const gateway = await connectGateway({ name: "ttl-client" });
  try {
    const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes("mcp__brief__echo") && names.includes("mcp__lasting__echo"), names.join(", "));
    await upAndListening();
    await sleep(PAST_THE_FLOOR_MS);
    const before = { brief: listed("brief"), lasting: listed("lasting") };
    await gateway.client.listTools();
    assert.deepEqual({ brief: listed("brief"), lasting: listed("lasting") }, { brief: before.brief + 1, lasting: before.lasting });
  } finally {
    await gateway.close();
  }
});
