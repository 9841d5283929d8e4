"""`core.atomic`: a file is replaced in one step, never left half written, temporaries cleaned."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from memgit.core.atomic import atomic_write, temp_path


def test_writes_parts_and_replaces_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "f.bin"
    path.write_bytes(b"old")
    atomic_write(path, [b"new ", b"bytes"])
    assert path.read_bytes() == b"new bytes"
    atomic_write(path, b"one part", durable=False)
    assert path.read_bytes() == b"one part"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.bin"]


def test_mode_is_set_on_the_new_file(tmp_path: Path) -> None:
    path = tmp_path / "hook"
    atomic_write(path, b"#!/bin/sh\n", mode=0o755)
    assert stat.S_IMODE(path.stat().st_mode) == 0o755


def test_a_failure_midway_keeps_the_old_file_and_removes_the_temporary(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"kept")

    def parts() -> Iterator[bytes]:
        yield b"half"
        raise RuntimeError("the producer failed")

    with pytest.raises(RuntimeError):
        atomic_write(path, parts())
    assert path.read_bytes() == b"kept"
    assert not temp_path(path).exists() and sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_temporaries_are_hidden_and_per_process(tmp_path: Path) -> None:
    import os

    tmp = temp_path(tmp_path / "marker")
    assert tmp.parent == tmp_path and tmp.name.startswith(".marker.") and str(os.getpid()) in tmp.name
