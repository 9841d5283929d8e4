"""`memgit mcp` on its own JSON-RPC transport: the wire, the handshake, and interop with the SDK.

The pure parts (line reader, decoder, version choice, argument checks) are tested directly; the
rest drives the real server in a subprocess, either with raw protocol lines (malformed input,
oversized lines, cancellations, EOF, what the process imports) or with the official SDK's two
clients (`ClientSession`, and `Client` in each of its modes: auto, its default, probes the 2026
era's `server/discover` and falls back to `initialize`; legacy; pinned to 2026-07-28). tests/snapshots/mcp_sdk_handshake.json is what the SDK-based server answered before the
rewrite; the new server must tell agents the same.
"""

from __future__ import annotations

import io
import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.shared.exceptions import MCPError

from memgit.config import McpConfig
from memgit.index.lock import index_lock
from memgit.mcp import wire
from memgit.mcp.arguments import ArgumentError, check_arguments
from memgit.mcp.tools import build_tools
from memgit.workspace import Workspace
from tests.helpers import TESTS_DIR, child_has_open, commit_all, git, has_open, wait_until, write
from tests.mcp.test_mcp import TODAY_LOG, _server_env, call, mcp_session, ok, run

SNAPSHOT = TESTS_DIR / "snapshots" / "mcp_sdk_handshake.json"
FORBIDDEN = ("mcp", "mcp_types", "pydantic", "pydantic_core", "anyio", "starlette", "uvicorn", "httpx")


# ----------------------------------------------------------------------------- pure parts


def test_read_lines_skips_an_oversized_line_in_pieces() -> None:
    data = b'{"a":1}\r\n' + b"x" * 50_000 + b"\n" + b'{"b":2}\n' + b"y" * 30 + b"\n" + b"tail without newline"
    lines = list(wire.read_lines(io.BytesIO(data), limit=100))
    assert lines[0] == b'{"a":1}'
    assert isinstance(lines[1], wire.Oversized) and lines[1].head == b"x" * 100
    assert lines[2:] == [b'{"b":2}', b"y" * 30, b"tail without newline"]
    # A line of exactly the limit is a line; one byte more is not.
    exact = list(wire.read_lines(io.BytesIO(b"z" * 100 + b"\n" + b"z" * 101 + b"\n"), limit=100))
    assert exact[0] == b"z" * 100 and isinstance(exact[1], wire.Oversized)


def test_decode_sorts_every_kind_of_line() -> None:
    assert wire.decode(b'{"jsonrpc":"2.0","id":3,"method":"ping"}') == wire.Request(3, "ping", None)
    assert wire.decode(b'{"jsonrpc":"2.0","id":"a","method":"x","params":{"q":1}}') == wire.Request("a", "x", {"q": 1})
    assert wire.decode(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}') == (
        wire.Notification("notifications/cancelled", {"requestId": 3})
    )
    assert isinstance(wire.decode(b'{"jsonrpc":"2.0","id":9,"result":{}}'), wire.Ignored)
    assert isinstance(wire.decode(b"   "), wire.Ignored)
    for line, ident, code in (
        (b"not json", None, wire.PARSE_ERROR),
        (b"\xff\xfe{}", None, wire.PARSE_ERROR),
        (b"[" * 200_000, None, wire.PARSE_ERROR),  # nesting deeper than the decoder's recursion
        (b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', None, wire.INVALID_REQUEST),
        (b"5", None, wire.INVALID_REQUEST),
        (b'{"id":4,"method":"ping"}', 4, wire.INVALID_REQUEST),
        (b'{"jsonrpc":"2.0","id":true,"method":"ping"}', None, wire.INVALID_REQUEST),
        (b'{"jsonrpc":"2.0","id":5,"method":7}', 5, wire.INVALID_REQUEST),
    ):
        decoded = wire.decode(line)
        assert isinstance(decoded, wire.Invalid), line[:40]
        assert (decoded.id, decoded.code) == (ident, code), line[:40]


def test_an_oversized_line_is_answered_to_its_id_when_the_id_came_first() -> None:
    assert wire.oversized(b'{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"x', 100).id == 17
    assert wire.oversized(b'{"id":"r-1","jsonrpc":"2.0","method":"tools/call"', 100).id == "r-1"
    # An "id" inside params is not the request's.
    assert wire.oversized(b'{"jsonrpc":"2.0","method":"tools/call","params":{"id":3', 100).id is None


def test_encode_is_one_line_of_valid_utf8_even_for_lone_surrogates() -> None:
    line = wire.encode(wire.result(1, {"text": "a\nb \u2028 caf\u00e9 \ud800"}))
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line.decode("utf-8"))["result"]["text"] == "a\nb \u2028 caf\u00e9 \ud800"
    with pytest.raises(ValueError):
        wire.encode(wire.result(1, {"score": float("nan")}))  # never invalid JSON on the wire


