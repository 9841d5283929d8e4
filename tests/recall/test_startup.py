"""What keeps a one-shot search's start-up short, checked for keeping behaviour unchanged.

- The model loads on a thread (`EmbedderLoad`) while the command imports the rest; the thread's
  outcome, errors included, reaches the caller unchanged, and a search that never embeds
  (`--mode bm25`) never starts it.
- The CJK pattern compiles on the first text that could match; until then it answers exactly
  as the compiled pattern would.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.core import text as text_mod
from memgit.embed.tiny import write_tiny_bert_gguf
from memgit.index import open as index_open
from memgit.recall.request import SearchRequest
from memgit.workspace import Workspace
from tests.helpers import commit_all, memgit, write

# ---------------------------------------------------------------- the lazy CJK pattern

ALPHABET = st.sampled_from(
    list("ab Z9_-.,\n\t")
    + ["é", "ß", "ᄀ", "ᇿ", "ぁ", "ヿ", "中", "가", "힣", "豈", "\U00020000", "\U0002ebef", "\U0002ebf0", "😀", "ῼ"]
)
TEXTS = st.lists(ALPHABET, max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_lazy_cjk_pattern_answers_as_the_regex(text: str) -> None:
    regex = re.compile(text_mod._CJK_CLASS)
    lazy = text_mod._CjkPattern()
    found, expected = lazy.search(text), regex.search(text)
    assert (found.span() if found else None) == (expected.span() if expected else None)
    assert lazy.sub(r" \1 ", text) == regex.sub(r" \1 ", text)
    assert lazy.split(text) == regex.split(text)
    assert lazy.findall(text) == regex.findall(text)


def test_latin_text_never_compiles_the_pattern() -> None:
    lazy = text_mod._CjkPattern()
    assert lazy.sub(" ", "budget review for the kestrel pilot") == "budget review for the kestrel pilot"
    assert lazy._pattern is None
    assert lazy.findall("東京") == ["東", "京"] and lazy._pattern is not None


# ---------------------------------------------------------------- the model on a thread


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


def test_embedder_load_hands_over_the_embedder(
    workspace: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))
    embedder, notice = index_open.EmbedderLoad(Workspace.discover(workspace), threads=1).result()
    assert notice is None and embedder is not None
    try:
        assert embedder.embed(["the cat sits on the mat"]).shape == (1, embedder.dim)
    finally:
        embedder.close()


def test_embedder_load_hands_over_notices_and_errors(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF not really")
    monkeypatch.setenv("MEMGIT_MODEL", str(broken))
    ws = Workspace.discover(workspace)
    embedder, notice = index_open.EmbedderLoad(ws).result()
    assert embedder is None and notice is not None and notice.startswith("BM25 only: cannot load embedding model")

    def explode(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(index_open, "open_embedder", explode)
    load = index_open.EmbedderLoad(ws)
    with pytest.raises(KeyboardInterrupt):
        load.result()


PROBE = r"""
import os, sys
real_exit = os._exit
def report(code):
    print(json.dumps({"llama": "llama_cpp.llama_cpp" in sys.modules, "numpy": "numpy" in sys.modules}), file=sys.stderr)
    sys.stderr.flush()
    real_exit(code)
