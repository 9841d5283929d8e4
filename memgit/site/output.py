"""The output folder: where a site may be written, and writing it without touching anything else.

memgit writes a site only into an empty folder or one it wrote before (it holds `.memgit-site`),
never into the workspace's work tree, and it removes only files its own manifest says it wrote.

A build writes its pages into a staging folder beside the output (`Staging`) and puts them in place
only once every page rendered: a build that fails leaves the output folder as it was (absent, empty,
or the previous site), never half a site.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.core.atomic import atomic_write
from memgit.errors import MemgitError

if TYPE_CHECKING:
    from memgit.workspace import Workspace

STAMP = ".memgit-site"


class OutputRefused(MemgitError):
    """An output folder memgit will not write a site into."""


def check_output(out: Path, ws: Workspace, preview: bool = False) -> Path:
    """The resolved output folder, or OutputRefused saying why and what to do instead.

    Refused: the work tree and anything inside it (the site would be committed as memory, or
    land among the indexed files), a folder holding the workspace, anything inside the
    repository's `.git` (a site written there overwrites refs and objects; only memgit's own
    preview folder, `preview`, lives under `.git/memgit/`), a file, and a non-empty folder
    memgit did not write."""
    target = out.expanduser().resolve()
    tree = ws.root.resolve()
    git_dirs = {ws.git_dir.resolve(), ws.common_dir.resolve()}
    if preview and target.is_relative_to(ws.data_dir.resolve()):
        return target
    if any(target.is_relative_to(g) for g in git_dirs):
        raise OutputRefused(
            f"refusing output folder {out}: it is inside the repository's .git folder, where a site would "
            "overwrite git's own files; give a folder outside the workspace (e.g. -o ../site)"
        )
    if target == tree:
        raise OutputRefused(f"refusing output folder {out}: it is the workspace's work tree; give a folder outside it")
    if target.is_relative_to(tree):
        raise OutputRefused(
            f"refusing output folder {out}: it is inside the workspace, where the site would be committed "
            "as memory; give a folder outside the workspace (e.g. -o ../site)"
        )
    if tree.is_relative_to(target) or any(g.is_relative_to(target) for g in git_dirs):
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


#: A path part that is empty, `.` or `..`, a leading slash, a NUL or a backslash.
_UNSAFE_PART = re.compile(r"\A/|[\x00\\]|(?:\A|/)\.{0,2}(?:/|\Z)")


def is_safe_relative(rel: str) -> bool:
    """A plain relative POSIX path: no root, no `.`/`..` or empty parts, no NUL or backslash."""
    return _UNSAFE_PART.search(rel) is None


def inside(root: Path, rel: str, seen: dict[str, Path] | None = None) -> Path:
    """`root / rel` with its folder resolved (symbolic links followed) and checked to lie inside
    `root`; anything else is refused before a byte is written or removed. The file itself is
    replaced or unlinked, never followed, so its folder is what must stay inside. `seen` caches
    the folders found inside, for one pass over many pages of the same folders."""
    cache = seen if seen is not None else {}
    if is_safe_relative(rel):
        folder, _, name = rel.rpartition("/")
        parent = cache.get(folder)
        if parent is not None:
            return parent / name
        base = cache.get("\0") or cache.setdefault("\0", root.resolve())
        resolved = (base / folder).resolve() if folder else base
        if resolved == base or resolved.is_relative_to(base):
            cache[folder] = resolved
            return resolved / name
    raise OutputRefused(
        f"refusing to write or remove {rel[:120]!r}: it does not lie inside the output folder {root}; "
        "nothing was written"
    )


def check_inside(root: Path, rels: Iterable[str]) -> None:
    """Every path a build will write or remove, checked at once before the build writes anything."""
    seen: dict[str, Path] = {}
    for rel in rels:
        inside(root, rel, seen)


def write_file(root: Path, rel: str, data: bytes, seen: dict[str, Path] | None = None) -> None:
    """Write through a temporary file and rename, so a reader never sees half a page."""
    path = inside(root, rel, seen)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, data, durable=False)


def remove_files(root: Path, rels: list[str]) -> None:
    seen: dict[str, Path] = {}
    base = root.resolve()
    for rel in rels:
        path = inside(root, rel, seen)
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        parent = path.parent
        while parent != base and parent.is_relative_to(base) and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent


def mark(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    stamp = root / STAMP
    if not stamp.is_file():
        stamp.write_text("written by `memgit site build`; memgit may replace everything listed in its manifest\n")


class Staging:
    """Pages written aside (a hidden sibling of the output folder, so renames stay on one file
    system), moved into the output folder by `commit`, or thrown away by `abort`.

    A first build (no output folder, or an empty one) renames the whole staging folder into place;
    an incremental build moves each written page over its old version, so pages it did not write
    keep their bytes and times.
    """

    def __init__(self, out: Path) -> None:
        self.out = out
        self.fresh = not out.is_dir() or not any(out.iterdir())
        self._created: list[Path] = []  # folders above the output made for it (removed by abort)
        parent = out.parent
        while not parent.exists():
            self._created.append(parent)
            parent = parent.parent
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            self.dir = out.parent / f".{out.name}.memgit-build-{os.getpid()}-{secrets.token_hex(4)}"
            self.dir.mkdir()
        except OSError as exc:
            self.abort()
            raise MemgitError(f"cannot write the site next to {out}: {exc.strerror or exc}") from None
        self.written: list[str] = []
        self._seen: dict[str, Path] = {}

    def write(self, rel: str, data: bytes) -> None:
        write_file(self.dir, rel, data, self._seen)
        self.written.append(rel)

    def commit(self, stale: list[str]) -> None:
        """Put the staged pages in place and remove `stale` ones: the only step that touches `out`."""
        if self.fresh:
            mark(self.dir)
            os.replace(self.dir, self.out)  # replaces an empty folder in one step
            self._created = []
            return
        mark(self.out)
        check_inside(self.out, [*self.written, *stale])
        seen: dict[str, Path] = {}
        for rel in self.written:
            target = inside(self.out, rel, seen)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(inside(self.dir, rel, self._seen), target)
        remove_files(self.out, stale)
        shutil.rmtree(self.dir, ignore_errors=True)

    def abort(self) -> None:
        """Remove the staging folder and any folder made above the output: as before the build."""
        staged = getattr(self, "dir", None)
        if staged is not None:
            shutil.rmtree(staged, ignore_errors=True)
        for folder in self._created:  # innermost first
            try:
                folder.rmdir()
            except OSError:
                break
        self._created = []