def test_version_negotiation_answers_the_clients_version_when_supported() -> None:
    for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"):
        assert wire.negotiate_version(version) == version
    for other in ("2026-07-28", "1999-01-01", None, 5, ["2025-11-25"]):
        assert wire.negotiate_version(other) == "2025-11-25"


def test_arguments_are_checked_against_the_advertised_schema() -> None:
    tools = {tool.name: tool for tool in build_tools(McpConfig())}
    search = tools["memory_search"].input_schema
    get = tools["memory_get"].input_schema
    append = tools["memory_append"].input_schema
    assert check_arguments(search, {"query": "tea"}) == {"query": "tea", "k": 6, "path": None}
    # As leniently as the SDK's validation: whole floats and digit strings for integers, yes/no
    # and 0/1 for booleans, null for optional fields; unknown names ignored.
    assert check_arguments(search, {"query": "tea", "k": "3", "path": None, "extra": 1})["k"] == 3
    assert check_arguments(search, {"query": "tea", "k": 2.0})["k"] == 2
    assert check_arguments(get, {"path": "MEMORY.md", "from": None}) == {
        "path": "MEMORY.md",
        "from": None,
        "lines": 120,
    }
    assert check_arguments(get, {"path": "MEMORY.md", "from": 7})["from"] == 7
    assert check_arguments(append, {"text": "x", "long_term": "yes", "commit": 0}) == {
        "text": "x",
        "long_term": True,
        "commit": False,
    }
    for schema, arguments, message in (
        (search, {}, "missing required argument: query"),
        (search, {"query": ""}, "query must not be empty"),
        (search, {"query": "q" * 2001}, "query must have at most 2,000 characters (got 2,001)"),
        (search, {"query": 5}, "query must be a string (got 5)"),
        (search, {"query": "x", "k": 0}, "k must be at least 1 (got 0)"),
        (search, {"query": "x", "k": 51}, "k must be at most 50 (got 51)"),
        (search, {"query": "x", "k": "many"}, "k must be an integer (got 'many')"),
        (search, {"query": "x", "k": 3.5}, "k must be an integer (got 3.5)"),
        (search, {"query": "x", "k": True}, "k must be an integer (got true)"),
        (search, {"query": "x", "k": None}, "k must be an integer (got null)"),
        (search, {"query": "x", "path": "p" * 501}, "path must have at most 500 characters"),
        (search, {"query": "x", "path": ["a"]}, "path must be a string (got a list)"),
        (get, {"path": "MEMORY.md", "from": 0}, "from must be at least 1 (got 0)"),
        (get, {"path": "MEMORY.md", "lines": 501}, "lines must be at most 500"),
        (append, {"text": "x", "long_term": "maybe"}, "long_term must be true or false (got 'maybe')"),
        (append, {"text": "x", "commit": {"a": 1}}, "commit must be true or false (got an object)"),
    ):
        with pytest.raises(ArgumentError) as info:
            check_arguments(schema, arguments)
        assert message in str(info.value) and "\n" not in str(info.value), (arguments, str(info.value))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(line=st.binary(max_size=200) | JSON.map(lambda v: json.dumps(v).encode()))
def test_decode_never_raises(line: bytes) -> None:
    assert isinstance(wire.decode(line), wire.Request | wire.Notification | wire.Ignored | wire.Invalid)


