"""Bad input through the real CLI: every failure is one clean `memgit: error:` line, and
problems with single files, the model or the index degrade instead of stopping the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import assert_clean_error, commit_all, git, memgit, write

BM25 = {"MEMGIT_EMBEDDING": "none"}
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def ok(cwd: Path, *args: str, env: dict[str, str] | None = None):
    proc = memgit(cwd, *args, env=BM25 if env is None else env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr
    return proc


def ok_json(cwd: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    return json.loads(ok(cwd, *args, "--json", env=env).stdout)


def hit_paths(cwd: Path, query: str, env: dict[str, str] | None = None) -> list[str]:
    return [h["path"] for h in ok_json(cwd, "search", query, "--mode", "bm25", env=env)["hits"]]


# -- where memgit runs -------------------------------------------------------------------------
def test_not_a_git_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    for args in (["index"], ["search", "tea"], ["status"], ["get", "MEMORY.md"], ["index", "--verify"]):
        assert_clean_error(memgit(plain, *args, env=BM25), "not inside a git repository")
    assert_clean_error(memgit(tmp_path, "-C", str(tmp_path / "missing"), "status"), "missing")


def test_empty_repository(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    git(root, "init", "-q")
    report = ok_json(root, "index")
    assert (report["tree"], report["commit"], report["files_indexed"], report["chunks"]) == (EMPTY_TREE, None, 0, 0)
    assert "0 files indexed" in ok(root, "index", "--full").stdout
    assert "verify: the index equals a full rebuild" in ok(root, "index", "--verify").stdout
    assert ok(root, "search", "anything").stdout.strip() == "no hits"
    assert ok_json(root, "search", "anything")["hits"] == []
    status = ok(root, "status").stdout
    assert "commit none yet" in status and "up to date" in status
    data = ok_json(root, "status")
    assert (data["head_commit"], data["head_tree"], data["pending"]) == (None, EMPTY_TREE, [])
    assert_clean_error(memgit(root, "get", "MEMORY.md", env=BM25), "no memory file")
    # The first commit then indexes incrementally from the empty tree.
    write(root / "MEMORY.md", "First fact: Emptyrepohedgehog.\n")
    commit_all(root, "first")
    report = ok_json(root, "index", "--verify")
    assert report["verify"]["ok"] and (report["mode"], report["files_indexed"]) == ("incremental", 1)
    assert hit_paths(root, "Emptyrepohedgehog") == ["MEMORY.md"]


def test_search_without_an_index_builds_one_or_says_how(workspace: Path) -> None:
    result = ok_json(workspace, "search", "tea", "--mode", "bm25")
    assert [h["path"] for h in result["hits"]] == ["MEMORY.md"]
    assert "index rebuilt: new index" in result["notices"]

    other = workspace.parent / "ws2"
    git(workspace.parent, "clone", "-q", str(workspace), str(other))
    write(other / "memgit.toml", "[search]\nauto_index = false\n")
    assert_clean_error(memgit(other, "search", "tea", env=BM25), "no index yet; run `memgit index`")


# -- memory files that cannot be indexed ---------------------------------------------------------
def test_unreadable_memory_files_are_skipped_with_a_warning(workspace: Path) -> None:
    (workspace / "memory" / "binary.md").write_bytes(b"PNG\x00\x01\x02 Binaryword\n")
    (workspace / "memory" / "latin1.md").write_bytes("café Latinword\n".encode("latin-1"))
    (workspace / "memory" / "huge.md").write_bytes(b"Hugeword line\n" * 400_000)  # 5.6 MB
    write(workspace / "memory" / "fine.md", "Fineword is here.\n")
    commit_all(workspace, "bad files")
    proc = ok(workspace, "index")
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("memgit: warning: skipped ")]
    assert len(warnings) == 3, proc.stderr
    assert any("memory/binary.md: binary file (NUL bytes)" in w for w in warnings)
    assert any("memory/latin1.md: not valid UTF-8 (byte 3)" in w for w in warnings)
    assert any("memory/huge.md: larger than 5000000 bytes (5600000)" in w and "max_file_bytes" in w for w in warnings)
    assert "full index" in proc.stdout

    assert hit_paths(workspace, "Fineword") == ["memory/fine.md"]
    for word in ("Binaryword", "Latinword", "Hugeword"):
        assert hit_paths(workspace, word) == []
    status = ok_json(workspace, "status")
    assert {s["path"] for s in status["skipped"]} == {"memory/binary.md", "memory/latin1.md", "memory/huge.md"}
    assert ok_json(workspace, "index", "--verify")["verify"]["ok"]
    assert_clean_error(memgit(workspace, "get", "memory/binary.md"), "binary file")
    assert_clean_error(memgit(workspace, "get", "memory/latin1.md"), "not valid UTF-8")

    # Fixed in a later commit: indexed, the warning gone.
    write(workspace / "memory" / "latin1.md", "café Latinword\n")
    commit_all(workspace, "fix encoding")
    proc = ok(workspace, "index")
    assert "latin1" not in proc.stderr
    assert hit_paths(workspace, "Latinword") == ["memory/latin1.md"]


def test_crlf_and_bom_files_keep_line_numbers(workspace: Path) -> None:
    (workspace / "memory" / "crlf.md").write_bytes(b"# Windows\r\n\r\nfirst line\r\nCrlfword on line four\r\n")
    (workspace / "memory" / "bom.md").write_bytes("\ufeffBomword on line one\nline two\n".encode())
    (workspace / "memory" / "both.md").write_bytes("\ufeff# Both\r\nBothword on line two\r\n".encode())
    commit_all(workspace, "crlf and bom")
    ok(workspace, "index")
    for word, path, line in (
        ("Crlfword", "memory/crlf.md", 4),
        ("Bomword", "memory/bom.md", 1),
        ("Bothword", "memory/both.md", 2),
    ):
        hits = ok_json(workspace, "search", word, "--mode", "bm25")["hits"]
        assert [h["path"] for h in hits] == [path]
        hit = hits[0]
        assert "\r" not in hit["text"] and "\ufeff" not in hit["text"]
        lines = hit["text"].split("\n")
        assert hit["end_line"] - hit["start_line"] + 1 == len(lines)
        offset = next(i for i, text in enumerate(lines) if word in text)
        assert hit["start_line"] + offset == line
        got = ok(workspace, "get", f"{path}:{line}").stdout
        assert got.startswith(word) and got.endswith("\n") and "\r" not in got and "\ufeff" not in got
    assert ok(workspace, "get", "memory/bom.md:1-2").stdout == "Bomword on line one\nline two\n"


# -- broken configuration ------------------------------------------------------------------------
def test_invalid_toml(workspace: Path) -> None:
    """Read-only commands go on with the defaults and say so; `memgit index` stops (tests/config has more)."""
    write(workspace / "memgit.toml", "[memory\nsessions = true\n")
    proc = memgit(workspace, "index", env=BM25)
    assert_clean_error(proc, "invalid TOML")
    assert proc.returncode == 1
    assert f"{workspace / 'memgit.toml'}:1: invalid TOML" in proc.stderr
    for args in (["status"], ["get", "MEMORY.md"]):
        proc = memgit(workspace, *args, env=BM25)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr.startswith(f"memgit: warning: {workspace / 'memgit.toml'}:1: invalid TOML"), proc.stderr


def test_every_config_problem_at_once(workspace: Path) -> None:
    """Each wrong key is one warning naming its line, all of them at once; the index is built
    with those keys at their defaults."""
    write(
        workspace / "memgit.toml",
        '[memory]\nextra_paths = ["/abs/*.md"]\nmax_file_bytes = "big"\n\n'
        "[chunking]\nmax_tokens = 1000\nchars_per_token = 0\n\n"
        "[search]\nk = true\nhalf_life = 3\n",
    )
    proc = memgit(workspace, "index", env=BM25)
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("memgit: warning: ")]
    assert len(warnings) == 6, proc.stderr
    where = workspace / "memgit.toml"
    for line, key in (
        (2, "memory.extra_paths"),
        (3, "memory.max_file_bytes"),
        (6, "chunking.max_tokens"),
        (7, "chunking.chars_per_token"),
        (10, "search.k"),
        (11, "search.half_life"),
    ):
        assert sum(f"memgit: warning: {where}:{line}: " in w and key in w for w in warnings) == 1, key


# -- the embedding model -------------------------------------------------------------------------
def test_missing_model_falls_back_to_bm25(workspace: Path, tmp_path: Path) -> None:
    env = {"MEMGIT_MODEL": str(tmp_path / "no" / "such-model.gguf")}
    proc = ok(workspace, "index", env=env)
    assert "memgit: notice: BM25 only: no embedding model at" in proc.stderr
    proc = ok(workspace, "search", "tea", env=env)
    assert "BM25 only" in proc.stderr and "MEMORY.md" in proc.stdout
    result = ok_json(workspace, "search", "billing", env=env)
    assert [h["path"] for h in result["hits"]] == ["memory/2026-01-05.md"]
    assert result["hits"][0]["vector_score"] is None
    assert any(n.startswith("BM25 only: no embedding model at") for n in result["notices"])
    assert_clean_error(memgit(workspace, "search", "tea", "--mode", "vector", env=env), "vector search is unavailable")


def test_garbage_model_file_falls_back_to_bm25(workspace: Path, tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    model = tmp_path / "garbage.gguf"
    model.write_bytes(b"GGUF" + b"\x00\xff" * 2000)
    env = {"MEMGIT_MODEL": str(model)}
    proc = ok(workspace, "search", "tea", env=env)
    assert "BM25 only: cannot load embedding model" in proc.stderr and "MEMORY.md" in proc.stdout
    assert_clean_error(memgit(workspace, "search", "tea", "--mode", "vector", env=env), "vector search is unavailable")


# -- a damaged index -----------------------------------------------------------------------------
def test_corrupt_index_is_rebuilt_and_announced(workspace: Path) -> None:
    ok(workspace, "index")
    db = workspace / ".git" / "memgit" / "index.sqlite"
    db.write_bytes(b"this is not a database at all\n" * 200)
    # status says how to fix it; `memgit index` rebuilds and says so.
    assert "unreadable" in ok_json(workspace, "status")["needs_full_rebuild"]
    proc = ok(workspace, "index")
    assert "is unreadable" in proc.stderr and "rebuilding it from scratch" in proc.stderr
    assert "full index" in proc.stdout
    assert hit_paths(workspace, "tea") == ["MEMORY.md"]
    assert ok_json(workspace, "index", "--verify")["verify"]["ok"]


def test_search_heals_a_corrupt_index_and_announces_it(workspace: Path) -> None:
    ok(workspace, "index")
    (workspace / ".git" / "memgit" / "index.sqlite").write_bytes(b"not a database\n" * 300)
    proc = memgit(workspace, "search", "tea", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "rebuilding it from scratch" in proc.stderr
    assert "MEMORY.md:" in proc.stdout
    assert ok_json(workspace, "index", "--verify")["verify"]["ok"]


def test_truncated_index_and_corrupt_cache(workspace: Path) -> None:
    ok(workspace, "index")
    data_dir = workspace / ".git" / "memgit"
    db = data_dir / "index.sqlite"
    db.write_bytes(db.read_bytes()[:1500])
    (data_dir / "embed-cache.sqlite").write_bytes(b"\x01garbage" * 100)
    proc = ok(workspace, "index")
    assert "rebuilding it from scratch" in proc.stderr, proc.stderr
    assert "the embedding cache was unreadable too; it was reset" in proc.stderr
    assert hit_paths(workspace, "billing") == ["memory/2026-01-05.md"]
    assert ok_json(workspace, "index", "--verify")["verify"]["ok"]


# -- memgit get --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("../x.md", "without '..'"),
        ("memory/../../x.md", "without '..'"),
        ("/etc/passwd", "refusing path"),
        ("memgit.toml", "not a memory file"),
        (".git/config", "not a memory file"),
        ("notes/secret.md", "not a memory file"),
        ("memory/outside.md", "links outside the workspace"),
        ("memory/to-notes.md", "links to a file that is not memory"),
        ("memory/linkdir/x.md", "links to a file that is not memory"),
        ("memory/missing.md", "no memory file"),
    ],
)
def test_get_refuses_paths_outside_memory(workspace: Path, tmp_path: Path, spec: str, needle: str) -> None:
    outside = write(tmp_path / "outside-secret.md", "outside secret\n")
    write(workspace / "notes" / "secret.md", "notes secret\n")
    write(workspace / "memgit.toml", "[search]\nk = 6\n")
    (workspace / "memory" / "outside.md").symlink_to(outside)
    (workspace / "memory" / "to-notes.md").symlink_to("../notes/secret.md")
    (workspace / "memory" / "linkdir").symlink_to("../notes")
    write(workspace / "notes" / "x.md", "via a linked folder\n")
    proc = memgit(workspace, "get", spec, env=BM25)
    assert_clean_error(proc, needle)
    assert "secret" not in proc.stdout


def test_get_follows_a_link_to_another_memory_file(workspace: Path) -> None:
    (workspace / "memory" / "alias.md").symlink_to("2026-01-05.md")
    assert ok(workspace, "get", "memory/alias.md:5-5").stdout == "- Deployed the billing service to production.\n"


def test_get_line_ranges_and_continuation(workspace: Path) -> None:
    write(workspace / "memory" / "ten.md", "".join(f"line {i}\n" for i in range(1, 11)))
    assert ok(workspace, "get", "memory/ten.md").stdout == "".join(f"line {i}\n" for i in range(1, 11))
    assert ok(workspace, "get", "memory/ten.md:3-5").stdout == "line 3\nline 4\nline 5\n"
    assert ok(workspace, "get", "memory/ten.md:9").stdout == "line 9\nline 10\n"
    assert ok(workspace, "get", "memory/ten.md:10-10").stdout == "line 10\n"
    assert ok(workspace, "get", "memory/ten.md:8-99").stdout == "line 8\nline 9\nline 10\n"
    proc = ok(workspace, "get", "--lines", "2", "memory/ten.md:3-8")
    assert proc.stdout == "line 3\nline 4\n"
    assert "memgit: more lines follow: memory/ten.md:5-8 (4 lines left)" in proc.stderr
    data = ok_json(workspace, "get", "--lines", "4", "memory/ten.md")
    assert (data["start_line"], data["end_line"], data["total_lines"]) == (1, 4, 10)
    assert (data["truncated"], data["next_start"]) == (True, 5)
    assert data["hint"] == "more lines follow: memory/ten.md:5-10 (6 lines left)"
    assert data["text"] == "line 1\nline 2\nline 3\nline 4"
    # Following the hint reads the rest, with no further hint.
    rest = ok_json(workspace, "get", "memory/ten.md:5-10")
    assert (rest["truncated"], rest["next_start"], rest["hint"]) == (False, None, None)
    assert_clean_error(memgit(workspace, "get", "memory/ten.md:11"), "has 10 lines; line 11 is past the end")
    assert_clean_error(memgit(workspace, "get", "memory/ten.md:5-3"), "invalid line range")
    assert_clean_error(memgit(workspace, "get", "memory/ten.md:0"), "invalid line range")
    assert_clean_error(memgit(workspace, "get", "memory/ten.md", "--lines", "0"), "--lines")


def test_get_caps_characters(workspace: Path) -> None:
    write(workspace / "memory" / "wide.md", "".join(f"{i:04d}" + "x" * 996 + "\n" for i in range(30)))
    data = ok_json(workspace, "get", "memory/wide.md")
    assert data["truncated"] is True and data["start_line"] == 1
    assert len(data["text"]) <= 12_000
    assert data["text"].split("\n") == [f"{i:04d}" + "x" * 996 for i in range(data["end_line"])]
    assert data["next_start"] == data["end_line"] + 1
