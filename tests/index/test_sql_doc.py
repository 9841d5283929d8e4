"""Every query in docs/SQL.md, run as written against a real index (tiny GGUF model, sqlite-vec
loaded into sqlean), with answers that must be right, not merely non-empty."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import REPO_ROOT, commit_all, git, memgit_json, write

ROOT = REPO_ROOT
DOC = ROOT / "docs" / "SQL.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from memgit.embed.tiny import write_tiny_bert_gguf

    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


@pytest.fixture
def indexed(workspace: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))
    write(workspace / "memory" / "2026-01-06.md", "# 2026-01-06\n\n- The billing migration was rolled back.\n")
    for i, topic in enumerate(["tea", "kites", "granite", "violins", "orchards", "lanterns"]):
        write(workspace / "memory" / "notes" / f"{topic}.md", f"# {topic}\n\n- Notes on {topic}, entry {i}.\n")
    commit_all(workspace, "notes")
    write(workspace / "memory" / "notes" / "draft.md", "# draft\n\n- An uncommitted billing idea.\n")
    memgit_json(workspace, "index", "--worktree")
    monkeypatch.chdir(workspace)
    return workspace


def run_python(code: str, namespace: dict[str, Any]) -> dict[str, Any]:
    exec(compile(code, str(DOC), "exec"), namespace)  # the doc's own snippet, as a user pastes it
    return namespace


def test_every_block_of_sql_md_runs_and_answers_right(indexed: Path) -> None:
    sql = blocks("sql")
    python = blocks("python")
    assert len(sql) == 6 and len(python) == 2
    opened = run_python(python[0], {})
    conn = opened["conn"]
    assert conn.execute("SELECT vec_version()").fetchone()[0].startswith("v")
    vector = run_python(python[1], {})["vector"]
    assert len(vector) == 4 * 32

    head_commit = git(indexed, "rev-parse", "HEAD").strip()
    billing = conn.execute("SELECT id FROM chunks WHERE path = 'memory/2026-01-06.md'").fetchone()[0]
    params = {"words": "billing OR migration", "vector": vector, "chunk_id": billing}
    results = []
    for query in sql:
        names = set(re.findall(r":(\w+)", query))
        cursor = conn.execute(query, {n: params[n] for n in names})
        columns = [d[0] for d in cursor.description]
        results.append([dict(zip(columns, row, strict=True)) for row in cursor.fetchall()])
    meta, without, bm25, like, knn, hybrid = results

    assert {r["key"]: r["value"] for r in meta}["commit"] == head_commit
    assert {r["key"]: r["value"] for r in meta}["vec_dim"] == "32"
    assert without == [{"chunks_without_vector": 0}]
    assert {r["path"] for r in bm25} == {"memory/2026-01-05.md", "memory/2026-01-06.md", "memory/notes/draft.md"}
    assert "[billing]" in bm25[0]["snippet"] and bm25[0]["score"] > 0
    assert like[0]["path"] == "memory/2026-01-06.md" and like[0]["similarity"] == pytest.approx(1.0, abs=1e-5)
    assert len(like) == 6
    # The embedded question's nearest chunks, with the cosine memgit's own vector leg gives them.
    assert knn == sorted(knn, key=lambda r: -r["similarity"]) and len(knn) == 10
    search = memgit_json(indexed, "search", "when did the billing migration run", "--mode", "vector", "-k", "10")
    scores = {(h["path"], h["start_line"]): h["vector_score"] for h in search["hits"]}
    shared = [r for r in knn if (r["path"], r["start_line"]) in scores]
    assert len(shared) >= 5
    for row in shared:
        assert row["similarity"] == pytest.approx(scores[(row["path"], row["start_line"])], abs=1e-3)
    # Hybrid: each reference is true to its commit; the uncommitted file carries none.
    assert len(hybrid) == 6 and hybrid == sorted(hybrid, key=lambda r: -r["score"])
    for row in hybrid:
        path, _, rest = row["reference"].partition(":")
        lines, _, commit = rest.partition("@")
        start, end = (int(x) for x in lines.split("-"))
        if path == "memory/notes/draft.md":
            assert commit == ""
            continue
        assert commit == head_commit
        shown = git(indexed, "show", f"{commit}:{path}").splitlines()[start - 1 : end]
        assert row["text"] == "\n".join(shown)
        assert row["blob"] == git(indexed, "rev-parse", f"{commit}:{path}").strip()
    assert hybrid[0]["reference"].startswith(("memory/2026-01-06.md:", "memory/notes/draft.md:"))
    conn.close()
    assert os.getcwd() == str(indexed)
