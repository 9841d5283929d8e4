"""The warm BM25 word cache kept beside the index: a restarted server loads it instead of
computing it again, only for the very index state it was computed on, and a background prewarm
never computes a word while a search runs."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from memgit.index.bm25_terms import surface_forms
from memgit.index.layout import word_cache_path
from memgit.index.update import update_index
from memgit.recall.request import SearchRequest
from memgit.recall.search import Searcher
from memgit.workspace import Workspace
from tests.helpers import commit_all, wait_until, write

QUERIES = ["billing migration", "tea coffee", "granite quarry deploy", "kestrel latency budget"]


def many_notes(root: Path) -> None:
    words = "billing migration tea coffee granite quarry deploy kestrel latency budget team review".split()
    for i in range(60):
        body = " ".join(words[(i * k) % len(words)] for k in range(1, 25))
        write(root / "memory" / "notes" / f"n{i:02d}.md", f"# note {i}\n\n- {body}\n")


@pytest.fixture
def indexed(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """The notes below, committed and indexed for BM25 alone."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    many_notes(workspace)
    commit_all(workspace, "notes")
    ws = Workspace.discover(workspace)
    update_index(ws)
    return ws


def warm_searcher(ws: Workspace) -> Searcher:
    return Searcher(ws, embedder=None, auto_index=False, keep_term_scores=True)


def save_word_cache(ws: Workspace) -> dict:
    """What a server's finished prewarm round leaves beside the index."""
    first = warm_searcher(ws)
    report = first.prewarm_terms() or {}
    first.close()
    assert report.get("saved"), report
    return report


def answers(searcher: Searcher) -> list[list[tuple[str, int, float]]]:
    return [
        [(h.path, h.start_line, h.text_score) for h in searcher.search(q, SearchRequest(k=10, mode="bm25")).hits]
        for q in QUERIES
    ]


def test_a_saved_word_cache_is_loaded_for_the_same_state_only(workspace: Path, indexed: Workspace) -> None:
    ws = indexed
    saved = word_cache_path(ws)

    first = warm_searcher(ws)
    report = first.prewarm_terms()
    assert report and report["words"] > 5 and report["saved"] == report["words"] and not report.get("loaded")
    assert saved.is_file()
    expected = answers(first)
    first.close()

    again = warm_searcher(ws)
    report = again.prewarm_terms()
    assert report and report["loaded"] and report["words"] >= 5
    assert again._term_scores is not None
    hits_before = again._term_scores.hits
    assert answers(again) == expected  # the same scores, from the file
    assert again._term_scores.hits > hits_before
    again.close()

    # Another state of the index (one file changed): the file is carried to it, then kept for it.
    write(workspace / "memory" / "notes" / "n00.md", "# note 0\n\n- billing billing tea\n")
    commit_all(workspace, "edit")
    update_index(ws)
    later = warm_searcher(ws)
    report = later.prewarm_terms()
    assert report and report["loaded"] and report["carried"] and report["saved"] == report["words"]
    kept = warm_searcher(ws)
    exact = kept.prewarm_terms()
    assert exact and exact["loaded"] and not exact.get("carried") and exact["words"] == report["words"]
    kept.close()
    fresh = warm_searcher(ws)
    fresh._term_scores = None  # plain FTS5 queries: the reference
    assert answers(later) == answers(fresh)
    later.close()
    fresh.close()

    # A damaged file is ignored, never trusted.
    saved.write_bytes(saved.read_bytes()[:-7])
    broken = warm_searcher(ws)
    report = broken.prewarm_terms()
    assert report and not report.get("loaded")
    broken.close()


class _WatchedCondition:
    """The word cache's real condition, which also says when someone first waits on it and how
    many rows the cache held at that moment (read under the cache's lock, which the waiter holds)."""

    def __init__(self, condition: threading.Condition, waiting: threading.Event, rows: Callable[[], int]) -> None:
        self._condition = condition
        self._waiting = waiting
        self._rows = rows
        self.rows_when_waiting = -1

    def wait(self, timeout: float | None = None) -> bool:
        if not self._waiting.is_set():
            self.rows_when_waiting = self._rows()
            self._waiting.set()
        return self._condition.wait(timeout)

    def notify_all(self) -> None:
        self._condition.notify_all()


