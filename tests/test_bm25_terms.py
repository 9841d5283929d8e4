"""Per-word BM25 scores kept by long-running searchers (memgit.recall.bm25_terms): the same
ranking and scores as FTS5's own OR query, and never a score from another state of the index."""

from __future__ import annotations

import json
import random
from pathlib import Path

from memgit.core.text import match_expression, query_terms
from memgit.index.store import Store
from memgit.recall.bm25_terms import ROW_BYTES, TermScores
from memgit.recall.search import Searcher
from memgit.workspace import Workspace
from tests.helpers import commit_all, memgit, write

BM25 = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "1"}
WORDS = (
    "budget approved kestrel deploy billing migration standup tenant shard latency invoice "
    "renderer timezone audit pilot roadmap"
).split()


def _many_notes(root: Path, files: int = 40, seed: int = 3) -> None:
    """Notes whose words overlap a lot, with different lengths and repeats (so tf and length matter)."""
    rng = random.Random(seed)
    for i in range(files):
        lines = [f"# 2026-02-{i % 28 + 1:02d} note {i}", ""]
        for _ in range(rng.randint(2, 12)):
            lines.append("- " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14))) + ".")
        write(root / "memory" / "notes" / f"n{i:03d}.md", "\n".join(lines) + "\n")


def _state(store: Store) -> tuple[object, ...]:
    meta = store.meta()
    return (meta.get("index_id"), meta.get("generation"), store.fts_state())


def _same_ranking(fts: list[tuple[int, float]], cached: list[tuple[int, float]]) -> None:
    """Equal scores (float32 storage: 1e-5 relative), and equal chunks except inside a tie."""
    assert len(fts) == len(cached)
    for (_, a), (_, b) in zip(fts, cached, strict=True):
        assert abs(a - b) <= 1e-5 * max(1.0, abs(a))
    if fts:
        cut = fts[-1][1] + 1e-4
        assert {i for i, s in fts if s > cut} == {i for i, s in cached if s > cut}


def test_summed_word_scores_equal_one_fts_query(workspace: Path) -> None:
    _many_notes(workspace)
    commit_all(workspace)
    assert memgit(workspace, "index", env=BM25).returncode == 0
    store = Store(workspace / ".git" / "memgit" / "index.sqlite", readonly=True)
    cache = TermScores(max_bytes=10_000_000)
    queries = ["budget approved kestrel", "deploy", "billing migration standup latency", "tenant shard", "nothinglike"]
    try:
        with store.snapshot_read():
            state = _state(store)
            for _ in range(2):  # the second round comes from the cache
                for query in queries:
                    terms = query_terms(query)
                    for limit in (1, 5, 24):
                        fts = store.bm25(match_expression(terms) or "", limit)
                        _same_ranking(fts, cache.top(store, terms, limit, state))
            assert cache.top(store, [], 5, state) == []
    finally:
        store.close()
    assert cache.hits > 0 and cache.misses > 0


def test_a_small_budget_evicts_and_still_ranks_the_same(workspace: Path) -> None:
    _many_notes(workspace)
    commit_all(workspace)
    assert memgit(workspace, "index", env=BM25).returncode == 0
    store = Store(workspace / ".git" / "memgit" / "index.sqlite", readonly=True)
    cache = TermScores(max_bytes=60 * ROW_BYTES)  # about two words' rows
    try:
        with store.snapshot_read():
            state = _state(store)
            for query in ["budget approved", "kestrel deploy", "budget kestrel audit", "roadmap pilot"] * 2:
                terms = query_terms(query)
                _same_ranking(store.bm25(match_expression(terms) or "", 10), cache.top(store, terms, 10, state))
                assert cache.rows <= cache.max_rows
    finally:
        store.close()
    assert cache.misses > 7  # seven distinct words, asked twice: evicted ones were scored again
    cache.resize(0)  # the budget follows the index size; a smaller one evicts at once
    assert cache.rows == 0


def test_a_new_index_state_is_never_answered_from_old_scores(workspace: Path) -> None:
    """A warm searcher keeps word scores across searches; a commit changes every word's idf and
    adds rows, and the next search must see exactly the new index."""
    _many_notes(workspace, files=12)
    commit_all(workspace)
    assert memgit(workspace, "index", env=BM25).returncode == 0
    ws = Workspace.discover(workspace)
    warm = Searcher(ws, embedder=None, auto_index=False, keep_term_scores=True)
    try:
        before = warm.search("kestrel budget zanzibar", k=5, mode="bm25")
        assert warm._term_scores is not None and warm._term_scores.rows > 0
        write(workspace / "memory" / "2026-03-01.md", "# 2026-03-01\n\n- Kestrel budget, signed off in Zanzibar.\n")
        commit_all(workspace)
        assert memgit(workspace, "index", env=BM25).returncode == 0  # another process updates it
        after = warm.search("kestrel budget zanzibar", k=5, mode="bm25")
        cold = Searcher(ws, embedder=None, auto_index=False)
        try:
            fresh = cold.search("kestrel budget zanzibar", k=5, mode="bm25")
        finally:
            cold.close()
    finally:
        warm.close()
    assert "memory/2026-03-01.md" in [h.path for h in after.hits]
    assert [(h.path, h.start_line, h.text_score) for h in after.hits] == [
        (h.path, h.start_line, h.text_score) for h in fresh.hits
    ]
    assert [h.path for h in before.hits] != [h.path for h in after.hits]


def test_batch_search_with_word_scores_answers_like_one_shot_searches(workspace: Path) -> None:
    """Through the CLI: `--batch` keeps word scores, separate processes do not; same hits."""
    _many_notes(workspace)
    commit_all(workspace)
    assert memgit(workspace, "index", env=BM25).returncode == 0
    queries = ["budget approved", "kestrel deploy billing", "budget approved", "audit renderer timezone"]
    batch = workspace.parent / "queries.txt"
    batch.write_text("\n".join(queries) + "\n", encoding="utf-8")
    proc = memgit(workspace, "search", "--batch", str(batch), "--json", "--mode", "bm25", "-k", "6", env=BM25)
    assert proc.returncode == 0, proc.stderr
    warm = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(warm) == len(queries)
    for query, answer in zip(queries, warm, strict=True):
        one = memgit(workspace, "search", query, "--json", "--mode", "bm25", "-k", "6", env=BM25)
        assert one.returncode == 0, one.stderr
        expected = json.loads(one.stdout)["hits"]
        assert [round(h["text_score"], 3) for h in answer["hits"]] == [round(h["text_score"], 3) for h in expected]
        assert len(answer["hits"]) == 6


def test_cache_can_be_turned_off(workspace: Path) -> None:
    write(workspace / "memgit.toml", "[search]\nbm25_cache_mb = 0\n")
    commit_all(workspace)
    searcher = Searcher(Workspace.discover(workspace), embedder=None, keep_term_scores=True)
    try:
        assert searcher._term_scores is None
        assert searcher.search("billing", mode="bm25").hits
    finally:
        searcher.close()
