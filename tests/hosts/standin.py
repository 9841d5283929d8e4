"""A loopback stand-in for the model APIs agent hosts call: Anthropic Messages and OpenAI Responses.

Only the model is remote, so only the model is stood in for: the real Claude Code and Codex CLI
(from npm) run against this server on 127.0.0.1, their hook runners, transcript writers, MCP
clients and context handling all real. Every request is recorded as it came (`requests`), so a
test can read exactly what the host showed the model. Replies are scripted by `Script`: a tool
call when the test asks for one and the host offers that tool, else a short text; the reply to a
tool result quotes what the tool returned, so the transcript records it.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Script:
    """What the model does: call `tool` (whose name ends so) with `arguments` on the first request
    that offers it, then answer; otherwise answer `text`."""

    text: str = "Noted."
    tool: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    called: bool = False
    #: the answer when the host asks for a summary of the conversation (its compaction), if set
    summary: str | None = None


@dataclass
class Recorded:
    path: str
    body: dict[str, Any]

    @property
    def text(self) -> str:
        return json.dumps(self.body, ensure_ascii=False)


class StandIn:
    """The server: `with StandIn(script) as api:` then `api.url`; requests in `api.requests`."""

    def __init__(self, script: Script | None = None) -> None:
        self.script = script or Script()
        self.requests: list[Recorded] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"standin": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> StandIn:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def next_id(self) -> int:
        return next(self._ids)

    def decide(
        self, tools: list[str], tool_result: str | None, asked: str = ""
    ) -> tuple[str, str | None, dict[str, Any]]:
        """(text, tool name to call or None, its arguments) for one model request; `asked` is the
        request's last user text (a host's compaction asks there for a summary)."""
        with self._lock:
            script = self.script
            if script.summary is not None and "COMPACTION" in asked.upper() and "SUMMARY" in asked.upper():
                return script.summary, None, {}
            if tool_result is not None:
                return f"The memory said: {tool_result[:1500]}", None, {}
            wanted = [t for t in tools if script.tool and t.endswith(script.tool)]
            if wanted and not script.called:
                script.called = True
                return "", wanted[0], script.arguments
            return script.text, None, {}


def _sse(events: list[tuple[str, dict[str, Any]]]) -> Iterator[bytes]:
    for name, data in events:
        yield f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


class _Handler(BaseHTTPRequestHandler):
    standin: StandIn
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
        self._json(200, {"data": [], "object": "list"})

    def do_HEAD(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"raw": raw.decode("utf-8", "replace")}
        path = self.path.split("?")[0]
        self.standin.requests.append(Recorded(path, body if isinstance(body, dict) else {"body": body}))
        if path.endswith("/messages/count_tokens"):
            self._json(200, {"input_tokens": 100})
        elif path.endswith("/messages"):
            self._anthropic(body)
        elif path.endswith("/responses"):
            self._responses(body)
        else:
            self._json(200, {})

    def _json(self, status: int, data: dict[str, Any]) -> None:
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _stream(self, chunks: Iterator[bytes]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for chunk in chunks:
            self.wfile.write(chunk)
        self.wfile.flush()
        self.close_connection = True

    # -- Anthropic Messages ------------------------------------------------------------------
    def _anthropic(self, body: dict[str, Any]) -> None:
        tools = [t.get("name", "") for t in body.get("tools") or [] if isinstance(t, dict)]
        text, tool, arguments = self.standin.decide(tools, _anthropic_tool_result(body))
        n = self.standin.next_id()
        model = body.get("model", "claude-standin")
        content: list[dict[str, Any]] = []
        if tool:
            content.append({"type": "tool_use", "id": f"toolu_{n:04d}", "name": tool, "input": arguments})
        else:
            content.append({"type": "text", "text": text})
        stop = "tool_use" if tool else "end_turn"
        usage = {
            "input_tokens": 50,
            "output_tokens": 10,
            "cache_read_input_tokens": 0,
            "cache_creation_input_tokens": 0,
        }
        message = {"id": f"msg_{n:04d}", "type": "message", "role": "assistant", "model": model, "usage": usage}
        if not body.get("stream"):
            self._json(200, {**message, "content": content, "stop_reason": stop, "stop_sequence": None})
            return
        events: list[tuple[str, dict[str, Any]]] = [
            ("message_start", {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}}),
        ]
        block = content[0]
        if tool:
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(arguments)}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": text}
        events += [
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 10},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        self._stream(_sse(events))

    # -- OpenAI Responses --------------------------------------------------------------------
    def _responses(self, body: dict[str, Any]) -> None:
        tools = [name for t in body.get("tools") or [] if isinstance(t, dict) for name in _tool_names(t)]
        text, tool, arguments = self.standin.decide(tools, _responses_tool_result(body), _responses_last_user(body))
        n = self.standin.next_id()
        if tool:
            namespace, _, name = tool.rpartition("\x00")
            item: dict[str, Any] = {
                "type": "function_call",
                "id": f"fc_{n:04d}",
                "call_id": f"call_{n:04d}",
                "name": name,
                "arguments": json.dumps(arguments),
                "status": "completed",
            }
            if namespace:
                item["namespace"] = namespace
        else:
            item = {
                "type": "message",
                "id": f"msg_{n:04d}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        response = {"id": f"resp_{n:04d}", "object": "response", "status": "in_progress", "output": []}
        usage = {
            "input_tokens": 50,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 10,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 60,
        }
        events: list[tuple[str, dict[str, Any]]] = [
            ("response.created", {"type": "response.created", "response": response}),
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
        ]
        if not tool:
            events.append(
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "delta": text,
                    },
                )
            )
        events += [
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            (
                "response.completed",
                {
                    "type": "response.completed",
                    "response": {**response, "status": "completed", "output": [item], "usage": usage},
                },
            ),
        ]
        self._stream(_sse(events))


def _tool_names(tool: dict[str, Any]) -> list[str]:
    """A Responses tool's names; the tools of a namespace (Codex puts an MCP server's tools in
    `mcp__SERVER`) are `namespace NUL name`."""
    name = str(tool.get("name") or "")
    if tool.get("type") == "namespace":
        return [f"{name}\x00{inner.get('name')}" for inner in tool.get("tools") or [] if isinstance(inner, dict)]
    return [name]


def _anthropic_tool_result(body: dict[str, Any]) -> str | None:
    messages = body.get("messages") or []
    if not messages or not isinstance(messages[-1], dict):
        return None
    content = messages[-1].get("content")
    if not isinstance(content, list):
        return None
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            inner = block.get("content")
            if isinstance(inner, list):
                return " ".join(str(b.get("text", "")) for b in inner if isinstance(b, dict))
            return str(inner)
    return None


def _responses_tool_result(body: dict[str, Any]) -> str | None:
    items = body.get("input") or []
    if not items or not isinstance(items[-1], dict):
        return None
    last = items[-1]
    if last.get("type") in ("function_call_output", "custom_tool_call_output", "mcp_tool_call_output"):
        output = last.get("output")
        return output if isinstance(output, str) else json.dumps(output)
    return None


def _responses_last_user(body: dict[str, Any]) -> str:
    """The text of a Responses request's last input item when it is a user message, else ""."""
    items = body.get("input") or []
    last = items[-1] if items and isinstance(items[-1], dict) else {}
    if last.get("role") != "user" or not isinstance(last.get("content"), list):
        return ""
    return " ".join(str(part.get("text", "")) for part in last["content"] if isinstance(part, dict))
