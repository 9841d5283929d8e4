"""`memgit index --verify` compares vectors from the embedding cache, embeds again only a sample by
default (all with `--reembed`), and says what it checked and what it skipped."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from memgit.index.cache import float32_rows
from memgit.index.verify import REEMBED_SAMPLE, _rows_differing
from tests.helpers import commit_all, memgit, memgit_json, write

NO_MODEL = {"MEMGIT_EMBEDDING": "none"}


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from memgit.embed.tiny import write_tiny_bert_gguf

    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


def _notes(root: Path, count: int) -> None:
    for i in range(count):
        write(root / "memory" / "notes" / f"n{i:03d}.md", f"# note {i}\n\n- fact number {i} about lantern {i * 7}\n")
    commit_all(root, "notes")


def test_verify_embeds_a_sample_by_default_and_everything_on_request(workspace: Path, tiny_model: Path) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model)}
    _notes(workspace, REEMBED_SAMPLE + 8)
    built = memgit_json(workspace, "index", env=env)
    assert built["embedded"] == built["chunks"] > REEMBED_SAMPLE

    sample = memgit_json(workspace, "index", "--verify", env=env)["verify"]
    assert sample["ok"] and sample["reembedded"] == REEMBED_SAMPLE
    assert sample["vectors_checked"] == built["chunks"]
    assert any(line.startswith(f"re-embedding: {REEMBED_SAMPLE} of ") for line in sample["checked"])
    assert any("not embedded again (--reembed: all)" in line for line in sample["skipped"])

    every = memgit_json(workspace, "index", "--verify", "--reembed", env=env)["verify"]
    assert every["ok"] and every["reembedded"] > REEMBED_SAMPLE and not every["skipped"]

    # Without the model the cache is still compared with the vector files, and the skip is said.
    text = memgit(workspace, "index", "--verify", env=NO_MODEL)
    assert text.returncode == 0, text.stderr
    assert "verify: checked vectors: " in text.stdout
    assert "verify skipped re-embedding: no embedding model loads here" in text.stderr


def test_verify_on_a_bm25_index_says_there_were_no_vectors(workspace: Path) -> None:
    memgit_json(workspace, "index", env=NO_MODEL)
    report = memgit_json(workspace, "index", "--verify", env=NO_MODEL)["verify"]
    assert report["ok"] and report["checked"][0].startswith("rows: ")
    assert report["skipped"] == ["vectors: the index has none (BM25 only): nothing to compare"]
    proc = memgit(workspace, "index", "--reembed", env=NO_MODEL)
    assert proc.returncode == 2 and "--reembed goes with --verify" in proc.stderr


def test_verify_finds_a_cached_vector_its_model_no_longer_gives(workspace: Path, tiny_model: Path) -> None:
    """A cache row that is not what the model gives its text: the vector files and the vec0 table
    follow the cache (a full build writes them from it), so only embedding again can see it."""
    env = {"MEMGIT_MODEL": str(tiny_model)}
    _notes(workspace, 4)
    memgit_json(workspace, "index", env=env)
    data = workspace / ".git" / "memgit"
    text_hash = sqlite3.connect(data / "index.sqlite").execute("SELECT max(text_hash) FROM chunks").fetchone()[0]
    cache = sqlite3.connect(data / "embed-cache.sqlite")
    blob = cache.execute("SELECT vector FROM embeddings WHERE text_hash = ?", (text_hash,)).fetchone()[0]
    flipped = (-np.frombuffer(blob, dtype="<f4")).astype("<f4").tobytes()
    cache.execute("UPDATE embeddings SET vector = ? WHERE text_hash = ?", (flipped, text_hash))
    cache.commit()
    cache.close()
    assert memgit_json(workspace, "index", "--full", env=env)["embedded"] == 0  # every vector from the cache

    proc = memgit(workspace, "index", "--verify", "--json", env=env)
    assert proc.returncode == 1, proc.stderr
    verify = json.loads(proc.stdout)["verify"]
    assert verify["differences"] == [
        f"vectors: 1 of {verify['reembedded']} cached vectors differ from a fresh embedding of their text"
    ]
    assert verify["reembedded"] == verify["vectors_checked"] > 4  # a small index: every text again


def test_vectors_are_read_as_arrays_and_compared_bit_for_bit() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id INTEGER, h TEXT, v BLOB)")
    conn.executemany(
        "INSERT INTO t VALUES (?, ?, ?)", [(i, f"h{i}", np.full(3, i, "<f4").tobytes()) for i in (3, 1, 2)]
    )
    hashes: list[str] = []
    ids, matrix = float32_rows(conn.execute("SELECT id, h, v FROM t ORDER BY id"), hashes)
    assert ids.tolist() == [1, 2, 3] and hashes == ["h1", "h2", "h3"]
    assert matrix.dtype == np.float32 and matrix[2].tolist() == [3.0, 3.0, 3.0]
    no_ids, none = float32_rows(None)
    assert no_ids.size == 0 and none.shape == (0, 0)

    zero = np.zeros((2, 3), dtype="<f4")
    minus = zero.copy()
    minus[1, 0] = -0.0
    assert _rows_differing(zero, minus) == 1  # equal as floats, not as the blobs a table stores
    assert _rows_differing(zero, zero.copy()) == 0
    assert _rows_differing(zero, zero[:1]) == 2


def test_index_output_and_work_are_one_choice_each_as_the_flags_were(workspace: Path) -> None:
    """`--json` with `--quiet` still prints the JSON report; `--quiet` alone prints nothing;
    `--full` rebuilds; `--fill-in-background` with `--full` only fills (as before they were one
    field each: issue 49)."""
    _notes(workspace, 3)
    both = memgit(workspace, "index", "--quiet", "--json", env=NO_MODEL)
    assert both.returncode == 0, both.stderr
    assert json.loads(both.stdout)["mode"] == "full"
    quiet = memgit(workspace, "index", "-q", env=NO_MODEL)
    assert quiet.returncode == 0 and quiet.stdout == "", quiet.stdout
    assert memgit_json(workspace, "index", "--full", env=NO_MODEL)["mode"] == "full"
    assert memgit_json(workspace, "index", env=NO_MODEL)["mode"] == "noop"
    fill = memgit(workspace, "index", "--full", "--fill-in-background", "--json", env=NO_MODEL)
    assert fill.returncode == 0 and fill.stdout == "", fill.stdout  # filled (nothing pending), no rebuild report