def test_a_prewarm_waits_while_a_search_runs(indexed: Workspace) -> None:
    ws = indexed
    searcher = warm_searcher(ws)
    assert searcher._term_scores is not None
    report: dict = {}
    scores = searcher._term_scores
    waiting = threading.Event()
    watched = _WatchedCondition(scores._idle, waiting, lambda: scores.rows)
    scores._idle = watched  # the prewarm's own wait, seen, not replaced
    with scores.searching():
        thread = threading.Thread(target=lambda: report.update(searcher.prewarm_terms() or {}))
        thread.start()
        assert waiting.wait(60), "the prewarm never waited for the running search"
        assert watched.rows_when_waiting == 0  # no word while a search runs ...
        wait_until(lambda: scores.rows > 0 or not thread.is_alive(), "the prewarm computes a word")
        assert scores.rows > 0  # ... but searches without pause never starve it
    thread.join(timeout=60)
    assert report["words"] > 5 and searcher._term_scores.rows > 0
    searcher.close()


def test_a_large_full_build_keeps_the_word_cache_for_the_first_server(workspace: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import memgit.index.word_cache as word_cache_module
    from memgit.index.word_cache import keep_word_cache
    from tests.helpers import memgit_json

    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    many_notes(workspace)
    commit_all(workspace, "notes")
    report = memgit_json(workspace, "index", "--full")
    assert report["mode"] == "full" and report["word_cache"] is None  # 61 chunks: not worth it
    ws = Workspace.discover(workspace)
    assert not word_cache_path(ws).exists()
    monkeypatch.setattr(word_cache_module, "WORD_CACHE_MIN_CHUNKS", 10)
    kept = keep_word_cache(ws, report["chunks"])
    assert kept and kept["saved"] == kept["words"] > 5 and word_cache_path(ws).is_file()
    server = warm_searcher(ws)
    loaded = server.prewarm_terms()
    assert loaded and loaded["loaded"] and loaded["words"] == kept["words"]
    server.close()


def test_warm_up_loads_the_saved_words_before_the_first_search(indexed: Workspace) -> None:
    ws = indexed
    first = warm_searcher(ws)
    computed = first.prewarm_terms()
    first.close()
    assert computed and computed["saved"]
    server = warm_searcher(ws)
    warmed = server.warm_up()
    assert warmed["words_loaded"] == computed["saved"]
    assert server._term_scores is not None and server._term_scores.rows > 0
    misses = server._term_scores.misses
    answers(server)
    assert server._term_scores.misses - misses <= 2  # the queries' common words were all there
    again = server.prewarm_terms()  # the background round finds them loaded: no work, no rewrite
    assert again and again["loaded"] and "saved" not in again
    server.close()


def cached_words(searcher: Searcher) -> dict[str, tuple[list[int], list[float]]]:
    assert searcher._term_scores is not None
    return {key: (ids.tolist(), scores.tolist()) for key, (ids, scores) in searcher._term_scores._words.items()}


def test_a_carried_word_cache_scores_every_word_as_fts5_does(workspace: Path, indexed: Workspace) -> None:
    """Edit, add and delete files in one commit: every carried word holds exactly the rows FTS5
    finds for it now, with FTS5's scores (float32), and searches answer as plain FTS5 does."""
    ws = indexed
    save_word_cache(ws)

    notes = workspace / "memory" / "notes"
    write(notes / "n01.md", "# note 1\n\n- billing billing billing quarry, and a word never seen: zephyrine\n")
    (notes / "n02.md").unlink()
    (notes / "n03.md").unlink()
    write(notes / "new.md", "# new\n\n- tea tea coffee deploy kestrel\n- " + "budget review " * 40 + "\n")
    commit_all(workspace, "edit, delete, add")
    update_index(ws)

    carried = warm_searcher(ws)
    warmed = carried.warm_up()
    assert warmed["words_loaded"] > 5 and warmed["words_carried"]
    words = cached_words(carried)
    assert {"bill", "tea", "budget", "review"} <= set(words)

    reference = warm_searcher(ws)
    assert reference._term_scores is not None
    store = reference.store()
    with store.snapshot_read():
        for key, (ids, scores) in words.items():
            spelled = [w for w, token in store.fts.tokens(surface_forms(key)).items() if token == key]
            want_ids, want_scores = reference._term_scores._compute(store, min(spelled))
            assert ids == want_ids.tolist(), key
            for got, want in zip(scores, want_scores.tolist(), strict=True):
                assert abs(got - want) <= 1e-6 * max(1.0, abs(want)), key
    expected = answers(reference)  # words computed by FTS5, one by one
    reference._term_scores = None
    assert answers(carried) == answers(reference) == expected
    carried.close()
    reference.close()


def test_a_cache_of_another_index_is_never_carried(indexed: Workspace) -> None:
    """The index database was recreated (another index id): the saved words are not used."""
    from memgit.index.layout import index_path

    ws = indexed
    save_word_cache(ws)
    index_path(ws).unlink()
    update_index(ws)
    again = warm_searcher(ws)
    report = again.prewarm_terms()
    assert report and not report.get("loaded") and report["words"] > 5
    again.close()
