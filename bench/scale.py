"""The issue #11 scale figures in one run: warm MCP search, one-shot CLI search, MCP peak RSS, and
warm search work, at 100k (and optionally 1M) chunks, for one or more interpreters side by side.

    .venv/bin/python bench/scale.py --index bench/.work/synth-100k [--index bench/.work/synth-1m] \
        [--python .venv/bin/python --python ../other/.venv/bin/python] [--oneshot 15] [--mcp 150] \
        [--batch 100] [--json out.json]

Indexes come from `bench/synthetic_index.py` (real chunking and FTS5, real-shaped vectors). For
every index and interpreter it measures:

* **MCP p50**: `memory_search` through a `memgit mcp` stdio server, `server_ms` (what the server
  spends on a call, freshness check included), after a warm-up; also the client round trip.
* **MCP peak RSS**: the server's VmHWM at the end of that run (Linux /proc).
* **one-shot CLI**: `memgit search --json -k 6 QUERY`, a new process per query: wall time, and the
  CPU time (user + system) of the process and its children, which a loaded machine inflates far
  less than wall time.
* **warm search work**: `memgit search --batch --json -k 6`, the `elapsed_ms` each query reports
  (one process, first query excluded).

With several `--python`, runs alternate between them query by query (one-shot) and index by index
(MCP, batch), so both see the same load: compare their ratios, not the absolutes, on a busy
machine. Each interpreter's memgit package is byte-compiled first (`compileall`), as a wheel
install leaves it: with PYTHONDONTWRITEBYTECODE set, an editable install would otherwise recompile
every memgit module in every process, which is not what users run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.memgit_runner import default_python, memgit_env, parse_json_lines  # noqa: E402
from bench.perf import search_queries  # noqa: E402

K = 6  # what an agent asks for by default (`[search] k`)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def median(values: list[float]) -> float:
    return round(statistics.median(values), 2) if values else float("nan")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 2) if ordered else float("nan")


def byte_compile(python: str) -> str:
    """Byte-compile the memgit package `python` imports; returns its directory."""
    where = subprocess.run(
        [python, "-c", "import memgit, os; print(os.path.dirname(memgit.__file__))"],
        capture_output=True,
        text=True,
        check=True,
        cwd="/",  # not a checkout in the current directory
    ).stdout.strip()
    subprocess.run([python, "-m", "compileall", "-q", where], capture_output=True, check=True)
    return where


def timed_process(cmd: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """Run one process; (result, wall seconds, CPU seconds of it and its children)."""
    before = os.times()
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=memgit_env(), capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if proc.returncode != 0:
        raise SystemExit(f"bench: failed (exit {proc.returncode}): {' '.join(cmd)}\n{proc.stderr.strip()}")
    return proc, wall, cpu


def one_shot(pythons: list[str], ws: Path, queries: list[str]) -> dict[str, dict[str, Any]]:
    """A new `memgit search` process per query, alternating interpreters query by query."""
    walls: dict[str, list[float]] = {p: [] for p in pythons}
    cpus: dict[str, list[float]] = {p: [] for p in pythons}
    for python in pythons:  # one untimed run each: the page cache holds the model and index pages
        timed_process([python, "-m", "memgit", "search", "--json", "-k", str(K), queries[0]], ws)
    for i, query in enumerate(queries):
        for python in pythons if i % 2 == 0 else reversed(pythons):
            proc, wall, cpu = timed_process([python, "-m", "memgit", "search", "--json", "-k", str(K), query], ws)
            notices = json.loads(proc.stdout).get("notices") or []
            if notices:
                log(f"  notices: {'; '.join(notices)}")
            walls[python].append(wall * 1000)
            cpus[python].append(cpu * 1000)
    return {
        p: {
            "wall_ms_p50": median(walls[p]),
            "wall_ms_p95": p95(walls[p]),
            "wall_ms_min": round(min(walls[p]), 1),
            "cpu_ms_p50": median(cpus[p]),
            "n": len(walls[p]),
        }
        for p in pythons
    }


def warm_batch(python: str, ws: Path, queries: list[str], scratch: Path) -> dict[str, Any]:
    """`memgit search --batch`: per-query `elapsed_ms` inside one warm process."""
    batch = scratch / "scale-queries.txt"
    batch.write_text("".join(q + "\n" for q in queries), encoding="utf-8")
    proc, wall, _ = timed_process([python, "-m", "memgit", "search", "--batch", str(batch), "--json", "-k", str(K)], ws)
    elapsed = [float(a["elapsed_ms"]) for a in parse_json_lines(proc.stdout)]
    rest = elapsed[1:] if len(elapsed) > 1 else elapsed
    return {
        "elapsed_ms_p50": median(rest),
        "elapsed_ms_p95": p95(rest),
        "first_ms": round(elapsed[0], 1),
        "n": len(rest),
    }


def mcp(python: str, ws: Path, queries: int, warmup: int) -> dict[str, Any]:
    """`bench/mcp_latency.py` with this interpreter's server: server_ms, round trip, peak RSS."""
    script = Path(__file__).resolve().parent / "mcp_latency.py"
    proc = subprocess.run(
        [
            sys.executable,
            str(script),
            str(ws),
            "--queries",
            str(queries),
            "--warmup",
            str(warmup),
            "--k",
            str(K),
            "--python",
            python,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"bench: mcp_latency failed: {proc.stderr.strip()[-2000:]}")
    data = json.loads(proc.stdout)
    return {
        "server_ms_p50": data["server_ms"]["p50"],
        "server_ms_p95": data["server_ms"]["p95"],
        "search_ms_p50": data["search_ms"]["p50"],
        "round_trip_ms_p50": data["client_round_trip_ms"]["p50"],
        "ready_s": data["ready_s"],
        "prewarm_s": data["bm25_prewarm"].get("seconds"),
        "warm_s": data["bm25_prewarm"].get("ready_s"),
        **data["server_memory"],
        "chunks": data["chunks"].get("chunks"),
    }


def run(opts: argparse.Namespace) -> dict[str, Any]:
    pythons = opts.python or [default_python()]
    for python in pythons:
        log(f"byte-compiled {byte_compile(python)}")
    out: dict[str, Any] = {"pythons": pythons, "indexes": {}}
    for ws in opts.index:
        ws = ws.resolve()
        log(f"== {ws}")
        cli_queries = search_queries(opts.oneshot, opts.seed)
        entry: dict[str, Any] = {"one_shot": one_shot(pythons, ws, cli_queries)}
        log(f"  one-shot: {entry['one_shot']}")
        entry["warm_batch"] = {}
        entry["mcp"] = {}
        for python in pythons:
            entry["warm_batch"][python] = warm_batch(python, ws, search_queries(opts.batch, opts.seed + 1), ws / ".git")
            log(f"  warm batch {python}: {entry['warm_batch'][python]}")
        for python in pythons:
            entry["mcp"][python] = mcp(python, ws, opts.mcp, opts.warmup)
            log(f"  mcp {python}: {entry['mcp'][python]}")
        out["indexes"][str(ws)] = entry
    return out


def table(result: dict[str, Any]) -> str:
    lines = [
        "| index | python | MCP server p50 / p95 | MCP peak RSS | one-shot wall p50 (min) | one-shot CPU p50 | warm search p50 |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for ws, entry in result["indexes"].items():
        for python in result["pythons"]:
            m, o, b = entry["mcp"][python], entry["one_shot"][python], entry["warm_batch"][python]
            lines.append(
                f"| {Path(ws).name} ({m.get('chunks')} chunks) | {python} | {m['server_ms_p50']} / {m['server_ms_p95']} ms"
                f" | {m.get('peak_rss_mb')} MB | {o['wall_ms_p50']} ms ({o['wall_ms_min']}) | {o['cpu_ms_p50']} ms"
                f" | {b['elapsed_ms_p50']} ms |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--index", type=Path, action="append", required=True, help="workspace with a built index (repeatable)"
    )
    parser.add_argument("--python", action="append", help="interpreter running `-m memgit` (repeatable; default .venv)")
    parser.add_argument("--oneshot", type=int, default=15, help="one-shot CLI processes per interpreter")
    parser.add_argument("--mcp", type=int, default=150, help="timed MCP searches per interpreter")
    parser.add_argument("--warmup", type=int, default=20, help="MCP searches before timing")
    parser.add_argument("--batch", type=int, default=100, help="queries of the warm `--batch` run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the results here")
    opts = parser.parse_args()
    result = run(opts)
    if opts.json:
        opts.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(json.dumps(result, indent=1))
    print(table(result))


if __name__ == "__main__":
    main()
