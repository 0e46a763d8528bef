// The official Python SDK client (PyPI `mcp`, in the venv make installs) launching `plugboard serve --stdio`: the
// checks live in python_client.py; this runs it and fails with what it printed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

import { configPath, everythingServer, historyPath } from "../support/system.mjs";
import { plugboardBinary } from "./client.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const python = join(here, "..", "..", ".tools", "py", "bin", "python3");

test("the Python SDK client sees the allowlisted tools, calls one (in the history under its name), and hears list_changed", () => {
  assert.ok(existsSync(python), `the Python MCP SDK venv is at ${python} (make deps-tests installs it)`);
  const run = spawnSync(python, [join(here, "python_client.py"), plugboardBinary(), configPath(), everythingServer(), historyPath()], {
    encoding: "utf8",
    timeout: 90_000,
  });
  assert.equal(run.status, 0, `python_client.py failed:\n${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /ok: list_changed after another process edited the allowlist/);
});
