"""The output folder: where a site may be written, and writing it without touching anything else.

memgit writes a site only into an empty folder or one it wrote before (it holds `.memgit-site`),
never into the workspace's work tree, and it removes only files its own manifest says it wrote.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from memgit.errors import MemgitError

STAMP = ".memgit-site"


class OutputRefused(MemgitError):
    """An output folder memgit will not write a site into."""


def check_output(out: Path, work_tree: Path, git_dir: Path) -> Path:
    """The resolved output folder, or OutputRefused saying why and what to do instead."""
    target = out.expanduser().resolve()
    tree = work_tree.resolve()
    inside_git = target.is_relative_to(git_dir.resolve())
    if target == tree:
        raise OutputRefused(f"refusing output folder {out}: it is the workspace's work tree; give a folder outside it")
    if target.is_relative_to(tree) and not inside_git:
        raise OutputRefused(
            f"refusing output folder {out}: it is inside the workspace, where the site would be committed "
            "as memory; give a folder outside the workspace (e.g. -o ../site)"
        )
    if tree.is_relative_to(target):
        raise OutputRefused(f"refusing output folder {out}: it contains the workspace; give a folder outside it")
    if target.exists() and not target.is_dir():
        raise OutputRefused(f"refusing output folder {out}: it is a file, not a folder")
    if target.is_dir() and any(target.iterdir()) and not (target / STAMP).is_file():
        raise OutputRefused(
            f"refusing output folder {out}: it holds files memgit did not write; give an empty or new folder"
        )
    return target


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def existing_files(root: Path) -> set[str]:
    """Every file under `root`, as POSIX paths relative to it (one directory walk)."""
    found: set[str] = set()
    if not root.is_dir():
        return found
    for folder, _dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        found.update(prefix + name for name in files)
    return found


def write_file(root: Path, rel: str, data: bytes) -> None:
    """Write through a temporary file and rename, so a reader never sees half a page."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def remove_files(root: Path, rels: list[str]) -> None:
    for rel in rels:
        path = root / rel
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        parent = path.parent
        while parent != root and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent


def mark(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    stamp = root / STAMP
    if not stamp.is_file():
        stamp.write_text("written by `memgit site build`; memgit may replace everything listed in its manifest\n")