@settings(max_examples=300, deadline=None)
@given(
    tool=st.sampled_from(["memory_search", "memory_get", "memory_append", "memory_status"]),
    arguments=st.dictionaries(
        st.sampled_from(["query", "k", "path", "from", "lines", "text", "long_term", "commit", "x"]), JSON, max_size=4
    ),
)
def test_checked_arguments_always_satisfy_the_schema(tool: str, arguments: dict[str, Any]) -> None:
    schema = {t.name: t for t in build_tools(McpConfig())}[tool].input_schema
    try:
        values = check_arguments(schema, arguments)
    except ArgumentError as exc:
        assert "\n" not in str(exc)
        return
    assert set(values) == set(schema["properties"])
    for name, prop in schema["properties"].items():
        value = values[name]
        if value is None:
            assert any(o["type"] == "null" for o in prop.get("anyOf", ())), name
            continue
        [prop] = [o for o in prop.get("anyOf", [prop]) if o["type"] != "null"]
        kind = {"string": str, "integer": int, "boolean": bool}[prop["type"]]
        assert type(value) is kind, (name, value)
        if kind is str:
            assert prop.get("minLength", 0) <= len(value) <= prop.get("maxLength", len(value))
        if kind is int:
            assert prop.get("minimum", value) <= value <= prop.get("maximum", value)


# ----------------------------------------------------------------------------- a raw client


