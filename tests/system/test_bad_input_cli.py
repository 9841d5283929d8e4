"""More bad input through the real CLI (an adversarial pass found these): a glob regex rejects,
names and words that are not UTF-8, a typo'd lint path, a full disk on stdout. Each ends in one
readable `memgit: error:` line, a non-zero exit, and valid JSON wherever JSON is printed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memgit.mcp.arguments import ArgumentError, check_arguments
from tests.helpers import commit_all, git, memgit, write

BM25 = {**os.environ, "MEMGIT_EMBEDDING": "none"}
SECRET = "ghp_" + "a1B2c3D4e5" * 4  # a GitHub token's shape, built so no scanner sees one here


def run(
    cwd: Path,
    *args: str | bytes,
    stdout: object = subprocess.PIPE,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """The CLI with arguments as raw bytes where needed (a POSIX argv is bytes, not text)."""
    return subprocess.run(
        [sys.executable, "-m", "memgit", *args],
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.PIPE,
        input=stdin,
        env=env or BM25,
        timeout=300,
        check=False,
    )


def one_error(proc: subprocess.CompletedProcess[bytes], needle: str) -> str:
    """Non-zero exit; stderr's only error line is one readable `memgit: error:` line."""
    err = proc.stderr.decode("utf-8")
    assert proc.returncode != 0, err
    errors = [line for line in err.splitlines() if line.startswith("memgit: error:")]
    assert len(errors) == 1, err
    assert "internal error" not in err and "Traceback" not in err, err
    assert needle.lower() in errors[0].lower(), err
    return errors[0]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root / "MEMORY.md", "# Memory\n\n- The heron database runs PostgreSQL 16.\n")
    write(root / "memory" / "2026-01-05.md", "## 10:00\n- heron rollback rehearsed\n")
    commit_all(root, "init")
    assert run(root, "index", "-q").returncode == 0
    return root


def test_a_glob_the_regex_engine_rejects_is_a_bad_pattern(ws: Path) -> None:
    one_error(run(ws, "search", "heron", "--path", "[z-a]"), "invalid glob '[z-a]'")
    (ws / "memgit.toml").write_text('[memory]\nextra_paths = ["[z-a]"]\n', encoding="utf-8")
    proc = run(ws, "status")  # the setting keeps its default, with one warning naming its line
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.decode().splitlines() == [
        f"memgit: warning: {ws / 'memgit.toml'}:2: memory.extra_paths invalid glob '[z-a]': "
        + proc.stderr.decode().split("invalid glob '[z-a]': ", 1)[1].splitlines()[0]
    ]


def test_words_that_are_not_utf8_are_refused_before_anything_is_recorded(ws: Path) -> None:
    spool = ws / ".git" / "memgit" / "recall"
    before = sorted(p.name for p in spool.rglob("*")) if spool.exists() else []
    one_error(run(ws, "search", b"heron caf\xe9"), "the query is not valid UTF-8")
    after = sorted(p.name for p in spool.rglob("*")) if spool.exists() else []
    assert after == before
    batch = ws / "queries.txt"
    batch.write_bytes(b"heron\r\ncaf\xe9\nrollback\n")
    proc = run(ws, "search", "--batch", str(batch), "--no-record")
    one_error(proc, "--batch: line 2 is not valid UTF-8")
    answered = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert [a["query"] for a in answered] == ["heron"]  # the line before it, "\r" and all stripped


def test_a_name_that_is_not_utf8_comes_back_quoted_and_can_be_read_back(ws: Path) -> None:
    raw = os.fsdecode(b"memory/caf\xe9.md")
    (ws / raw).write_text("## 09:00\n- zanzibarite espresso order\n", encoding="utf-8")
    commit_all(ws, "odd name")
    search = run(ws, "search", "zanzibarite", "--json", "--mode", "bm25", "--no-record")
    assert search.returncode == 0, search.stderr
    key = json.loads(search.stdout.decode("utf-8"))["hits"][0]["path"]
    assert key == '"memory/caf\\351.md"'
    for spec in (raw, key, f"{key}:2"):
        got = run(ws, "get", spec, "--json")
        assert got.returncode == 0, got.stderr
        data = json.loads(got.stdout.decode("utf-8"))  # strict UTF-8: no raw byte in the JSON
        assert data["path"] == key and "zanzibarite" in data["text"]
    (ws / raw).write_text(f"- token {SECRET}\n", encoding="utf-8")
    lint = run(ws, "lint", "--json")
    report = json.loads(lint.stdout.decode("utf-8"))
    assert lint.returncode == 1 and {f["path"] for f in report["findings"]} == {key}


