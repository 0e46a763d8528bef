// The protocol era a server speaks, remembered across processes: each client starts its own `serve --stdio`, and a
// server the first one found to be of the earlier era (it refused `server/discover`) is opened with `initialize` at
// once by the next, instead of being probed again. The official TypeScript SDK client and Plugboard's test server.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { testServer, writeConfig } from "../support/system.mjs";
import { connectGateway, firstText } from "./client.mjs";

let dir;
let openings;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "plugboard-eras-"));
  openings = join(dir, "openings");
  const args = ["--era", "legacy", "--openings", openings];
  writeConfig({ mcpServers: { old: { command: testServer(), args, tools: ["echo"] } } });
});
after(() => rmSync(dir, { recursive: true, force: true }));

test("a server one serve found to be of the earlier era is opened with initialize by the next", async () => {
  for (const name of ["first-client", "second-client"]) {
    const gateway = await connectGateway({ name });
    try {
      const result = await gateway.client.callTool({ name: "mcp__old__echo", arguments: { message: `from ${name}` } });
      assert.match(firstText(result), new RegExp(`from ${name}`));
    } finally {
      await gateway.close();
    }
  }
  assert.deepEqual(readFileSync(openings, "utf8").trim().split("\n"), ["discover", "initialize", "initialize"]);
});