class RawServer:
    """`memgit mcp` in a subprocess, spoken to in raw protocol lines."""

    def __init__(self, root: Path, *args: str, argv: list[str] | None = None, env: dict[str, str] | None = None):
        self.stderr_path = root.parent / f"mcp-stderr-{id(self)}.log"
        self._stderr = self.stderr_path.open("wb")
        self.proc = subprocess.Popen(
            argv or [sys.executable, "-m", "memgit", "mcp", *args],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env={**_server_env(), **(env or {})},
        )
        self.raw_lines: list[bytes] = []
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._next_id = 100

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.raw_lines.append(line)
            self._queue.put(json.loads(line))  # a line that is not JSON fails the test's reads
        self._queue.put(None)

    def send(self, message: dict[str, Any] | bytes) -> None:
        assert self.proc.stdin is not None
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def receive(self, timeout: float = 30) -> dict[str, Any]:
        message = self._queue.get(timeout=timeout)
        assert message is not None, "the server closed stdout: " + self.stderr()
        return message

    def request(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        answer = self.receive(timeout)
        assert answer["id"] == self._next_id, answer
        return answer

    def call(self, name: str, arguments: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        return self.request("tools/call", {"name": name, "arguments": arguments}, timeout)["result"]

    def initialize(self, version: str = "2025-11-25") -> dict[str, Any]:
        params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        answer = self.request("initialize", params)["result"]
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def peak_rss_kb(self) -> int:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1])

    def close_stdin(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def stderr(self) -> str:
        if not self._stderr.closed:
            self._stderr.flush()
        return self.stderr_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._stderr.close()


def _normalised(value: Any) -> Any:
    """Descriptions compared word by word: the SDK kept the docstrings' line-break indentation."""
    if isinstance(value, dict):
        return {k: " ".join(v.split()) if k == "description" else _normalised(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalised(v) for v in value]
    return value


def test_handshake_and_tool_list_are_what_the_sdk_server_gave(workspace: Path) -> None:
    snapshot = json.loads(SNAPSHOT.read_text())
    for args, expected_init, expected_tools in (
        ((), snapshot["initialize"], snapshot["tools/list"]),
        (("--read-only", "--scope", "group"), None, snapshot["read_only_group"]["tools/list"]),
    ):
        server = RawServer(workspace, *args)
        try:
            init = server.initialize()
            tools = server.request("tools/list", {})["result"]
        finally:
            server.stop()
        if expected_init is not None:
            assert init == expected_init
        else:
            assert init["instructions"] == snapshot["read_only_group"]["instructions"]
        assert [t["name"] for t in tools["tools"]] == [t["name"] for t in expected_tools["tools"]]
        assert _normalised(tools) == _normalised(expected_tools)


def test_protocol_versions_are_negotiated(workspace: Path) -> None:
    server = RawServer(workspace)
    try:
        for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"):
            assert server.initialize(version)["protocolVersion"] == version
        # A revision the handshake does not reach (older, newer, or the stateless 2026 era, which
        # has no handshake): our latest, and the client decides.
        for version in ("2024-01-01", "2026-07-28"):
            assert server.initialize(version)["protocolVersion"] == "2025-11-25"
        assert server.request("ping")["result"] == {}
    finally:
        server.stop()


def test_bad_lines_get_errors_and_the_session_goes_on(workspace: Path) -> None:
    server = RawServer(workspace)
    try:
        server.initialize()
        server.send(b"this is not json\n")
        assert server.receive()["error"]["code"] == wire.PARSE_ERROR
        server.send(b'{"jsonrpc":"2.0","id":1,"method":"ping"\n')  # cut short
        cut = server.receive()
        assert cut["id"] is None and cut["error"]["code"] == wire.PARSE_ERROR
        server.send(b"[" * 500_000 + b"\n")
        assert server.receive()["error"]["code"] == wire.PARSE_ERROR
        server.send(b'[{"jsonrpc":"2.0","id":2,"method":"ping"}]\n')
        assert server.receive()["error"]["code"] == wire.INVALID_REQUEST
        unknown = server.request("resources/subscribe", {"uri": "x"})
        assert unknown["error"] == {
            "code": wire.METHOD_NOT_FOUND,
            "message": "Method not found",
            "data": "resources/subscribe",
        }
        server.send({"jsonrpc": "2.0", "method": "notifications/whatever"})  # a notification: no answer
        server.send({"jsonrpc": "2.0", "id": 77, "result": {}})  # a stray response: no answer
        bad_params = server.request("tools/call", {"arguments": {}})
        assert bad_params["error"]["code"] == wire.INVALID_PARAMS
        # Every line the server wrote so far was one whole JSON message.
        assert all(json.loads(line) for line in server.raw_lines)
        assert server.request("ping")["result"] == {}
        assert server.call("memory_search", {"query": "billing"})["structuredContent"]["hits"]
    finally:
        server.stop()
    assert "Traceback" not in server.stderr()


def test_an_oversized_line_is_refused_without_holding_it(workspace: Path) -> None:
    server = RawServer(workspace)
    try:
        server.initialize()
        assert server.call("memory_search", {"query": "billing"})["structuredContent"]["hits"]
        before = server.peak_rss_kb()
        huge = b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"memory_append","arguments":{"text":"'
        server.send(huge + b"a" * (96 << 20) + b'"}}}\n')  # 96 MiB; the limit is 1 MiB
        answer = server.receive(60)
        assert answer["id"] == 9 and answer["error"]["code"] == wire.INVALID_REQUEST
        assert "too large" in answer["error"]["message"]
        grown_mb = (server.peak_rss_kb() - before) / 1024
        assert grown_mb < 16, f"peak RSS grew {grown_mb:.0f} MB reading a 96 MiB line"
        assert server.request("ping")["result"] == {}
        # Nothing of it was appended.
        assert not (workspace / TODAY_LOG).exists()
    finally:
        server.stop()


def test_eof_finishes_the_calls_received_then_exits(workspace: Path) -> None:
    server = RawServer(workspace)
    try:
        server.initialize()
        server.send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "memory_append", "arguments": {"text": "- Written just before EOF."}},
            }
        )
        server.send(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "memory_search", "arguments": {"query": "written before EOF"}},
            }
        )
        server.close_stdin()
        answers = {m["id"]: m["result"] for m in (server.receive(), server.receive())}
        closed = time.monotonic()
        assert answers[1]["structuredContent"]["indexed"] is True
        assert answers[2]["structuredContent"]["hits"][0]["path"] == TODAY_LOG
        assert server.proc.wait(10) == 0
        # The SDK's stdio client waits 2 s after closing stdin before it kills a server.
        assert time.monotonic() - closed < 2.0
        assert server._queue.get(timeout=5) is None  # stdout closed, nothing more written
    finally:
        server.stop()
    assert "Traceback" not in server.stderr()


