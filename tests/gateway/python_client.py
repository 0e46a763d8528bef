"""The gateway driven by the official Python SDK client (PyPI `mcp`): launching `plugboard serve --stdio` as a client
would, or, when PLUGBOARD_GATEWAY_URL and PLUGBOARD_GATEWAY_TOKEN are set, over Streamable HTTP to a running
`plugboard serve --http` with the token as its bearer.

Usage: python_client.py PLUGBOARD_BIN CONFIG_PATH EVERYTHING_BIN HISTORY_PATH TESTSERVER_BIN JOURNAL MARKER. It
writes servers.json itself (the reference server with an allowlist, and Plugboard's testserver writing to JOURNAL,
both carrying MARKER in their command line), then checks: exactly the allowlisted tools under their gateway names, a
call (recorded in the console's history with this client's name as its origin), progress, a cancel that reaches the
upstream, a server's form answered by this client, notifications/tools/list_changed after the allowlist is edited by
this (other) process, and the reference server killed with SIGKILL between two calls with the second succeeding.
Exits 1 on the first failed check, printing what it saw.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from contextlib import asynccontextmanager

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


UPSTREAM_TOOLS = ["echo", "get-sum", "trigger-elicitation-request"]


def write_config(path: Path, everything: str, tools: list[str], plugboard: str) -> None:
    """Writes servers.json and approves what it runs, as the person would (an allowlist edit asks nothing again)."""
    jobs = {"command": TESTSERVER, "args": ["--journal", JOURNAL, "--tag", MARKER], "tools": ["progress", "slow"]}
    everything_entry = {"command": everything, "args": ["stdio", MARKER], "tools": tools}
    config = {"mcpServers": {"everything": everything_entry, "jobs": jobs}}
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(path.name + ".py-tmp")
    temp.write_text(json.dumps(config, indent=2))
    temp.replace(path)
    subprocess.run([plugboard, "approve", "--all", "--yes"], check=True, stdout=subprocess.DEVNULL)


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAILED: {what}", file=sys.stderr)
        sys.exit(1)
    print(f"ok: {what.split(':')[0]}")


CLIENT_NAME = "plugboard-python-sdk-test"
TESTSERVER = sys.argv[5] if len(sys.argv) > 5 else ""
JOURNAL = sys.argv[6] if len(sys.argv) > 6 else ""
MARKER = sys.argv[7] if len(sys.argv) > 7 else ""


def journal() -> str:
    try:
        return Path(JOURNAL).read_text()
    except OSError:
        return ""


def everything_pids() -> list[int]:
    """The reference server's processes (node runs it: its command line holds the marker)."""
    pids = []
    for entry in Path("/proc").iterdir():
        # This script's own command line names the server and the marker too.
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if MARKER in cmdline and "mcp-server-everything" in cmdline:
            pids.append(int(entry.name))
    return pids


async def until(check_now, what: str, seconds: float = 20) -> None:
    with anyio.move_on_after(seconds):
        while not check_now():
            await anyio.sleep(0.1)
    check(check_now(), what)


def text_of(result) -> str:
    return " ".join(block.text for block in result.content if isinstance(block, types.TextContent))


