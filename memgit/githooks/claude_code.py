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
timeouts the installer writes (`memgit.githooks.claude_settings`). Codex clamps SessionEnd to
3 s, less than a capture can need on a busy machine (git's lock, a commit, the index update):
there the hook answers at once and the capture finishes in a detached process, so the host's
clamp never cuts it short; its warnings are then lost to the host.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from memgit.core import clock
from memgit.githooks import agent_sessions

if TYPE_CHECKING:
    from memgit.recall.context import ContextResult
    from memgit.workspace import Workspace

CAPTURE_EVENTS = ("PreCompact", "SessionEnd")
EVENTS = ("SessionStart", *CAPTURE_EVENTS)
#: Seconds a capture waits for another committing writer, and for the index lock: none for the
#: index (an MCP server's background work may hold it; the server follows HEAD and catches up).
COMMIT_LOCK_WAIT = 10.0
INDEX_LOCK_WAIT = 0.0


def prefix(host: str) -> str:
    """The start of the hook's warning line on stderr."""
    return f"memgit: warning: {host} hook: "


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
    host: str = "claude-code",
) -> int:
    """Handle one hook call. Always 0; whatever the user should know goes to the host's visible
    channel (the JSON `systemMessage` Claude Code shows) and, as one line, to `err`."""
    context: str | None = None
    warnings: list[str] = []
    try:
        context, warnings = _run(raw, workspace=workspace, now=now, host=host)
    except HookProblem as exc:
        warnings = [str(exc)]
    except KeyboardInterrupt:
        warnings = ["interrupted; nothing more was done"]
    except Exception as exc:  # the host must never see a failing hook
        from memgit.errors import MemgitError

        text = " ".join(str(exc).split()) or type(exc).__name__
        warnings = [text if isinstance(exc, MemgitError) else f"internal error ({type(exc).__name__}: {text})"]
    with contextlib.suppress(OSError, ValueError):  # a stream gone: the exit status still says 0
        for message in warnings:
            print(prefix(host) + message, file=err)
        printed = hook_output(context, warnings)
        if printed:
            out.write(printed)
            out.flush()
    return 0


def hook_output(context: str | None, warnings: list[str]) -> str:
    """What the hook prints on stdout (pure): the context as plain text when all went well; with
    warnings, Claude Code's JSON, whose `systemMessage` the user sees and whose
    `additionalContext` carries the context to the model."""
    if not warnings:
        return context or ""
    data: dict[str, object] = {"systemMessage": "memgit: " + "; ".join(warnings)}
    if context:
        data["hookSpecificOutput"] = {"hookEventName": "SessionStart", "additionalContext": context}
    return json.dumps(data, ensure_ascii=False) + "\n"


def _run(raw: str, *, workspace: Path | None, now: datetime | None, host: str) -> tuple[str | None, list[str]]:
    hook = parse_input(raw)
    if hook.event not in EVENTS:
        return None, [f"{hook.event} is not an event memgit handles ({', '.join(EVENTS)}); nothing was done"]
    ws = _workspace(hook, workspace)
    now = now or clock.local_now()
    if hook.event == "SessionStart":
        agent_sessions.note(ws, hook.session_id, host, hook.transcript_path)
        caught = catch_up(ws, hook.session_id, now)
        context, warnings = session_start(ws, now, host)
        return context, caught + warnings
    transcript = _transcript_of(hook)  # bad input is told while the host still listens
    if hook.event in DETACHED_EVENTS.get(host, ()) and not _continue_detached():
        return None, []  # the host's process: done; the capture goes on without it
    message = _capture(ws, hook, transcript, now, host)
    return None, [message] if message else []


#: Sessions one start catches up at most (the rest wait for the next start).
CATCH_UP_SESSIONS = 3


