"""Dreaming on workspace cases written in folders by other hands, lived day by day and scored by labels.

Each case folder (format: tests/dream/cases/folder.py) is lived in a new git workspace under
``--work`` (day zero: its hand-written MEMORY.md; each day's notes and transcripts committed on
their day, a day the pre-commit lint refuses committed with --no-verify; the day's searches run with
``memgit search --batch --now``, the recalls published; a dream night every 7th day and on the last,
each branch merged as it is), then scored from its labels.jsonl (tests/dream/cases/folder_score.py):
proposals, precision, assistant-only promotions, stale facts, due updates made or shown as
conflicts, secrets leaked, and every proposal listed beside its source lines for a reviewer to
judge mangled and half-cut copies.

Usage (from the repository root; the embedding model as memgit finds it, or MEMGIT_MODEL):

    .venv/bin/python bench/dream_cases.py CASE_FOLDER... --json out.json [--markdown out.md] [--rerun]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.dream.cases import folder, folder_score  # noqa: E402

WORK = Path(__file__).resolve().parent / ".work" / "dream-cases"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="+", type=Path, help="case folders")
    parser.add_argument("--json", type=Path, help="write the figures and every proposal here")
    parser.add_argument("--markdown", type=Path, help="write the reading list (every proposal by its source) here")
    parser.add_argument("--work", type=Path, default=WORK, help="where the workspaces are lived")
    parser.add_argument("--rerun", action="store_true", help="dream each night twice, compare the commits")
    args = parser.parse_args(argv)
    results = []
    for case_dir in args.cases:
        if not (case_dir / "days").is_dir():
            print(f"bench: {case_dir} has no days/ folder", file=sys.stderr)
            return 2
        case = folder.load(case_dir)
        started = time.perf_counter()
        print(f"bench: living {case.name} ({len(case.days)} days, nights {case.nights()})", file=sys.stderr, flush=True)
        lived = folder.live(case, args.work / case.name, rerun=args.rerun)
        result = folder_score.score(case, lived)
        result["seconds"] = round(time.perf_counter() - started, 1)
        results.append(result)
        row = {k: result[k] for k in ("case", "proposals", "precision", "assistant_only", "updates_due")}
        row |= {"made": result["updates_made"], "shown": result["updates_shown"], "stale": len(result["stale"])}
        row |= {"leaked": len(result["secrets_leaked"]), "night_seconds": result["night_seconds"]}
        print(json.dumps(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.markdown:
        args.markdown.write_text("\n".join(folder_score.listing(r) for r in results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
