"""Optional BM25 pruning of very common query words (`[search] bm25_max_term_share`)."""

from __future__ import annotations

import json
from pathlib import Path

from memgit.core.text import prune_common_terms
from memgit.index.store import Store
from tests.helpers import commit_all, memgit, write

BM25 = {"MEMGIT_EMBEDDING": "none"}


def test_prune_keeps_rare_words_phrases_and_at_least_one_term() -> None:
    counts = {"meeting": 90, "kestrel": 3, "budget": 40}
    assert prune_common_terms(["meeting", "kestrel", "budget"], counts, 100, 0.5) == ["kestrel", "budget"]
    assert prune_common_terms(["meeting"], counts, 100, 0.5) == ["meeting"]  # a lone word stays
    assert prune_common_terms(["meeting", "budget"], {"meeting": 90, "budget": 80}, 100, 0.5) == [
        "meeting",
        "budget",
    ]
    assert prune_common_terms(["meeting", "東 京"], counts, 100, 0.5) == ["東 京"]
    assert prune_common_terms(["meeting", "kestrel"], counts, 100, 1.0) == ["meeting", "kestrel"]


def test_document_counts_follow_the_index_tokenizer(workspace: Path) -> None:
    for i in range(6):
        write(workspace / "memory" / f"2026-02-0{i + 1}.md", f"# Day {i}\n\n- Standup meeting number {i}.\n")
    write(workspace / "memory" / "2026-02-09.md", "# Day 9\n\n- Kestrel running late.\n")
    commit_all(workspace)
    assert memgit(workspace, "index", env=BM25).returncode == 0
    store = Store(workspace / ".git" / "memgit" / "index.sqlite", readonly=True)
    try:
        counts = store.fts.term_document_counts(["meetings", "kestrel", "runs", "absent"])
        total = store.chunk_total()
    finally:
        store.close()
    assert counts["meetings"] == 6  # stemmed like the index: meetings -> meet
    assert counts["kestrel"] == 1
    assert counts["runs"] == 1  # "running" and "runs" share the stem "run"
    assert counts["absent"] == 0
    assert total >= 8


def test_pruned_search_still_finds_the_rare_word(workspace: Path) -> None:
    for i in range(8):
        write(workspace / "memory" / f"2026-03-0{i + 1}.md", f"# Day {i}\n\n- Weekly meeting notes {i}.\n")
    write(workspace / "memory" / "2026-03-09.md", "# Day 9\n\n- Meeting about the Kestrel budget.\n")
    write(workspace / "memgit.toml", "[search]\nbm25_max_term_share = 0.5\n")
    commit_all(workspace)
    proc = memgit(workspace, "search", "meeting kestrel", "--mode", "bm25", "--json", env=BM25)
    assert proc.returncode == 0, proc.stderr
    hits = json.loads(proc.stdout)["hits"]
    assert hits[0]["path"] == "memory/2026-03-09.md"
    # "meeting" alone is never pruned away: a query keeps at least one word.
    alone = json.loads(memgit(workspace, "search", "meeting", "--mode", "bm25", "--json", env=BM25).stdout)
    assert len(alone["hits"]) >= 6
