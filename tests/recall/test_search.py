"""Search through the real CLI (and in-process for random queries): any text is a valid query,
the JSON carries exact provenance, filters and modes behave, and vectors find paraphrases."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgit.recall.request import SearchRequest
from memgit.recall.search import Searcher
from memgit.workspace import Workspace
from tests.helpers import assert_clean_error, commit_all, git, has_open, memgit, wait_until, write

BM25 = {"MEMGIT_EMBEDDING": "none"}
HIT_KEYS = {
    "path",
    "start_line",
    "end_line",
    "score",
    "text",
    "blob",
    "commit",
    "source",
    "day",
    "text_score",
    "vector_score",
    "start_char",
    "end_char",
    "also_in",
}
LONG_LINE = "Longlinemarker " + " ".join(f"word{i}" for i in range(400))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One indexed workspace shared by the read-only tests of this module."""
    root = tmp_path_factory.mktemp("search") / "ws"
    root.mkdir()
    # Module-scoped, so it runs before the per-test hermetic environment: isolate git here.
    home = tmp_path_factory.mktemp("search-home")
    env = {
        **os.environ,
        "HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "T",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        **BM25,
    }
    files = {
        "MEMORY.md": "# Long-term Memory\n\n- The user prefers tea over coffee.\n- Standup happens every morning.\n",
        "USER.md": "# User\n\n- Name: Alex. Timezone Europe/Berlin.\n",
        "memory/projects/apollo.md": "# Apollo\n\n- Apollo ships the billing service rewrite.\n",
        "memory/projects/zeus.md": "# Zeus\n\n- Zeus migrates the database to Postgres.\n",
        "memory/travel.md": "# Travel\n\n- 東京で寿司を食べた。とても美味しかった。\n- Paris in spring.\n",
        "memory/long.md": LONG_LINE + "\n",
        "memory/2026-01-01.md": "# 2026-01-01\n\n- Standup: planning the year.\n",
        "memory/2026-01-15.md": "# 2026-01-15\n\n- Standup: billing incident review.\n",
        "memory/2026-02-01.md": "# 2026-02-01\n\n- Standup: database cutover.\n",
        "sessions/2026-01-20-chat.jsonl": json.dumps({"role": "user", "content": "Remember the sessionword"}) + "\n",
    }
    for path, text in files.items():
        write(root / path, text)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True, env=env)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", "corpus"], cwd=root, check=True, env=env)
    proc = memgit(root, "index", env=env)
    assert proc.returncode == 0, proc.stderr
    return root