@asynccontextmanager
async def gateway_streams(plugboard: str):
    """The read and write streams of a session with the gateway, over HTTP when a URL is given, else stdio."""
    url = os.environ.get("PLUGBOARD_GATEWAY_URL")
    if url:
        headers = {"Authorization": f"Bearer {os.environ['PLUGBOARD_GATEWAY_TOKEN']}"}
        async with create_mcp_http_client(headers=headers) as http:
            async with streamable_http_client(url, http_client=http) as streams:
                yield streams[0], streams[1]
        return
    # The whole environment: the gateway needs the isolated HOME, XDG dirs and the session bus of the keychain.
    params = StdioServerParameters(command=plugboard, args=["serve", "--stdio"], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        yield read, write


async def main(plugboard: str, config_path: Path, everything: str, history: Path) -> None:
    write_config(config_path, everything, UPSTREAM_TOOLS, plugboard)
    # The list changes once already when the server becomes ready; only a change after the edit counts.
    changed = {"event": anyio.Event()}

    async def on_message(message: types.ServerNotification | Exception) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed["event"].set()

    asked = []

    async def on_elicitation(context, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"name": "Grace Hopper"})

    async with gateway_streams(plugboard) as (read, write):
        async with ClientSession(
            read,
            write,
            message_handler=on_message,
            elicitation_callback=on_elicitation,
            client_info=types.Implementation(name=CLIENT_NAME, version="1.0"),
        ) as session:
            initialized = await session.initialize()
            check(initialized.server_info.name == "plugboard", f"the server is plugboard: {initialized.server_info}")

            names = sorted(tool.name for tool in (await session.list_tools()).tools)
            expected = ["mcp__everything__echo", "mcp__everything__get-sum", "mcp__everything__trigger-elicitation-request"]
            expected += ["mcp__jobs__progress", "mcp__jobs__slow"]
            check(names == expected, f"the allowlisted tools: {names}")

            result = await session.call_tool("mcp__everything__get-sum", {"a": 20, "b": 22})
            text = " ".join(block.text for block in result.content if isinstance(block, types.TextContent))
            check(not result.is_error and "42" in text, f"a call through the gateway: {result}")
            # The gateway answers first and writes the history row just after.
            row = None
            with anyio.move_on_after(5):
                while row != ("everything", "get-sum", CLIENT_NAME):
                    with sqlite3.connect(history) as db:
                        row = db.execute("SELECT server, tool, origin FROM calls ORDER BY id DESC LIMIT 1").fetchone()
                    if row != ("everything", "get-sum", CLIENT_NAME):
                        await anyio.sleep(0.05)
            check(row == ("everything", "get-sum", CLIENT_NAME), f"the history names this client: {row}")

            seen = []

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                seen.append(progress)

            progressed = await session.call_tool(
                "mcp__jobs__progress", {"steps": 3, "interval_ms": 50}, progress_callback=on_progress
            )
            check(not progressed.is_error and len(seen) >= 3, f"progress passed to the client: {seen} {progressed}")

            with anyio.move_on_after(1.0):
                await session.call_tool("mcp__jobs__slow", {"ms": 30000})
            await until(lambda: "cancelled slow" in journal(), f"the cancel reached the upstream: {journal()!r}")

            answered = await session.call_tool("mcp__everything__trigger-elicitation-request", {})
            check(len(asked) == 1 and "Grace Hopper" in text_of(answered), f"a server's form answered: {asked} {answered}")

            first = await session.call_tool("mcp__everything__echo", {"message": "one"})
            victims = everything_pids()
            check("one" in text_of(first) and len(victims) > 0, f"the reference server runs: {victims}")
            for pid in victims:
                os.kill(pid, signal.SIGKILL)
            await until(lambda: not set(victims) & set(everything_pids()), "the killed server is gone")
            second = await session.call_tool("mcp__everything__echo", {"message": "two"})
            check(not second.is_error and "two" in text_of(second), f"the call after SIGKILL: {second}")

            changed["event"] = anyio.Event()
            write_config(config_path, everything, ["echo", "trigger-elicitation-request"], plugboard)
            # A late notification of the earlier change may wake this first: list again at each until it shows.
            with anyio.fail_after(20):
                while True:
                    await changed["event"].wait()
                    changed["event"] = anyio.Event()
                    names = sorted(tool.name for tool in (await session.list_tools()).tools)
                    if names == [
                        "mcp__everything__echo",
                        "mcp__everything__trigger-elicitation-request",
                        "mcp__jobs__progress",
                        "mcp__jobs__slow",
                    ]:
                        break
            print("ok: list_changed after another process edited the allowlist")

if __name__ == "__main__":
    anyio.run(main, sys.argv[1], Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]))
