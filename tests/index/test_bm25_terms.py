"""Per-word BM25 scores kept by long-running searchers (memgit.index.bm25_terms): the same
ranking and scores as FTS5's own OR query, and never a score from another state of the index."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from memgit.core.text import match_expression, query_terms
from memgit.index.bm25_terms import PREWARM_FILL, ROW_BYTES, TermScores, surface_forms
from memgit.index.store import Store
from memgit.recall.request import SearchRequest
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


@contextmanager
def _indexed(workspace: Path) -> Iterator[Store]:
    """The notes committed and indexed (BM25 only); a read connection inside one snapshot."""
    _many_notes(workspace)
    commit_all(workspace)
    assert memgit(workspace, "index", env=BM25).returncode == 0
    store = Store(workspace / ".git" / "memgit" / "index.sqlite", readonly=True)
    try:
        with store.snapshot_read():
            yield store
    finally:
        store.close()


def _state(store: Store) -> tuple[object, ...]:
    meta = store.meta()
    return (meta.get("index_id"), meta.get("generation"), store.fts.state())


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
        before = warm.search("kestrel budget zanzibar", SearchRequest(k=5, mode="bm25"))
        assert warm._term_scores is not None and warm._term_scores.rows > 0
        write(workspace / "memory" / "2026-03-01.md", "# 2026-03-01\n\n- Kestrel budget, signed off in Zanzibar.\n")
        commit_all(workspace)
        assert memgit(workspace, "index", env=BM25).returncode == 0  # another process updates it
        after = warm.search("kestrel budget zanzibar", SearchRequest(k=5, mode="bm25"))
        cold = Searcher(ws, embedder=None, auto_index=False)
        try:
            fresh = cold.search("kestrel budget zanzibar", SearchRequest(k=5, mode="bm25"))
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
        assert searcher.search("billing", SearchRequest(mode="bm25")).hits
    finally:
        searcher.close()


def test_stemmed_spellings_share_one_entry(workspace: Path) -> None:
    """ "deploy", "deploys" and "deployed" are one index token: one cached entry, FTS5's scores."""
    cache = TermScores(max_bytes=10_000_000)
    with _indexed(workspace) as store:
        state = _state(store)
        for query in ["deploy", "deploys budget", "deployed"]:
            terms = query_terms(query)
            _same_ranking(store.bm25(match_expression(terms) or "", 10), cache.top(store, terms, 10, state))
    assert cache.misses == 2 and cache.hits == 2  # deploy, budget scored; deploys, deployed found


def test_a_word_of_two_tokens_is_its_own_phrase(workspace: Path) -> None:
    """`budget_approved` is two FTS5 tokens (a phrase): kept under its own spelling, FTS5's scores."""
    cache = TermScores(max_bytes=10_000_000)
    with _indexed(workspace) as store:
        state = _state(store)
        for _ in range(2):
            terms = query_terms("budget_approved kestrel")
            _same_ranking(store.bm25(match_expression(terms) or "", 10), cache.top(store, terms, 10, state))
    assert "budget_approved" in cache._words and cache.misses == 2 and cache.hits == 2


def test_surface_forms_spell_porter_tokens() -> None:
    assert "deploy" in surface_forms("deploi")
    assert "agree" in surface_forms("agre")
    assert "the" not in surface_forms("the")  # a stop word is never a query word


def test_prewarm_fills_the_costliest_words_and_ranks_the_same(workspace: Path) -> None:
    """A prewarm scores the most widespread words first, within its share of the budget, and a
    search afterwards is answered from them with FTS5's own ranking."""
    budget_rows = 150  # a few of the sixteen words
    cache = TermScores(max_bytes=budget_rows * ROW_BYTES)
    with _indexed(workspace) as store:
        state = _state(store)
        report = cache.prewarm(store, state)
        assert report["words"] >= 1 and cache.rows == report["rows"] <= budget_rows * PREWARM_FILL
        counts = dict(store.fts.frequent_tokens(100))
        cached = set(cache._words)
        assert cached <= set(counts)
        # Greedy, costliest first: a more widespread token was left out only when it no longer fitted.
        smallest_taken = min(counts[t] for t in cached)
        skipped = [t for t, n in counts.items() if t not in cached and n > smallest_taken]
        assert all(counts[t] > budget_rows * PREWARM_FILL - report["rows"] + smallest_taken for t in skipped)
        hits_before = cache.hits
        word = next(w for w in WORDS if store.fts.tokens([w]).get(w) in cached)
        _same_ranking(store.bm25(match_expression([word]) or "", 10), cache.top(store, [word], 10, state))
        assert cache.hits == hits_before + 1
        for query in ["budget approved kestrel", "billing migration standup latency", "tenant shard"]:
            terms = query_terms(query)
            _same_ranking(store.bm25(match_expression(terms) or "", 24), cache.top(store, terms, 24, state))


def test_prewarm_stops_when_told_and_never_mixes_states(workspace: Path) -> None:
    with _indexed(workspace) as store:
        state = _state(store)
        stopped = TermScores(max_bytes=10_000_000)
        assert stopped.prewarm(store, state, stop=lambda: True)["words"] == 0 and stopped.rows == 0
        moved = TermScores(max_bytes=10_000_000)
        calls = iter(range(1000))

        def another_search_moves_on() -> bool:  # a search adopts a newer state mid-prewarm
            if next(calls) == 2:
                moved.top(store, ["budget"], 5, ("other", "state"))
            return False

        report = moved.prewarm(store, state, stop=another_search_moves_on)
        assert report["words"] <= 2
        assert moved._state == ("other", "state") and set(moved._words) <= {"budget"}


