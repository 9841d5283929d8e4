"""Replacing a file in one step: the one way memgit writes a file that a reader or a crash may find
half done (index markers, vector files, settings, hook scripts, the spool, models' sidecars); and
appending all or nothing, the one way memgit extends a file that must never end in half an entry
(daily logs, MEMORY.md, session files, the recall ledger and spool)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path


def temp_path(path: Path) -> Path:
    """A hidden sibling unique to this process, so two writers never share a temporary file."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def atomic_write(path: Path, parts: bytes | Iterable[bytes], *, durable: bool = True, mode: int | None = None) -> None:
    """Write, fsync, rename, fsync the folder: after a crash the file is the old or the new one,
    and once this returns the new one survives a power cut. `durable=False` skips both fsyncs
    (still a rename: never a torn file, after a crash the old one, the new one, or none). `mode`:
    the new file's permission bits (a script's 0o755, a settings file's own). The temporary file
    is removed on any failure, which propagates."""
    tmp = temp_path(path)
    try:
        with tmp.open("wb") as fh:
            for part in [parts] if isinstance(parts, bytes) else parts:
                fh.write(part)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
        if durable:
            fsync_dir(path.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (a no-op where folders cannot be opened, e.g. Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class TornAppend(OSError):
    """An append failed and cutting the file back failed too: the file ends in part of the data.
    An `OSError` (of the first error's errno), so whoever catches those catches it too."""

    def __init__(self, error: OSError, undo: OSError):
        text = f"{error.strerror or error}, and cutting the file back failed: {undo.strerror or undo}"
        super().__init__(error.errno or 0, text)

    def __str__(self) -> str:
        return str(self.strerror)


def append_whole(fd: int, data: bytes, size: int) -> None:
    """Write `data` at the end of the file `fd` (opened with O_APPEND, `size` bytes long, under the
    writer's lock) and fsync it, or leave the file as it was: a full disk, an I/O error, a file size
    limit or an interruption at any byte truncates it back to `size` (and fsyncs) before the error
    propagates. Should the truncation fail as well, `TornAppend` says so."""
    try:
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
        os.fsync(fd)
    except BaseException as exc:
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        except OSError as undo:
            if isinstance(exc, OSError):
                raise TornAppend(exc, undo) from exc
        raise
