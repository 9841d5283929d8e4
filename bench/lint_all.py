"""How long `memgit lint --all` takes on a workspace of real third-party Markdown.

    .venv/bin/python bench/lint_all.py WORK [--lines 100000] [--repo PATH/TO/A/CLONE ...]
        [--npm] [--runs 3]

Builds WORK/ws, a memory workspace whose `memory/notes/` holds Markdown files nobody here wrote
(the `*.md` files of the git repositories named, at HEAD, and with `--npm` those under
`tests/node/node_modules`), taken in path order until `--lines` lines, committed; then times
`memgit lint --all` as a whole process (wall and CPU seconds of the child, median of `--runs`).
Nothing is copied into memgit's repository. Prints the command, so any other timer can run it too.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.secrets_real_text import npm_texts, repo_texts  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def build(work: Path, lines: int, repos: list[Path], npm: bool) -> Path:
    ws = work / "ws"
    if ws.exists():
        shutil.rmtree(ws)
    (ws / "memory" / "notes").mkdir(parents=True)
    sources = [repo_texts(repo) for repo in repos]
    if npm:
        sources.append(npm_texts(ROOT / "tests" / "node" / "node_modules"))
    total = 0
    number = 0
    for texts in sources:
        for _name, text in texts:
            if total >= lines:
                break
            taken = text.split("\n")[: lines - total]
            number += 1
            (ws / "memory" / "notes" / f"doc-{number:05d}.md").write_text("\n".join(taken), encoding="utf-8")
            total += len(taken)
    (ws / "MEMORY.md").write_text("# Long-term Memory\n", encoding="utf-8")
    env = _env()
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-verify", "-m", "real Markdown"]):
        subprocess.run(["git", *args], cwd=ws, env=env, check=True, capture_output=True)
    print(f"{ws}: {number} files, {total:,} lines")
    return ws


def _env() -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MEMGIT_"))},
        "MEMGIT_EMBEDDING": "none",
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.org",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.org",
    }


def time_lint(ws: Path, runs: int, python: str) -> None:
    command = [python, "-m", "memgit", "-C", str(ws), "lint", "--all"]
    print("command:", " ".join(command))
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, env=_env(), capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode not in (0, 1):
            raise SystemExit(f"memgit lint --all failed: {done.stderr.strip()}")
    findings = done.stdout.count("\n")
    print(
        f"lint --all: wall median {statistics.median(walls):.1f} s (min {min(walls):.1f}, max {max(walls):.1f}), "
        f"CPU median {statistics.median(cpus):.1f} s, {runs} runs; {findings} findings"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("work", type=Path)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--repo", type=Path, action="append", default=[])
    parser.add_argument("--npm", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python", default=sys.executable, help="the interpreter whose memgit runs the lint")
    opts = parser.parse_args(argv)
    ws = build(opts.work, opts.lines, opts.repo, opts.npm)
    time_lint(ws, opts.runs, opts.python)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
