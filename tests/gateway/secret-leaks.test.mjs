// Secrets must not leave through tool calls, as a client of the gateway sees it (the official TypeScript SDK client
// on `serve --stdio`): the server `vault` gets a secret in its env from the keychain; a client that sends that value
// to another server's echo tool — as written, base64-, URL- or JSON-escaped — is refused with a notice naming the
// secret by reference, and the other server never receives the call (its journal says so); a result that echoes the
// secret reaches the client and the history with the reference in its place.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";

import { cliBin, everythingServer, historyPath, testServer, writeConfig } from "../support/system.mjs";
import { connectGateway, firstText } from "./client.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const marker = `plugboard-secret-leaks-${process.pid}`;
const journal = join(tmpdir(), `${marker}.journal`);
// Quotes, a slash and a plus: its JSON, URL and base64 forms all differ from the value as written.
const secret = `vault-"s3cr3t"/key+${process.pid}-${Date.now()}`;

/** How many calls the echo server received (its journal: one "call NAME" line each). */
function callsReceived() {
  try {
    return readFileSync(journal, "utf8").split("\n").filter((line) => line.startsWith("call ")).length;
  } catch {
    return 0;
  }
}

/** Every history row's server, tool, arguments, status and result (or failure), oldest first (read with the Python the SDK venv has). */
function historyRows() {
  const python = join(here, "..", "..", ".tools", "py", "bin", "python3");
  const script = "import json,sqlite3,sys; db=sqlite3.connect(sys.argv[1]); " +
    "print(json.dumps(db.execute('SELECT server, tool, arguments, status, result FROM calls ORDER BY id').fetchall()))";
  return JSON.parse(execFileSync(python, ["-c", script, historyPath()], { encoding: "utf8" }));
}

describe("secrets do not leave through tool calls", () => {
  let gateway;
  before(async () => {
    rmSync(journal, { force: true });
    writeConfig({
      mcpServers: {
        vault: { command: everythingServer(), args: ["stdio", marker], env: { API_TOKEN: "${secret:api_token}" } },
        echo: { command: testServer(), args: ["--journal", journal, "--tag", marker], tools: ["echo"] },
      },
    });
    execFileSync(cliBin(), ["secret", "set", "vault", "api_token"], { input: secret, stdio: ["pipe", "ignore", "inherit"] });
    gateway = await connectGateway();
  });
  after(async () => {
    await gateway?.close();
    rmSync(journal, { force: true });
  });

  test("an ordinary call reaches the echo server (the journal counts what arrives)", async () => {
    const result = await gateway.client.callTool({ name: "mcp__echo__echo", arguments: { message: "hello" } });
    assert.equal(firstText(result), "Echo: hello");
    assert.equal(callsReceived(), 1);
  });

  const forms = {
    "as written": secret,
    base64: Buffer.from(`Authorization: Bearer ${secret}`).toString("base64"),
    "URL-escaped": `https://collector.example/?k=${encodeURIComponent(secret)}`,
    "JSON-escaped": JSON.stringify({ token: secret }),
  };
  for (const [form, message] of Object.entries(forms)) {
    test(`vault's secret ${form} in a call to another server is refused, by reference, and never sent`, async () => {
      const before = callsReceived();
      const result = await gateway.client.callTool({ name: "mcp__echo__echo", arguments: { message } });
      assert.equal(result.isError, true, JSON.stringify(result));
      const text = firstText(result);
      assert.match(text, /refused the call/);
      assert.match(text, /\$\{secret:api_token\}/);
      assert.match(text, /server vault/);
      assert.ok(!text.includes(secret) && !text.includes(message), text);
      assert.equal(callsReceived(), before, "the echo server received nothing");
    });
  }

  test("a result that echoes the secret reaches the client with its reference instead", async () => {
    const result = await gateway.client.callTool({ name: "mcp__vault__get-env", arguments: {} });
    const text = JSON.stringify(result);
    assert.ok(!text.includes("s3cr3t"), "the value is gone in every form");
    assert.match(text, /API_TOKEN[^,]*\$\{secret:api_token\}/);
  });

  test("the history holds the refusals and the redacted result, never the value", async () => {
    await gateway.close();
    gateway = undefined;
    const rows = historyRows();
    const refusals = rows.filter(([server, , , status, result]) =>
      server === "echo" && status === "failed" && result.includes("refused the call"));
    assert.equal(refusals.length, Object.keys(forms).length, JSON.stringify(rows));
    const env = rows.find(([server, tool]) => server === "vault" && tool === "get-env");
    assert.ok(env && env[4].includes("${secret:api_token}"), JSON.stringify(env));
    for (const row of rows) assert.ok(!JSON.stringify(row).includes("s3cr3t"), JSON.stringify(row));
  });
});
