"""Warm memory_search latency through `memgit mcp` (server side and client round trip).

    python mcp_latency.py WORKSPACE [--queries 300] [--warmup 20] [--embedding none|default] [--k 6]
        [--python PYTHON]   # the interpreter that runs `-m memgit mcp` (another checkout's venv)

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
        lines = [ln for ln in rng.choice(files).read_text().splitlines() if len(ln.split()) >= 4 and not ln.startswith("#")]
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


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("workspace", type=Path)
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--k", type=int, default=6)
    p.add_argument("--embedding", choices=("none", "default"), default="default")
    p.add_argument("--python", default=sys.executable, help="interpreter that runs `-m memgit mcp`")
    opts = p.parse_args()
    print(json.dumps(anyio.run(run, opts), indent=1))


if __name__ == "__main__":
    main()
