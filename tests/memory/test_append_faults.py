"""Appends are all or nothing: a write cut short at any byte (a full disk, a file size limit)
leaves the file as it was, never half a note for the next append to follow.

The fault is RLIMIT_FSIZE, set on the real CLI process (`tests.cli_launcher.FILE_SIZE_LIMIT`): a
write that would take a file past the limit writes what fits and then fails with EFBIG, which is
how a full disk cuts a write short (ENOSPC), at exactly the byte chosen and in any file system,
without root or a special mount. The limit is put at every byte of the append in turn, for a
`memgit remember`, a `memgit capture` and a `memgit recalls publish`. The files these appends
extend are made larger than every other file the command writes before the append (lock files,
git's index), so the append is what the limit cuts. One more test fills a real small file system
(tmpfs, where it can be mounted) and checks the same with ENOSPC.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli_launcher import FILE_SIZE_LIMIT
from tests.helpers import TODAY, commit_all, git, memgit, write
from tests.memory.test_append_refusals import one_error

BM25 = {"MEMGIT_EMBEDDING": "none"}
DAILY = f"memory/{TODAY.isoformat()}.md"
#: Old text that makes the appended files larger than any other file the commands write first.
FILLER = "".join(f"- Old fact number {n}: the staging cluster was rebuilt on a quiet day.\n" for n in range(80))


def _limited(limit: int) -> dict[str, str]:
    return {**BM25, FILE_SIZE_LIMIT: str(limit)}


def _every_byte_cut(cwd: Path, args: list[str], path: Path, *, extra: tuple[Path, ...] = ()) -> bytes:
    """Run `memgit ARGS` with the file size limit at every byte of what it appends to `path`:
    each run fails in one line and leaves `path` (and `extra`) byte for byte as it was, and HEAD
    where it was. Returns what a run without a limit appended."""
    before = path.read_bytes()
    others = {p: p.read_bytes() if p.exists() else None for p in extra}
    head = git(cwd, "rev-parse", "HEAD")
    copy = cwd.parent / f"{cwd.name}-unlimited"
    shutil.copytree(cwd, copy, symlinks=True)
    whole = memgit(copy, *args, env=BM25)
    assert whole.returncode == 0, whole.stderr
    after = (copy / path.relative_to(cwd)).read_bytes()
    assert after.startswith(before) and len(after) > len(before)
    appended = after[len(before) :]
    for cut in range(len(appended)):
        proc = memgit(cwd, *args, env=_limited(len(before) + cut))
        one_error(proc, "nothing was")
        assert path.read_bytes() == before, f"after a write cut at byte {cut} of {len(appended)}"
        for other, data in others.items():
            assert (other.read_bytes() if other.exists() else None) == data, other
        assert git(cwd, "rev-parse", "HEAD") == head
    return appended


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    git(root, "init", "-q")
    assert memgit(root, "init", ".").returncode == 0
    write(root / DAILY, f"# {TODAY.isoformat()}\n\n## 08:00\n\n{FILLER}")
    commit_all(root, "memory")
    return root


def test_remember_cut_at_every_byte_leaves_the_log_as_it_was(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    note = "The Heron cutover moved to Thursday; Priya owns the rollback plan."
    appended = _every_byte_cut(root, ["remember", note], root / DAILY)
    assert appended.decode().endswith(f"\n{note}\n")
    # With room again the note lands whole, right after the old text (no fragment before it).
    done = memgit(root, "remember", note, env=BM25)
    assert done.returncode == 0, done.stderr
    assert (root / DAILY).read_bytes() == (root / DAILY).read_bytes()[: -len(appended)] + appended
    assert (root / DAILY).read_text().count(note) == 1


def test_remember_into_a_new_log_cut_at_every_byte_leaves_no_file(tmp_path: Path) -> None:
    """The note that starts a day's log: a failed append removes the file it made."""
    root = _workspace(tmp_path)
    (root / DAILY).unlink()
    commit_all(root, "no log today")
    write(root / "memory" / "bulk.md", FILLER * 3)  # larger than the lock files and git's
    note = "Started the day with the Heron runbook."
    copy = tmp_path / "copy"
    shutil.copytree(root, copy, symlinks=True)
    assert memgit(copy, "remember", note, env=BM25).returncode == 0
    size = (copy / DAILY).stat().st_size
    for cut in range(size):
        one_error(memgit(root, "remember", note, env=_limited(cut)), "nothing was written")
        assert not (root / DAILY).exists(), cut


