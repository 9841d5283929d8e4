"""`memgit hook claude-code`: what Claude Code's hooks run (`memgit hooks install --agent claude-code`).

Claude Code starts the command with one JSON object on stdin, documented fields
`session_id`, `transcript_path`, `cwd`, `hook_event_name` (and per event `source`, `trigger`,
`reason`):

* `SessionStart` (startup, resume, clear, compact): the session context is printed on stdout,
  which Claude Code adds to the conversation: what `memgit context` prints, markers left out and
  secrets redacted.
* `PreCompact` (manual or auto) and `SessionEnd`: the transcript is captured
  (`memgit.memory.capture`): new user and assistant turns appended to
  `sessions/YYYY-MM-DD-<session>.jsonl`, committed and indexed. PreCompact then SessionEnd of
  one session store each turn once.

A hook must never fail or hold up its host: whatever goes wrong (input that is not JSON, a missing
transcript, a folder outside any memory workspace, a merge in progress) is one
`memgit: warning:` line on stderr and exit 0, and the waits inside are bounded well below the
timeouts the installer writes (`memgit.githooks.claude_settings`).
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from memgit.workspace import Workspace

CAPTURE_EVENTS = ("PreCompact", "SessionEnd")
EVENTS = ("SessionStart", *CAPTURE_EVENTS)
#: Seconds a capture waits for another committing writer, and for the index lock.
COMMIT_LOCK_WAIT = 10.0
INDEX_LOCK_WAIT = 5.0
PREFIX = "memgit: warning: claude-code hook: "


class HookProblem(Exception):
    """Why the hook did nothing; printed as its one warning line."""


@dataclass(frozen=True)
class HookInput:
    event: str
    session_id: str | None
    transcript_path: str | None
    cwd: str | None
    detail: str | None  # source (SessionStart), trigger (PreCompact) or reason (SessionEnd)


def parse_input(raw: str) -> HookInput:
    """The host's hook JSON -> what the hook needs; anything unusable is a `HookProblem` (pure)."""
    if not raw.strip():
        raise HookProblem("no hook input on stdin (Claude Code sends one JSON object); nothing was done")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        raise HookProblem(f"the hook input is not JSON ({reason}); nothing was done") from None
    if not isinstance(data, dict):
        raise HookProblem("the hook input is not a JSON object; nothing was done")
    event = data.get("hook_event_name")
    if not isinstance(event, str) or not event:
        raise HookProblem("the hook input has no hook_event_name; nothing was done")

    def text(name: str) -> str | None:
        value = data.get(name)
        return value if isinstance(value, str) and value.strip() else None

    detail = text("source") or text("trigger") or text("reason")
    return HookInput(event, text("session_id"), text("transcript_path"), text("cwd"), detail)


def run(
    raw: str,
    *,
    out: TextIO,
    err: TextIO,
    workspace: Path | None = None,
    now: datetime | None = None,
) -> int:
    """Handle one hook call. Always 0: at most one warning line on `err` when something failed."""
    try:
        message = _run(raw, out=out, workspace=workspace, now=now)
    except HookProblem as exc:
        message = str(exc)
    except KeyboardInterrupt:
        message = "interrupted; nothing more was done"
    except Exception as exc:  # the host must never see a failing hook
        from memgit.errors import MemgitError

        text = " ".join(str(exc).split()) or type(exc).__name__
        message = text if isinstance(exc, MemgitError) else f"internal error ({type(exc).__name__}: {text})"
    if message:
        with contextlib.suppress(OSError, ValueError):  # stderr gone: the exit status still says 0
            print(PREFIX + message, file=err)
    return 0


def _run(raw: str, *, out: TextIO, workspace: Path | None, now: datetime | None) -> str | None:
    hook = parse_input(raw)
    if hook.event not in EVENTS:
        return f"{hook.event} is not an event memgit handles ({', '.join(EVENTS)}); nothing was done"
    ws = _workspace(hook, workspace)
    now = now or datetime.now().astimezone()
    if hook.event == "SessionStart":
        out.write(session_start_text(ws, now))
        out.flush()
        return None
    return _capture(ws, hook, now)


def _workspace(hook: HookInput, explicit: Path | None) -> Workspace:
    """The memory workspace: the one the installer named, else the session's folder, which must be
    inside a memory workspace (a git repository with MEMORY.md, memory/ or memgit.toml)."""
    from memgit.errors import NotAWorkspace
    from memgit.workspace import Workspace

    where = explicit or (Path(hook.cwd) if hook.cwd else Path.cwd())
    if not where.is_dir():
        raise HookProblem(f"{where} is not a folder; nothing was done")
    try:
        ws = Workspace.discover(where)
    except NotAWorkspace:
        raise HookProblem(
            f"{where} is not inside a memory workspace (no git repository); nothing was done "
            "(run `memgit init` there, or install the hooks with --project from the memory workspace)"
        ) from None
    if explicit is None and not _looks_like_memory(ws.root):
        raise HookProblem(
            f"{ws.root} is a git repository but not a memory workspace (no MEMORY.md, memory/ or memgit.toml); "
            "nothing was done (run `memgit init` there, or install the hooks with --project from the memory workspace)"
        )
    return ws


def _looks_like_memory(root: Path) -> bool:
    from memgit.config import CONFIG_NAME

    return any(os.path.lexists(root / name) for name in ("MEMORY.md", "memory", CONFIG_NAME))


def session_start_text(ws: Workspace, now: datetime) -> str:
    """What Claude Code adds to the conversation at session start: the session context (markers
    left out and secret lines redacted by `build_context`, as `memgit context` prints it)."""
    from memgit.ledger.uses import record_context_load
    from memgit.recall.context import build_context

    result = build_context(ws, scope=ws.config.mcp.scope, day=now.date(), budget=ws.config.mcp.context_budget)
    record_context_load(ws, result)  # a session start is a use of MEMORY.md's entries (forgetting reads it)
    return result.text


def _capture(ws: Workspace, hook: HookInput, now: datetime) -> str | None:
    from memgit.memory.capture import capture_transcript

    if hook.transcript_path is None:
        raise HookProblem(f"{hook.event} input has no transcript_path; nothing was captured")
    result = capture_transcript(
        ws,
        Path(hook.transcript_path),
        fmt="claude-code",
        session=hook.session_id,
        now=now,
        commit_lock_timeout=COMMIT_LOCK_WAIT,
        index_lock_timeout=INDEX_LOCK_WAIT,
    )
    return result.notices[0] if result.notices else None
