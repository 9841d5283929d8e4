"""`Repo.worktree_changed_paths`: what differs from HEAD in the work tree or the staging area,
read from one `git status` (not pygit2, whose import alone costs the MCP server ~20 MB)."""

from __future__ import annotations

import sys
from pathlib import Path

from memgit.git.repo import Repo
from tests.helpers import commit_all, git, write


def test_changed_paths_cover_every_kind_of_change(workspace: Path) -> None:
    write(workspace / "memory" / "old name.md", "# Old\n\n- kept\n")
    write(workspace / "memory" / "gone.md", "# Gone\n")
    write(workspace / "memory" / "stays.md", "# Stays\n")
    write(workspace / ".gitignore", "scratch/\n")
    commit_all(workspace)
    assert Repo(workspace).worktree_changed_paths() == set()

    write(workspace / "MEMORY.md", "# Long-term Memory\n\n- edited, not staged\n")
    write(workspace / "memory" / "2026-01-05.md", "# staged edit\n")
    git(workspace, "add", "memory/2026-01-05.md")
    (workspace / "memory" / "gone.md").unlink()
    git(workspace, "mv", "memory/old name.md", "memory/new name.md")
    write(workspace / "memory" / "deep" / "er" / "untracked ü.md", "# new\n")
    write(workspace / "scratch" / "ignored.md", "# ignored\n")

    changed = Repo(workspace).worktree_changed_paths()
    assert changed == {
        "MEMORY.md",
        "memory/2026-01-05.md",
        "memory/gone.md",
        "memory/old name.md",
        "memory/new name.md",
        "memory/deep/er/untracked ü.md",
    }
    # Asking changes nothing: no optional lock, no rewritten git index.
    assert not (workspace / ".git" / "index.lock").exists()


def test_the_mcp_path_never_imports_pygit2(workspace: Path) -> None:
    """The server's work-tree update (uncommitted edits) runs without pygit2 in the process."""
    import subprocess

    write(workspace / "memory" / "2026-01-06.md", "# uncommitted\n\n- a draft line about kestrels\n")
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from memgit.workspace import Workspace\n"
        "from memgit.index.settings import UpdateSettings\nfrom memgit.index.update import update_index\n"
        "ws = Workspace.discover(Path(sys.argv[1]))\n"
        "update_index(ws, UpdateSettings(worktree=True), embedder=None)\n"
        "from memgit.recall.search import Searcher\n"
        "from memgit.recall.request import SearchRequest\n"
        "hits = Searcher(ws, embedder=None, auto_index=False).search('kestrels', SearchRequest(mode='bm25')).hits\n"
        "assert hits and hits[0].path == 'memory/2026-01-06.md', hits\n"
        "print('pygit2' in sys.modules)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(workspace)],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "MEMGIT_EMBEDDING": "none"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"
