"""`memgit site serve`: a local preview on 127.0.0.1 that rebuilds when the memory changes.

It answers only requests whose Host header names the address it serves: a web page elsewhere can
make the browser send requests to 127.0.0.1 under a name of its own (DNS rebinding) and read the
answers, and the private site is all of the memory. It refuses to serve the private site on an
address other machines reach unless told to (`--expose-private`).

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
from typing import Any

from memgit.errors import MemgitError
from memgit.site.build import BuildOptions, build_site
from memgit.site.reader import head_commit, worktree_commit
from memgit.workspace import Workspace


def signature(ws: Workspace) -> tuple:
    """What a rebuild depends on: HEAD and the stat of each memory file in the work tree."""
    head = head_commit(ws.git)
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
    at = worktree_commit(ws.git) or "HEAD"
    report = build_site(ws, BuildOptions(out=preview_dir(ws, scope), scope=scope, at=at, preview=True))
    redacted = f", {len(report.redacted)} lines redacted (memgit lint names them)" if report.redacted else ""
    return f"site rebuilt: {len(report.written)} files written in {report.seconds:.2f}s{redacted}"


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")


def is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The Host headers a request to this server may carry: the address it serves, and the
    loopback names. A page elsewhere that points a name of its own at 127.0.0.1 (DNS rebinding)
    sends its own name, and is refused. Empty (any) for an address other machines reach: the site
    is then open to whoever reaches it, which the person chose (`--host`, and for the private
    scope `--expose-private`)."""
    if not is_loopback(host):
        return frozenset()  # any: whoever reaches the address reads the site anyway (no rebinding needed)
    names = {host} | set(LOOPBACK_NAMES)
    found = set()
    for name in names:
        shown = f"[{name}]" if ":" in name and not name.startswith("[") else name
        found.add(f"{shown}:{port}".lower())
        if port == 80:
            found.add(shown.lower())
    return frozenset(found)


class _Preview(http.server.SimpleHTTPRequestHandler):
    """Serves the preview folder to requests that name this server in their Host header."""

    hosts: frozenset[str] = frozenset()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - http.server's name
        return

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        if host in self.hosts or not self.hosts:
            return True
        body = b"memgit site serve: refused: this request names another host (DNS rebinding?)\n"
        self.send_response(421, "Misdirected Request")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return False

    def do_GET(self) -> None:
        if self._host_ok():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._host_ok():
            super().do_HEAD()

    def list_directory(self, path: str | os.PathLike[str]) -> Any:
        self.send_error(404, "No such page")  # the preview is pages, not a folder listing
        return None


def serve(
    ws: Workspace,
    *,
    port: int,
    scope: str,
    interval: float,
    announce: Callable[[str], None],
    stop: threading.Event | None = None,
    host: str = "127.0.0.1",
    expose_private: bool = False,
) -> None:
    if not is_loopback(host) and scope == "private" and not expose_private:
        raise MemgitError(
            f"refusing to serve the private site on {host}, which other machines can reach: use --scope public, "
            "or --expose-private if everyone on that network may read all of this memory"
        )
    if head_commit(ws.git) is None:
        raise MemgitError("the workspace has no commits yet; commit your memory first (git add -A && git commit)")
    out = preview_dir(ws, scope)
    last = signature(ws)
    announce(rebuild(ws, scope))
    preview: type[_Preview] = type("PreviewHandler", (_Preview,), {})
    try:
        server = _server(host, port, functools.partial(preview, directory=str(out)))
    except OSError as exc:
        raise MemgitError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; try --port 0") from None
    preview.hosts = allowed_hosts(host, server.server_address[1])
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    shown = f"[{host}]" if ":" in host else host
    announce(f"serving http://{shown}:{server.server_address[1]}/ (Ctrl-C stops)")
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


def _server(host: str, port: int, handler: Any) -> http.server.ThreadingHTTPServer:
    import socket

    class Server(http.server.ThreadingHTTPServer):
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

    return Server((host.strip("[]"), port), handler)
