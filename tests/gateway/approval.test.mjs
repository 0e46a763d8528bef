// Launch approval seen from a client of the gateway (the TypeScript SDK client over `serve --stdio`): a server
// written into servers.json by another program is not run and its tools are not served; approving it from another
// process (`plugboard approve NAME --yes`) starts it in the running gateway, which announces its tools; a changed
// command is withheld again and the new command never runs.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, before, describe, test } from "node:test";

import { cliBin, pidsWith, testServer, writeConfig } from "../support/system.mjs";
import { connectGateway, eventually, firstText, nextListChanged } from "./client.mjs";

const marker = `plugboard-approval-${process.pid}`;

/** servers.json with Plugboard's testserver, its arguments ending in `extra`, written without approving it. */
function writeUnapproved(extra = []) {
  const jobs = { command: testServer(), args: ["--tag", marker, ...extra], tools: ["echo"] };
  writeConfig({ mcpServers: { jobs } }, { approve: false });
}

describe("serve --stdio under launch approval", () => {
  let gateway;
  before(async () => {
    writeUnapproved();
    gateway = await connectGateway({ wire: "stdio", firstListWaitMs: 5_000 });
  });
  after(async () => gateway?.close());

  test("an unapproved server is not run, and none of its tools is served", async () => {
    const { tools } = await gateway.client.listTools();
    assert.deepEqual(tools, []);
    assert.deepEqual(pidsWith(marker), [], "the unapproved command ran");
  });

  test("approved in another process, it starts in the running gateway and its tool answers", async () => {
    const announced = nextListChanged(gateway.changes.tools);
    execFileSync(cliBin(), ["approve", "jobs", "--yes"], { stdio: ["ignore", "ignore", "inherit"] });
    await announced;
    const names = (await gateway.client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names, ["mcp__jobs__echo"]);
    const result = await gateway.client.callTool({ name: "mcp__jobs__echo", arguments: { message: "approved" } });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.match(firstText(result), /approved/);
  });

  test("a changed command is withheld again and never runs", async () => {
    const changedMarker = `${marker}-changed`;
    const withdrawn = nextListChanged(gateway.changes.tools);
    writeUnapproved(["--tag", changedMarker]);
    await withdrawn;
    await eventually(async () => (await gateway.client.listTools()).tools.length === 0, "the tools withdrawn");
    assert.deepEqual(pidsWith(changedMarker), [], "the changed command ran unapproved");
    await eventually(() => pidsWith(marker).length === 0, "the approved process stopped with its old definition");
  });
});
