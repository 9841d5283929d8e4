"""`memgit mcp`: the memory as Model Context Protocol tools, over stdio.

Tools: `memory_search`, `memory_get`, `memory_append`, `memory_status`; prompts `memory_flush` and
`session_start`; resources for MEMORY.md, USER.md, today's log and the session context. The parts:

* `options`: `[mcp]` options, argument limits, the agent's path filter;
* `watcher`: a git-free fingerprint that says whether the index is still current;
* `service`: `MemoryService`, the tools' logic (warm searcher, index updates on their own thread);
* `render`: payloads and the text agents read, memory framed as data;
* `tools`: the tool table (names, descriptions, hand-written JSON Schemas, annotations);
* `arguments`: tool arguments checked against those schemas;
* `prompts`, `resources`: the prompts and resources (they read files only, on the reading thread);
* `wire`: JSON-RPC 2.0 framing over stdio (bounded lines, decoding, encoding, versions);
* this module: the session (the methods it answers), the one thread that runs every tool
  body, and the stdio plumbing.

Why it is shaped like this:

* **No SDK in the server.** Over stdio MCP is newline-delimited JSON-RPC with a few methods;
  the official SDK's server costs about 55 MB of memory and a second of start-up (its client,
  pydantic models of two protocol eras, starlette, uvicorn). The SDK stays a test dependency:
  its client drives this server in the tests, which is the interoperability check.
* **One thread owns the index.** Every tool body runs on a single worker thread, so the warm
  connection is never used from two threads, and the main thread keeps reading requests: a
  ping is answered while a search waits for an index update.
* **Stdout is the protocol's alone.** At start the server moves the protocol to private
  descriptors and points fd 1 at stderr and fd 0 at /dev/null, so llama.cpp, a stray print
  or a git hook run by `commit: true` can neither write into the protocol nor read from it.
  Responses are written whole, one line each, under a lock.
* **Memory is data.** Memory text comes back inside `<memory-…>` delimiters under a notice that
  it is stored content, not instructions, and in fields named for what they are (`snippet`,
  `text`) next to that notice.
* **Writable unless told not to.** `--read-only` (or `[mcp] read_only = true`) keeps the tool
  list identical but refuses appends, for sandboxed or group sessions.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, BinaryIO

from memgit import __version__
from memgit.core import clock
from memgit.errors import MemgitError
from memgit.mcp import wire
from memgit.mcp.arguments import ArgumentError, check_arguments
from memgit.mcp.options import ServerOptions, path_filter, server_options
from memgit.mcp.render import DATA_NOTICE
from memgit.mcp.service import MemoryService
from memgit.mcp.tools import INSTRUCTIONS, Tool, build_tools, instructions
from memgit.mcp.watcher import ChangeWatcher

if TYPE_CHECKING:
    from memgit.workspace import Workspace

# The names callers used before the split into options/watcher/render/service.
__all__ = [
    "DATA_NOTICE",
    "INSTRUCTIONS",
    "ChangeWatcher",
    "MemoryService",
    "McpServer",
    "message_limit",
    "path_filter",
    "serve",
    "server_options",
]

#: What the server offers. The lists never change during a session (a daily log that appears is
#: read through its fixed `memgit://daily/today` URI), so there is nothing to notify.
CAPABILITIES = {
    "prompts": {"listChanged": False},
    "resources": {"subscribe": False, "listChanged": False},
    "tools": {"listChanged": False},
}

SERVER_INFO = {"name": "memgit", "title": "memgit memory", "version": __version__}

#: The smallest limit on one incoming message; a real request is a few kilobytes.
MIN_MESSAGE_BYTES = 1 << 20


def message_limit(options: ServerOptions) -> int:
    """Largest message read: room for the longest append, every character escaped (12 bytes)."""
    return max(MIN_MESSAGE_BYTES, 12 * options.max_append_chars + (64 << 10))


class BadParams(Exception):
    """A request whose params do not fit its method (JSON-RPC -32602)."""


def tool_error(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


class McpServer:
    """One MCP session over a pair of byte streams: `run(stdin)` until end of input."""

    def __init__(self, ws: Workspace, options: ServerOptions, out: BinaryIO) -> None:
        self.ws = ws
        self.options = options
        self.tools: dict[str, Tool] = {tool.name: tool for tool in build_tools(options)}
        self.limit = message_limit(options)
        self._out = out
        self._out_lock = threading.Lock()
        self._out_broken = False
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memgit-mcp")
        self._service: MemoryService | None = None
        self._methods: dict[str, Callable[[wire.Request], dict[str, Any] | None]] = {
            "initialize": self._initialize,
            "server/discover": self._discover,
            "ping": lambda _request: {},
            "tools/list": lambda _request: {"tools": [tool.listing() for tool in self.tools.values()]},
            "tools/call": self._call_tool,
            **self._prompt_and_resource_methods(),
        }

    # -- the session ----------------------------------------------------------------------
    def run(self, stdin: BinaryIO) -> None:
        """Answer requests until end of input, then finish the calls received and close."""
        self._worker.submit(self._start)  # the first job: every tool call queues behind it
        try:
            for line in wire.read_lines(stdin, self.limit):
                if isinstance(line, wire.Oversized):
                    self.handle(wire.oversized(line.head, self.limit))
                else:
                    self.handle(wire.decode(line))
        finally:
            self._worker.shutdown(wait=True)
            if self._service is not None:
                self._service.close()

    def handle(self, incoming: wire.Incoming) -> None:
        """One decoded line. Notifications (initialized, cancelled, any other) need no answer."""
        if isinstance(incoming, wire.Invalid):
            self.send(wire.error(incoming.id, incoming.code, incoming.message))
        elif isinstance(incoming, wire.Request):
            self._request(incoming)

    def _request(self, request: wire.Request) -> None:
        version = wire.request_version(request.params)  # set for a 2026-era request only
        if version is not None and version not in wire.MODERN_VERSIONS:
            self.send(wire.unsupported_version(request.id, version))
            return
        method = self._methods.get(request.method)
        if method is None or (request.method == "server/discover" and version is None):
            self.send(wire.error(request.id, wire.METHOD_NOT_FOUND, "Method not found", request.method))
            return
        try:
            answer = method(request)
        except BadParams as exc:
            self.send(wire.error(request.id, wire.INVALID_PARAMS, "Invalid request parameters", str(exc)))
            return
        except wire.ParamsError as exc:
            self.send(wire.error(request.id, wire.INVALID_PARAMS, exc.message, exc.data))
            return
        except Exception as exc:  # a bug answers its request with an error; the session goes on
            traceback.print_exc(file=sys.stderr)
            self.send(wire.error(request.id, wire.INTERNAL_ERROR, f"Internal error: {type(exc).__name__}: {exc}"))
            return
        if answer is not None:
            self.send(wire.result(request.id, self._framed(request, answer)))

    @staticmethod
    def _framed(request: wire.Request, answer: dict[str, Any]) -> dict[str, Any]:
        """A result as the request's era expects it."""
        if wire.request_version(request.params) is None:
            return answer
        return wire.modern_result(request.method, answer)

    def send(self, message: dict[str, Any]) -> None:
        """Write one message whole, as one line; a vanished client is not an error."""
        try:
            data = wire.encode(message)
        except (TypeError, ValueError) as exc:  # a payload JSON cannot carry: answer, do not hang
            print(f"memgit mcp: cannot encode an answer: {exc!r}", file=sys.stderr)
            ident = message.get("id")
            data = wire.encode(
                wire.error(ident, wire.INTERNAL_ERROR, f"Internal error: the answer cannot be encoded ({exc})")
            )
        with self._out_lock:
            if self._out_broken:
                return
            try:
                self._out.write(data)
                self._out.flush()
            except (OSError, ValueError):  # the client closed its end
                self._out_broken = True

    # -- methods ----------------------------------------------------------------------------
    def _prompt_and_resource_methods(self) -> dict[str, Callable[[wire.Request], dict[str, Any] | None]]:
        """Prompts and resources (memgit.mcp.prompts, memgit.mcp.resources). They only read files,
        so they are answered on the reading thread, not queued behind tool calls."""

        from memgit.mcp import prompts, resources

        def params(request: wire.Request) -> dict[str, Any]:
            return request.params if isinstance(request.params, dict) else {}

        return {
            "prompts/list": lambda _request: {"prompts": prompts.listing()},
            "prompts/get": lambda request: prompts.get(self.ws, self.options, request.params, clock.today()),
            "resources/list": lambda _request: {"resources": resources.listing(self.ws, self.options, clock.today())},
            "resources/templates/list": lambda _request: {"resourceTemplates": resources.templates(self.options)},
            "resources/read": lambda request: resources.read(
                self.ws, self.options, params(request).get("uri"), clock.today()
            ),
        }

    def _initialize(self, request: wire.Request) -> dict[str, Any]:
        params = request.params if request.params is not None else {}
        if not isinstance(params, dict):
            raise BadParams("initialize params must be an object")
        return {
            "protocolVersion": wire.negotiate_version(params.get("protocolVersion")),
            "capabilities": CAPABILITIES,
            "serverInfo": SERVER_INFO,
            "instructions": instructions(self.options),
        }

    def _discover(self, _request: wire.Request) -> dict[str, Any]:
        """The 2026 era's `server/discover`: what `initialize` says, without a session."""
        return {
            "supportedVersions": list(wire.MODERN_VERSIONS),
            "capabilities": CAPABILITIES,
            "instructions": instructions(self.options),
            "_meta": {wire.SERVER_INFO_META_KEY: SERVER_INFO},
        }

    def _call_tool(self, request: wire.Request) -> dict[str, Any] | None:
        params = request.params
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            raise BadParams("tools/call needs params.name, the tool's name")
        name: str = params["name"]
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise BadParams("tools/call params.arguments must be an object")
        tool = self.tools.get(name)
        if tool is None:  # a protocol error, not a tool's failure (the 2025-06-18 revision's example)
            raise wire.ParamsError(f"Unknown tool: {name}", {"name": name, "tools": sorted(self.tools)})
        try:
            checked = check_arguments(tool.input_schema, arguments)
        except ArgumentError as exc:
            return tool_error(f"Error executing tool {name}: {exc}")
        self._worker.submit(self._run_tool, request, tool, checked)
        return None  # the worker answers

    # -- the worker thread ------------------------------------------------------------------
    def _start(self) -> None:
        try:
            self._service = MemoryService(self.ws, self.options)
        except Exception as exc:  # reported on stderr and by every tool call, never a crash
            print(f"memgit mcp: cannot start: {type(exc).__name__}: {exc}", file=sys.stderr)
            return
        self._service.warm()

    def _run_tool(self, request: wire.Request, tool: Tool, arguments: dict[str, Any]) -> None:
        try:
            if self._service is None:
                raise MemgitError("the memory server failed to start; see its log (stderr)")
            payload = tool.run(self._service, arguments)
            text = tool.render(payload)
        except MemgitError as exc:
            answer = tool_error(f"Error executing tool {tool.name}: {exc}")
        except Exception as exc:  # a bug in one call must not end the session
            traceback.print_exc(file=sys.stderr)
            answer = tool_error(f"Error executing tool {tool.name}: internal error ({type(exc).__name__}: {exc})")
        else:
            answer = {"content": [{"type": "text", "text": text}], "structuredContent": payload, "isError": False}
        self.send(wire.result(request.id, self._framed(request, answer)))


def _protocol_streams() -> tuple[BinaryIO, BinaryIO]:
    """Private descriptors for the protocol; fd 0 becomes /dev/null and fd 1 stderr.

    Whatever else in the process, or a child it starts, reads fd 0 or writes fd 1 (llama.cpp's
    C code, a print, a git hook) then cannot take requests or corrupt answers.
    """
    sys.stdout.flush()
    protocol_in, protocol_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return open(protocol_in, "rb"), open(protocol_out, "wb")  # noqa: SIM115 (they live as long as the process)


def serve(ws: Workspace, options: ServerOptions) -> None:
    """Run the server on stdin/stdout until the client closes stdin."""
    stdin, stdout = _protocol_streams()
    with stdin, stdout:
        McpServer(ws, options, stdout).run(stdin)
