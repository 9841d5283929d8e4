"""Replacing a file in one step: the one way memgit writes a file that a reader or a crash may find
half done (index markers, vector files, settings, hook scripts, the spool, models' sidecars)."""

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
