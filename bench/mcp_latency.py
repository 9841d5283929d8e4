"""Warm memory_search latency through `memgit mcp` (server side and client round trip).

    python mcp_latency.py WORKSPACE [--queries 300] [--warmup 20] [--embedding none|default] [--k 6]
        [--python PYTHON]   # the interpreter that runs `-m memgit mcp` (another checkout's venv)
    python mcp_latency.py WORKSPACE --first-minute [--calls 100] [--later 60]
        # the first 100 calls right after start against 100 calls a minute after it

Also reports the server process's memory from /proc: resident set after the run and its peak
(VmHWM), the figure the scale targets use.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


def make_queries(ws: Path, n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    files = sorted((ws / "memory").rglob("*.md"))
    out: list[str] = []
    while len(out) < n:
        lines = [
            ln for ln in rng.choice(files).read_text().splitlines() if len(ln.split()) >= 4 and not ln.startswith("#")
        ]
        if not lines:
            continue
        words = [w.strip(".,:;()`*'\"") for w in rng.choice(lines).split()]
        words = [w for w in words if len(w) > 3 and w.isalnum()]
        if len(words) >= 2:
            out.append(" ".join(rng.sample(words, min(len(words), rng.randint(2, 4)))))
    return out


def server_memory_mb() -> dict[str, float]:
    """VmRSS and VmHWM of the `memgit mcp` child of this process (Linux /proc)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields.get("PPid", "0").strip()) == os.getpid() and b"mcp" in cmdline:
            return {
                "rss_mb": round(int(fields["VmRSS"].split()[0]) / 1024, 1),
                "peak_rss_mb": round(int(fields["VmHWM"].split()[0]) / 1024, 1),
            }
    return {}


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))], 2)


async def run(opts: argparse.Namespace) -> dict:
    env = {k: v for k, v in os.environ.items() if k.startswith(("HOME", "PATH", "MEMGIT_", "GIT_"))}
    env.setdefault("MEMGIT_NO_RECALL", "1")  # measure search, not the recall ledger
    if opts.embedding == "none":
        env["MEMGIT_EMBEDDING"] = "none"
    params = StdioServerParameters(command=opts.python, args=["-m", "memgit", "mcp"], cwd=str(opts.workspace), env=env)
    queries = make_queries(opts.workspace, opts.queries + opts.warmup)
    started = time.perf_counter()
    async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
        await session.initialize()
        status = (await session.call_tool("memory_status", {})).structured_content
        ready_s = time.perf_counter() - started
        # "Warm" includes the per-word BM25 cache the server fills in the background at start.
        while status["server"].get("bm25_prewarm", {}).get("running") and time.perf_counter() - started < 600:
            await anyio.sleep(0.2)
            status = (await session.call_tool("memory_status", {})).structured_content
        prewarm = {**status["server"].get("bm25_prewarm", {}), "ready_s": round(time.perf_counter() - started, 2)}
        for q in queries[: opts.warmup]:
            await session.call_tool("memory_search", {"query": q, "k": opts.k})
        server, client, check, search, modes, notices = [], [], [], [], set(), set()
        for q in queries[opts.warmup :]:
            t0 = time.perf_counter()
            res = await session.call_tool("memory_search", {"query": q, "k": opts.k})
            client.append((time.perf_counter() - t0) * 1000)
            data = res.structured_content
            assert not res.is_error, res.content
            server.append(data["server_ms"])
            check.append(data["timing"]["freshness_check_ms"])
            search.append(data["timing"]["search_ms"])
            modes.add(data["mode"])
            notices.update(data["notices"])
        memory = server_memory_mb()

    def summary(v):
        return {"p50": pct(v, 50), "p95": pct(v, 95), "mean": round(statistics.fmean(v), 2), "max": round(max(v), 2)}

    return {
        "workspace": str(opts.workspace),
        "chunks": status["index"]["counts"],
        "embedding": status["embedding"],
        "queries": opts.queries,
        "k": opts.k,
        "ready_s": round(ready_s, 2),
        "bm25_prewarm": prewarm,
        "server_ms": summary(server),
        "freshness_check_ms": summary(check),
        "search_ms": summary(search),
        "client_round_trip_ms": summary(client),
        "notices": sorted(notices),
        "server_memory": memory,
    }


async def first_minute(opts: argparse.Namespace) -> dict:
    """The first `--calls` memory_search calls right after the server starts (no waiting for
    its BM25 prewarm), then as many again once `--later` seconds have passed since the start:
    client round trips and the server's own times, p50 / p95 of each."""
    env = {k: v for k, v in os.environ.items() if k.startswith(("HOME", "PATH", "MEMGIT_", "GIT_", "PYTHONPATH"))}
    env.setdefault("MEMGIT_NO_RECALL", "1")
    if opts.embedding == "none":
        env["MEMGIT_EMBEDDING"] = "none"
    params = StdioServerParameters(command=opts.python, args=["-m", "memgit", "mcp"], cwd=str(opts.workspace), env=env)
    queries = make_queries(opts.workspace, 2 * opts.calls, seed=opts.seed)
    started = time.perf_counter()
    rounds: dict[str, dict[str, list[float]]] = {}
    async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
        await session.initialize()
        ready = time.perf_counter() - started
        for name, batch in (("first", queries[: opts.calls]), ("later", queries[opts.calls :])):
            if name == "later":
                await anyio.sleep(max(0.0, opts.later - (time.perf_counter() - started)))
            client, server = [], []
            for q in batch:
                t0 = time.perf_counter()
                res = await session.call_tool("memory_search", {"query": q, "k": opts.k})
                client.append((time.perf_counter() - t0) * 1000)
                assert not res.is_error, res.content
                server.append(res.structured_content["server_ms"])
            rounds[name] = {"client": client, "server": server, "ended_s": [round(time.perf_counter() - started, 1)]}
        status = (await session.call_tool("memory_status", {})).structured_content

    def summary(v):
        return {"p50": pct(v, 50), "p95": pct(v, 95), "mean": round(statistics.fmean(v), 2)}

    out = {
        "workspace": str(opts.workspace),
        "chunks": status["index"]["counts"].get("chunks"),
        "calls": opts.calls,
        "initialize_s": round(ready, 2),
        "bm25_prewarm": status["server"].get("bm25_prewarm", {}),
    }
    for name, data in rounds.items():
        out[name] = {
            "client_ms": summary(data["client"]),
            "server_ms": summary(data["server"]),
            "ended_s": data["ended_s"][0],
        }
    out["first_p50_over_later_p50"] = round(out["first"]["client_ms"]["p50"] / out["later"]["client_ms"]["p50"], 2)
    out["first_p95_over_later_p50"] = round(out["first"]["client_ms"]["p95"] / out["later"]["client_ms"]["p50"], 2)
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("workspace", type=Path)
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--k", type=int, default=6)
    p.add_argument("--embedding", choices=("none", "default"), default="default")
    p.add_argument("--python", default=sys.executable, help="interpreter that runs `-m memgit mcp`")
    p.add_argument(
        "--first-minute",
        action="store_true",
        help="time the first --calls searches right after start against as many after --later seconds",
    )
    p.add_argument("--calls", type=int, default=100)
    p.add_argument("--later", type=float, default=60.0)
    p.add_argument("--seed", type=int, default=0)
    opts = p.parse_args()
    print(json.dumps(anyio.run(first_minute if opts.first_minute else run, opts), indent=1))


if __name__ == "__main__":
    main()
