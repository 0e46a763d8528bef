// Write-back end to end: `plugboard clients connect cursor` puts one entry into Cursor's file in the isolated HOME,
// and the official TypeScript SDK client launches EXACTLY the command, arguments and environment written there (as
// Cursor would) and sees the curated tools of the profile, and calls one. Cursor's own entries, its literal secret
// included, stay as they were.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { testServer, writeConfig } from "../support/system.mjs";
import { firstText, plugboardBinary } from "./client.mjs";

const marker = `plugboard-clients-${process.pid}`;
const cursorFile = join(homedir(), ".cursor", "mcp.json");
const secret = "ghp_Zx81u7Qm2LkT0pWv9RbYc3NdHf6GsJ4aEo5K";
const cursorBefore = `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "${secret}" }
    }
  }
}
`;

/**
 * Plugboard's servers.json: the testserver with two curated tools, and a profile showing one of them. The one place
 * the test sets servers up, so anything a server needs before it runs (e.g. a launch approval) goes here.
 */
function configureServers() {
  writeConfig({
    mcpServers: { jobs: { command: testServer(), args: ["--tag", marker], tools: ["echo", "slow"] } },
    profiles: { editor: { servers: { jobs: { tools: ["echo"] } } } },
  });
}

function plugboard(args) {
  return spawnSync(plugboardBinary(), args, { encoding: "utf8", env: process.env });
}

describe("clients connect cursor, then Cursor's own entry launched by the TypeScript SDK", () => {
  let client;
  let connect;
  before(() => {
    configureServers();
    mkdirSync(join(homedir(), ".cursor"), { recursive: true });
    writeFileSync(cursorFile, cursorBefore);
    connect = plugboard(["clients", "connect", "cursor", "--profile", "editor"]);
  });
  after(async () => {
    await client?.close();
  });

  test("connect prints the diff and what to do next, and adds one entry of the binary and its arguments", () => {
    assert.equal(connect.status, 0, connect.stderr);
    assert.match(connect.stdout, /^\+\s+"plugboard": \{$/m);
    assert.match(connect.stdout, /Next: .*Cursor/);
    const file = JSON.parse(readFileSync(cursorFile, "utf8"));
    assert.deepEqual(Object.keys(file.mcpServers), ["github", "plugboard"]);
    assert.deepEqual(file.mcpServers.github, JSON.parse(cursorBefore).mcpServers.github);
    assert.deepEqual(file.mcpServers.plugboard, {
      command: realpathSync(plugboardBinary()),
      args: ["serve", "--stdio", "--profile", "editor"],
    });
    assert.equal(readFileSync(cursorFile, "utf8").split(secret).length, 2, "the secret is written once, as before");
  });

  test("the entry, launched exactly as written, serves the profile's curated tools", async () => {
    const entry = JSON.parse(readFileSync(cursorFile, "utf8")).mcpServers.plugboard;
    // No `env` in the entry: the SDK then passes its default environment, as a client launching it would.
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: entry.env, stderr: "pipe" });
    client = new Client({ name: "cursor-like-client", version: "1.0.0" });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names, ["mcp__jobs__echo"]);
    const result = await client.callTool({ name: "mcp__jobs__echo", arguments: { message: "through Cursor's file" } });
    assert.equal(firstText(result), "Echo: through Cursor's file");
  });

  test("connecting again changes nothing; disconnect then restore give Cursor's file back byte for byte", () => {
    const connected = readFileSync(cursorFile, "utf8");
    const again = plugboard(["clients", "connect", "cursor", "--profile", "editor"]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /already launches this Plugboard/);
    assert.equal(readFileSync(cursorFile, "utf8"), connected);
    const list = JSON.parse(plugboard(["clients", "list", "--json"]).stdout);
    const cursor = list.find((c) => c.client === "cursor");
    assert.deepEqual(cursor.connection, { state: "current", profile: "editor" });
    assert.equal(plugboard(["clients", "disconnect", "cursor"]).status, 0);
    assert.equal(JSON.parse(readFileSync(cursorFile, "utf8")).mcpServers.plugboard, undefined);
    const restore = plugboard(["clients", "restore", "cursor"]);
    assert.equal(restore.status, 0, restore.stderr);
    assert.equal(readFileSync(cursorFile, "utf8"), cursorBefore);
  });
});