import json
os._exit = report
sys.argv = ["memgit", *sys.argv[1:]]
from memgit.cli import main
main()
"""


def _probe(root: Path, env: dict[str, str], *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, bool]]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=root,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    state = json.loads(proc.stderr.strip().splitlines()[-1])
    return proc, state


def test_one_shot_search_loads_the_model_only_when_it_embeds(workspace: Path, tiny_model: Path) -> None:
    for i in range(12):
        write(
            workspace / "memory" / f"2026-03-{i + 1:02d}.md",
            f"# Day {i}\n\n- Kestrel pilot budget review number {i}.\n",
        )
    commit_all(workspace)
    env = {"MEMGIT_MODEL": str(tiny_model), "MEMGIT_NO_RECALL": "1"}
    assert memgit(workspace, "index", env=env).returncode == 0

    hybrid, state = _probe(workspace, env, "search", "--json", "-k", "5", "kestrel budget")
    hits = json.loads(hybrid.stdout)["hits"]
    assert len(hits) == 5 and any(hit["vector_score"] for hit in hits)
    assert state["llama"]  # and the process still ended on the fast path: the thread was joined

    bm25, state = _probe(workspace, env, "search", "--json", "--mode", "bm25", "-k", "5", "kestrel budget")
    assert json.loads(bm25.stdout)["hits"] and not state["llama"]


# ---------------------------------------------------------------- the BM25 query started early


def _kestrel_notes(root: Path, n: int = 40) -> None:
    for i in range(n):
        write(
            root / "memory" / f"2026-04-{i % 28 + 1:02d}-{i}.md",
            f"# Day {i}\n\n- Kestrel pilot budget review {i}, approved.\n",
        )
    commit_all(root)


def _hits(result: object) -> list[tuple[str, int, float]]:
    return [(h.path, h.start_line, h.score) for h in result.hits]  # type: ignore[attr-defined]


def test_prefetched_bm25_rows_are_used_only_for_the_same_index_state(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgit.recall import bm25_query
    from memgit.recall.search import Searcher

    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.setenv("MEMGIT_NO_RECALL", "1")
    monkeypatch.setattr(bm25_query, "PREFETCH_MIN_CHUNKS", 0)
    _kestrel_notes(workspace)
    assert memgit(workspace, "index").returncode == 0
    ws = Workspace.discover(workspace)
    taken: list[bool] = []
    real_take = bm25_query.BM25Prefetch.take

    def spy(self: bm25_query.BM25Prefetch, *args: object) -> object:
        rows = real_take(self, *args)  # type: ignore[arg-type]
        taken.append(rows is not None)
        return rows

    monkeypatch.setattr(bm25_query.BM25Prefetch, "take", spy)
    query = "kestrel budget approved"

    plain = Searcher(ws, embedder=None)
    expected = _hits(plain.search(query, SearchRequest(k=5, mode="bm25")))
    plain.close()
    early = Searcher(ws, embedder=None, bm25_prefetch=bm25_query.BM25Prefetch(ws, query, 5))
    assert _hits(early.search(query, SearchRequest(k=5, mode="bm25"))) == expected and taken == [True]
    early.close()

    # The index changes after the early query ran: its rows are not used, the answer is fresh.
    prefetch = bm25_query.BM25Prefetch(ws, query, 5)
    prefetch.close()  # done, on the old state
    write(workspace / "memory" / "2026-05-01.md", "# May\n\n- Kestrel kestrel kestrel budget approved approved.\n")
    commit_all(workspace)
    assert memgit(workspace, "index").returncode == 0
    fresh = Searcher(ws, embedder=None, bm25_prefetch=prefetch)
    hits = _hits(fresh.search(query, SearchRequest(k=5, mode="bm25")))
    fresh.close()
    assert taken[-1] is False and hits[0][0] == "memory/2026-05-01.md"


def test_a_refused_search_waits_for_what_it_started(workspace: Path, tiny_model: Path) -> None:
    """A bad --now is refused after the model and the BM25 query have started: the error is one
    clean line, and the process neither hangs nor dies in llama.cpp while Python exits."""
    _kestrel_notes(workspace, 5)
    env = {"MEMGIT_MODEL": str(tiny_model)}
    assert memgit(workspace, "index", env=env).returncode == 0
    proc = memgit(workspace, "search", "--now", "not-a-time", "kestrel budget", env=env)
    assert proc.returncode != 0
    assert proc.stderr.startswith("memgit: error:") and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_a_bm25_only_index_never_imports_numpy_for_a_search(workspace: Path) -> None:
    """Opening the vectors early (while the model loads) is skipped when the index has none."""
    _kestrel_notes(workspace, 6)
    env = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "1"}
    assert memgit(workspace, "index", env=env).returncode == 0
    proc, state = _probe(workspace, env, "search", "--json", "kestrel budget")
    assert json.loads(proc.stdout)["hits"] and not state["numpy"] and not state["llama"]


def test_a_search_runs_no_sqlite_while_the_model_loads(
    workspace: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first SQLite statement beside llama.cpp's model load crashed in SQLite (SIGSEGV): the
    session waits for the load before anything opens a connection, and the search still uses it."""
    import threading

    from memgit.index import store as store_mod
    from memgit.recall.session import SearchSession

    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))
    _kestrel_notes(workspace, 3)
    assert memgit(workspace, "index", env={"MEMGIT_MODEL": str(tiny_model)}).returncode == 0
    loading_at_connect: list[bool] = []
    probe = store_mod.backend

    def watched() -> store_mod.SqliteBackend:
        loading_at_connect.append(any(t.name == "memgit-model" for t in threading.enumerate()))
        return probe()

    monkeypatch.setattr(store_mod, "_BACKEND", None)  # the process's first SQLite statement probes
    monkeypatch.setattr(store_mod, "backend", watched)
    session = SearchSession(Workspace.discover(workspace), first_query="kestrel budget")
    try:
        result = session.search("kestrel budget")
    finally:
        session.close()
    assert loading_at_connect and not any(loading_at_connect), loading_at_connect
    assert result.mode == "hybrid" and result.hits
