// `plugboard serve --http` refusing everyone who does not hold the token, as the real command runs: each bad request
// with its status (401, 403, 421, 413), a token rotated by another `plugboard` process locking the old one out of the
// running endpoint, a listening socket on 127.0.0.1 only, and any other bind address refused before it listens.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";

import { writeConfig } from "../support/system.mjs";
import { gatewayToken, plugboardBinary, startHttpGateway } from "./client.mjs";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "guard-test", version: "1" } },
});

/** POSTs `body` to the gateway with `headers` (Host included: node:http lets a test send any) and resolves with the status. */
function post(url, headers, body = INITIALIZE) {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const sent = request(
      {
        hostname,
        port,
        path: pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (response) => {
        answered = true;
        response.resume();
        resolve(response.statusCode);
      },
    );
    // A refusal before the whole body was read closes the connection under the rest of it: the answer counts.
    sent.on("error", (error) => (answered ? undefined : reject(error)));
    // With Expect: 100-continue (as curl sends a large body) the body goes only once the server asks for it.
    if (headers.expect) sent.on("continue", () => sent.end(body));
    else sent.end(body);
  });
}

/** The local addresses of the TCP sockets `pid` listens on, from /proc (hex ip:port as the kernel writes them). */
function listeningAddresses(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const socket = link.match(/^socket:\[(\d+)\]$/);
      if (socket) inodes.add(socket[1]);
    } catch {
      // A descriptor closed while listing.
    }
  }
  const listening = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // st 0A is LISTEN.
      if (fields.length > 9 && fields[3] === "0A" && inodes.has(fields[9])) listening.push(fields[1]);
    }
  }
  return listening;
}

describe("serve --http lets in only the token holder", () => {
  let gateway;
  let token;
  let host;
  before(async () => {
    writeConfig({ mcpServers: {} });
    gateway = await startHttpGateway();
    token = gatewayToken();
    host = new URL(gateway.url).host;
  });
  after(() => gateway?.stop());

  test("the token over a loopback Host is let in", async () => {
    assert.equal(await post(gateway.url, { authorization: `Bearer ${token}` }), 200);
    const port = new URL(gateway.url).port;
    assert.equal(await post(gateway.url, { authorization: `Bearer ${token}`, host: `localhost:${port}` }), 200);
  });

  test("no token, or a wrong one: 401", async () => {
    assert.equal(await post(gateway.url, {}), 401);
    assert.equal(await post(gateway.url, { authorization: "Bearer pbg_not-the-token" }), 401);
    assert.equal(await post(gateway.url, { authorization: `Basic ${Buffer.from(`x:${token}`).toString("base64")}` }), 401);
  });

  test("a web page's Origin: 403, even with the token", async () => {
    assert.equal(await post(gateway.url, { authorization: `Bearer ${token}`, origin: "http://evil.example.com" }), 403);
  });

  test("a rebound Host: 421, even with the token", async () => {
    assert.equal(await post(gateway.url, { authorization: `Bearer ${token}`, host: "evil.example.com" }), 421);
    assert.equal(await post(gateway.url, { authorization: `Bearer ${token}`, host: `evil.example.com:${host.split(":")[1]}` }), 421);
  });

  test("a body over 4 MiB: 413", async () => {
    const huge = " ".repeat(4 * 1024 * 1024 + 1);
    assert.equal(await post(gateway.url, { authorization: `Bearer ${token}`, expect: "100-continue" }, huge), 413);
  });

  test("a token rotated by another plugboard process locks the old one out of the running endpoint", async () => {
    const rotated = spawnSync(plugboardBinary(), ["gateway", "token", "--rotate"], { encoding: "utf8", env: process.env });
    assert.equal(rotated.status, 0, rotated.stderr);
    const fresh = rotated.stdout.trim();
    assert.notEqual(fresh, token);
    assert.equal(gatewayToken(), fresh, "`gateway token` prints the new token");
    assert.equal(await post(gateway.url, { authorization: `Bearer ${token}` }), 401);
    assert.equal(await post(gateway.url, { authorization: `Bearer ${fresh}` }), 200);
    token = fresh;
  });

  test("it listens on 127.0.0.1 only", () => {
    const port = Number(new URL(gateway.url).port);
    const expected = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;
    assert.deepEqual(listeningAddresses(gateway.process.pid), [expected]);
  });
});

test("any bind address but loopback is refused before anything listens", () => {
  const run = spawnSync(plugboardBinary(), ["serve", "--http", "--bind", "0.0.0.0", "--port", "0"], {
    encoding: "utf8",
    env: process.env,
    timeout: 30_000,
  });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /only on this computer's loopback address/);
});
