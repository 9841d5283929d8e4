"""What recording a search in the recall ledger costs, next to the search itself.

In one process on a replayed LoCoMo workspace (``bench/.work/dream-cost/locomo-c0``): every gold
question is searched once to warm up, then ``--rounds`` times; each time the search and the ledger
write (`Recorder.record`: render the lines, one locked `write`) are timed separately with
``time.perf_counter``. Prints medians and the ratio of the write to the search.

Usage (from the repository root):

    .venv/bin/python bench/recall_cost.py [--corpus PATH] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import DEFAULT_CORPUS, WORK_DIR, load_conversations  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--conv", default="c0")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--cli",
        type=int,
        default=0,
        metavar="N",
        help="also time N whole `memgit search` processes with and without recording, alternating",
    )
    args = parser.parse_args(argv)
    conv = load_conversations(args.corpus, [args.conv])[0]
    root = WORK_DIR / "dream-cost" / conv.name
    if not root.exists():
        root.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, str(args.corpus / "replay.py"), str(conv.workspace), str(conv.commits), str(root)],
            check=True,
            capture_output=True,
        )
    os.environ.pop("MEMGIT_NO_RECALL", None)
    from memgit.index.update import update_index
    from memgit.ledger.recording import Recorder
    from memgit.recall.search import Searcher
    from memgit.workspace import Workspace

    ws = Workspace.discover(root)
    update_index(ws)
    searcher = Searcher(ws, preload_vectors=True)
    recorder = Recorder(ws, now="2026-01-01T00:00:00+00:00")
    questions = [q.question for q in conv.queries]
    for question in questions:
        searcher.search(question)
    search_ms: list[float] = []
    record_ms: list[float] = []
    for _ in range(args.rounds):
        for question in questions:
            started = time.perf_counter()
            result = searcher.search(question)
            searched = time.perf_counter()
            recorder.record(result)
            search_ms.append((searched - started) * 1000)
            record_ms.append((time.perf_counter() - searched) * 1000)
    searcher.close()
    s, r = statistics.median(search_ms), statistics.median(record_ms)
    print(f"searches: {len(search_ms)} (hits per search: 6)")
    print(
        f"search median: {s:.2f} ms; ledger write median: {r:.3f} ms "
        f"(p95 {sorted(record_ms)[int(0.95 * (len(record_ms) - 1))]:.3f} ms); write/search: {r / s:.1%}"
    )
    if args.cli:
        timings: dict[str, list[float]] = {"recording": [], "MEMGIT_NO_RECALL=1": []}
        for i in range(args.cli):
            question = questions[i % len(questions)]
            for label in timings:
                env = dict(os.environ, MEMGIT_NOW="2026-01-02T00:00:00+00:00")
                if label != "recording":
                    env["MEMGIT_NO_RECALL"] = "1"
                started = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "memgit", "search", question, "--json"],
                    cwd=root,
                    env=env,
                    check=True,
                    capture_output=True,
                )
                timings[label].append((time.perf_counter() - started) * 1000)
        on, off = (statistics.median(v) for v in timings.values())
        print(
            f"whole `memgit search` process, median of {args.cli}: recording {on:.1f} ms, "
            f"not recording {off:.1f} ms (ratio {on / off:.3f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
