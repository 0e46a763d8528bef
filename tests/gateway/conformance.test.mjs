// The official MCP conformance suite's server scenarios that apply to a gateway, run against `plugboard serve --http`.
// The suite cannot send a bearer token, so it talks to a port forward that adds the token and nothing else: the
// Host and Origin the suite sends reach the gateway as sent (only the forward's own name is swapped for the
// gateway's, as a client of the gateway itself would send it), so dns-rebinding-protection tests the gateway's guard.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";

import { everythingServer, writeConfig } from "../support/system.mjs";
import { gatewayToken, startHttpGateway } from "./client.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const node22 = join(here, "..", "..", ".tools", "node22", "bin", "node");
const suite = join(here, "..", "node_modules", ".bin", "conformance");

// Those that test the server itself, not particular tools of a reference server (a gateway names tools its own way).
const SCENARIOS = ["server-initialize", "ping", "tools-list", "logging-set-level", "dns-rebinding-protection"];

/** A forward from a free loopback port to `target`, adding `Authorization: Bearer <token>`. */
function tokenForward(target, token) {
  const to = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const self = `localhost:${server.address().port}`;
    const swap = (value) => value?.replace(`localhost:${server.address().port}`, to.host).replace(`127.0.0.1:${server.address().port}`, to.host);
    const headers = { ...incoming.headers, authorization: `Bearer ${token}` };
    if (incoming.headers.host === self || incoming.headers.host === `127.0.0.1:${server.address().port}`) headers.host = to.host;
    if (headers.origin) headers.origin = swap(headers.origin);
    const forwarded = request({ hostname: to.hostname, port: to.port, path: incoming.url, method: incoming.method, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on("error", (error) => {
      outgoing.writeHead(502);
      outgoing.end(String(error));
    });
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function runScenario(url, scenario) {
  return new Promise((resolve) => {
    const child = spawn(node22, [suite, "server", "--url", url, "--scenario", scenario], { env: process.env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, "") });
    });
  });
}

describe("the conformance suite's server scenarios against serve --http", () => {
  let gateway;
  let forward;
  before(async () => {
    assert.ok(existsSync(node22) && existsSync(suite), "Node 22 and the conformance suite are installed (make deps-tests)");
    writeConfig({ mcpServers: { everything: { command: everythingServer(), args: ["stdio"], tools: ["echo", "get-sum"] } } });
    gateway = await startHttpGateway();
    forward = await tokenForward(gateway.url, gatewayToken());
  });
  after(async () => {
    forward?.close();
    await gateway?.stop();
  });

  for (const scenario of SCENARIOS) {
    test(scenario, async () => {
      const url = `http://localhost:${forward.address().port}/mcp`;
      const { code, output } = await runScenario(url, scenario);
      assert.equal(code, 0, output);
      assert.doesNotMatch(output, /FAILURE/, output);
      const passed = output.match(/Passed: (\d+)\/(\d+)/);
      assert.ok(passed && Number(passed[1]) > 0 && passed[1] === passed[2], `every check passed: ${output}`);
    });
  }
});
