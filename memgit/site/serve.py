"""`memgit site serve`: a local preview on 127.0.0.1 that rebuilds when the memory changes.

It polls (HEAD, and the size and time of every memory file in the work tree) and rebuilds into a
folder under `.git/memgit/`, incrementally, so a rebuild after one edit costs what that edit
touches. Uncommitted edits of tracked files are shown through a `git stash create` commit.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from memgit.errors import MemgitError
from memgit.git import history, plumbing
from memgit.site.build import BuildOptions, build_site
from memgit.workspace import Workspace


def signature(ws: Workspace) -> tuple:
    """What a rebuild depends on: HEAD and the stat of each memory file in the work tree."""
    head = plumbing.head_ids(ws.root)[0]
    stats = []
    for top in ("MEMORY.md", "USER.md", "memory", "sessions"):
        path = ws.root / top
        if path.is_file():
            stats.append((top, path.stat().st_mtime_ns, path.stat().st_size))
        elif path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    full = Path(folder) / name
                    try:
                        info = full.stat()
                    except OSError:
                        continue
                    stats.append((full.relative_to(ws.root).as_posix(), info.st_mtime_ns, info.st_size))
    return head, tuple(stats)


def preview_dir(ws: Workspace, scope: str) -> Path:
    return ws.data_dir / "site-preview" / scope


def rebuild(ws: Workspace, scope: str) -> str:
    at = history.worktree_commit(ws.root) or "HEAD"
    report = build_site(ws, BuildOptions(out=preview_dir(ws, scope), scope=scope, at=at))
    redacted = f", {len(report.redacted)} lines redacted (memgit lint names them)" if report.redacted else ""
    return f"site rebuilt: {len(report.written)} files written in {report.seconds:.2f}s{redacted}"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - http.server's name
        return

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


def serve(
    ws: Workspace,
    *,
    port: int,
    scope: str,
    interval: float,
    announce: Callable[[str], None],
    stop: threading.Event | None = None,
) -> None:
    if plumbing.head_ids(ws.root)[0] is None:
        raise MemgitError("the workspace has no commits yet; commit your memory first (git add -A && git commit)")
    out = preview_dir(ws, scope)
    last = signature(ws)
    announce(rebuild(ws, scope))
    handler = functools.partial(_Quiet, directory=str(out))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise MemgitError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}; try --port 0") from None
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    announce(f"serving http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)")
    stop = stop or threading.Event()
    try:
        while not stop.wait(interval):
            now = signature(ws)
            if now == last and (out / "index.html").is_file():  # a deleted preview is built again
                continue
            last = now
            try:
                announce(rebuild(ws, scope))
            except MemgitError as exc:
                announce(f"memgit: warning: rebuild failed, still serving the last good site: {exc}")
    finally:
        server.shutdown()
        server.server_close()
        time.sleep(0)
