// The official Python SDK client (PyPI `mcp`, in the venv make installs) launching `plugboard serve --stdio`, and
// reaching `plugboard serve --http` with the token: the checks live in python_client.py; this runs it and fails with
// what it printed.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";

import { configPath, everythingServer, historyPath, pidsWith, testServer, writeConfig } from "../support/system.mjs";
import { eventually, gatewayToken, plugboardBinary, startHttpGateway } from "./client.mjs";

const marker = `plugboard-python-${process.pid}`;
const journal = join(tmpdir(), `${marker}.journal`);

const here = dirname(fileURLToPath(import.meta.url));
const python = join(here, "..", "..", ".tools", "py", "bin", "python3");

/** Runs python_client.py (async: a `serve --http` child of this process keeps writing to its stderr pipe). */
async function runPythonClient(env = {}) {
  assert.ok(existsSync(python), `the Python MCP SDK venv is at ${python} (make deps-tests installs it)`);
  const args = [join(here, "python_client.py"), plugboardBinary(), configPath(), everythingServer(), historyPath()];
  args.push(testServer(), journal, marker);
  const child = spawn(python, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill(), 90_000);
  const status = await new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  clearTimeout(timer);
  assert.equal(status, 0, `python_client.py failed:\n${stdout}\n${stderr}`);
  assert.match(stdout, /ok: list_changed after another process edited the allowlist/);
}

test("the Python SDK client through serve --stdio: tools, a call in the history, progress, a cancel, a form, list_changed, a SIGKILLed upstream", async () => {
  rmSync(journal, { force: true });
  await runPythonClient();
  await eventually(() => pidsWith(marker).length === 0, "no upstream process left once the client closed");
});

test("the same over serve --http, with the token as the bearer, and no upstream left once it stops", async () => {
  // The config python_client.py starts from, in place before the gateway reads it (a client that launches
  // `serve --stdio` writes it before the launch; this gateway is already running).
  rmSync(journal, { force: true });
  const tools = ["echo", "get-sum", "trigger-elicitation-request"];
  const jobs = { command: testServer(), args: ["--journal", journal, "--tag", marker], tools: ["progress", "slow"] };
  writeConfig({ mcpServers: { everything: { command: everythingServer(), args: ["stdio", marker], tools }, jobs } });
  const gateway = await startHttpGateway();
  after(() => gateway.stop());
  await runPythonClient({ PLUGBOARD_GATEWAY_URL: gateway.url, PLUGBOARD_GATEWAY_TOKEN: gatewayToken() });
  await gateway.stop();
  await eventually(() => pidsWith(marker).length === 0, "no upstream process left once serve --http stopped");
});
