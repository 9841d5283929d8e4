"""MEMORY.md stays readable: after three dreams, merged as a reviewer would, memgit's markers are at
most 15 % of the file's bytes, on the bundled demo workspace and on a LoCoMo conversation (dev
split, evaluation only; skipped when the corpus is absent), and `memgit context` shows none."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT, commit_all, git, memgit, memgit_json, write

ROOT = REPO_ROOT
LOCOMO = Path("/work/shared/corpora/locomo-dev")
BM25 = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "0"}
MARKER = re.compile(r" ?<!--\s*mg:[^>]*-->|<!-- memgit:entry[^>]*-->\n?")
DEMO_QUERIES = (
    "refresh materialised views by hand after a rollback",
    "which views must be refreshed after a rollback",
    "rollback: what must be refreshed by hand",
    "why does the nightly ETL job fail",
    "ETL timezone bug in the date parser",
    "what did Priya trace the ETL failure to",
    "when is the production database upgrade",
    "who is the user's manager",
    "Heron go/no-go decision",
    "what does the user drink in the afternoon",
    "how should status updates look",
    "what is Project Lantern",
)


def marker_share(text: str) -> float:
    data = text.encode("utf-8")
    return sum(len(m.encode("utf-8")) for m in MARKER.findall(text)) / max(1, len(data))


def three_dreams(root: Path, queries: list[str], first_day: int, month: str) -> list[dict]:
    """Three rounds: the questions asked on three days (one `--batch` a day), published, dreamt,
    the branch merged as a reviewer would."""
    runs = []
    batch = root.parent / "queries.txt"
    for round_ in range(3):
        for offset in range(3):
            day = f"{month}-{first_day + round_ * 3 + offset:02d}"
            part = queries[offset::3] + queries[(offset + 1) % 3 :: 3][: len(queries) // 6]
            write(batch, "\n".join(part) + "\n")
            proc = memgit(root, "search", "--batch", str(batch), "--now", f"{day}T12:00:00+00:00", env=BM25)
            assert proc.returncode == 0, proc.stderr
        assert memgit(root, "recalls", "publish").returncode == 0
        day = f"{month}-{first_day + round_ * 3 + 2:02d}T20:00:00+00:00"
        out = memgit_json(root, "dream", "--now", day, env=BM25)
        runs.append(out)
        if out["branch"]:
            git(root, "merge", "-q", "--no-edit", out["branch"])
    return runs


def workspace_from(source: Path, root: Path) -> Path:
    shutil.copytree(source, root)
    git(root, "init", "-q")
    assert memgit(root, "init").returncode == 0
    commit_all(root, "memory")
    assert memgit(root, "index", env=BM25).returncode == 0
    return root


def check(root: Path, runs: list[dict], at_least: int) -> float:
    memory = (root / "MEMORY.md").read_text()
    promoted = sum(1 for run in runs for a in run["actions"] if a["action"] != "forget")
    assert promoted >= at_least, [run["gates"] for run in runs]
    share = marker_share(memory)
    assert share <= 0.15, (share, memory)
    context = memgit(root, "context", env=BM25)
    assert context.returncode == 0 and "<!--" not in context.stdout
    return share


def test_demo_workspace_markers_stay_small(tmp_path: Path) -> None:
    root = workspace_from(ROOT / "examples/workspace", tmp_path / "demo")
    runs = three_dreams(root, list(DEMO_QUERIES), 1, "2026-12")
    check(root, runs, 2)


@pytest.mark.skipif(not (LOCOMO / "locomo-c0").is_dir(), reason="the LoCoMo dev corpus is not on this machine")
def test_locomo_markers_stay_small_after_three_dreams(tmp_path: Path) -> None:
    root = workspace_from(LOCOMO / "locomo-c0", tmp_path / "c0")
    questions = [json.loads(line)["question"] for line in (LOCOMO / "locomo-c0.queries.jsonl").read_text().splitlines()]
    runs = three_dreams(root, questions, 1, "2023-11")
    share = check(root, runs, 15)
    print(f"locomo-c0: {share:.3f} of MEMORY.md's bytes are markers")
