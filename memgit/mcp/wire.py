"""JSON-RPC 2.0 over stdio, as MCP frames it: one JSON message per line, UTF-8.

The parts a server needs, pure where they can be: a bounded line reader (a line longer than the
limit is skipped in small pieces, never held whole), a decoder that sorts a line into a request,
a notification, a client's response or a problem to answer, the encoder (one line, always valid
UTF-8), the protocol-version choice of the `initialize` handshake, and how the stateless 2026
era marks its requests (a revision in `params._meta`) and results (`resultType`, cache hints).

Why our own and not the SDK's: the SDK's server side imports its client, pydantic models of two
protocol eras, starlette and uvicorn (about 55 MB and a second at start) for a protocol that over
stdio is this file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, TypeGuard

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

#: The 2026 era's code for a request at a revision the server does not speak.
UNSUPPORTED_PROTOCOL_VERSION = -32022

#: Protocol revisions reachable through the `initialize` handshake, oldest first. The tools use
#: nothing a newer revision removed, so every one of them gets the same answers.
SUPPORTED_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_VERSION = SUPPORTED_VERSIONS[-1]

#: Stateless revisions: no handshake; each request names its revision in `params._meta`, a client
#: finds the server's with `server/discover`, and every result says what kind it is.
MODERN_VERSIONS = ("2026-07-28",)
VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo"
#: Results a 2026-era client may cache: they carry a scope and a time to live.
_CACHEABLE = frozenset({"server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list"})

#: Bytes read at a time while skipping the rest of an oversized line.
_SKIP_CHUNK = 64 * 1024

RequestId = int | str


class ParamsError(Exception):
    """A request whose params name nothing the server has (an unknown prompt or resource) or do
    not fit it: JSON-RPC -32602, with `data` saying what was asked for."""

    def __init__(self, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data


@dataclass(frozen=True)
class Request:
    id: RequestId
    method: str
    params: Any


@dataclass(frozen=True)
class Notification:
    method: str
    params: Any


@dataclass(frozen=True)
class Ignored:
    """A response from the client (this server sends no requests) or an empty line."""


@dataclass(frozen=True)
class Invalid:
    """A line to answer with an error: not JSON, not a JSON-RPC message, or too large."""

    id: RequestId | None
    code: int
    message: str


@dataclass(frozen=True)
class Oversized:
    """A line longer than the limit: its first `limit` bytes, the rest already skipped."""

    head: bytes


Incoming = Request | Notification | Ignored | Invalid


def read_lines(stream: BinaryIO, limit: int) -> Iterator[bytes | Oversized]:
    """Lines of `stream` without their end; a line over `limit` bytes becomes `Oversized`.

    Memory stays within `limit` plus one skip chunk whatever the client sends.
    """
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            rest = line
            while rest and not rest.endswith(b"\n"):
                rest = stream.readline(_SKIP_CHUNK)
            yield Oversized(line[:limit])
            continue
        yield line.rstrip(b"\r\n")


# A client writes `id` near the start ({"jsonrpc":"2.0","id":7,...}): enough to address the error
# about a line too large to read, without parsing it. Anchored, so nothing nested can match.
_LEADING_ID = re.compile(rb'\A\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,200}")')


def oversized(head: bytes, limit: int) -> Invalid:
    """The error for a line over `limit` bytes, addressed to its id when the id came first."""
    match = _LEADING_ID.match(head)
    ident: RequestId | None = json.loads(match.group(1)) if match else None
    return Invalid(ident, INVALID_REQUEST, f"message too large: over {limit:,} bytes; it was not read")


def _valid_id(value: Any) -> TypeGuard[RequestId]:
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def decode(line: bytes) -> Incoming:
    """One line -> what it is. Never raises."""
    if not line.strip():
        return Ignored()
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as exc:  # bad JSON, bad UTF-8, absurd nesting
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        return Invalid(None, PARSE_ERROR, f"Parse error: {reason}")
    if isinstance(message, list):
        return Invalid(None, INVALID_REQUEST, "Invalid Request: batches are not supported; send one message a line")
    if not isinstance(message, dict):
        return Invalid(None, INVALID_REQUEST, "Invalid Request: a message is a JSON object")
    ident = message.get("id")
    has_id = "id" in message and _valid_id(ident)
    if message.get("jsonrpc") != "2.0":
        return Invalid(ident if has_id else None, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
    method = message.get("method")
    if method is None and ("result" in message or "error" in message):
        return Ignored()
    if not isinstance(method, str):
        return Invalid(ident if has_id else None, INVALID_REQUEST, 'Invalid Request: "method" must be a string')
    if "id" not in message:
        return Notification(method, message.get("params"))
    if not _valid_id(ident):
        return Invalid(None, INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer')
    return Request(ident, method, message.get("params"))


def result(ident: RequestId, value: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": value}


def error(ident: RequestId | None, code: int, message: str, data: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": ident, "error": body}


def encode(message: dict[str, Any]) -> bytes:
    """One line of UTF-8 JSON. Text that is not valid Unicode (a lone surrogate) is escaped."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


def request_version(params: Any) -> str | None:
    """The revision a 2026-era request names in `params._meta`; None for a handshake-era request."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(VERSION_META_KEY) if isinstance(meta, dict) else None
    return version if isinstance(version, str) and version not in SUPPORTED_VERSIONS else None


def unsupported_version(ident: RequestId, requested: str) -> dict[str, Any]:
    """The answer to a request at a revision we do not speak: which ones we do (-32022)."""
    data = {"supported": list(MODERN_VERSIONS), "requested": requested}
    return error(ident, UNSUPPORTED_PROTOCOL_VERSION, f"Unsupported protocol version: {requested}", data)


def modern_result(method: str, value: dict[str, Any]) -> dict[str, Any]:
    """A result as the 2026 era frames it: complete, and for lists private and not to be cached."""
    stamped = {**value, "resultType": "complete"}
    if method in _CACHEABLE:
        stamped |= {"cacheScope": "private", "ttlMs": 0}
    return stamped


def negotiate_version(requested: Any) -> str:
    """The client's revision when we speak it, else our latest (the client then decides)."""
    return requested if requested in SUPPORTED_VERSIONS else LATEST_VERSION
