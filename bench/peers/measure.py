"""Run one command and measure it: wall time and peak resident memory of its whole process tree.

    python3 bench/peers/measure.py [--cwd DIR] [--timeout S] [--env K=V ...] -- CMD ARGS...

Prints one JSON object on the last line of stdout:
``{"rc", "wall_s", "peak_rss_mb", "maxrss_mb", "stdout_tail", "stderr_tail", "timed_out"}``.

``peak_rss_mb`` is the largest sum of VmRSS over the process and all its descendants, sampled every
20 ms from /proc (it catches helper processes). ``maxrss_mb`` is the largest single process's peak
RSS as the kernel counts it (ru_maxrss), read through GNU time (``/usr/bin/time -f %M``), which catches
peaks shorter than a sample. The command is started *by* /usr/bin/time, a small process, because
Linux carries a process's high-water RSS across fork+exec: a child forked straight from this (larger)
Python process would report at least this process's RSS.
The figure reported is the larger of the two. Standard library only, Linux only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def _children(pid: int) -> list[int]:
    out: list[int] = []
    task_dir = Path(f"/proc/{pid}/task")
    try:
        tasks = list(task_dir.iterdir())
    except OSError:
        return out
    for task in tasks:
        try:
            out.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return out


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def tree_rss_kb(root: int) -> int:
    total, stack, seen = 0, [root], set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += _rss_kb(pid)
        stack.extend(_children(pid))
    return total


def measure(
    cmd: list[str],
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    stdout_path: str | None = None,
) -> dict:
    """Run ``cmd``; returns the measurement dict (see the module doc)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    out_f = open(stdout_path, "w") if stdout_path else subprocess.PIPE  # noqa: SIM115
    gnu_time = "/usr/bin/time"
    rss_file = None
    run_cmd = list(cmd)
    if os.path.exists(gnu_time):
        fd, rss_file = tempfile.mkstemp(prefix="measure-", suffix=".rss")
        os.close(fd)
        run_cmd = [gnu_time, "-f", "%M", "-o", rss_file, *cmd]
    start = time.perf_counter()
    proc = subprocess.Popen(
        run_cmd, cwd=cwd, env=full_env, stdout=out_f, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss_kb(proc.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stderr_chunks: list[str] = []
    stdout_chunks: list[str] = []

    def drain(stream, sink: list[str]) -> None:  # noqa: ANN001
        for line in stream:
            sink.append(line)
            if len(sink) > 400:
                del sink[:200]

    readers = [threading.Thread(target=drain, args=(proc.stderr, stderr_chunks), daemon=True)]
    if proc.stdout is not None:
        readers.append(threading.Thread(target=drain, args=(proc.stdout, stdout_chunks), daemon=True))
    for r in readers:
        r.start()
    timed_out = False
    deadline = None if timeout is None else start + timeout
    status = 0
    while True:
        pid, status, _ = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            break
        if deadline is not None and time.perf_counter() > deadline:
            timed_out = True
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # the whole group: GNU time and the command under it
            _, status, _ = os.wait4(proc.pid, 0)
            break
        time.sleep(0.01)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    for r in readers:
        r.join(timeout=5)
    if stdout_path:
        out_f.close()  # type: ignore[union-attr]
    proc.returncode = os.waitstatus_to_exitcode(status)
    maxrss_kb = 0
    if rss_file:
        try:
            text = Path(rss_file).read_text().strip().splitlines()
            maxrss_kb = int(text[-1]) if text and text[-1].strip().isdigit() else 0
        except (OSError, ValueError):
            maxrss_kb = 0
        finally:
            os.unlink(rss_file)
    return {
        "cmd": cmd,
        "rc": proc.returncode,
        "wall_s": round(wall, 3),
        "peak_rss_mb": round(max(peak[0], maxrss_kb) / 1024, 1),
        "tree_rss_mb": round(peak[0] / 1024, 1),
        "maxrss_mb": round(maxrss_kb / 1024, 1),
        "timed_out": timed_out,
        "stdout_tail": "".join(stdout_chunks)[-4000:],
        "stderr_tail": "".join(stderr_chunks)[-4000:],
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cwd")
    ap.add_argument("--timeout", type=float)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    env = dict(kv.split("=", 1) for kv in args.env)
    result = measure(cmd, cwd=args.cwd, env=env, timeout=args.timeout)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