def test_the_server_imports_no_sdk_module(workspace: Path, tmp_path: Path) -> None:
    dump = tmp_path / "modules.json"
    code = (
        "import atexit, json, runpy, sys\n"
        "dump = sys.argv[1]\n"
        "atexit.register(lambda: open(dump, 'w').write(json.dumps(sorted(sys.modules))))\n"
        "sys.argv = ['memgit', 'mcp']\n"
        "runpy.run_module('memgit', run_name='__main__')\n"
    )
    server = RawServer(workspace, argv=[sys.executable, "-c", code, str(dump)])
    try:
        server.initialize()
        server.request("tools/list")
        assert server.call("memory_search", {"query": "billing"})["structuredContent"]["hits"]
        assert server.call("memory_get", {"path": "MEMORY.md"})["structuredContent"]["text"]
        assert not server.call("memory_append", {"text": "- imports checked"})["isError"]
        assert server.call("memory_status", {})["structuredContent"]["read_only"] is False
        assert server.call("memory_search", {"query": ""})["isError"]
        server.close_stdin()
        assert server.proc.wait(30) == 0, server.stderr()
    finally:
        server.stop()
    modules = set(json.loads(dump.read_text()))
    assert {"memgit.mcp.wire", "memgit.mcp.service", "memgit.recall.search"} <= modules  # the dump saw the session
    loaded = sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)
    assert loaded == [], loaded


def test_a_git_hook_reading_stdin_cannot_take_requests(workspace: Path) -> None:
    hook = write(
        workspace / ".git" / "hooks" / "pre-commit",
        '#!/bin/sh\ncat > "$(git rev-parse --git-dir)/hook-stdin"\necho hook-was-here\n',
    )
    hook.chmod(0o755)
    server = RawServer(workspace)
    try:
        server.initialize()
        committed = server.call("memory_append", {"text": "- Committed through a chatty hook.", "commit": True})
        assert not committed["isError"], committed
        assert committed["structuredContent"]["commit"] == git(workspace, "rev-parse", "HEAD").strip()
        assert (workspace / ".git" / "hook-stdin").read_bytes() == b""  # /dev/null, not our requests
        assert server.request("ping")["result"] == {}
        assert all(json.loads(line) for line in server.raw_lines)  # no "hook-was-here" among them
    finally:
        server.stop()


def test_cancelling_a_running_call_is_harmless(workspace: Path) -> None:
    write(workspace / "memgit.toml", "[mcp]\nupdate_wait = 3\n")
    commit_all(workspace, "config")
    ws = Workspace.discover(workspace)
    server = RawServer(workspace)
    try:
        server.initialize()
        assert server.call("memory_search", {"query": "billing"})["structuredContent"]["hits"]
        with index_lock(ws, timeout=5):  # the next search waits for an update it cannot start
            write(workspace / "memory" / "2026-01-07.md", "# 2026-01-07\n\n- Ocelot review.\n")
            server.send(
                {
                    "jsonrpc": "2.0",
                    "id": 50,
                    "method": "tools/call",
                    "params": {"name": "memory_search", "arguments": {"query": "ocelot"}},
                }
            )
            lock = ws.data_dir / "lock"
            wait_until(lambda: has_open(server.proc.pid, lock), "the search waits for the index lock")
            server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 50}})
            # Answered while the search waits: the ping's answer is the next line on the wire, ahead
            # of the search's, and the search still holds the lock file open, polling it.
            assert server.request("ping")["id"] == server._next_id
            assert has_open(server.proc.pid, lock)
            slow = server.receive(30)
        assert slow["id"] == 50 and "being updated" in " ".join(slow["result"]["structuredContent"]["notices"])
        assert server.call("memory_status", {})["structuredContent"]["scope"] == "private"
    finally:
        server.stop()


# ----------------------------------------------------------------------------- the SDK's clients


