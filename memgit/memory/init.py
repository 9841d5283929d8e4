"""`memgit init`: make or adopt a git repository as a memory workspace (never overwrites)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from memgit.config import CONFIG_NAME, default_config_text

GITATTRIBUTES_LINE = "memory/.dreams/**/*.jsonl merge=union"
DAILY_LOG_ATTRIBUTES_LINE = "memory/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].md merge=union"
SESSIONS_ATTRIBUTES_LINE = "sessions/*.jsonl merge=union"

#: Append-only files: when two machines append to the same one, git keeps both sides' lines
#: (ours, then theirs) instead of stopping on a conflict. MEMORY.md is not here: its facts get
#: edited, and an edit on both sides is a real conflict for a person to resolve.
UNION_MERGE_LINES: tuple[tuple[str, str], ...] = (
    ("dreaming's recall ledger is append-only: merge both sides", GITATTRIBUTES_LINE),
    ("daily logs are append-only: two machines' entries for one day merge", DAILY_LOG_ATTRIBUTES_LINE),
    ("captured sessions are append-only (memgit capture): merge both sides", SESSIONS_ATTRIBUTES_LINE),
)


def init_workspace(target: Path, *, explicit: bool = True) -> dict[str, Any]:
    """Adopt the repository at `target` or create one there.

    Without an explicit directory the enclosing repository is adopted (as every other command
    finds it); an explicit directory that is not a repository's top level gets its own
    repository, as `git init DIR` would, never the one it happens to sit inside.

    Everything it will touch is checked first (a file named `memory`, a read-only
    `.gitattributes` or folder); should a write fail anyway, what this run created is removed
    again, so a refused init leaves the directory as it was.
    """
    from memgit.errors import MemgitError, NotAWorkspace
    from memgit.git import repo

    if target.exists() and not target.is_dir():
        raise MemgitError(f"{target} exists and is not a directory")
    undo = _Undo()
    try:
        _make_folder(target, undo)
        try:
            found = repo.discover(target)
        except NotAWorkspace:
            if not explicit:
                raise  # the enclosing repository is bare: nothing to adopt
            found = None  # an explicit directory inside a bare repository gets its own repository
        if found is not None and explicit and found[0] != target.resolve():
            found = None
        adopted = found is not None
        root = found[0] if found is not None else target.resolve()
        files = [(rel, text) for rel, text in _files() if not os.path.lexists(root / rel)]
        attributes = root / ".gitattributes"
        existing = _read_attributes(attributes)
        missing = [(why, line) for why, line in UNION_MERGE_LINES if line not in existing.splitlines()]
        _check_writable(root, [rel for rel, _ in files] + ([".gitattributes"] if missing else []), new_repo=not adopted)
        if not adopted:
            git_dir = target / ".git"
            had_git = os.path.lexists(git_dir)
            repo.init_repository(target)
            if not had_git:
                undo.trees.append(git_dir)
            found = repo.discover(target)
            if found is None:
                raise MemgitError(f"{target} could not be made a git repository")
            root = found[0]
        created: list[str] = []
        for rel, text in files:
            _create_file(root, rel, text, undo)
            created.append(rel)
        if missing:
            prefix = "" if not existing or existing.endswith("\n") else "\n"
            added = "".join(f"# {why}\n{line}\n" for why, line in missing)
            _append_attributes(attributes, prefix + added, undo)
            created.append(".gitattributes")
    except OSError as exc:
        undo.run()
        where = exc.filename or target
        raise MemgitError(
            f"cannot write {where}: {exc.strerror or exc}; memgit init changed nothing (fix the permissions and try again)"
        ) from None
    except BaseException:
        undo.run()
        raise
    return {"root": str(root), "adopted": adopted, "created": created, "hooks": []}


def _files() -> list[tuple[str, str]]:
    return [("MEMORY.md", "# Long-term Memory\n\n"), ("memory/.gitkeep", ""), (CONFIG_NAME, default_config_text())]


class _Undo:
    """What an init created, removed again (newest first) when a later step fails."""

    def __init__(self) -> None:
        self.files: list[Path] = []
        self.folders: list[Path] = []
        self.trees: list[Path] = []
        self.truncate: list[tuple[Path, int]] = []

    def run(self) -> None:
        import shutil

        for path, size in reversed(self.truncate):
            with contextlib.suppress(OSError):
                os.truncate(path, size)
        for path in reversed(self.files):
            with contextlib.suppress(OSError):
                path.unlink()
        for path in reversed(self.trees):
            shutil.rmtree(path, ignore_errors=True)
        for path in reversed(self.folders):
            with contextlib.suppress(OSError):
                path.rmdir()


def _make_folder(folder: Path, undo: _Undo) -> None:
    """`mkdir -p`, remembering each folder it made."""
    missing: list[Path] = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for path in reversed(missing):
        path.mkdir()
        undo.folders.append(path)


def _read_attributes(path: Path) -> str:
    from memgit.errors import MemgitError

    if not os.path.lexists(path):
        return ""
    try:
        return path.read_bytes().decode("utf-8", errors="surrogateescape")
    except IsADirectoryError:
        raise MemgitError(f"{path} is a folder; git reads .gitattributes as a file: remove or rename it") from None
    except OSError as exc:
        raise MemgitError(f"cannot read {path}: {exc.strerror or exc}; memgit init changed nothing") from None


def _writable(path: Path) -> bool:
    mode = os.W_OK | (os.X_OK if path.is_dir() else 0)
    if os.access in os.supports_effective_ids:
        return os.access(path, mode, effective_ids=True)
    return os.access(path, mode)


def _check_writable(root: Path, rels: list[str], *, new_repo: bool) -> None:
    """Refuse, before anything is written, what could not be written: a folder on the way that is a
    file (a file named `memory`), a read-only file to extend or folder to create in."""
    from memgit.errors import MemgitError

    if new_repo and not _writable(root):
        raise MemgitError(f"cannot write in {root} (permission denied); memgit init changed nothing")
    for rel in rels:
        path = root / rel
        if os.path.lexists(path):
            if not _writable(path):
                raise MemgitError(
                    f"cannot write {path} (it is read-only): make it writable and run memgit init again; "
                    "memgit init changed nothing"
                )
            continue
        folder = root
        for part in rel.split("/")[:-1]:
            folder = folder / part
            if not os.path.lexists(folder):
                folder = folder.parent
                break
            if not folder.is_dir():
                name = folder.relative_to(root).as_posix()
                if name == "memory":
                    raise MemgitError(
                        "memory is a file, not a folder; memgit keeps daily logs in memory/YYYY-MM-DD.md: "
                        "rename that file (e.g. `git mv memory memory.md`) and run memgit init again; "
                        "memgit init changed nothing"
                    )
                raise MemgitError(
                    f"{name} is a file, not a folder, so {rel} cannot be created; memgit init changed nothing"
                )
        if not _writable(folder):
            raise MemgitError(f"cannot write in {folder} (permission denied); memgit init changed nothing")


def _create_file(root: Path, rel: str, text: str, undo: _Undo) -> None:
    path = root / rel
    _make_folder(path.parent, undo)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    undo.files.append(path)
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))


def _append_attributes(path: Path, text: str, undo: _Undo) -> None:
    """Add lines at the end of `.gitattributes` (appending: the user's lines are never rewritten)."""
    if os.path.lexists(path):
        undo.truncate.append((path, path.stat().st_size))
    else:
        undo.files.append(path)
    with open(path, "ab") as handle:
        handle.write(text.encode("utf-8"))
