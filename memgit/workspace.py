"""A memory workspace: a git work tree plus its config and per-clone data directory."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from memgit.config import CONFIG_NAME, Config, load_config, load_config_file
from memgit.core import paths
from memgit.errors import MemgitError, NotAWorkspace, PathRefused
from memgit.git import repo as git_repo
from memgit.git.repo import Repo


@dataclass
class Workspace:
    root: Path
    git_dir: Path
    common_dir: Path
    config: Config
    #: The command's one handle on the repository: every git read and write goes through it.
    git: Repo = field(compare=False, repr=False)

    @property
    def data_dir(self) -> Path:
        """Derived state lives under the (per-worktree) git dir, never in the work tree."""
        return self.git_dir / "memgit"

    @classmethod
    def discover(cls, start: Path | str | None = None) -> Workspace:
        start_path = Path(start or os.getcwd())
        if not start_path.exists():
            raise NotAWorkspace(f"{start_path} does not exist")
        found = git_repo.discover(start_path)
        if found is None:
            raise NotAWorkspace(f"{start_path} is not inside a git repository; run `memgit init` there first")
        root, git_dir, common_dir = found
        repo = Repo(root)
        config = working_config(repo, common_dir)
        if config.broken:
            config = read_only_defaults(config)
        return cls(root=root, git_dir=git_dir, common_dir=common_dir, config=config, git=repo)

    @property
    def settings_source(self) -> str:
        """Where this workspace's settings come from: "memgit.toml", "kept" or "defaults"."""
        source = self.config.source
        if source is None:
            return "defaults"
        return "kept" if source == kept_config_path(self.common_dir) else CONFIG_NAME

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


def read_only_defaults(config: Config) -> Config:
    """The settings while memgit.toml cannot be read: every default, except that nothing a
    read-only command does writes with them: a search answers from the index as it is (no update,
    no rebuild with settings the person did not choose) and records no recall."""
    from dataclasses import replace

    from memgit.config import DreamConfig, SearchConfig

    return replace(config, search=SearchConfig(auto_index=False), dream=DreamConfig(record=False, keep_queries=False))


def kept_config_path(common_dir: Path) -> Path:
    """The last committed memgit.toml the index was built with, shared by every work tree."""
    return common_dir / "memgit" / "kept-memgit.toml"


def working_config(repo: Repo, common_dir: Path) -> Config:
    """The settings to work with: the work tree's memgit.toml; where there is none and HEAD has
    none either (a checkout of a commit from before memgit.toml existed), the last committed one
    the index kept (`kept_config_path`), so going back in history neither empties the index nor
    forces a rebuild on the way back. A memgit.toml removed only from the work tree is the
    person's edit: the defaults then, as before."""
    root = repo.root
    kept = kept_config_path(common_dir)
    seen = kept.with_name("memgit-toml-seen")  # a memgit.toml was here once: worth asking git
    if (root / CONFIG_NAME).is_file():
        config = load_config(root)
        _keep_committed(repo, kept, seen)
        return config
    if not kept.is_file() and not seen.exists():
        return Config()  # never had one: no git process for the defaults

    _commit, tree = repo.head_ids()
    if tree is None or repo.entries(tree, [CONFIG_NAME]):
        return Config()
    if not kept.is_file():
        # Not kept yet (nothing ran since memgit.toml was committed): the one where HEAD was
        # before this checkout is the setting the person was working with.
        proc = repo.run("cat-file", "blob", f"HEAD@{{1}}:{CONFIG_NAME}")
        if proc.returncode != 0 or not proc.stdout:
            return Config()
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_bytes(proc.stdout)
        except OSError:
            return Config()
    return load_config_file(kept)


def _keep_committed(repo: Repo, kept: Path, seen: Path) -> None:
    """Remember the work tree's memgit.toml once HEAD holds it as it is (an uncommitted edit is not
    yet the repository's setting). Unchanged, this is two small reads; a convenience for later
    checkouts, so never a reason to fail."""
    root = repo.root
    try:
        data = (root / CONFIG_NAME).read_bytes()
        if kept.is_file() and kept.read_bytes() == data:
            return
        if not seen.exists() and root.joinpath(".git").exists():
            seen.parent.mkdir(parents=True, exist_ok=True)
            seen.touch()
        from memgit.git import trees

        _commit, tree = repo.head_ids()
        entry = repo.entries(tree, [CONFIG_NAME]).get(CONFIG_NAME) if tree else None
        if entry is not None and entry.blob == trees.blob_id_of(data):
            from memgit.core.atomic import atomic_write

            kept.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(kept, data, durable=False)
    except (OSError, MemgitError):
        return
