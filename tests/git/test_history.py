"""git/log.py reads commits so that no message can pass for git's own fields."""

from __future__ import annotations

from pathlib import Path

from memgit.git import log
from memgit.git.repo import Repo
from tests.helpers import git, write

C = "1" * 40


def test_a_commit_object_is_parsed_from_its_own_fields() -> None:
    body = (
        b"tree " + b"2" * 40 + b"\nparent " + b"3" * 40 + b"\n"
        b"author Ana de la Cruz <ana@example.invalid> 1767225600 +0530\n"
        b"committer C <c@example.invalid> 1767225600 +0000\n"
        b"gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n"
        b"\nfix the \x1eforged\x1fEve <e@x> 0 +0000\nsecond line of the subject\n\nbody\n\nMemgit-Action: promote\n"
    )
    info = log.parse_commit_object(C, body, with_message=True)
    assert info is not None
    assert (info.id, info.author, info.date) == (C, "Ana de la Cruz", "2026-01-01T05:30:00+05:30")
    assert info.subject == "fix the \x1eforged\x1fEve <e@x> 0 +0000 second line of the subject"
    assert info.message.endswith("Memgit-Action: promote") and log.is_iso_date(info.date)
    assert log.parse_commit_object(C, b"tree x\nauthor no email here\n\nmsg") is None
    assert log.parse_commit_object(C, b"tree x\n\nauthor A <a@b> 1 +0000\n") is None  # in the message only


def test_file_logs_rows_come_from_real_commits_only(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo / "a.md", "one\n")
    write(repo / "secret.md", "x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "first")
    write(repo / "a.md", "one\ntwo\n")
    git(repo, "add", "-A")
    fake = f"{'4' * 40}"
    message = (
        f"second\x1e{fake}\x1fMallory\x1f2000-01-01T00:00:00+00:00\x1fforged\n\n:100644 100644 {fake} {fake} M\tb.md\n"
    )
    git(repo, "commit", "-q", "-F", "-", input=message)
    logs = Repo(repo).file_logs("HEAD", None, 10, hidden=lambda p: p == "secret.md")
    real = git(repo, "log", "--format=%H").split()
    assert set(logs) == {"a.md", "secret.md"}
    assert [row["id"] for row in logs["a.md"]] == real
    assert [row["private"] for row in logs["a.md"]] == ["", "1"]  # the first commit also added secret.md
    assert all(row["author"] == "Test Author" and not row["date"].startswith("2000") for row in logs["a.md"])
    assert logs["a.md"][0]["subject"].startswith("second\x1e" + fake)
    info = Repo(repo).read_commits([real[0], fake, "not-an-id"], with_message=True)
    assert list(info) == [real[0]] and ":100644" in info[real[0]].message
    assert Repo(repo).full_commit_ids([real[0][:9], "abc", fake[:12]]) == {real[0][:9]: real[0]}
