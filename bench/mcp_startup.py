"""Start-up time and memory of `memgit mcp`, spoken to in raw JSON-RPC lines (no client library).

    python bench/mcp_startup.py WORKSPACE [--runs 10] [--embedding none|default]
        [--python PYTHON ...]   # interpreters that run `-m memgit mcp` (another checkout's venv)

Per run and interpreter (interleaved, so load drifts hit both alike): seconds from spawn to the
`initialize` answer, to the first `memory_status` answer (service built, model opened, index
checked), the peak RSS (VmHWM) at that point, and seconds from closing stdin to exit. Medians.
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


def _peak_rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def one_run(python: str, workspace: Path, env: dict[str, str]) -> dict[str, float]:
    started = time.perf_counter()
    proc = subprocess.Popen(
        [python, "-m", "memgit", "mcp"],
        cwd=workspace,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def ask(ident: int, method: str, params: dict) -> dict:
        proc.stdin.write(
            json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}).encode() + b"\n"
        )
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        assert answer.get("id") == ident and "result" in answer, answer
        return answer["result"]

    ask(
        1,
        "initialize",
        {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
    )
    initialized = time.perf_counter()
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    status = ask(2, "tools/call", {"name": "memory_status", "arguments": {}})
    assert not status["isError"], status
    first_call = time.perf_counter()
    peak = _peak_rss_mb(proc.pid)
    closing = time.perf_counter()
    proc.stdin.close()
    proc.wait(60)
    return {
        "initialize_s": initialized - started,
        "first_call_s": first_call - started,
        "peak_rss_mb": peak,
        "exit_s": time.perf_counter() - closing,
        "chunks": status["structuredContent"]["index"]["counts"].get("chunks", 0),
    }


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("workspace", type=Path)
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--embedding", choices=("none", "default"), default="default")
    p.add_argument("--python", action="append", help="interpreter that runs `-m memgit mcp` (repeatable)")
    opts = p.parse_args()
    # Absolute (the server runs in the workspace), but not resolved: a venv's python is a link.
    pythons = [os.path.abspath(py) if os.sep in py else py for py in opts.python or [sys.executable]]
    env = {k: v for k, v in os.environ.items() if k.startswith(("HOME", "PATH", "MEMGIT_", "GIT_"))}
    env.setdefault("MEMGIT_NO_RECALL", "1")
    if opts.embedding == "none":
        env["MEMGIT_EMBEDDING"] = "none"
    one_run(pythons[0], opts.workspace, env)  # the index is current and the files cached for every run after
    runs: dict[str, list[dict[str, float]]] = {py: [] for py in pythons}
    for _ in range(opts.runs):
        for python in pythons:
            runs[python].append(one_run(python, opts.workspace, env))
    report = {
        "workspace": str(opts.workspace),
        "embedding": opts.embedding,
        "runs": opts.runs,
        "median": {
            python: {
                key: round(statistics.median(r[key] for r in results), 3)
                for key in ("initialize_s", "first_call_s", "peak_rss_mb", "exit_s", "chunks")
            }
            for python, results in runs.items()
        },
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