def run(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = memgit(root, *args, env=BM25 if env is None else env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr
    return proc


def search_json(root: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    return json.loads(run(root, "search", *args, "--json", env=env).stdout)


def paths(result: dict) -> list[str]:
    return [h["path"] for h in result["hits"]]


# -- any text is a valid query -------------------------------------------------------------------
AWKWARD = [
    '"unbalanced quote',
    '""',
    "'single quotes'",
    "(parens",
    "a) OR (b",
    "-minus tea",
    "*star* tea*",
    "NEAR(tea coffee)",
    "NEAR(tea coffee, 2)",
    "tea AND OR NOT coffee",
    "AND",
    "NOT",
    "^caret tea",
    "col:umn body:tea",
    "{braces} [brackets]",
    "\\backslash/slash",
    "%_ wildcard",
    "'; DROP TABLE chunks; --",
    "東京",
    "寿司",
    "🎉🚀",
    "tea 🍵",
    "the and of",
    "is it",
    "1",
    "x",
    "...",
    "ü",
    "a" * 5000,
]


def test_awkward_queries_never_fail(corpus: Path, tmp_path: Path) -> None:
    batch = write(tmp_path / "queries.txt", "\n".join(AWKWARD) + "\n\n   \n")
    proc = run(corpus, "search", "--batch", str(batch), "--mode", "bm25")
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["query"] for r in results] == AWKWARD  # one JSON object a line; blank lines skipped
    by_query = {r["query"]: r for r in results}
    assert paths(by_query["東京"])[0] == "memory/travel.md"
    assert paths(by_query["寿司"])[0] == "memory/travel.md"
    assert paths(by_query["tea AND OR NOT coffee"])[0] == "MEMORY.md"
    assert paths(by_query["NEAR(tea coffee)"])[0] == "MEMORY.md"
    assert paths(by_query["-minus tea"])[0] == "MEMORY.md"
    assert by_query["🎉🚀"]["hits"] == []
    assert by_query["..."]["hits"] == []
    for result in results:
        assert result["mode"] == "bm25"
        for hit in result["hits"]:
            assert set(hit) == HIT_KEYS


@pytest.mark.parametrize("query", ["-minus", "--", '"', "NEAR(", "东京 Paris", "*"])
def test_awkward_queries_as_arguments(corpus: Path, query: str) -> None:
    result = json.loads(run(corpus, "search", "--json", "--mode", "bm25", "--", query).stdout)
    assert result["query"] == query


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.text(max_size=60))
def test_random_queries_in_process(corpus: Path, query: str) -> None:
    searcher = Searcher(Workspace.discover(corpus), embedder=None, auto_index=False)
    try:
        result = searcher.search(query, SearchRequest(k=5, mode="bm25"))
    finally:
        searcher.close()
    assert result.query == query
    assert len(result.hits) <= 5
    for hit in result.hits:
        assert hit.start_line <= hit.end_line and len(hit.text) <= 700 and 0 <= hit.score <= 1


# -- the JSON shape and provenance ---------------------------------------------------------------
def test_json_shape_and_provenance(corpus: Path) -> None:
    result = search_json(corpus, "billing", "--mode", "bm25")
    assert set(result) == {"query", "mode", "requested_mode", "vectors_pending", "hits", "notices", "elapsed_ms"}
    assert (result["query"], result["mode"]) == ("billing", "bm25")
    head = git(corpus, "rev-parse", "HEAD").strip()
    assert set(paths(result)) == {"memory/projects/apollo.md", "memory/2026-01-15.md"}
    for hit in result["hits"]:
        assert set(hit) == HIT_KEYS
        assert hit["blob"] == git(corpus, "rev-parse", f"HEAD:{hit['path']}").strip()
        assert hit["commit"] == head and hit["source"] == "tree"
        lines = (corpus / hit["path"]).read_text().split("\n")
        assert hit["text"] == "\n".join(lines[hit["start_line"] - 1 : hit["end_line"]])
        assert hit["vector_score"] is None
        assert 0 < hit["score"] <= 1
    days = {h["path"]: h["day"] for h in result["hits"]}
    assert days == {"memory/projects/apollo.md": None, "memory/2026-01-15.md": "2026-01-15"}


def test_snippets_are_capped(corpus: Path) -> None:
    # A line longer than a chunk is indexed in pieces: the hit is the first, with its characters.
    hit = search_json(corpus, "Longlinemarker", "--mode", "bm25")["hits"][0]
    assert hit["path"] == "memory/long.md" and (hit["start_line"], hit["end_line"]) == (1, 1)
    assert len(hit["text"]) <= 700 and LONG_LINE.startswith(hit["text"]) and hit["start_char"] == 0
    assert hit["text"] == LONG_LINE[hit["start_char"] : hit["end_char"]]


def test_transcript_hits_point_into_the_jsonl(corpus: Path) -> None:
    hit = search_json(corpus, "sessionword", "--mode", "bm25")["hits"][0]
    assert (hit["path"], hit["start_line"], hit["text"]) == (
        "sessions/2026-01-20-chat.jsonl",
        1,
        "user: Remember the sessionword",
    )
    assert hit["day"] == "2026-01-20"


def test_text_output(corpus: Path) -> None:
    out = run(corpus, "search", "Zeus", "--mode", "bm25").stdout
    head = git(corpus, "rev-parse", "HEAD").strip()
    assert out.splitlines()[0].startswith(f"memory/projects/zeus.md:1-3  @{head[:10]}  score ")
    assert "    - Zeus migrates the database to Postgres." in out
    assert run(corpus, "search", "Nonexistentword", "--mode", "bm25").stdout.strip() == "no hits"


# -- batch -----------------------------------------------------------------------------------------
def test_batch_from_file_and_stdin(corpus: Path, tmp_path: Path) -> None:
    batch = write(tmp_path / "q.txt", "tea\nZeus\n\nsessionword\n")
    lines = run(corpus, "search", "--batch", str(batch), "-k", "1", "--mode", "bm25").stdout.splitlines()
    assert len(lines) == 3
    results = [json.loads(line) for line in lines]
    assert [paths(r) for r in results] == [
        ["MEMORY.md"],
        ["memory/projects/zeus.md"],
        ["sessions/2026-01-20-chat.jsonl"],
    ]
    proc = memgit(corpus, "search", "--batch", "-", "--mode", "bm25", env=BM25, input="Apollo\n東京\n")
    assert proc.returncode == 0, proc.stderr
    assert [paths(json.loads(line))[0] for line in proc.stdout.splitlines()] == [
        "memory/projects/apollo.md",
        "memory/travel.md",
    ]
    assert_clean_error(memgit(corpus, "search", env=BM25), "give a QUERY or --batch FILE")
    assert_clean_error(memgit(corpus, "search", "tea", "--batch", str(batch), env=BM25), "one of the two")


# -- filters -------------------------------------------------------------------------------------
def test_path_globs(corpus: Path) -> None:
    assert set(paths(search_json(corpus, "database", "--mode", "bm25"))) == {
        "memory/projects/zeus.md",
        "memory/2026-02-01.md",
    }
    assert paths(search_json(corpus, "database", "--path", "memory/projects/**", "--mode", "bm25")) == [
        "memory/projects/zeus.md"
    ]
    assert paths(search_json(corpus, "database", "--path", "memory/projects/", "--mode", "bm25")) == [
        "memory/projects/zeus.md"
    ]
    assert paths(search_json(corpus, "database", "--path", "memory/*.md", "--mode", "bm25")) == ["memory/2026-02-01.md"]
    both = search_json(corpus, "standup", "--path", "MEMORY.md", "--path", "memory/2026-01-0?.md", "--mode", "bm25")
    assert set(paths(both)) == {"MEMORY.md", "memory/2026-01-01.md"}
    assert search_json(corpus, "database", "--path", "nothing/**", "--mode", "bm25")["hits"] == []


def test_since_until(corpus: Path) -> None:
    def days(*args: str) -> set[str]:
        return set(paths(search_json(corpus, "standup", "--mode", "bm25", *args)))

    assert days() == {"MEMORY.md", "memory/2026-01-01.md", "memory/2026-01-15.md", "memory/2026-02-01.md"}
    assert days("--since", "2026-01-10") == {"memory/2026-01-15.md", "memory/2026-02-01.md"}
    assert days("--until", "2026-01-15") == {"memory/2026-01-01.md", "memory/2026-01-15.md"}
    assert days("--since", "2026-01-15", "--until", "2026-01-15") == {"memory/2026-01-15.md"}
    assert days("--since", "2027-01-01") == set()
    assert_clean_error(memgit(corpus, "search", "standup", "--since", "yesterday", env=BM25), "--since must be a date")
    assert_clean_error(memgit(corpus, "search", "standup", "--until", "2026-02-30", env=BM25), "--until")


def test_k(corpus: Path) -> None:
    assert len(search_json(corpus, "standup", "-k", "1", "--mode", "bm25")["hits"]) == 1
    assert len(search_json(corpus, "standup", "-k", "2", "--mode", "bm25")["hits"]) == 2
    assert len(search_json(corpus, "standup", "--mode", "bm25")["hits"]) == 4
    for bad in ("0", "201", "-3"):
        assert_clean_error(memgit(corpus, "search", "standup", "-k", bad, env=BM25), "k must be between 1 and 200")
    assert_clean_error(memgit(corpus, "search", "standup", "-k", "many", env=BM25), "not a valid integer")


def test_modes_without_a_model(corpus: Path) -> None:
    hybrid = search_json(corpus, "tea")
    # `mode` says what ran: a hybrid search without vectors was a BM25 search.
    assert hybrid["mode"] == "bm25" and hybrid["requested_mode"] == "hybrid" and paths(hybrid)[0] == "MEMORY.md"
    assert "BM25 only: MEMGIT_EMBEDDING=none" in hybrid["notices"]
    assert all(h["vector_score"] is None for h in hybrid["hits"])
    assert_clean_error(memgit(corpus, "search", "tea", "--mode", "vector", env=BM25), "vector search is unavailable")
    assert_clean_error(memgit(corpus, "search", "tea", "--mode", "fuzzy", env=BM25), "fuzzy")


def test_search_after_a_commit_auto_indexes(workspace: Path) -> None:
    assert memgit(workspace, "index", env=BM25).returncode == 0
    write(workspace / "memory" / "new.md", "Autoindexwalrus arrived.\n")
    head = commit_all(workspace, "new")
    result = search_json(workspace, "Autoindexwalrus", "--mode", "bm25")
    assert paths(result) == ["memory/new.md"] and result["hits"][0]["commit"] == head


def test_a_dream_report_ranks_below_the_note_it_quotes(workspace: Path) -> None:
    """A report quotes the questions that recalled a fact word for word; the note holds the fact."""
    write(
        workspace / "memory" / "ops.md", "# Ops\n\n- The nightly ETL job failed on a timezone bug in the date parser.\n"
    )
    write(
        workspace / "memory" / "dreams" / "2026-11-30.md",
        "# Dream 2026-11-30\n\n- [ ] The nightly ETL job failed on a timezone bug.\n"
        "  Recalled by: why does the nightly ETL job fail; why does the nightly ETL job fail again\n",
    )
    commit_all(workspace, "a note and a dream report")
    question = "why does the nightly ETL job fail"
    assert paths(search_json(workspace, question, "--mode", "bm25", "--no-record")) == [
        "memory/ops.md",
        "memory/dreams/2026-11-30.md",
    ]
    # `[search] reports_last = false` ranks reports as notes: the report's word-for-word quote wins.
    write(workspace / "memgit.toml", "[search]\nreports_last = false\n")
    assert paths(search_json(workspace, question, "--mode", "bm25", "--no-record"))[0] == "memory/dreams/2026-11-30.md"


def test_a_search_waits_for_another_process_building_the_first_index(workspace: Path) -> None:
    """No index yet and another run holds the index lock (building it): a search waits for it
    instead of answering "no index yet" (four searches racing to build it used to fail)."""
    import fcntl
    import sys

    write(workspace / "memory" / "first.md", "- Firstbuildotter swims at dawn.\n")
    commit_all(workspace, "first")
    data_dir = workspace / ".git" / "memgit"
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / "lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        search = subprocess.Popen(
            [sys.executable, "-m", "memgit", "search", "Firstbuildotter", "--json", "--no-record"],
            cwd=workspace,
            env={**os.environ, **BM25},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        # It reached the lock (holds the lock file open, polling it) and is still waiting well past
        # the half second a search waits when an index exists.
        wait_until(lambda: has_open(search.pid, data_dir / "lock") or search.poll() is not None, "the search polls")
        with pytest.raises(subprocess.TimeoutExpired):
            search.wait(timeout=1.5)
    out, err = search.communicate(timeout=60)
    assert search.returncode == 0, err
    assert [h["path"] for h in json.loads(out)["hits"]] == ["memory/first.md"]


# -- vectors ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("llama_cpp")
    pytest.importorskip("gguf")
    from memgit.embed.tiny import write_tiny_bert_gguf

    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


def test_vector_and_hybrid_modes_with_filters(
    workspace: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model)}
    write(workspace / "memory" / "2026-02-01.md", "# 2026-02-01\n\n- The kitten sits on the rug.\n")
    write(workspace / "memory" / "projects" / "p.md", "# Project\n\n- Quarterly revenue grew.\n")
    commit_all(workspace, "more")
    assert memgit(workspace, "index", env=env).returncode == 0
    total_chunks = 4
    vector = search_json(workspace, "kitten", "--mode", "vector", "-k", "10", env=env)
    assert vector["mode"] == "vector" and len(vector["hits"]) == total_chunks  # vectors rank every chunk
    assert all(h["vector_score"] is not None and h["text_score"] == 0 for h in vector["hits"])
    hybrid = search_json(workspace, "kitten", env=env)
    assert paths(hybrid)[0] == "memory/2026-02-01.md"  # BM25 match plus a vector score
    assert hybrid["hits"][0]["vector_score"] is not None and hybrid["notices"] == []
    filtered = search_json(workspace, "kitten", "--mode", "vector", "--path", "memory/projects/**", env=env)
    assert paths(filtered) == ["memory/projects/p.md"]
    dated = search_json(workspace, "revenue", "--mode", "vector", "--since", "2026-01-01", env=env)
    assert set(paths(dated)) == {"memory/2026-01-05.md", "memory/2026-02-01.md"}
    # An index rebuilt with another model (here: none) is not mixed with this one's query vectors.
    assert memgit(workspace, "index", "--full", env=BM25).returncode == 0
    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))
    searcher = Searcher(Workspace.discover(workspace), auto_index=False)
    try:
        result = searcher.search("kitten", SearchRequest(mode="hybrid"))
    finally:
        searcher.close()
    assert any("the index was built with model none" in n for n in result.notices)
    assert all(h.vector_score is None for h in result.hits)


