"""Hermetic test setup: every test gets its own HOME, git identity and cache dir."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import git, write


@pytest.fixture(autouse=True)
def hermetic_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    for key, value in {
        "GIT_AUTHOR_NAME": "Test Author",
        "GIT_AUTHOR_EMAIL": "author@example.invalid",
        "GIT_COMMITTER_NAME": "Test Committer",
        "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    }.items():
        monkeypatch.setenv(key, value)
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
    # The model cache is shared across tests (real models are expensive to build) unless a
    # test overrides MEMGIT_CACHE_DIR itself.
    monkeypatch.setenv("MEMGIT_CACHE_DIR", os.environ.get("MEMGIT_TEST_CACHE_DIR", str(shared_cache_dir())))
    monkeypatch.delenv("MEMGIT_EMBEDDING", raising=False)
    # Searches record their hits, as for a user: they go to the clone's spool under .git/memgit,
    # never the work tree, so no test's checkout or pull is disturbed by them.
    monkeypatch.delenv("MEMGIT_NO_RECALL", raising=False)
    monkeypatch.delenv("MEMGIT_MODEL", raising=False)
    return home


def shared_cache_dir() -> Path:
    path = Path(__file__).resolve().parent.parent / ".venv" / "memgit-test-cache"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A committed memory workspace with a couple of notes, BM25 only unless a test says otherwise."""
    root = tmp_path / "ws"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- The user prefers tea over coffee.\n")
    write(
        root / "memory" / "2026-01-05.md",
        "# 2026-01-05\n\n## Morning\n\n- Deployed the billing service to production.\n"
        "- The database migration took twelve minutes.\n",
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial memory")
    return root
