"""What memgit's git hooks add to a commit: `git commit` with the hooks installed vs without.

    .venv/bin/python bench/hook_timings.py [-n 21] [--files 2000] [--seed 0] [--json out.json]

A workspace from `bench/gen_workspace.py` is indexed and gets `memgit hooks install`; an identical
copy without hooks is the baseline. Each kind of commit is timed as a whole `git commit` process
(`time.perf_counter` around `subprocess.run`), alternating hooked and plain runs so machine load
hits both alike:

* empty: `git commit --allow-empty` (the index hooks' tree check and the lint's shell check);
* code: one non-memory file changed (`src/app.py`);
* memory: one line appended to a daily log (the lint runs, the index updates).

Prints medians and the hooked-minus-plain difference of medians. BM25 only (`MEMGIT_EMBEDDING=none`)
so the model load does not hide the hook's own cost.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import WORK_DIR  # noqa: E402
from bench.gen_workspace import generate  # noqa: E402
from bench.memgit_runner import default_python, run_memgit  # noqa: E402
from bench.report import write_json  # noqa: E402
from bench.stats import summarize  # noqa: E402

ENV = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1"}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def prepare(files: int, seed: int, python: str) -> tuple[Path, Path]:
    """Two identical workspaces, indexed; hooks installed in the first."""
    base = WORK_DIR / f"hooks-{files}-s{seed}"
    shutil.rmtree(base, ignore_errors=True)
    hooked = generate(base / "hooked", files, seed)
    for key, value in {"user.name": "Bench", "user.email": "bench@example.invalid"}.items():
        subprocess.run(["git", "-C", str(hooked), "config", key, value], check=True)
    run_memgit(python, ["index"], hooked, ENV)
    plain = base / "plain"
    shutil.copytree(hooked, plain, symlinks=True)  # byte-identical repository, objects and index
    run_memgit(python, ["hooks", "install"], hooked, ENV)
    return hooked, plain


def git_commit(ws: Path, *args: str) -> float:
    env = {**os.environ, **ENV}
    started = time.perf_counter()
    proc = subprocess.run(["git", "-C", str(ws), "commit", "-q", *args], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"git commit {' '.join(args)} failed in {ws}: {proc.stderr}")
    return elapsed


def change_code(ws: Path, run: int) -> None:
    target = ws / "src" / "app.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8") as handle:
        handle.write(f"VALUE_{run} = {run}\n")
    subprocess.run(["git", "-C", str(ws), "add", "src/app.py"], check=True)


def change_memory(ws: Path, run: int) -> None:
    newest = sorted((ws / "memory").glob("*.md"))[-1]
    with newest.open("a", encoding="utf-8") as handle:
        handle.write(f"- hook bench run {run}: the Kestrel cache warmed in {run * 7} ms.\n")
    subprocess.run(["git", "-C", str(ws), "add", "--", str(newest)], check=True)


KINDS: dict[str, tuple[Callable[[Path, int], None] | None, tuple[str, ...]]] = {
    "empty commit": (None, ("--allow-empty", "-m", "empty")),
    "code commit (src/app.py)": (change_code, ("-m", "code")),
    "memory commit (one daily-log line)": (change_memory, ("-m", "memory")),
}


def measure(hooked: Path, plain: Path, runs: int) -> list[dict[str, Any]]:
    results = []
    for title, (prepare_change, args) in KINDS.items():
        samples: dict[str, list[float]] = {"hooked": [], "plain": []}
        for run in range(runs):
            for name, ws in (("hooked", hooked), ("plain", plain)):
                if prepare_change:
                    prepare_change(ws, run)
                samples[name].append(git_commit(ws, *args))
        hooked_s, plain_s = summarize(samples["hooked"]), summarize(samples["plain"])
        delta = (hooked_s["median"] - plain_s["median"]) * 1000
        print(
            f"{title}: with hooks median {hooked_s['median'] * 1000:.1f} ms, without "
            f"{plain_s['median'] * 1000:.1f} ms, hooks add {delta:.1f} ms (n={runs})"
        )
        results.append(
            {
                "kind": title,
                "hooked_median_ms": round(hooked_s["median"] * 1000, 2),
                "plain_median_ms": round(plain_s["median"] * 1000, 2),
                "added_ms": round(delta, 2),
                "runs": runs,
                "hooked_samples": samples["hooked"],
                "plain_samples": samples["plain"],
            }
        )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--runs", type=int, default=21)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--python", default=default_python())
    parser.add_argument("--json", type=Path, help="write the samples here")
    opts = parser.parse_args(argv)
    log(f"preparing two {opts.files}-file workspaces under {WORK_DIR}")
    hooked, plain = prepare(opts.files, opts.seed, opts.python)
    print(f"command: {sys.executable} bench/hook_timings.py -n {opts.runs} --files {opts.files} --seed {opts.seed}")
    results = measure(hooked, plain, opts.runs)
    if opts.json:
        write_json(opts.json, {"results": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