@pytest.fixture
def real_model() -> Path:
    """The MiniLM GGUF in the shared test cache (function-scoped: after conftest set MEMGIT_CACHE_DIR)."""
    from memgit.embed.models import default_model_path

    path = default_model_path()
    if not path.is_file():
        proc = memgit(Path.cwd(), "model", "install")
        if proc.returncode != 0 or not path.is_file():
            pytest.skip(f"the MiniLM model is not installed and could not be built: {proc.stderr}")
    return path


@pytest.mark.model
def test_paraphrase_found_by_vectors_not_bm25(workspace: Path, real_model: Path) -> None:
    notes = {
        "memory/pets.md": "The kitten is sleeping on the rug.\n",
        "memory/finance.md": "Quarterly revenue grew by ten percent.\n",
        "memory/ops.md": "Deploy the billing service on Friday afternoon.\n",
        "memory/db.md": "The database migration took twelve minutes.\n",
        "memory/carpets.md": "Remember to order the new office furniture.\n",
    }
    for path, text in notes.items():
        write(workspace / path, text)
    commit_all(workspace, "notes")
    env = {"MEMGIT_MODEL": str(real_model)}
    assert memgit(workspace, "index", env=env).returncode == 0
    query = "cat resting on a carpet"
    bm25 = search_json(workspace, query, "--mode", "bm25", env=env)
    assert "memory/pets.md" not in paths(bm25)  # no shared word: keyword search cannot find it
    hybrid = search_json(workspace, query, env=env)
    assert paths(hybrid)[0] == "memory/pets.md", hybrid
    assert hybrid["hits"][0]["vector_score"] > max(h["vector_score"] for h in hybrid["hits"][1:])
    vector = search_json(workspace, query, "--mode", "vector", env=env)
    assert paths(vector)[0] == "memory/pets.md"
