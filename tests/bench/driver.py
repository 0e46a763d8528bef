"""The official Python SDK's client (PyPI `mcp`) as one side of the benchmark suite (src-tauri/crates/plugboard-bench).

It connects to one server and then runs the rounds the suite asks for on stdin, answering each with its timings on
stdout; with `cold` it makes one call and exits, so a whole process can be timed.

    python driver.py loop|cold stdio PREFIX COMMAND [ARGS...]
    python driver.py loop|cold http PREFIX URL

A round is `run TOOL CALLS CONCURRENCY`; the answer is `done WALL_US LATENCY_US...`. Every result is checked, so a
client that answered wrongly cannot look fast.
"""

import os
import sys
import time
from contextlib import asynccontextmanager

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

BIG_BYTES = 5 * 1024 * 1024


@asynccontextmanager
async def streams(wire: str, target: list[str]):
    if wire == "stdio":
        params = StdioServerParameters(command=target[0], args=target[1:], env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            yield read, write
    else:
        async with streamable_http_client(target[0]) as pair:
            yield pair[0], pair[1]


async def call(session: ClientSession, prefix: str, tool: str) -> None:
    args = {"bytes": BIG_BYTES} if tool == "big" else {"message": "benchmark"}
    result = await session.call_tool(prefix + tool, args)
    block = result.content[0] if result.content else None
    text = block.text if isinstance(block, types.TextContent) else ""
    right = len(text) == BIG_BYTES if tool == "big" else text == "Echo: benchmark"
    if result.is_error or not right:
        raise RuntimeError(f"wrong answer to {tool}: {str(result)[:200]}")


async def run_round(session: ClientSession, prefix: str, tool: str, calls: int, concurrency: int):
    latencies: list[float] = []

    async def worker(count: int) -> None:
        for _ in range(count):
            started = time.perf_counter_ns()
            await call(session, prefix, tool)
            latencies.append((time.perf_counter_ns() - started) / 1e3)

    started = time.perf_counter_ns()
    async with anyio.create_task_group() as group:
        for _ in range(concurrency):
            group.start_soon(worker, calls // concurrency)
    return (time.perf_counter_ns() - started) / 1e3, latencies


async def main(mode: str, wire: str, prefix: str, target: list[str]) -> None:
    async with streams(wire, target) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, prefix, "echo")
            if mode == "cold":
                return
            print("ready", flush=True)
            while True:
                line = await anyio.to_thread.run_sync(sys.stdin.readline)
                if not line:
                    return
                command, tool, calls, concurrency = line.split()
                if command != "run":
                    raise RuntimeError(f"unknown command: {line}")
                wall, latencies = await run_round(session, prefix, tool, int(calls), int(concurrency))
                print("done", f"{wall:.1f}", " ".join(f"{l:.1f}" for l in latencies), flush=True)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
