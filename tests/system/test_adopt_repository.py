"""memgit on a repository it did not create (generated to match a public RFC repository: 305
Markdown files, 361 commits, packages and a built site beside them): the notice, `init --adopt`,
search, a checkout far back and back again, a checkout whose vectors wait, a second worktree.

The repository is built once for the module (`git fast-import`, under a second) and cloned for
each test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import git, memgit, memgit_json
from tests.repo_gen import RfcRepo, build_rfc_repo

BM25 = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1", "MEMGIT_NO_RECALL": "1"}
OUTSIDE = re.compile(r"(\d+) of (\d+) Markdown files are outside the indexed paths")


@pytest.fixture(scope="module")
def rfc_origin(tmp_path_factory: pytest.TempPathFactory) -> RfcRepo:
    return build_rfc_repo(tmp_path_factory.mktemp("rfc-origin") / "rfcs")


@pytest.fixture
def rfcs(rfc_origin: RfcRepo, tmp_path: Path) -> RfcRepo:
    clone = tmp_path / "rfcs"
    subprocess.run(["git", "clone", "-q", str(rfc_origin.root), str(clone)], check=True)
    return RfcRepo(clone, rfc_origin.codenames, rfc_origin.paths, rfc_origin.commits, rfc_origin.vendored)


def _adopt(repo: RfcRepo, env: dict[str, str]) -> dict[str, Any]:
    report = memgit_json(repo.root, "init", "--adopt", env=env)
    git(repo.root, "add", "-A")
    git(repo.root, "commit", "-q", "-m", "memgit: adopt the RFCs")
    return report


def _commit_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    return {**os.environ, **BM25, **(extra or {})}


def test_the_notice_then_adopt_then_search(rfcs: RfcRepo) -> None:
    plain = memgit(rfcs.root, "init", env=BM25)
    assert plain.returncode == 0 and OUTSIDE.search(plain.stderr) and "memgit init --adopt" in plain.stderr
    for args in (["index"], ["status"], ["search", "compiler"]):
        proc = memgit(rfcs.root, *args, env=BM25)
        found = OUTSIDE.search(proc.stderr)
        assert proc.returncode == 0 and found, (args, proc.stderr)
        assert found.group(1) == found.group(2) == "305"
    silent = json.loads(memgit(rfcs.root, "search", "fosadun", "--json", env=BM25).stdout)
    assert silent["hits"] == [] and any(OUTSIDE.search(n) for n in silent["notices"])  # no silent empty answer

    text = memgit(rfcs.root, "init", "--adopt", env=BM25)
    assert text.returncode == 0, text.stderr
    assert "extra_paths = ['*.md', 'docs/**/*.md', 'text/**/*.md']" in text.stdout
    assert re.search(r"Indexing 305 more Markdown files, about \d+ chunks", text.stdout)
    assert "305 of 305 Markdown files are now searchable" in text.stdout
    status = memgit_json(rfcs.root, "status", env=BM25)
    assert status["notices"] == [] and status["up_to_date"] and status["settings"] == "memgit.toml"
    files = set(git(rfcs.root, "ls-files").split())  # HEAD's: MEMORY.md is not committed yet
    indexed = status["counts"]["files"]
    assert indexed == len([p for p in files if p.endswith(".md") and not p.startswith((".", "node_modules", "site"))])
    for i in range(0, 300, 23):
        hits = memgit_json(rfcs.root, "search", rfcs.codenames[i], env=BM25)["hits"]
        assert hits[0]["path"] == rfcs.paths[i]
    assert memgit_json(rfcs.root, "search", "Install with npm", env=BM25)["hits"] == []  # the packages stay out


def test_a_checkout_far_back_keeps_the_settings_and_returns_without_a_rebuild(rfcs: RfcRepo) -> None:
    _adopt(rfcs, BM25)
    assert memgit(rfcs.root, "hooks", "install", env=BM25).returncode == 0
    back = subprocess.run(
        ["git", "checkout", "-q", "HEAD~200"], cwd=rfcs.root, capture_output=True, text=True, env=_commit_env()
    )
    assert back.returncode == 0 and "rebuild" not in back.stderr, back.stderr
    assert not (rfcs.root / "memgit.toml").exists()
    status = memgit_json(rfcs.root, "status", env=BM25)
    assert status["settings"] == "kept" and status["up_to_date"] and status["counts"]["files"] > 50
    head = git(rfcs.root, "rev-parse", "HEAD").strip()
    there = set(git(rfcs.root, "ls-tree", "-r", "--name-only", head, "text").split())
    early, late = rfcs.paths.index(sorted(there)[0]), rfcs.paths.index(max(rfcs.paths))
    assert memgit_json(rfcs.root, "search", rfcs.codenames[early], env=BM25)["hits"][0]["path"] == rfcs.paths[early]
    assert all(
        h["path"] != rfcs.paths[late] for h in memgit_json(rfcs.root, "search", rfcs.codenames[late], env=BM25)["hits"]
    )
    assert "settings:     the last committed memgit.toml, kept" in memgit(rfcs.root, "status", env=BM25).stdout

    ahead = subprocess.run(
        ["git", "checkout", "-q", "main"], cwd=rfcs.root, capture_output=True, text=True, env=_commit_env()
    )
    assert ahead.returncode == 0, ahead.stderr
    report = memgit_json(rfcs.root, "index", env=BM25)
    assert report["mode"] == "noop" and report["reason"] is None  # the hook brought it back; no rebuild
    assert memgit_json(rfcs.root, "search", rfcs.codenames[late], env=BM25)["hits"][0]["path"] == rfcs.paths[late]
    assert memgit_json(rfcs.root, "index", "--verify", env=BM25)["verify"]["ok"]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from memgit.embed.tiny import write_tiny_bert_gguf

    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


@pytest.mark.slow  # embeds the adopted repository's 1,500 chunks (a small random model)
def test_a_checkout_updates_bm25_at_once_and_its_vectors_wait(rfcs: RfcRepo, tiny_model: Path) -> None:
    """The hook leaves the new chunks' vectors pending (its embedding time set to none here, so the
    test does not depend on the machine's speed); a search answers at once, says so, and
    `memgit index` fills them."""
    env = {"MEMGIT_MODEL": str(tiny_model), "MEMGIT_NO_PROGRESS": "1", "MEMGIT_NO_RECALL": "1"}
    git(rfcs.root, "checkout", "-q", "HEAD~200")  # adopted there: main's 200 later documents are new
    adopted = memgit_json(rfcs.root, "init", "--adopt", "--hooks", env=env)["adopt"]
    assert adopted["index"]["pending_vectors"] == 0 and adopted["index"]["embedded"] > 0
    ahead = subprocess.run(
        ["git", "checkout", "-q", "main"],
        cwd=rfcs.root,
        capture_output=True,
        text=True,
        env={**os.environ, **env, "MEMGIT_HOOK_EMBED_SECONDS": "0"},
    )
    assert ahead.returncode == 0 and "chunk vectors are pending" in ahead.stderr, ahead.stderr
    status = memgit_json(rfcs.root, "status", env=env)
    assert status["up_to_date"] and status["pending_vectors"] > 256  # more than a search fills inline

    late = rfcs.paths.index(max(rfcs.paths))
    found = memgit_json(rfcs.root, "search", rfcs.codenames[late], env=env)
    assert found["hits"][0]["path"] == rfcs.paths[late]  # BM25 answered for it
    assert found["mode"] == "hybrid" and found["vectors_pending"] > 0
    assert any("; vectors pending for" in n and "`memgit index` embeds them" in n for n in found["notices"])

    filled = memgit_json(rfcs.root, "index", env=env)
    assert filled["pending_vectors"] == 0 and filled["vectors_filled"] > 0
    again = memgit_json(rfcs.root, "search", rfcs.codenames[late], env=env)
    assert again["vectors_pending"] == 0 and not any("vectors pending" in n for n in again["notices"])


@pytest.mark.slow  # embeds the adopted repository's 1,500 chunks (a small random model)
def test_a_new_worktree_embeds_nothing_already_cached(rfcs: RfcRepo, tiny_model: Path, tmp_path: Path) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model), "MEMGIT_NO_PROGRESS": "1", "MEMGIT_NO_RECALL": "1"}
    adopted: dict[str, Any] = _adopt(rfcs, env)
    assert adopted["adopt"]["index"]["embedded"] > 0
    assert memgit_json(rfcs.root, "index", env=env)["embedded"] == 1  # MEMORY.md, committed by the adoption
    other = tmp_path / "other"
    git(rfcs.root, "worktree", "add", "-q", "--detach", str(other), "HEAD")
    report = memgit_json(other, "index", env=env)
    # Its index starts from a copy of the main worktree's (the same tree: nothing to write).
    assert report["mode"] == "noop" and any("copy of the main worktree" in n for n in report["notices"])
    assert report["embedded"] == 0 and report["pending_vectors"] == 0
    assert memgit_json(other, "status", env=env)["counts"]["chunks"] > 1000
    assert memgit_json(other, "index", "--verify", env=env)["verify"]["ok"]
    shared = Path(git(rfcs.root, "rev-parse", "--git-common-dir").strip())
    shared = shared if shared.is_absolute() else rfcs.root / shared
    assert (shared / "memgit" / "embed-cache.sqlite").is_file()
    own = Path(git(other, "rev-parse", "--git-dir").strip())
    assert not (own / "memgit" / "embed-cache.sqlite").exists()
    hits = memgit_json(other, "search", rfcs.codenames[5], env=env)["hits"]
    assert hits[0]["path"] == rfcs.paths[5] and hits[0]["vector_score"] is not None