def _transcript(path: Path, turns: list[tuple[str, str]]) -> None:
    path.write_text("".join(json.dumps({"role": role, "content": text}) + "\n" for role, text in turns))


def test_capture_cut_at_every_byte_leaves_the_session_file_as_it_was(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    transcript = tmp_path / "chat.jsonl"
    earlier = [("user", FILLER), ("assistant", "Noted.")]
    _transcript(transcript, earlier)
    args = ["capture", "--transcript", str(transcript), "--format", "generic", "--session", "s1"]
    assert memgit(root, *args, env=BM25).returncode == 0
    (session,) = (root / "sessions").glob("*-s1.jsonl")
    _transcript(transcript, [*earlier, ("user", "Who owns the rollback?"), ("assistant", "Priya does.")])
    appended = _every_byte_cut(root, args, session)
    assert [json.loads(line)["content"] for line in appended.decode().splitlines()] == [
        "Who owns the rollback?",
        "Priya does.",
    ]


def test_recalls_publish_cut_at_every_byte_leaves_the_ledger_as_it_was(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    for n in range(12):  # a ledger file larger than anything else publishing writes first
        assert memgit(root, "search", f"staging cluster rebuilt {n}", "-k", "3", env=BM25).returncode == 0
    assert memgit(root, "recalls", "publish", env=BM25).returncode == 0
    (ledger,) = (root / "memory" / ".dreams" / "recall").glob("*.jsonl")
    assert memgit(root, "search", "quiet day", "-k", "1", env=BM25).returncode == 0
    spool = sorted((root / ".git" / "memgit" / "recall").glob("*.jsonl"))
    appended = _every_byte_cut(root, ["recalls", "publish"], ledger, extra=tuple(spool))
    assert [json.loads(line)["query"] for line in appended.decode().splitlines()] == ["quiet day"]


def _mount_tmpfs(folder: Path, size: str) -> bool:
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    return proc.returncode == 0


def test_a_full_file_system_leaves_no_partial_note(tmp_path: Path) -> None:
    """The issue's case on a real full disk: a ~6 KB note on a full file system is cut by ENOSPC
    where the log's last page ends (byte 4,096); the log is left as it was, and the next append, with room, lands
    right after the old text."""
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "2m"):
        pytest.skip("mounting a small tmpfs needs root (the byte-by-byte tests above need nothing)")
    try:
        root = disk / "ws"
        root.mkdir()
        git(root, "init", "-q")
        assert memgit(root, "init", ".").returncode == 0
        write(root / DAILY, f"# {TODAY.isoformat()}\n\n- First note of the day.\n")
        commit_all(root, "memory")
        assert memgit(root, "remember", "warm up the lock files", env=BM25).returncode == 0
        before = (root / DAILY).read_bytes()
        filler = disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        # The disk is full; the log's last page has room up to byte 4,096 of the file.
        note = "- " + "Long note about the Heron cutover and its rollback plan. " * 105
        proc = memgit(root, "remember", note, env=BM25)
        one_error(proc, "no space left on device", "nothing was written")
        assert (root / DAILY).read_bytes() == before
        filler.unlink()
        assert memgit(root, "remember", note, env=BM25).returncode == 0
        text = (root / DAILY).read_text()
        assert text.startswith(before.decode()) and text.endswith(note.strip() + "\n")
        assert text.count("Long note about") == 105
    finally:
        subprocess.run(["umount", str(disk)], check=False)
