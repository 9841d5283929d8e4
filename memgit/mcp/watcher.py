"""Is the index still current? A cheap, git-free fingerprint of what it depends on.

The MCP server asks before every tool call; a dozen `stat` calls answer, so a search never pays
for `git status` or a walk of the whole memory tree.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core import clock
from memgit.core.paths import daily_log_path, yesterday

if TYPE_CHECKING:
    from memgit.workspace import Workspace


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class ChangeWatcher:
    """A cheap fingerprint of everything the index depends on, to skip no-op updates.

    Asking git (`status`) on every call costs in proportion to the work tree (and a full walk
    of 11k memory files takes ~100 ms here); `snapshot` costs a dozen `stat` calls instead:

    * HEAD, the ref it names, packed-refs and git's index file: any commit, checkout, merge,
      reset or `git add` touches one of them;
    * the files most likely to change (MEMORY.md, USER.md, today's and yesterday's logs);
    * every memory directory: creating, deleting or renaming a file anywhere changes one.

    What that misses, an uncommitted in-place edit of some older note, is caught by `scan`,
    which stats every memory file and which the server runs on a background thread every
    `scan_interval` seconds, away from tool calls.
    """

    def __init__(self, ws: Workspace, *, today: Callable[[], date] = clock.today) -> None:
        self.ws = ws
        self._today = today
        self._dirs: tuple[str, ...] = ()
        self._scanned: int = 0
        self.scan()

    def _git_state(self) -> tuple[Any, ...]:
        head = self.ws.git_dir / "HEAD"
        try:
            text = head.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            text = ""
        files = [head, self.ws.git_dir / "index", self.ws.common_dir / "packed-refs"]
        if text.startswith("ref: "):
            files.append(self.ws.common_dir / text[5:].strip())
        return (text, tuple(_stat_key(f) for f in files))

    def _hot_state(self) -> tuple[Any, ...]:
        day = self._today()
        rels = ("MEMORY.md", "USER.md", daily_log_path(day), daily_log_path(yesterday(day)))
        return tuple(_stat_key(self.ws.root / rel) for rel in rels)

    def scan(self) -> None:
        """Stat every memory file (and remember the directories) into one fingerprint."""
        root = str(self.ws.root)
        cut = len(root) + 1
        everywhere = bool(self.ws.config.memory.extra_paths)
        stack = [root] if everywhere else [os.path.join(root, "memory"), os.path.join(root, "sessions")]
        dirs: list[str] = []
        entries: list[tuple[str, int, int, int]] = []
        while stack:
            top = stack.pop()
            try:
                with os.scandir(top) as listing:
                    items = list(listing)
            except OSError:
                continue
            dirs.append(top)
            for entry in items:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != ".git":
                        stack.append(entry.path)
                    continue
                rel = entry.path[cut:].replace(os.sep, "/")
                if self.ws.is_memory_path(rel):
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    entries.append((rel, st.st_mtime_ns, st.st_size, st.st_ino))
        entries.sort()
        self._dirs = tuple(sorted(dirs))
        self._scanned = hash(tuple(entries))

    def snapshot(self) -> tuple[Any, ...]:
        dirs = tuple(_stat_key(Path(d)) for d in self._dirs)
        return (self._git_state(), self._hot_state(), dirs, self._scanned)
