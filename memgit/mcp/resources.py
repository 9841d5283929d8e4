"""MCP resources: memory an agent (or the person driving its host) attaches whole.

A host lists these with `resources/list` and reads one with `resources/read`, usually to put a
file into the conversation without a tool call: `MEMORY.md`, `USER.md`, today's daily log and
the session context (what `memgit context` prints). Templates reach any daily log by date and
any memory file by path.

The tools' rules hold here too:

* **group scope** neither lists nor reads `MEMORY.md` or `USER.md` (curated, personal memory),
  and its session context is the group one;
* **read-only** changes nothing: reading a resource never writes;
* files are read through `memgit.recall.context.read_agent_file`, the session context's own
  reader (no links out of the workspace, no non-memory paths);
* entry markers (`<!-- memgit:… -->`, provenance for reviewers and the site) are left out
  (`memgit.core.provenance.strip_markers`); a secret that reached a file anyway
  (committed with `--no-verify`) is replaced by the lint's `[redacted: RULE]`.

Unknown or refused URIs are JSON-RPC -32602 errors (what the 2025-11-25 revision settled on for
"resource not found"), with the URI in `data`.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from memgit.core.paths import daily_log_path, normalise_user_path
from memgit.core.provenance import strip_markers
from memgit.errors import MemgitError
from memgit.mcp.options import PRIVATE_FILES, ServerOptions
from memgit.mcp.wire import ParamsError
from memgit.recall.context import build_context, read_agent_file

if TYPE_CHECKING:
    from memgit.lint.rules import LintSettings
    from memgit.workspace import Workspace

MARKDOWN = "text/markdown"
CONTEXT_URI = "memgit://context"
TODAY_URI = "memgit://daily/today"
DAILY_PREFIX = "memgit://daily/"
FILE_PREFIX = "memgit://file/"


@dataclass(frozen=True)
class Resource:
    uri: str
    name: str
    title: str
    description: str
    #: The workspace file behind it (None: assembled, like the session context).
    path: str | None = None

    def listing(self, size: int | None = None) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "uri": self.uri,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "mimeType": MARKDOWN,
        }
        if size is not None:
            entry["size"] = size
        return entry


def _resources(options: ServerOptions, today: date) -> list[Resource]:
    """What this session offers, in the order a host shows them."""
    group = options.scope == "group"
    context_about = "today's and yesterday's daily logs" + ("" if group else ", MEMORY.md and USER.md")
    found = [
        Resource(
            CONTEXT_URI,
            "session-context",
            "Session context",
            f"What to load at session start ({options.scope} scope): {context_about}, within "
            f"{options.context_budget:,} tokens; every cut is announced with the call that reads it.",
        ),
        Resource(
            TODAY_URI,
            "today",
            f"Today's daily log ({today.isoformat()})",
            f"{daily_log_path(today)}: today's notes, append-only (empty until the first note).",
            daily_log_path(today),
        ),
    ]
    if not group:
        found += [
            Resource(
                FILE_PREFIX + "MEMORY.md",
                "MEMORY.md",
                "Long-term memory",
                "MEMORY.md: curated long-term facts and decisions (grows through reviewed promotion).",
                "MEMORY.md",
            ),
            Resource(
                FILE_PREFIX + "USER.md",
                "USER.md",
                "User profile",
                "USER.md: who the user is and what they prefer.",
                "USER.md",
            ),
        ]
    return found


def templates(options: ServerOptions) -> list[dict[str, Any]]:
    """`resources/templates/list`: any daily log by date, any memory file by path."""
    private = " (not MEMORY.md or USER.md: this is a group session)" if options.scope == "group" else ""
    return [
        {
            "uriTemplate": DAILY_PREFIX + "{date}",
            "name": "daily-log",
            "title": "Daily log by date",
            "description": "memory/YYYY-MM-DD.md for a date written YYYY-MM-DD.",
            "mimeType": MARKDOWN,
        },
        {
            "uriTemplate": FILE_PREFIX + "{+path}",
            "name": "memory-file",
            "title": "Memory file by path",
            "description": "Any memory file by its workspace path, e.g. memory/projects/heron.md" + private + ".",
            "mimeType": MARKDOWN,
        },
    ]


def listing(ws: Workspace, options: ServerOptions, today: date) -> list[dict[str, Any]]:
    """`resources/list`: the fixed resources; MEMORY.md and USER.md only when they exist."""
    out = []
    for resource in _resources(options, today):
        size = _size(ws, resource.path) if resource.path else None
        if resource.path in PRIVATE_FILES and size is None:
            continue
        out.append(resource.listing(size))
    return out


def _size(ws: Workspace, rel: str | None) -> int | None:
    if rel is None:
        return None
    try:
        st = os.stat(ws.root / rel, follow_symlinks=False)
    except OSError:
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def read(ws: Workspace, options: ServerOptions, uri: Any, today: date) -> dict[str, Any]:
    """`resources/read`: one resource's text, without markers, secrets redacted. A refusal names
    the URI and path asked for, unless a secret is in them (a file named with a password)."""
    try:
        return _read(ws, options, uri, today)
    except ParamsError as error:
        if not isinstance(error.data, dict):
            raise
        from memgit.lint.files import output_settings

        settings = output_settings(ws)
        raise ParamsError(
            error.message, {key: _shown_name(settings, value) for key, value in error.data.items()}
        ) from None


def _shown_name(settings: LintSettings, value: Any) -> Any:
    from memgit.lint.redact import placeholder, redact_line, secret_in_name

    if not isinstance(value, str):
        return value
    code = secret_in_name(unquote(value), settings.known)
    if code is not None:
        return placeholder(code)
    return redact_line(
        value, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=settings.known
    )[0]


def _read(ws: Workspace, options: ServerOptions, uri: Any, today: date) -> dict[str, Any]:
    if not isinstance(uri, str) or not uri:
        raise ParamsError("resources/read needs params.uri, the resource's URI")
    if uri == CONTEXT_URI:
        text = _context_text(ws, options, today)
    else:
        rel = _path_of(uri, today)
        if options.scope == "group" and rel in PRIVATE_FILES:
            raise ParamsError(
                f"{rel} is private memory and this is a group session: read the daily logs instead",
                {"uri": uri},
            )
        try:
            found = read_agent_file(ws, rel)
        except MemgitError:  # not a memory path after all
            found = None
        if found is None and uri != TODAY_URI:
            raise ParamsError("Resource not found", {"uri": uri, "path": rel})
        text = strip_markers(found or "")
    return {"contents": [{"uri": uri, "mimeType": MARKDOWN, "text": _redacted(ws, text)}]}


def _path_of(uri: str, today: date) -> str:
    """The workspace path a file or daily-log URI names; anything else is not found."""
    if uri == TODAY_URI:
        return daily_log_path(today)
    if uri.startswith(DAILY_PREFIX):
        try:
            return daily_log_path(date.fromisoformat(uri[len(DAILY_PREFIX) :]))
        except ValueError:
            raise ParamsError(
                "Resource not found: a daily log's URI is memgit://daily/YYYY-MM-DD (or memgit://daily/today)",
                {"uri": uri},
            ) from None
    if uri.startswith(FILE_PREFIX):
        rel = normalise_user_path(unquote(uri[len(FILE_PREFIX) :]))
        if rel is not None:
            return rel
    raise ParamsError("Resource not found", {"uri": uri})


def _context_text(ws: Workspace, options: ServerOptions, today: date, budget: int | None = None) -> str:
    # A session-start load is a use of MEMORY.md's entries, recorded by `build_context` (forgetting
    # reads it); a read-only session records nothing.
    result = build_context(
        ws, scope=options.scope, day=today, budget=budget or options.context_budget, record=not options.read_only
    )
    return result.text  # build_context already leaves the markers out


def session_context(ws: Workspace, options: ServerOptions, today: date, budget: int | None = None) -> str:
    """The session context as the resource and the session-start prompt give it: the session's
    scope, markers out, secrets redacted (both by `build_context`)."""
    return _context_text(ws, options, today, budget)


def _redacted(ws: Workspace, text: str) -> str:
    from memgit.lint.files import output_settings
    from memgit.lint.redact import redact_text

    settings = output_settings(ws)
    return redact_text(
        text, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=settings.known
    )[0]
