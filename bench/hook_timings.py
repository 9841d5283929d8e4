"""What memgit's git hooks add to a commit: `git commit` with the hooks installed vs without.

    .venv/bin/python bench/hook_timings.py [-n 31] [--files 2000] [--seed 0] [--no-config]
        [--compare-python OTHER/.venv/bin/python] [--framework] [--kinds empty,code,memory,note] [--json out.json]

A workspace from `bench/gen_workspace.py` (with the commented `memgit.toml` that `memgit init` writes,
unless `--no-config`) is indexed and copied; the copies differ only in their hooks:

* `without hooks`: the baseline;
* `memgit hooks`: `memgit hooks install` (this checkout's script);
* `other memgit hooks` (`--compare-python`): `memgit hooks install` run by another checkout's
  interpreter, i.e. its hook script, for a before/after in the same minutes;
* `framework + memgit` and `framework, no hooks` (`--framework`): the pre-commit framework installed
  for every hook type, once with memgit's two hooks (`repo: local`, as in docs/HOOKS.md) and once
  with an empty hook list, which is what the framework costs by itself (with `--compare-python`
  also `framework + other memgit`: the hooks run by the other checkout's memgit).

Each kind of commit is timed as a whole `git commit` process (`time.perf_counter` around
`subprocess.run`), one run of every variant in turn, so machine load hits them alike:

* empty: `git commit --allow-empty` (the index hooks' tree check and the lint's shell check);
* code: one non-memory file changed (`src/app.py`);
* memory: one line appended to a daily log (the lint runs, the index updates).

Prints wall-clock medians and the difference of each variant's median from the baseline's, the
mean CPU time (user + system) of the whole `git commit` process tree and its difference, which
does not grow with machine load as wall time does, and the load average before and after. BM25 only (`MEMGIT_EMBEDDING=none`) so the model load does not hide the
hook's own cost.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
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
BASELINE = "without hooks"
HOOK_TYPES = ["pre-commit", "post-commit", "post-merge", "post-checkout", "post-rewrite"]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def git(ws: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(ws), *args], check=True, stdout=subprocess.DEVNULL)


def framework_config(python: str, with_memgit: bool) -> dict[str, Any]:
    """A `repo: local` copy of `.pre-commit-hooks.yaml` run by `python`, or no hooks at all."""
    hooks = []
    if with_memgit:
        hooks = [
            {
                "id": "memgit-lint",
                "name": "memgit lint",
                "entry": f"{python} -m memgit lint --staged",
                "language": "system",
                "stages": ["pre-commit"],
                "require_serial": True,
            },
            {
                "id": "memgit-index",
                "name": "memgit index",
                "entry": f"{python} -m memgit hook index",
                "language": "system",
                "stages": HOOK_TYPES[1:],
                "always_run": True,
                "pass_filenames": False,
                "require_serial": True,
            },
        ]
    return {"default_install_hook_types": HOOK_TYPES, "repos": [{"repo": "local", "hooks": hooks}] if hooks else []}


def prepare(opts: argparse.Namespace) -> dict[str, Path]:
    """Identical indexed workspaces, one per variant, differing only in their hooks."""
    base = WORK_DIR / f"hooks-{opts.files}-s{opts.seed}"
    shutil.rmtree(base, ignore_errors=True)
    source = generate(base / "source", opts.files, opts.seed)
    for key, value in {"user.name": "Bench", "user.email": "bench@example.invalid"}.items():
        git(source, "config", key, value)
    if opts.config:
        # The commented file as `memgit init` writes it; from the older checkout when comparing,
        # so that both understand every section in it.
        writer = opts.compare_python or opts.python
        code = "from memgit.config import default_config_text; print(default_config_text(), end='')"
        text = subprocess.run([writer, "-c", code], cwd="/", check=True, capture_output=True, text=True).stdout
        (source / "memgit.toml").write_text(text, encoding="utf-8")
        git(source, "add", "memgit.toml")
        git(source, "commit", "-q", "--no-verify", "-m", "memgit.toml as memgit init writes it")
    run_memgit(opts.python, ["index"], source, ENV)

    names = [BASELINE, "memgit hooks"]
    if opts.compare_python:
        names.append("other memgit hooks")
    if opts.framework:
        names += ["framework + memgit", "framework, no hooks"]
        if opts.compare_python:
            names.append("framework + other memgit")
    variants = {}
    for number, name in enumerate(names):
        ws = base / f"v{number}"
        shutil.copytree(source, ws, symlinks=True)  # byte-identical repository, objects and index
        variants[name] = ws
        if name == "memgit hooks":
            run_memgit(opts.python, ["hooks", "install"], ws, ENV)
        elif name == "other memgit hooks":
            run_memgit(opts.compare_python, ["hooks", "install"], ws, ENV)
        elif name.startswith("framework"):
            runner = opts.compare_python if name == "framework + other memgit" else opts.python
            config = framework_config(runner, with_memgit=name != "framework, no hooks")
            (ws / ".pre-commit-config.yaml").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
            git(ws, "add", ".pre-commit-config.yaml")
            git(ws, "commit", "-q", "--no-verify", "-m", "pre-commit config")
            subprocess.run([opts.python, "-m", "pre_commit", "install"], cwd=ws, check=True, stdout=subprocess.DEVNULL)
            run_memgit(opts.python, ["index"], ws, ENV)
    return variants


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def git_commit(ws: Path, *args: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `git commit`, the CPU of every process it ran included
    (each is waited for, so the kernel adds it to ours): CPU does not grow with machine load."""
    env = {**os.environ, **ENV}
    cpu = children_cpu()
    started = time.perf_counter()
    proc = subprocess.run(["git", "-C", str(ws), "commit", "-q", *args], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    cpu = children_cpu() - cpu
    if proc.returncode != 0:
        raise SystemExit(f"git commit {' '.join(args)} failed in {ws}: {proc.stderr}{proc.stdout}")
    return elapsed, cpu


def change_code(ws: Path, run: int) -> None:
    target = ws / "src" / "app.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8") as handle:
        handle.write(f"VALUE_{run} = {run}\n")
    git(ws, "add", "src/app.py")


