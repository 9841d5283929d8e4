"""The memory site of a big repository: time, peak memory and size of a full build and of a rebuild
after a one-file commit.

    .venv/bin/python bench/site_scale.py WORKSPACE [--out DIR] [--rounds 1] [--keep-commit]

WORKSPACE is a memgit workspace (a clone of a public docs repository after `memgit init --adopt`
and a commit of what it wrote; docs/PERFORMANCE.md, "Memory site at scale", says how the figures
there were made). Each round builds the site from nothing (`rm -rf OUT .git/memgit/site`), then
appends a line to one note, commits it and builds again. Memory is sampled every 0.1 s from
/proc: the largest resident set of one process, and the sum of the proportional set sizes (PSS)
of the build and its forked workers, which counts pages they share once. The commit is undone
afterwards unless --keep-commit. Linux only (/proc).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path


def _children(pid: int) -> list[int]:
    found = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            kids = [int(k) for k in handle.read().split()]
    except OSError:
        return found
    for kid in kids:
        found += _children(kid)
    return found


def _memory(pid: int) -> tuple[int, int]:
    """(largest RSS of one process, sum of PSS) of `pid` and its descendants, in kB."""
    largest = total = 0
    for proc in _children(pid):
        try:
            with open(f"/proc/{proc}/smaps_rollup") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        rss = int(fields.get("Rss", "0 kB").split()[0])
        pss = int(fields.get("Pss", "0 kB").split()[0])
        largest = max(largest, rss)
        total += pss
    return largest, total


def measure(cmd: list[str], cwd: Path) -> dict:
    """Run `cmd`, sampling its memory; wall seconds, CPU seconds, peak RSS and PSS (MB), report."""
    env = {**os.environ, "MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1"}
    started = time.perf_counter()
    before = os.times()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peaks = [0, 0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            rss, pss = _memory(proc.pid)
            peaks[0], peaks[1] = max(peaks[0], rss), max(peaks[1], pss)
            done.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    done.set()
    sampler.join()
    after = os.times()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return {
        "wall": round(time.perf_counter() - started, 2),
        "cpu": round(cpu, 2),
        "peak_rss_mb": round(peaks[0] / 1024),
        "peak_pss_mb": round(peaks[1] / 1024),
        "report": json.loads(out),
    }


def _git(ws: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=ws, check=True, capture_output=True, text=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--out", type=Path, help="output folder (default: beside the workspace)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--keep-commit", action="store_true")
    args = parser.parse_args()
    ws = args.workspace.resolve()
    out = (args.out or ws.parent / f"{ws.name}-scale-site").resolve()
    build = [sys.executable, "-m", "memgit", "site", "build", "-o", str(out), "--json"]
    notes = [p for p in _git(ws, "ls-files", "*.md").splitlines() if "/" in p]
    note = ws / notes[len(notes) // 2]
    print(f"load before: {os.getloadavg()[0]:.2f} (1 min), cores: {os.cpu_count()}", flush=True)
    for number in range(args.rounds):
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(ws / ".git" / "memgit" / "site", ignore_errors=True)
        full = measure(build, ws)
        head = _git(ws, "rev-parse", "HEAD").strip()
        with open(note, "a", encoding="utf-8") as handle:
            handle.write(f"\nA line added by bench/site_scale.py, round {number}.\n")
        _git(ws, "commit", "-qam", "bench: one line")
        again = measure(build, ws)
        if not args.keep_commit:
            _git(ws, "reset", "-q", "--hard", head)
        report = full["report"]
        print(
            f"round {number + 1}: full build {full['wall']} s wall, {full['cpu']} s CPU, peak RSS "
            f"{full['peak_rss_mb']} MB (one process), peak PSS {full['peak_pss_mb']} MB (all processes); "
            f"{report['pages']} pages, {report['bytes'] / 1e6:.1f} MB, of which {report['snapshot_bytes'] / 1e6:.1f} MB "
            f"in {report['snapshot_pages']} past versions ({report.get('versions_found', '?')} found)",
            flush=True,
        )
        print(
            f"round {number + 1}: one-file rebuild {again['wall']} s wall, {again['cpu']} s CPU, "
            f"{again['report']['rendered']} pages rendered, peak RSS {again['peak_rss_mb']} MB; "
            f"{100 * again['wall'] / full['wall']:.1f} % of the full build's wall time",
            flush=True,
        )
    print(f"load after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
