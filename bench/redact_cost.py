"""What redaction costs on ordinary notes: `redact_text` over every Markdown file under the folders.

    .venv/bin/python bench/redact_cost.py DIR [DIR ...] [--repeat 3]

Prints the CPU time (process time, the least of the repeats, so other load on the machine counts
less) and how many lines were scanned rule by rule. Compare two trees by running it with each on
PYTHONPATH.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memgit.lint import candidates, redact  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", type=Path, nargs="+")
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args(argv)
    texts = [p.read_text(encoding="utf-8", errors="replace") for d in opts.dirs for p in sorted(d.rglob("*.md"))]
    lines = sum(text.count("\n") for text in texts)
    best = float("inf")
    for _ in range(opts.repeat):
        start = time.process_time()
        for text in texts:
            redact.redact_text(text)
        best = min(best, time.process_time() - start)
    scanned = sum(len(candidates.text_candidates(text)) for text in texts)
    print(
        f"{len(texts)} files, {lines} lines: redact_text {best:.2f} s CPU (least of {opts.repeat}), {scanned} lines scanned"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