def test_lint_refuses_a_path_that_names_nothing(ws: Path) -> None:
    write(ws / "memory" / "secret.md", f"- token {SECRET}\n")
    one_error(run(ws, "lint", "memory/Secret.md"), "no file or folder 'memory/Secret.md'")
    one_error(run(ws, "lint", ""), "an empty path names nothing")
    assert run(ws, "lint", "memory/secret.md").returncode == 1  # the real name: its finding fails
    assert run(ws, "lint", "memory/2026-01-05.md").returncode == 0
    (ws / "memory" / "2026-01-05.md").unlink()  # deleted but still in HEAD: a path lint knows,
    deleted = run(ws, "lint", "memory/2026-01-05.md")  # and deleting a daily log is a finding
    assert deleted.returncode == 1 and b"memory/2026-01-05.md" in deleted.stdout
    assert b"no file or folder" not in deleted.stderr


def test_a_full_disk_on_stdout_is_one_readable_line(ws: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "wb") as full:
        one_error(run(ws, "status", "--json", stdout=full), "No space left on device")


def test_a_file_where_a_folder_belongs_names_the_path(ws: Path, tmp_path: Path) -> None:
    in_the_way = tmp_path / "cache-is-a-file"
    in_the_way.write_text("x\n", encoding="utf-8")
    line = one_error(run(ws, "model", "install", env={**BM25, "MEMGIT_CACHE_DIR": str(in_the_way)}), "Not a directory")
    assert str(in_the_way) in line


def test_a_line_range_from_zero_says_what_was_asked(ws: Path) -> None:
    one_error(run(ws, "get", "MEMORY.md:0"), "invalid line range 0:")


def test_mcp_string_arguments_must_be_unicode_text() -> None:
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    assert check_arguments(schema, {"text": "fine"})["text"] == "fine"
    with pytest.raises(ArgumentError, match="text is not valid Unicode text"):
        check_arguments(schema, {"text": "bad \udcff"})


def test_memgit_helper_still_sees_text(ws: Path) -> None:
    # the plain text helper and the bytes runner agree on a normal search
    assert "heron" in memgit(ws, "search", "heron", "--no-record", env={"MEMGIT_EMBEDDING": "none"}).stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("index", "--wait", "nan"), "'--wait': 'nan' is not a number"),
        (("index", "--wait", "1e9"), "'--wait'"),
        (("site", "serve", "--port", "0", "--interval", "nan"), "'--interval': 'nan' is not a number"),
    ],
)
def test_nan_and_absurd_seconds_are_usage_errors(ws: Path, args: tuple[str, ...], needle: str) -> None:
    proc = run(ws, *args)
    assert proc.returncode == 2  # click's usage error: before any lock, server or loop
    one_error(proc, needle)


def test_a_name_with_a_newline_stays_on_one_line_and_reads_back(ws: Path) -> None:
    (ws / "memory" / "a\nb.md").write_text("- newlinefox lives here\n", encoding="utf-8")
    commit_all(ws, "a name with a newline")
    out = run(ws, "search", "newlinefox", "--mode", "bm25", "--no-record").stdout.decode("utf-8")
    first = out.splitlines()[0]
    assert first.startswith('"memory/a\\012b.md":1-1'), out  # git's quoting, one line
    shown = first.split(":1-1")[0]
    got = run(ws, "get", shown)
    assert got.returncode == 0 and b"newlinefox" in got.stdout, got.stderr