def _service(root: Path) -> Any:
    from memgit.config import McpConfig
    from memgit.mcp.service import MemoryService

    return MemoryService(Workspace.discover(root), McpConfig(scan_interval=0))


def _prewarm_done(service: Any, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        thread = service._prewarm_thread
        if thread is not None and not thread.is_alive() and service.prewarm_report is not None:
            return service.status()["server"]["bm25_prewarm"]
        time.sleep(0.05)
    raise AssertionError("the BM25 prewarm did not finish")


def test_the_mcp_service_prewarms_at_start_and_after_updates(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server fills the word cache in the background at start, searches are answered from
    it, and after an append (a new index state) the saved words are carried to the new state;
    with nothing saved, a round waits for a quiet index and fills it again."""
    import memgit.mcp.service as service_module

    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.setenv("MEMGIT_NO_RECALL", "1")
    monkeypatch.setattr(service_module, "PREWARM_AFTER_UPDATE_S", 0.2)
    _many_notes(workspace)
    commit_all(workspace)
    service = _service(workspace)
    try:
        service.warm()
        first = _prewarm_done(service)
        assert first["running"] is False and first["words"] >= 10 and first["rows"] > 0
        cache = service.session.searcher._term_scores
        assert cache is not None
        misses = cache.misses
        assert service.search("budget approved kestrel", 5, None)["hits"]
        assert cache.misses == misses and cache.hits >= 3  # all three words were warm
        old_state = cache._state

        service._prewarm_thread = None
        service.append("- Zanzibar budget approved for the kestrel pilot.", long_term=False, commit=False)
        assert service.search("zanzibar", 5, None)["hits"]  # the update is seen at once
        again = _prewarm_done(service)
        # The words the first round saved are carried to the new state at once, not computed.
        assert again["words"] >= 10 and again.get("carried") and cache._state != old_state
        fresh = Searcher(Workspace.discover(workspace), embedder=None, auto_index=False)
        try:
            expected = fresh.search("budget approved kestrel zanzibar", SearchRequest(k=6, mode="bm25"))
        finally:
            fresh.close()
        warm = service.session.searcher.search("budget approved kestrel zanzibar", SearchRequest(k=6, mode="bm25"))
        assert [(h.path, h.start_line) for h in warm.hits] == [(h.path, h.start_line) for h in expected.hits]
        # Without a saved cache to carry, a round waits for a quiet index and computes the words.
        from memgit.index.layout import word_cache_path

        word_cache_path(service.ws).unlink()
        service._prewarm_thread = None
        service.append("- Quokka budget moved to the osprey team.", long_term=False, commit=False)
        computed = _prewarm_done(service)
        assert computed["words"] >= 10 and not computed.get("loaded") and computed.get("saved")
        # A costly round (a very large index) waits proportionally longer for a quiet index; a
        # carried round does not count as one.
        last = service._last_prewarm["seconds"]
        assert not service._last_prewarm.get("loaded") and service._last_prewarm["words"] == computed["words"]
        assert service._prewarm_delay() == max(0.2, last * service_module.PREWARM_QUIET_FACTOR)
        service._last_prewarm = {"seconds": 40.0}
        assert service._prewarm_delay() == 40.0 * service_module.PREWARM_QUIET_FACTOR
    finally:
        service.close()


def test_prewarm_can_be_turned_off(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    write(workspace / "memgit.toml", "[search]\nbm25_prewarm = false\n")
    commit_all(workspace)
    service = _service(workspace)
    try:
        service.warm()
        assert service._prewarm_thread is None
        assert service.status()["server"]["bm25_prewarm"] == {"phase": "off", "running": False}
    finally:
        service.close()


def test_the_budget_grows_with_the_index_up_to_its_cap(workspace: Path) -> None:
    write(workspace / "memgit.toml", "[search]\nbm25_cache_mb = 10\nbm25_cache_max_mb = 35\n")
    commit_all(workspace)
    searcher = Searcher(Workspace.discover(workspace), embedder=None, keep_term_scores=True)
    try:
        mb = [searcher._term_budget({"chunk_count": str(n)}) / 2**20 for n in (500, 100_000, 250_000, 10**7)]
    finally:
        searcher.close()
    assert mb == [10, 10, 25, 35]


def test_a_prewarm_waits_only_after_a_search(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No sleep where no search runs (`memgit index` keeping the words of a full build): the gap
    a prewarm leaves for the next search of a burst follows a search, never nothing."""
    import time
    import types

    import memgit.index.bm25_terms as terms

    slept: list[float] = []
    # Record the word cache's own sleeps instead of sleeping: only its module's clock is replaced,
    # so a lock's back-off elsewhere in the process (a loaded machine) is not counted as a wait.
    clock = types.SimpleNamespace(monotonic=time.monotonic, perf_counter=time.perf_counter, sleep=slept.append)
    monkeypatch.setattr(terms, "time", clock)
    # A gap no machine's pause between the search and the prewarm can outlast; a short bound.
    monkeypatch.setattr(terms, "QUIET_GAP_S", 3600.0)
    monkeypatch.setattr(terms, "MAX_YIELD_S", 0.005)
    with _indexed(workspace) as store:
        state = _state(store)
        quiet = TermScores(max_bytes=10_000_000)
        assert quiet.prewarm(store, state)["words"] >= 3
        assert slept == []

        after_search = TermScores(max_bytes=10_000_000)
        with after_search.searching():
            after_search.top(store, ["budget"], 5, state)
        assert after_search.prewarm(store, state)["words"] >= 3
        assert slept and all(0 < gap <= terms.MAX_YIELD_S for gap in slept)