def change_memory(ws: Path, run: int) -> None:
    newest = sorted((ws / "memory").glob("*.md"))[-1]
    with newest.open("a", encoding="utf-8") as handle:
        handle.write(f"- hook bench run {run}: the Kestrel cache warmed in {run * 7} ms.\n")
    git(ws, "add", "--", str(newest))


def change_note(ws: Path, run: int) -> None:
    target = ws / "docs" / "guide.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8") as handle:
        handle.write(f"- step {run}: run the installer again.\n")
    git(ws, "add", "docs/guide.md")


KINDS: dict[str, tuple[str, Callable[[Path, int], None] | None, tuple[str, ...]]] = {
    "empty": ("empty commit", None, ("--allow-empty", "-m", "empty")),
    "code": ("code commit (src/app.py)", change_code, ("-m", "code")),
    "memory": ("memory commit (one daily-log line)", change_memory, ("-m", "memory")),
    "note": ("note outside the memory paths (docs/guide.md, read for secrets)", change_note, ("-m", "note")),
}


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def measure(variants: dict[str, Path], kinds: Sequence[str], runs: int) -> list[dict[str, Any]]:
    results = []
    for kind in kinds:
        title, prepare_change, args = KINDS[kind]
        samples: dict[str, list[float]] = {name: [] for name in variants}
        cpu: dict[str, list[float]] = {name: [] for name in variants}
        before = load_average()
        for run in range(runs):
            # rotate the order each run, so no variant always follows the same one
            names = list(variants)
            names = names[run % len(names) :] + names[: run % len(names)]
            for name in names:
                if prepare_change:
                    prepare_change(variants[name], run)
                wall, used = git_commit(variants[name], *args)
                samples[name].append(wall)
                cpu[name].append(used)
        after = load_average()
        base = summarize(samples[BASELINE])["median"]
        base_cpu = statistics.mean(cpu[BASELINE])
        print(f"{title} (n={runs}; load average {before} -> {after}):")
        row: dict[str, Any] = {"kind": title, "runs": runs, "load_before": before, "load_after": after}
        for name, values in samples.items():
            stats = summarize(values)
            added = (stats["median"] - base) * 1000
            mean_cpu = statistics.mean(cpu[name])
            added_cpu = (mean_cpu - base_cpu) * 1000
            extra = "" if name == BASELINE else f", adds {added:+.1f} ms wall, {added_cpu:+.1f} ms CPU"
            print(
                f"  {name:22} median {stats['median'] * 1000:7.1f} ms (min {stats['min'] * 1000:6.1f}), "
                f"CPU {mean_cpu * 1000:6.1f} ms{extra}"
            )
            row[name] = {
                "median_ms": round(stats["median"] * 1000, 2),
                "min_ms": round(stats["min"] * 1000, 2),
                "added_ms": round(added, 2),
                "cpu_mean_ms": round(mean_cpu * 1000, 2),
                "added_cpu_ms": round(added_cpu, 2),
                "samples": values,
                "cpu_samples": cpu[name],
            }
        results.append(row)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--runs", type=int, default=31)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--python", default=default_python())
    parser.add_argument("--compare-python", help="also time the hooks another checkout's interpreter installs")
    parser.add_argument("--framework", action="store_true", help="also time the pre-commit framework")
    parser.add_argument("--no-config", dest="config", action="store_false", help="no memgit.toml in the workspace")
    parser.add_argument("--kinds", default="empty,code,memory", help="comma-separated: empty, code, memory, note")
    parser.add_argument("--json", type=Path, help="write the samples here")
    opts = parser.parse_args(argv)
    kinds = [k for k in opts.kinds.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kind(s): {', '.join(unknown)}")
    log(f"preparing the {opts.files}-file workspaces under {WORK_DIR}")
    variants = prepare(opts)
    shown = " ".join(a for a in (argv if argv is not None else sys.argv[1:]))
    print(f"command: bench/hook_timings.py {shown}".rstrip())
    print(f"git: {subprocess.run(['git', '--version'], capture_output=True, text=True).stdout.strip()}")
    results = measure(variants, kinds, opts.runs)
    if opts.json:
        write_json(opts.json, {"results": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