def catch_up(ws: Workspace, current: str | None, now: datetime) -> list[str]:
    """Capture what earlier sessions left uncaptured (a SessionEnd refused, or never sent), and
    say so: one line per session, for the message the user sees at this start."""
    from memgit.errors import MemgitError
    from memgit.memory.capture import capture_transcript

    said = []
    for item in agent_sessions.to_catch_up(ws, current)[:CATCH_UP_SESSIONS]:
        why = item.seen.missed or "its host never said it ended"
        size = _size(item.seen.transcript)
        try:
            result = capture_transcript(
                ws,
                Path(item.seen.transcript),
                fmt=TRANSCRIPT_FORMATS.get(item.seen.host, "auto"),
                session=item.session,
                now=now,
                reason="SessionStart, catching up",
                commit_lock_timeout=COMMIT_LOCK_WAIT,
                index_lock_timeout=INDEX_LOCK_WAIT,
            )
        except MemgitError as exc:
            missed = item.seen.missed or str(exc)
            agent_sessions.note(ws, item.session, item.seen.host, item.seen.transcript, missed=missed)
            said.append(f"session {item.session}'s last turns are not captured yet ({exc}); the next start tries again")
            continue
        agent_sessions.note(ws, item.session, item.seen.host, item.seen.transcript, captured=size, missed=None)
        if result.added:
            said.append(f"captured {result.added} line(s) of session {item.session} that its end left out ({why})")
    return said


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _transcript_of(hook: HookInput) -> Path:
    from memgit.memory.capture import check_transcript

    if hook.transcript_path is None:
        raise HookProblem(f"{hook.event} input has no transcript_path; nothing was captured")
    path = Path(hook.transcript_path)
    check_transcript(path)
    return path


#: Events whose host limit is below what a capture can need (Codex clamps SessionEnd to 3 s).
DETACHED_EVENTS = {"codex": ("SessionEnd",)}


def _continue_detached() -> bool:
    """Fork a process the host neither waits for nor kills with the hook (own session, streams on
    /dev/null); True in it, False in the host's process. Where fork is missing, True: the
    capture runs in the hook itself, as for every other event."""
    if not hasattr(os, "fork"):
        return True
    if os.fork():
        return False
    os.setsid()
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(quiet, fd)
    return True


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


def session_start(ws: Workspace, now: datetime, host: str = "claude-code") -> tuple[str, list[str]]:
    """What the host adds to the conversation at session start, and what the user should know.

    The session context (markers left out, secret lines redacted, fitted to what `host` passes
    whole, by `build_context`), and warnings: files left out, redacted lines, a rebase or conflict
    markers. With warnings the output is JSON, whose escaping is longer than the text: the budget
    is scaled down until the JSON, too, fits the host's limit.
    """
    from memgit.recall.context import build_context

    # memgit.toml's problems come first: a context loaded on the defaults says so.
    config = [f"{ws.config.broken}: this context uses the default settings"] if ws.config.broken else []
    config += list(ws.config.warnings)
    # Fitted until the hook's output (JSON once there are warnings) fits the host; the load is
    # recorded by `build_context` as a use of MEMORY.md's entries (forgetting reads it).
    result = build_context(
        ws,
        scope=ws.config.mcp.scope,
        day=now.date(),
        budget=ws.config.mcp.context_budget,
        host=host,
        measure=lambda r: len(hook_output(r.text, config + _load_warnings(r)).encode("utf-8", "surrogatepass")),
    )
    return result.text, config + _load_warnings(result)


def _load_warnings(result: ContextResult) -> list[str]:
    """What the user should know about a load: files left out, redacted lines, a rebase or
    conflict markers (the context's first line says so)."""
    warnings = list(result.warnings)
    if result.redacted:
        where = ", ".join(f"{r['path']}:{r['line']}" for r in result.redacted[:5])
        warnings.append(f"secret-looking lines shown as [redacted] ({where}); remove them (memgit lint names them)")
    if result.text.startswith("[memgit: WARNING:"):
        warnings.insert(0, result.text.splitlines()[0].removeprefix("[memgit: WARNING: ").rstrip("]"))
    return warnings


#: The transcript format each host writes (Codex's rollouts are OpenAI Responses items).
TRANSCRIPT_FORMATS = {"claude-code": "claude-code", "codex": "openai"}


def _capture(ws: Workspace, hook: HookInput, transcript: Path, now: datetime, host: str = "claude-code") -> str | None:
    """Capture, and remember how far (or why not): a refused end is caught up at the next start."""
    from memgit.errors import MemgitError
    from memgit.memory.capture import capture_transcript

    size = _size(str(transcript))
    try:
        result = capture_transcript(
            ws,
            transcript,
            fmt=TRANSCRIPT_FORMATS.get(host, "auto"),
            session=hook.session_id,
            now=now,
            reason=f"{hook.event}, {hook.detail}" if hook.detail else hook.event,
            commit_lock_timeout=COMMIT_LOCK_WAIT,
            index_lock_timeout=INDEX_LOCK_WAIT,
        )
    except MemgitError as exc:
        agent_sessions.note(ws, hook.session_id, host, str(transcript), missed=f"{hook.event}: {exc}")
        raise
    agent_sessions.note(ws, hook.session_id, host, str(transcript), captured=size, missed=None)
    return result.notices[0] if result.notices else None
