"""The vec0 table (`chunks_vec`) in index.sqlite: sqlite-vec as the index's open SQL face.

Real git repositories, the real CLI and hooks, the tiny GGUF model, and sqlite-vec loaded into
sqlean's SQLite, as a user's notebook would. "Without sqlite-vec" is a real environment in which
the `sqlite_vec` package is present but its library is not (a stub package first on PYTHONPATH),
so no SQLite module can load it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers import commit_all, git, memgit, memgit_json, write

WORDS = (
    "harbor lantern copper meadow violet quarry saddle thimble walnut zephyr anchor bramble "
    "cobalt dune ember fjord glacier hazel indigo juniper kelp lagoon marble nectar onyx pebble"
).split()


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from memgit.embed.tiny import write_tiny_bert_gguf

    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


@pytest.fixture
def no_vec(tmp_path: Path) -> dict[str, str]:
    """An environment where sqlite-vec cannot load: its package without its library."""
    stub = tmp_path / "no-sqlite-vec" / "sqlite_vec"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("")
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(stub.parent), os.environ.get("PYTHONPATH", "")]))}


def notes(root: Path, count: int = 24) -> None:
    """`count` small notes, each about a different pair of words: distinct chunk texts."""
    for i in range(count):
        a, b = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
        write(root / "memory" / "notes" / f"n{i:02d}.md", f"# note {i}\n\n- the {a} of the {b} number {i}\n")


def open_vec(root: Path):  # type: ignore[no-untyped-def]
    """index.sqlite as a user opens it: sqlean with sqlite-vec loaded."""
    import sqlean
    import sqlite_vec

    conn = sqlean.connect(str(root / ".git" / "memgit" / "index.sqlite"))
    conn.enable_load_extension(True)
    sqlite_vec.load(conn)
    return conn


def ids(root: Path, sql: str) -> list[int]:
    conn = open_vec(root)
    try:
        return sorted(r[0] for r in conn.execute(sql))
    finally:
        conn.close()


def vec_rowids(root: Path) -> list[int]:
    return ids(root, "SELECT rowid FROM chunks_vec")


def chunk_ids(root: Path) -> list[int]:
    return ids(root, "SELECT id FROM chunks")


def test_vec0_holds_every_vector_and_follows_a_commit_through_its_hook(workspace: Path, tiny_model: Path) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model)}
    notes(workspace)
    commit_all(workspace, "notes")
    report = memgit_json(workspace, "index", env=env)
    assert report["vec_state"] == "synced" and report["pending_vectors"] == 0
    status = memgit_json(workspace, "status", env=env)
    assert status["vec0"] == {"table": "chunks_vec", "dim": 32, "waiting": False}

    conn = open_vec(workspace)
    try:
        (rows,) = conn.execute("SELECT count(*) FROM chunks_vec").fetchone()
        assert rows == status["counts"]["vectors"] == status["counts"]["chunks"] > 20
        ids = [r[0] for r in conn.execute("SELECT id FROM chunks ORDER BY id LIMIT 20")]
        for chunk_id in ids:  # each chunk is its own nearest neighbour, at distance 0
            nearest = conn.execute(
                "SELECT rowid, distance FROM chunks_vec WHERE embedding MATCH "
                "(SELECT embedding FROM chunks_vec WHERE rowid = ?) AND k = 2 ORDER BY distance",
                (chunk_id,),
            ).fetchall()
            assert nearest[0][0] == chunk_id and nearest[0][1] < 1e-5 < nearest[1][1], (chunk_id, nearest)
        # The vectors are the embedding cache's, byte for byte.
        conn.execute("ATTACH DATABASE ? AS cache", (str(workspace / ".git" / "memgit" / "embed-cache.sqlite"),))
        differ = conn.execute(
            "SELECT count(*) FROM chunks c JOIN chunks_vec v ON v.rowid = c.id "
            "JOIN cache.embeddings e ON e.text_hash = c.text_hash AND e.model = ? WHERE e.vector != v.embedding",
            (report["model_id"],),
        ).fetchone()[0]
        assert differ == 0
    finally:
        conn.close()

    # A one-file commit, indexed by memgit's own post-commit hook: the counts still match; and
    # again after a commit that adds one file and deletes another.
    assert memgit(workspace, "hooks", "install").returncode == 0
    commit_env = {**os.environ, **env}
    write(workspace / "memory" / "notes" / "n03.md", "# note 3\n\n- rewritten: the kelp of the onyx\n- and more\n")
    (workspace / "memory" / "notes" / "n05.md").unlink()
    for change in ("one file changed", "one added, one deleted"):
        if change.startswith("one added"):
            write(workspace / "memory" / "notes" / "new.md", "# new\n\n- a glacier note\n")
        else:
            git(workspace, "stash", "push", "-q", "--", "memory/notes/n05.md")  # keep this commit to one file
        git(workspace, "add", "-A")
        proc = subprocess.run(
            ["git", "commit", "-qm", change, "--no-verify"],
            cwd=workspace,
            capture_output=True,
            text=True,
            env=commit_env,
        )
        assert proc.returncode == 0, proc.stderr
        if not change.startswith("one added"):
            git(workspace, "stash", "pop", "-q")
        status = memgit_json(workspace, "status", env=env)
        assert status["up_to_date"], status  # the hook brought the index to HEAD
        assert status["counts"]["pending_vectors"] == 0 and not status["vec0"]["waiting"]
        assert vec_rowids(workspace) == chunk_ids(workspace)
        assert len(vec_rowids(workspace)) == status["counts"]["vectors"] == status["counts"]["chunks"]
    verify = memgit_json(workspace, "index", "--verify", env=env)["verify"]
    assert verify["ok"], verify
    assert verify["oracle"]["path"] == "float" and verify["oracle"]["agreement"] == 1.0


def test_without_sqlite_vec_the_table_waits_and_nothing_else_does(
    workspace: Path, tiny_model: Path, no_vec: dict[str, str]
) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model)}
    notes(workspace, 12)
    commit_all(workspace, "notes")
    memgit_json(workspace, "index", env=env)
    before = vec_rowids(workspace)

    # Changed by a process that cannot load sqlite-vec: text and vectors are indexed and
    # searchable at once, the vec0 rows wait (the ids in vec_todo).
    write(workspace / "memory" / "notes" / "n01.md", "# note 1\n\n- the walnut pebble moved\n")
    commit_all(workspace, "edit")
    report = memgit_json(workspace, "index", env={**env, **no_vec})
    assert report["vec_state"] == "pending" and report["pending_vectors"] == 0
    assert any("sqlite-vec" in n for n in report["notices"])
    hits = memgit_json(workspace, "search", "walnut pebble", env={**env, **no_vec})["hits"]
    assert hits and hits[0]["path"] == "memory/notes/n01.md" and hits[0]["vector_score"] is not None
    status = memgit_json(workspace, "status", env={**env, **no_vec})
    assert status["vec0"]["waiting"] and status["up_to_date"]
    doctor = memgit_json(workspace, "doctor", env={**env, **no_vec})
    checks = {c["name"]: c for c in doctor["checks"]}
    assert checks["sqlite-vec"]["status"] == "warn" and "chunks_vec" in checks["sqlite-vec"]["detail"]
    assert checks["index"]["status"] == "warn" and "vec0" in checks["index"]["detail"]
    assert vec_rowids(workspace) == before  # untouched: nothing could write it
    verify = memgit_json(workspace, "index", "--verify", env={**env, **no_vec})["verify"]
    assert verify["ok"] and verify["oracle"] is None and any("sqlite-vec" in n for n in verify["skipped"])

    # The next run that loads sqlite-vec catches up, with no rebuild of anything else.
    report = memgit_json(workspace, "index", env=env)
    assert report["mode"] == "incremental" and report["vec_state"] == "synced" and report["chunks"] == 0
    assert vec_rowids(workspace) == chunk_ids(workspace) != before

    # A full rebuild without it: the whole table waits, then is filled again in one go.
    report = memgit_json(workspace, "index", "--full", env={**env, **no_vec})
    assert report["vec_state"] == "rebuild"
    assert set(vec_rowids(workspace)).isdisjoint(chunk_ids(workspace))  # old ids, never reused
    report = memgit_json(workspace, "index", env=env)
    assert report["vec_state"] == "synced"
    assert vec_rowids(workspace) == chunk_ids(workspace)
    assert memgit_json(workspace, "index", "--verify", env=env)["verify"]["ok"]


def test_an_index_from_before_the_table_gets_it_without_a_rebuild(workspace: Path, tiny_model: Path) -> None:
    """An index written before chunks_vec existed (no table, no vec_dim) is given the table by
    the next run, from the embedding cache: no text is indexed again."""
    env = {"MEMGIT_MODEL": str(tiny_model)}
    notes(workspace, 6)
    commit_all(workspace, "notes")
    memgit_json(workspace, "index", env=env)
    conn = open_vec(workspace)
    conn.execute("DROP TABLE chunks_vec")
    conn.execute("DELETE FROM meta WHERE key IN ('vec_dim', 'vec_state')")
    conn.commit()
    conn.close()
    assert memgit_json(workspace, "status", env=env)["vec0"]["waiting"]
    report = memgit_json(workspace, "index", env=env)
    assert report["mode"] == "incremental" and report["chunks"] == 0 and report["embedded"] == 0
    assert vec_rowids(workspace) == chunk_ids(workspace)


def test_a_bm25_only_index_has_no_table_and_never_loads_sqlite_vec(workspace: Path, no_vec: dict[str, str]) -> None:
    env = {"MEMGIT_EMBEDDING": "none"}
    report = memgit_json(workspace, "index", env={**env, **no_vec})
    assert report["vec_state"] == "synced" and not any("sqlite-vec" in n for n in report["notices"])
    status = memgit_json(workspace, "status", env=env)
    assert status["vec0"] == {"table": None, "dim": None, "waiting": False}
    conn = open_vec(workspace)
    try:
        assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'chunks_vec'").fetchone() is None
    finally:
        conn.close()


def test_the_oracle_holds_the_quantized_path_above_a_bound(workspace: Path, tiny_model: Path) -> None:
    """Past `[search] quantized_above` the fast path scans 1-bit codes and re-scores the best
    rows exactly; sqlite-vec's exact KNN says how much of the true top k it keeps."""
    env = {"MEMGIT_MODEL": str(tiny_model)}
    notes(workspace, 120)
    write(workspace / "memgit.toml", "[search]\nquantized_above = 10\n")
    commit_all(workspace, "notes")
    verify = memgit_json(workspace, "index", "--verify", env=env)["verify"]
    assert verify["ok"], verify
    oracle = verify["oracle"]
    assert oracle["path"] == "quantized" and oracle["queries"] == 20 and oracle["k"] == 24
    # 1,600 re-scored rows cover this whole index: the codes lose nothing here.
    assert oracle["agreement"] >= 0.99, oracle
    text = memgit(workspace, "index", "--verify", env=env).stdout
    assert "sqlite-vec's exact top 24 over 20 sample queries" in text


def test_verify_reports_a_vec0_row_that_differs(workspace: Path, tiny_model: Path) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model)}
    notes(workspace, 4)
    commit_all(workspace, "notes")
    memgit_json(workspace, "index", env=env)
    conn = open_vec(workspace)
    first = conn.execute("SELECT min(rowid) FROM chunks_vec").fetchone()[0]
    conn.execute("UPDATE chunks_vec SET embedding = vec_f32(?) WHERE rowid = ?", (json.dumps([0.5] * 32), first))
    conn.commit()
    conn.close()
    proc = memgit(workspace, "index", "--verify", "--json", env=env)
    assert proc.returncode == 1
    verify = json.loads(proc.stdout)["verify"]
    assert verify["differences"] == ["vec0: 1 rows of chunks_vec differ from the cached vectors"]