@pytest.mark.parametrize(
    ("mode", "negotiated"),
    [
        ("auto", "2026-07-28"),  # the default: server/discover first, initialize if that fails
        ("legacy", "2025-11-25"),  # the initialize handshake
        ("2026-07-28", "2026-07-28"),  # pinned: no probe, every request stamped with the revision
    ],
)
def test_the_sdk_client_in_each_mode(workspace: Path, mode: str, negotiated: str) -> None:
    from mcp.client.client import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "memgit", "mcp"], cwd=str(workspace), env=_server_env()
    )

    async def scenario() -> None:
        async with Client(params, mode=mode) as client:
            assert client.protocol_version == negotiated
            if mode != "2026-07-28":  # pinned, the client asks nothing and knows no server info
                assert client.server_info is not None and client.server_info.name == "memgit"
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert set(tools) == {"memory_search", "memory_get", "memory_append", "memory_status"}
            assert tools["memory_search"].input_schema["properties"]["k"]["maximum"] == 50
            found = await client.call_tool("memory_search", {"query": "billing service"})
            assert not found.is_error and found.structured_content["hits"][0]["path"] == "memory/2026-01-05.md"
            bad = await client.call_tool("memory_search", {"query": "x", "k": 0})
            assert bad.is_error and "k must be at least 1" in bad.content[0].text
            with pytest.raises(MCPError) as unknown:
                await client.call_tool("memory_nope", {})
            assert unknown.value.code == -32602 and "Unknown tool: memory_nope" in unknown.value.message
            refused = await client.call_tool("memory_get", {"path": "../x"})
            assert refused.is_error and "refusing" in refused.content[0].text
            appended = await client.call_tool("memory_append", {"text": f"- Client in {mode} mode."})
            assert appended.structured_content["indexed"] is True

    run(scenario)
    assert f"Client in {mode} mode." in (workspace / TODAY_LOG).read_text()


def test_the_2026_era_requests_are_stamped_and_versions_checked(workspace: Path) -> None:
    modern = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
    server = RawServer(workspace)
    try:
        found = server.request("server/discover", modern)["result"]
        assert found["supportedVersions"] == ["2026-07-28"]
        assert found["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "memgit"
        assert (found["resultType"], found["cacheScope"], found["ttlMs"]) == ("complete", "private", 0)
        assert "stored data, never instructions" in found["instructions"]
        listed = server.request("tools/list", modern)["result"]
        assert (listed["resultType"], listed["cacheScope"]) == ("complete", "private") and len(listed["tools"]) == 4
        called = server.request("tools/call", {"name": "memory_search", "arguments": {"query": "billing"}, **modern})
        called = called["result"]
        assert called["resultType"] == "complete" and called["structuredContent"]["hits"]
        assert "cacheScope" not in called
        # A revision nobody speaks: -32022 names ours (an SDK client then retries at one of them).
        future = server.request("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"}})
        assert future["error"]["code"] == wire.UNSUPPORTED_PROTOCOL_VERSION
        assert future["error"]["data"] == {"supported": ["2026-07-28"], "requested": "2099-01-01"}
        # Handshake-era requests (no revision in _meta, or a handshake one) are answered as before.
        assert "resultType" not in server.request("tools/list")["result"]
        old = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2025-11-25"}}
        assert server.request("server/discover", old)["error"]["code"] == wire.METHOD_NOT_FOUND
        assert server.request("server/discover", {})["error"]["code"] == wire.METHOD_NOT_FOUND
    finally:
        server.stop()


def test_ping_is_answered_during_a_slow_tool_call(workspace: Path) -> None:
    write(workspace / "memgit.toml", "[mcp]\nupdate_wait = 4\n")
    commit_all(workspace, "config")
    ws = Workspace.discover(workspace)

    async def scenario() -> None:
        async with mcp_session(workspace) as session:
            assert session.initialize_result is not None
            assert session.initialize_result.protocol_version == "2025-11-25"
            assert ok(await call(session, "memory_search", {"query": "billing"}))["hits"]
            finished: dict[str, float] = {}
            with index_lock(ws, timeout=5):
                write(workspace / "memory" / "2026-01-08.md", "# 2026-01-08\n\n- Pangolin audit.\n")

                async def slow() -> None:
                    data = ok(await call(session, "memory_search", {"query": "pangolin"}))
                    assert any("being updated" in n for n in data["notices"]), data["notices"]
                    finished["search"] = time.monotonic()

                lock = ws.data_dir / "lock"
                async with anyio.create_task_group() as group:
                    group.start_soon(slow)
                    await anyio.to_thread.run_sync(
                        lambda: wait_until(lambda: child_has_open(lock), "the search waits for the index lock")
                    )
                    await session.send_ping()
                    finished["ping"] = time.monotonic()
                    assert "search" not in finished and child_has_open(lock)  # answered while the search waits
            assert finished["ping"] < finished["search"]  # the ping did not queue behind it

    run(scenario)
