"""A memory workspace: a git work tree plus its config and per-clone data directory."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memgit.config import Config, load_config
from memgit.core import paths
from memgit.errors import NotAWorkspace, PathRefused


@dataclass
class Workspace:
    root: Path
    git_dir: Path
    common_dir: Path
    config: Config

    @property
    def data_dir(self) -> Path:
        """Derived state lives under the (per-worktree) git dir, never in the work tree."""
        return self.git_dir / "memgit"

    @classmethod
    def discover(cls, start: Path | str | None = None) -> Workspace:
        from memgit.git import plumbing

        start_path = Path(start or os.getcwd())
        if not start_path.exists():
            raise NotAWorkspace(f"{start_path} does not exist")
        found = plumbing.discover(start_path)
        if found is None:
            raise NotAWorkspace(f"{start_path} is not inside a git repository; run `memgit init` there first")
        root, git_dir, common_dir = found
        return cls(root=root, git_dir=git_dir, common_dir=common_dir, config=load_config(root))

    def is_memory_path(self, rel: str) -> bool:
        memory = self.config.memory
        return paths.is_memory_path(rel, memory.extra_paths, memory.sessions)

    def safe_memory_path(self, user_path: str) -> str:
        """Refuse anything that is not a memory file inside this work tree (no `..`, no links out)."""
        rel = paths.normalise_user_path(user_path)
        if rel is None:
            raise PathRefused(f"refusing path {user_path!r}: use a path relative to the workspace, without '..'")
        if not self.is_memory_path(rel):
            raise PathRefused(
                f"refusing path {rel!r}: not a memory file (MEMORY.md, USER.md, memory/**/*.md, "
                "sessions/*.jsonl or [memory] extra_paths)"
            )
        full = self.root / rel
        root_real = self.root.resolve()
        try:
            real = full.resolve()
        except (OSError, RuntimeError):
            raise PathRefused(f"refusing path {rel!r}: it cannot be resolved") from None
        if full.is_symlink() or real != root_real / rel:
            if not real.is_relative_to(root_real):
                raise PathRefused(f"refusing path {rel!r}: it links outside the workspace")
            if not self.is_memory_path(real.relative_to(root_real).as_posix()):
                raise PathRefused(f"refusing path {rel!r}: it links to a file that is not memory")
        return rel
