"""Agent sessions whose last turns no capture took yet, caught up at the next session start.

A session's end can go uncaptured: its SessionEnd capture was refused (a merge in progress, a
broken memgit.toml) and said so only in the host's debug log, or its host never sent SessionEnd at
all (Codex's TUI `/quit` leaves its app server running). So every session a hook sees is kept in
`.git/memgit/agent-sessions.json` with its transcript and how far the last capture read it; the
next SessionStart captures what a session that has gone quiet left behind, and says so there, in
the message the user sees. The rules are pure (`due`); the file is read and replaced under a lock.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.core import locks
from memgit.core.atomic import atomic_write

if TYPE_CHECKING:
    from memgit.workspace import Workspace

FILE = "agent-sessions.json"
#: A session whose transcript has not changed for this long, with turns no capture took, is over
#: (a host that never said so); one that changed more recently may still be running elsewhere.
QUIET_SECONDS = 120.0
#: Sessions whose transcript has not changed for this long are forgotten.
FORGET_SECONDS = 14 * 86_400.0


@dataclass
class Seen:
    """One session a hook saw: its host, its transcript, and its size when a capture last read it."""

    host: str
    transcript: str
    captured: int = 0
    #: Why its last capture was refused, when it was.
    missed: str | None = None


@dataclass(frozen=True)
class Due:
    session: str
    seen: Seen


def due(seen: dict[str, Seen], sizes: dict[str, tuple[int, float]], current: str | None, now: float) -> list[Due]:
    """Sessions to capture now (pure): not the current one, their transcript (size, mtime) grown
    past what was captured, and either refused at their end or quiet for `QUIET_SECONDS`."""
    out = []
    for session, entry in sorted(seen.items()):
        if session == current or entry.transcript not in sizes:
            continue
        size, mtime = sizes[entry.transcript]
        if size > entry.captured and (entry.missed is not None or now - mtime >= QUIET_SECONDS):
            out.append(Due(session, entry))
    return out


def forgotten(seen: dict[str, Seen], sizes: dict[str, tuple[int, float]], now: float) -> list[str]:
    """Sessions to drop from the file (pure): their transcript gone, or quiet for `FORGET_SECONDS`."""
    return [
        session
        for session, entry in seen.items()
        if entry.transcript not in sizes or now - sizes[entry.transcript][1] >= FORGET_SECONDS
    ]


# -- I/O ------------------------------------------------------------------------------------------
def _path(ws: Workspace) -> Path:
    return ws.data_dir / FILE


@contextlib.contextmanager
def _locked(ws: Workspace) -> Iterator[None]:
    lock = ws.data_dir / "locks" / "agent-sessions.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with locks.exclusive(lock, 10.0, 0.01):
        yield


def load(ws: Workspace) -> dict[str, Seen]:
    try:
        raw = json.loads(_path(ws).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out: dict[str, Seen] = {}
    for session, entry in raw.items() if isinstance(raw, dict) else ():
        with contextlib.suppress(TypeError):
            out[str(session)] = Seen(**entry)
    return out


def _save(ws: Workspace, seen: dict[str, Seen]) -> None:
    data = json.dumps({session: asdict(entry) for session, entry in sorted(seen.items())}, indent=1)
    atomic_write(_path(ws), data.encode("utf-8"), durable=False)


def sizes_of(seen: dict[str, Seen]) -> dict[str, tuple[int, float]]:
    """Each transcript's (size, mtime); a missing one is left out."""
    out: dict[str, tuple[int, float]] = {}
    for entry in seen.values():
        with contextlib.suppress(OSError):
            st = os.stat(entry.transcript)
            out[entry.transcript] = (st.st_size, st.st_mtime)
    return out


def note(ws: Workspace, session: str | None, host: str, transcript: str | None, **change: object) -> None:
    """Record a session (and, after a capture, how far it read, or why it was refused); never fails
    a hook: the file is a convenience."""
    if not session or not transcript:
        return
    with contextlib.suppress(OSError, locks.LockBusy), _locked(ws):
        seen = load(ws)
        entry = seen.get(session) or Seen(host=host, transcript=str(Path(transcript).absolute()))
        for name, value in change.items():
            setattr(entry, name, value)
        seen[session] = entry
        _save(ws, seen)


def to_catch_up(ws: Workspace, current: str | None) -> list[Due]:
    """The sessions the starting one should capture first (and the file pruned of finished ones)."""
    try:
        with _locked(ws):
            seen = load(ws)
            sizes = sizes_of(seen)
            now = time.time()
            gone = forgotten(seen, sizes, now)
            if gone:
                for session in gone:
                    seen.pop(session, None)
                _save(ws, seen)
            return due(seen, sizes, current, now)
    except (OSError, locks.LockBusy):
        return []
