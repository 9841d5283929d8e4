"""Hypothesis on everything that reads text or paths from outside (issue #11, point 5).

Properties, not examples: no traceback ever escapes (only MemgitError, which the CLI and the MCP
server turn into one readable line), the FTS query never makes SQLite raise, and no read leaves
the memory paths (a sentinel written outside them never comes back). The parsers get arbitrary
text; `get`, the MCP path filter and the MCP service get arbitrary paths and arguments on a real
workspace with a real index; the real `memgit mcp` server gets arbitrary JSON arguments.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.shared.exceptions import MCPError

from memgit.core import provenance
from memgit.core.chunking import char_token_counter, chunk_lines, split_lines
from memgit.core.paths import glob_to_regex, is_memory_path, normalise_user_path
from memgit.core.text import NotText, decode_memory_text, fts_text, match_expression, query_terms
from memgit.core.transcripts import transcript_lines
from memgit.errors import MemgitError
from memgit.lint import rules
from memgit.memory.append import clean_text
from tests.helpers import git, memgit, write

SENTINEL = "OUTSIDE-THE-MEMORY-PATHS"
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
SLOW_FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Text that exercises the parsers: Markdown structure, markers, JSON and FTS syntax, odd Unicode.
PIECES = st.sampled_from(
    [
        "# ",
        "## 09:30",
        "\n",
        "\r\n",
        "- ",
        "```",
        "<!-- memgit:entry key=a source=MEMORY.md:1-2@abc -->",
        "<!-- memgit:",
        "-->",
        "<<<<<<< ours",
        "=======",
        ">>>>>>> theirs",
        '"',
        "'",
        "*",
        "NEAR(",
        ")",
        "AND",
        "OR",
        "NOT",
        "^",
        ":",
        "-",
        "{",
        "}",
        "[",
        "]",
        "\\",
        "\x00",
        "\ufeff",
        "\u200b",
        "日本語",
        "é",
        "🙂",
        '{"role": "user", "content": "hi"}',
        '{"type": "message"}',
        "null",
        "[]",
        "password: x",
    ]
)
TEXT = st.one_of(st.text(), st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=40).map("".join))
PATHS = st.one_of(
    st.text(max_size=60),
    st.lists(
        st.sampled_from(
            [
                "..",
                ".",
                "",
                "memory",
                "MEMORY.md",
                "USER.md",
                "sessions",
                "x.jsonl",
                "2026-01-05.md",
                ".git",
                "config",
                "link.md",
                "secret.txt",
                "notes",
                "*",
                "**",
                "?",
                "/",
                "\\",
                "%2e%2e",
                "\x00",
                "~",
            ]
        ),
        max_size=6,
    ).map("/".join),
)


# -- pure parsers ---------------------------------------------------------------------------------
@FUZZ
@given(TEXT, st.integers(1, 64), st.integers(0, 64))
def test_chunker_covers_every_non_blank_line_in_order(text: str, max_tokens: int, overlap: int) -> None:
    lines = list(enumerate(split_lines(text), start=1))
    chunks = chunk_lines(lines, max_tokens=max_tokens, overlap_tokens=overlap, count_tokens=char_token_counter(4))
    covered: set[int] = set()
    for before, after in zip(chunks, chunks[1:], strict=False):
        if before.start_char is not None and after.start_char is not None and before.start_line == after.start_line:
            # Two pieces of one line too long for a chunk: they move forward along that line.
            assert before.start_char < after.start_char and before.end_char is not None
            assert after.end_char is not None and before.end_char < after.end_char
        else:
            assert before.start_line <= after.start_line and before.end_line < after.end_line
    for chunk in chunks:
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines)
        if chunk.start_char is not None:
            line = lines[chunk.start_line - 1][1]
            assert chunk.start_line == chunk.end_line and line[chunk.start_char : chunk.end_char] == chunk.text
        covered.update(range(chunk.start_line, chunk.end_line + 1))
    assert {n for n, line in lines if line.strip()} <= covered


@FUZZ
@given(TEXT)
def test_transcript_reader_takes_any_text(text: str) -> None:
    total = len(text.split("\n"))
    for number, said in transcript_lines(text):
        assert 1 <= number <= total and ": " in said


@FUZZ
@given(TEXT)
def test_marker_and_reference_parsers_take_any_line(text: str) -> None:
    for line in text.split("\n"):
        marker = provenance.parse_marker(line)
        if marker is not None:
            assert marker.key and provenance.is_marker_line(line)
            again = provenance.parse_marker(marker.format())
            assert again is not None and again.key == marker.key
        try:
            ref = provenance.parse_reference(line)
        except provenance.BadReference:
            continue
        assert 1 <= ref.start <= ref.end


@FUZZ
@given(st.binary(max_size=300) | TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_lint_and_decoder_take_any_bytes(data: bytes) -> None:
    for path in ("MEMORY.md", "memory/2026-01-05.md", "sessions/a.jsonl"):
        item = rules.LintInput(path, data, data[: len(data) // 2] or None, True)
        findings = rules.lint_file(item, rules.LintSettings(), __import__("datetime").date(2026, 1, 9))
        assert all(f.code in rules.RULES_BY_CODE for f in findings)
    try:
        decoded = decode_memory_text(data)
    except NotText:
        return
    assert isinstance(decoded, str)


@pytest.fixture(scope="module")
def fts_table() -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    db.executemany(
        "INSERT INTO t(body) VALUES (?)", [(fts_text(s),) for s in ("deploy billing", "日本語 メモ", "a-b c")]
    )
    yield db
    db.close()


@FUZZ
@given(TEXT)
def test_fts_query_never_errors(fts_table: sqlite3.Connection, query: str) -> None:
    expression = match_expression(query_terms(query))
    if expression is None:
        return
    fts_table.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank", (expression,)).fetchall()


@FUZZ
@given(PATHS, st.lists(st.text(max_size=12), max_size=3))
def test_path_predicates_never_accept_escapes(path: str, extra: list[str]) -> None:
    try:
        for pattern in extra:
            glob_to_regex(pattern)
        accepted = is_memory_path(path, extra)
    except MemgitError:
        return
    if accepted:
        parts = path.split("/")
        assert not path.startswith("/") and ".." not in parts and "\x00" not in path
    normal = normalise_user_path(path)
    if normal is not None:
        assert ".." not in normal.split("/") and not normal.startswith("/")


# -- a real workspace: get, the MCP path filter and service -----------------------------------------
@pytest.fixture(scope="module")
def fuzz_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("fuzz")
    root = base / "ws"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- The user prefers tea.\n")
    write(root / "memory" / "2026-01-05.md", "# 2026-01-05\n\n- Deployed billing.\n")
    write(root / "sessions" / "a.jsonl", '{"role": "user", "content": "hello"}\n')
    write(root / "secret.txt", SENTINEL + "\n")  # in the work tree, not memory
    write(base / "outside.md", SENTINEL + "\n")  # outside the work tree
    write(root / "memory" / ".dreams" / "x.md", SENTINEL + "\n")  # hidden: not memory
    os.symlink("../secret.txt", root / "memory" / "link.md")
    os.symlink(str(base / "outside.md"), root / "memory" / "far.md")
    git(root, "add", "-A")
    git(root, "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "init")
    (root / ".git" / "description").write_text(SENTINEL + "\n")
    env = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1"}
    proc = memgit(root, "index", env=env)
    assert proc.returncode == 0, proc.stderr
    return root


@contextmanager
def memory_service(root: Path) -> Iterator[Any]:
    from memgit.config import McpConfig
    from memgit.mcp.service import MemoryService
    from memgit.workspace import Workspace

    saved = os.environ.get("MEMGIT_EMBEDDING")
    os.environ["MEMGIT_EMBEDDING"] = "none"
    try:
        service = MemoryService(Workspace.discover(root), McpConfig(scan_interval=0))
        try:
            yield service
        finally:
            service.close()
    finally:
        if saved is None:
            os.environ.pop("MEMGIT_EMBEDDING", None)
        else:
            os.environ["MEMGIT_EMBEDDING"] = saved


def no_sentinel(payload: Any) -> None:
    assert SENTINEL not in json.dumps(payload, default=str)


@SLOW_FUZZ
@given(path=PATHS, start=st.one_of(st.none(), st.integers(-5, 10**6)), lines=st.integers(-3, 600))
def test_get_never_leaves_the_memory_paths(fuzz_workspace: Path, path: str, start: int | None, lines: int) -> None:
    from memgit.core.paths import path_from_key
    from memgit.recall.get import read_memory
    from memgit.workspace import Workspace

    ws = Workspace.discover(fuzz_workspace)
    try:
        read = read_memory(ws, path, start, None, max_lines=max(lines, 1))
    except MemgitError:
        return
    assert ws.is_memory_path(path_from_key(read.path))  # a name that is not UTF-8 comes back quoted
    real = (fuzz_workspace / path_from_key(read.path)).resolve()
    assert real.is_relative_to(fuzz_workspace.resolve())
    no_sentinel(read.to_dict())


@SLOW_FUZZ
@given(st.data())
def test_mcp_service_takes_any_arguments(fuzz_workspace: Path, data: st.DataObject) -> None:
    with memory_service(fuzz_workspace) as service:
        for _ in range(4):
            tool = data.draw(st.sampled_from(["search", "get", "append", "status"]))
            try:
                if tool == "search":
                    payload = service.search(
                        data.draw(TEXT), data.draw(st.integers(1, 50)), data.draw(st.none() | PATHS)
                    )
                elif tool == "get":
                    payload = service.get(
                        data.draw(PATHS), data.draw(st.none() | st.integers(1, 10**5)), data.draw(st.integers(1, 500))
                    )
                elif tool == "append":
                    text = data.draw(TEXT)
                    payload = service.append(text, data.draw(st.booleans()), False)
                    written = (fuzz_workspace / payload["path"]).read_text(encoding="utf-8")
                    # Nothing lost: the note is there, as the writer's documented clean-up leaves it.
                    assert clean_text(text, max_chars=10**9).strip() in written
                else:
                    payload = service.status()
            except MemgitError:
                continue
            if tool != "append":
                no_sentinel(payload)
    git(fuzz_workspace, "checkout", "-q", "--", ".")
    git(fuzz_workspace, "clean", "-qfd", "memory", "MEMORY.md")


# -- the real server: arbitrary JSON arguments -------------------------------------------------------
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
    | PATHS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
ARG_NAMES = st.sampled_from(["query", "k", "path", "from", "lines", "text", "long_term", "commit", "x", ""])


@pytest.fixture(scope="module")
def server(fuzz_workspace: Path) -> Iterator[tuple[BlockingPortal, Any]]:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    keep = ("HOME", "PATH", "GIT_", "MEMGIT_", "XDG_", "PYTHONPATH")
    env = {k: v for k, v in os.environ.items() if k.startswith(keep)}
    env["MEMGIT_EMBEDDING"] = "none"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "memgit", "mcp"], cwd=str(fuzz_workspace), env=env
    )

    @contextmanager_async
    async def session() -> Any:
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write_stream),
                ClientSession(read, write_stream) as s,
            ):
                await s.initialize()
                yield s

    with start_blocking_portal() as portal, portal.wrap_async_context_manager(session()) as client:
        yield portal, client


def contextmanager_async(fn: Any) -> Any:
    from contextlib import asynccontextmanager

    return asynccontextmanager(fn)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    tool=st.sampled_from(["memory_search", "memory_get", "memory_append", "memory_status", "memory_nope"]),
    arguments=st.dictionaries(ARG_NAMES, JSON_VALUES, max_size=4),
)
def test_server_answers_any_arguments(server: tuple[BlockingPortal, Any], tool: str, arguments: dict[str, Any]) -> None:
    portal, client = server

    async def call() -> Any:
        with anyio.fail_after(30):
            return await client.call_tool(tool, arguments)

    if tool == "memory_nope":
        # An unknown tool is a protocol error (JSON-RPC -32602), never a tool result.
        with pytest.raises(MCPError) as raised:
            portal.call(call)
        assert raised.value.error.code == -32602 and "Traceback" not in raised.value.error.message
        return
    result = portal.call(call)
    text = "\n".join(getattr(block, "text", "") for block in result.content)
    assert "Traceback" not in text
    if tool == "memory_append" and not result.is_error:
        return
    assert SENTINEL not in text
    if not result.is_error:
        assert result.structured_content is not None


def test_server_still_answers_after_the_fuzzing(server: tuple[BlockingPortal, Any]) -> None:
    portal, client = server

    async def call() -> Any:
        with anyio.fail_after(30):
            return await client.call_tool("memory_search", {"query": "billing deployed"})

    result = portal.call(call)
    assert not result.is_error and result.structured_content["hits"]
