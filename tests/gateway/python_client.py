"""`plugboard serve --stdio` driven by the official Python SDK client (PyPI `mcp`), as a client would launch it.

Usage: python_client.py PLUGBOARD_BIN CONFIG_PATH EVERYTHING_BIN HISTORY_PATH. It writes servers.json itself (one
reference server with an allowlist), then checks: exactly the allowlisted tools under their gateway names, a call
(recorded in the console's history with this client's name as its origin), and notifications/tools/list_changed
after the allowlist is edited by this (other) process. Exits 1 on the first
failed check, printing what it saw.
"""

import json
import os
import sqlite3
import sys
from pathlib import Path

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


def write_config(path: Path, everything: str, tools: list[str]) -> None:
    config = {"mcpServers": {"everything": {"command": everything, "args": ["stdio"], "tools": tools}}}
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(path.name + ".py-tmp")
    temp.write_text(json.dumps(config, indent=2))
    temp.replace(path)


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAILED: {what}", file=sys.stderr)
        sys.exit(1)
    print(f"ok: {what.split(':')[0]}")


CLIENT_NAME = "plugboard-python-sdk-test"


async def main(plugboard: str, config_path: Path, everything: str, history: Path) -> None:
    write_config(config_path, everything, ["echo", "get-sum"])
    # The list changes once already when the server becomes ready; only a change after the edit counts.
    changed = {"event": anyio.Event()}

    async def on_message(message: types.ServerNotification | Exception) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed["event"].set()

    # The whole environment: the gateway needs the isolated HOME, XDG dirs and the session bus of the keychain.
    params = StdioServerParameters(command=plugboard, args=["serve", "--stdio"], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read, write, message_handler=on_message, client_info=types.Implementation(name=CLIENT_NAME, version="1.0")
        ) as session:
            initialized = await session.initialize()
            check(initialized.server_info.name == "plugboard", f"the server is plugboard: {initialized.server_info}")

            names = sorted(tool.name for tool in (await session.list_tools()).tools)
            check(names == ["mcp__everything__echo", "mcp__everything__get-sum"], f"the allowlisted tools: {names}")

            result = await session.call_tool("mcp__everything__get-sum", {"a": 20, "b": 22})
            text = " ".join(block.text for block in result.content if isinstance(block, types.TextContent))
            check(not result.is_error and "42" in text, f"a call through the gateway: {result}")
            with sqlite3.connect(history) as db:
                row = db.execute("SELECT server, tool, origin FROM calls ORDER BY id DESC LIMIT 1").fetchone()
            check(row == ("everything", "get-sum", CLIENT_NAME), f"the history names this client: {row}")

            changed["event"] = anyio.Event()
            write_config(config_path, everything, ["echo"])
            # A late notification of the earlier change may wake this first: list again at each until it shows.
            with anyio.fail_after(20):
                while True:
                    await changed["event"].wait()
                    changed["event"] = anyio.Event()
                    names = sorted(tool.name for tool in (await session.list_tools()).tools)
                    if names == ["mcp__everything__echo"]:
                        break
            print("ok: list_changed after another process edited the allowlist")

if __name__ == "__main__":
    anyio.run(main, sys.argv[1], Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]))
