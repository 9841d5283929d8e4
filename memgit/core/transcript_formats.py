"""Pure: a host's session transcript -> the turns worth keeping as memory.

What people and the agent said is memory; what tools printed is not (it is long, often a file
or a diff, and it is in git or on disk anyway). So each host format comes down to user and
assistant text, plus one short line per tool call (`Bash: git status`) so a reader can follow
what was done. System prompts, the agent's hidden reasoning, hook chatter, sub-agent threads and
the host's own compaction summaries are left out (Claude Code's compact boundary, Codex's summary
written as an assistant message just before its `compacted` record).

Formats, as their hosts document them:

* `claude-code`: Claude Code's JSONL (`~/.claude/projects/<project>/<session>.jsonl`): records
  with `type` user/assistant, `uuid`, `sessionId`, `timestamp`, and `message.content` as a string
  or blocks (`text`, `thinking`, `tool_use`, `tool_result`); `isMeta`, `isSidechain` and
  `isCompactSummary` records, system-sourced prompts (`promptSource: "system"`, an `origin` that is
  not the user: task notifications) and `!` bash-mode echoes are the host's, not the conversation's.
* `openai`: Chat Completions messages (`role`, `content`, `tool_calls`), Responses API items
  (`type` message / function_call / …), and Codex CLI's rollout JSONL (`response_item` records
  wrapping those items, `session_meta` carrying the session id); a JSON array, an object with
  `messages`/`input`/`items`, or one record a line.
* `generic`: one JSON object a line (or an array) with a role (`role`, `speaker`, `author`) and
  text (`content`, `text`, `message`).

Every turn gets a stable key (the record's own id when it has one, else a digest of its role and
text with an occurrence count), so capturing a transcript again adds only what is new.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

FORMATS = ("auto", "claude-code", "openai", "generic")
_FORMAT_NAMES = {
    "claude-code": "Claude Code's (type user/assistant records with uuid)",
    "openai": "OpenAI's or a Codex CLI rollout (response_item, session_meta, tool_calls)",
}
USER, ASSISTANT, TOOL = "user", "assistant", "tool"

#: Longest tool-call summary kept, in characters.
TOOL_LINE_CHARS = 160

#: User-role text a host injects itself, not the person's words: command echoes, environment
#: blocks, Claude Code's `!` bash mode (its input, output and errors are user records) and
#: sub-agent completion notices, Codex's shell-command echoes and turn notices. Text a host wrote
#: can hold anything a command printed (an instruction included): it is never stored as a turn.
HOST_TEXT = re.compile(
    r"^\s*<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|"
    r"local-command-caveat|bash-input|bash-stdout|bash-stderr|task-notification|"
    r"environment_context|user_instructions|user_shell_command|turn_aborted|subagent_notification|"
    r"system-reminder|INSTRUCTIONS)\b"
)
_HOST_TEXT = HOST_TEXT
_USER_ROLES = {"user", "human", "person"}
_ASSISTANT_ROLES = {"assistant", "ai", "bot", "model", "agent"}
#: Tool input fields that say what a call did, best first.
_TOOL_FIELDS = ("command", "cmd", "file_path", "path", "pattern", "url", "query", "description", "prompt")


class TranscriptError(ValueError):
    """The text is not a transcript in the format asked for."""


@dataclass(frozen=True)
class Turn:
    role: str  # user | assistant | tool
    text: str
    key: str
    at: str | None = None
    #: The key comes from the host's own record id (unique across sessions), not from the text.
    own: bool = False


@dataclass
class Parsed:
    format: str
    turns: list[Turn] = field(default_factory=list)
    session: str | None = None
    #: Lines that were not JSON (a torn last line while the host writes, say).
    unreadable: int = 0


def parse_transcript(text: str, fmt: str = "auto", *, sidechain: bool = False) -> Parsed:
    """The turns of `text` (a transcript in `fmt`, or detected with "auto"). `sidechain`: the text
    is a sub-agent's thread (Claude Code's `subagents/agent-*.jsonl`), whose turns are all sidechain."""
    if fmt not in FORMATS:
        raise TranscriptError(f"unknown transcript format {fmt!r}: use one of {', '.join(FORMATS)}")
    records, unreadable = _records(text)
    if not records:
        if unreadable:
            raise TranscriptError("no line of the transcript is JSON: is it a transcript file?")
        return Parsed(format=fmt if fmt != "auto" else "generic")
    detected = detect_format(records)
    if fmt == "auto":
        fmt = detected
    elif detected != fmt and detected != "generic":
        raise TranscriptError(
            f"this is not a {fmt} transcript: its records look like {_FORMAT_NAMES[detected]}; "
            f"use --format {detected} (or auto)"
        )
    reader = {"claude-code": _sidechain if sidechain else _claude_code, "openai": _openai, "generic": _generic}[fmt]
    parsed = Parsed(format=fmt, unreadable=unreadable)
    keys = _KeyMaker()
    summaries = codex_summaries(records) if fmt == "openai" else set()
    for number, record in enumerate(records):
        if not isinstance(record, dict) or number in summaries:
            continue
        parsed.session = parsed.session or _session_of(record, fmt)
        for role, said, own_key, at in reader(record):
            said = said.strip()
            if said:
                parsed.turns.append(Turn(role, said, keys.key(role, said, own_key), at, own_key is not None))
    if not parsed.turns and fmt != "generic" and detected == "generic" and _generic_turns(records):
        raise TranscriptError(
            f"no record of this transcript is in {fmt}'s shape (they are plain role/content records); "
            "use --format generic (or auto)"
        )
    return parsed


def _generic_turns(records: list[Any]) -> bool:
    return any(said.strip() for r in records if isinstance(r, dict) for _role, said, _k, _at in _generic(r))


def _records(text: str) -> tuple[list[Any], int]:
    """Records of a JSON document (array or object holding a list) or of JSON lines."""
    stripped = text.strip()
    if stripped[:1] in ("[", "{"):
        try:
            whole = json.loads(stripped)
        except (ValueError, RecursionError):
            whole = None
        if isinstance(whole, list):
            return whole, 0
        if isinstance(whole, dict):
            for name in ("messages", "input", "items", "output", "transcript"):
                if isinstance(whole.get(name), list):
                    return whole[name], 0
            return [whole], 0
    records, unreadable = [], 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except (ValueError, RecursionError):
            unreadable += 1
    return records, unreadable


def detect_format(records: Iterable[Any]) -> str:
    """The format the first records look like; `generic` when nothing is telling."""
    for number, record in enumerate(records):
        if number >= 200:
            break
        if not isinstance(record, dict):
            continue
        kind = record.get("type")
        if (
            kind in ("user", "assistant")
            and isinstance(record.get("message"), dict)
            and ("uuid" in record or "sessionId" in record or "parentUuid" in record)
        ):
            return "claude-code"
        if kind in ("response_item", "session_meta", "function_call", "function_call_output", "reasoning"):
            return "openai"
        if "tool_calls" in record or record.get("role") in ("developer", "tool"):
            return "openai"
        if kind == "message" and isinstance(record.get("content"), list):
            return "openai"
    return "generic"


class _KeyMaker:
    """Keys for turns: the record's own id, else role + text digest with an occurrence count
    (the same sentence said twice is two turns), made short and uniform by hashing."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def key(self, role: str, text: str, own: str | None) -> str:
        if own is None:
            digest = hashlib.sha1(f"{role}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
            count = self.seen.get(digest, 0)
            self.seen[digest] = count + 1
            own = f"text:{digest}:{count}"
        else:
            count = self.seen.get(own, 0)
            self.seen[own] = count + 1
            if count:
                own = f"{own}#{count}"
        return hashlib.sha1(own.encode("utf-8", "surrogatepass")).hexdigest()[:16]


RawTurn = tuple[str, str, str | None, str | None]  # role, text, own key, timestamp


def _session_of(record: dict[str, Any], fmt: str) -> str | None:
    if fmt == "claude-code":
        value = record.get("sessionId")
    elif record.get("type") == "session_meta" and isinstance(record.get("payload"), dict):
        value = record["payload"].get("id")
    else:
        value = record.get("session_id") or record.get("sessionId")
    return value if isinstance(value, str) and value.strip() else None


def _timestamp(record: dict[str, Any]) -> str | None:
    value = record.get("timestamp", record.get("created_at"))
    if isinstance(value, str) and re.match(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}", value):
        return value[:40]
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1e11:
        return datetime.fromtimestamp(value, tz=UTC).isoformat().replace("+00:00", "Z")
    return None


# -- claude-code ---------------------------------------------------------------------------------
def _claude_code(record: dict[str, Any]) -> Iterator[RawTurn]:
    kind = record.get("type")
    message = record.get("message")
    if kind not in (USER, ASSISTANT) or not isinstance(message, dict):
        return
    if is_host_record(record):
        return
    uuid = record.get("uuid") if isinstance(record.get("uuid"), str) else None
    at = _timestamp(record)
    content = message.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    if not isinstance(blocks, list):
        return
    texts: list[str] = []
    tools: list[str] = []
    for block in blocks:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            if kind == USER and _HOST_TEXT.match(block["text"]):
                continue
            texts.append(block["text"])
        elif block.get("type") == "tool_use" and kind == ASSISTANT:
            tools.append(tool_line(block.get("name"), block.get("input")))
    # tool_result, thinking, image and other blocks are left out.
    yield from _with_keys(kind, texts, tools, uuid, at)


def _sidechain(record: dict[str, Any]) -> Iterator[RawTurn]:
    """A sub-agent thread's record, read like the main thread's (its `isSidechain` is expected)."""
    yield from _claude_code({**record, "isSidechain": False})


def is_host_record(record: dict[str, Any]) -> bool:
    """A Claude Code record the host wrote, not the user or the assistant (pure): meta records,
    sub-agent (sidechain) turns, the compaction summary, system-sourced prompts (task
    notifications carry `origin.kind` and `promptSource: "system"`)."""
    if record.get("isMeta") or record.get("isSidechain") or record.get("isCompactSummary"):
        return True
    if record.get("isVisibleInTranscriptOnly") or record.get("promptSource") == "system":
        return True
    origin = record.get("origin")
    return isinstance(origin, dict) and origin.get("kind") not in (None, "user", "human")


def _with_keys(role: str, texts: list[str], tools: list[str], own: str | None, at: str | None) -> Iterator[RawTurn]:
    """One record -> its text turn and one turn per tool call, keyed `own`, `own/tool1`, …"""
    if texts:
        yield role, "\n\n".join(t.strip() for t in texts if t.strip()), own, at
    for number, line in enumerate(tools, start=1):
        yield TOOL, line, (f"{own}/tool{number}" if own else None), at


def tool_line(name: Any, arguments: Any) -> str:
    """One line saying which tool ran on what (pure): `Bash: git status -s`."""
    label = name if isinstance(name, str) and name.strip() else "tool"
    if isinstance(arguments, str):
        with contextlib.suppress(ValueError, RecursionError):
            arguments = json.loads(arguments)
    detail = ""
    if isinstance(arguments, dict):
        for key in _TOOL_FIELDS:
            value = arguments.get(key)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                value = " ".join(value)
            if isinstance(value, str) and value.strip():
                detail = value
                break
        else:
            detail = json.dumps(arguments, ensure_ascii=False, sort_keys=True) if arguments else ""
    elif isinstance(arguments, str):
        detail = arguments
    line = " ".join(f"{label.strip()}: {detail}".split()) if detail else label.strip()
    return line if len(line) <= TOOL_LINE_CHARS else line[: TOOL_LINE_CHARS - 1] + "\u2026"


# -- openai (Chat Completions, Responses API, Codex CLI rollouts) -------------------------------
def codex_summaries(records: list[Any]) -> set[int]:
    """Indexes of Codex's compaction summaries (pure). Codex writes the summary as an ordinary
    assistant `response_item` just before its `compacted` record (0.171.0), whose `payload.message`
    is the hand-off the next model reads: a preamble of Codex's own, then the summary (seen in the
    real host; the preamble's wording is Codex's to change, so only "ends with the summary" is
    relied on). The nearest assistant message before a `compacted` record is its summary when the
    record's text ends with it or carries no text; elsewhere, an assistant message whose text is a
    whole `compacted` text is one too. Either way it is the host's words, not the assistant's:
    left out like Claude Code's."""
    texts = {text for r in records if (text := _compacted_text(r))}
    out: set[int] = set()
    for number, record in enumerate(records):
        if not isinstance(record, dict):
            continue
        if record.get("type") == "compacted":
            before = number - 1
            while before >= 0 and not _is_response_item(records[before]):  # events, usage, settings
                before -= 1
            said = _codex_assistant_text(records[before]) if before >= 0 else None
            carried = _compacted_text(record)
            if said is not None and said.strip() and (not carried or carried.endswith(said.strip())):
                out.add(before)
        elif (said := _codex_assistant_text(record)) is not None and said.strip() in texts:
            out.add(number)
    return out


def _is_response_item(record: Any) -> bool:
    return isinstance(record, dict) and record.get("type") == "response_item"


def _compacted_text(record: Any) -> str:
    """The summary a Codex `compacted` record carries ("" for any other record or none)."""
    if not isinstance(record, dict) or record.get("type") != "compacted" or not isinstance(record.get("payload"), dict):
        return ""
    message = record["payload"].get("message")
    return message.strip() if isinstance(message, str) else ""


def _codex_assistant_text(record: Any) -> str | None:
    """The text of a rollout's assistant message record, else None."""
    payload = record.get("payload") if isinstance(record, dict) and record.get("type") == "response_item" else None
    if (
        not isinstance(payload, dict)
        or payload.get("role") != ASSISTANT
        or payload.get("type") not in (None, "message")
    ):
        return None
    return "\n".join(_content_texts(payload.get("content")))


def _openai(record: dict[str, Any]) -> Iterator[RawTurn]:
    at = _timestamp(record)
    if record.get("type") == "response_item" and isinstance(record.get("payload"), dict):
        record = {**record["payload"], "timestamp": record.get("timestamp")}
    elif record.get("type") in ("session_meta", "event_msg", "turn_context", "compacted"):
        return
    own = record.get("id") if isinstance(record.get("id"), str) else None
    kind = record.get("type")
    role = record.get("role")
    if kind in ("function_call", "custom_tool_call"):
        yield TOOL, tool_line(record.get("name"), record.get("arguments", record.get("input"))), own, at
        return
    if kind == "local_shell_call":
        action = found if isinstance(found := record.get("action"), dict) else {}
        yield TOOL, tool_line("shell", {"command": action.get("command")}), own, at
        return
    if kind not in (None, "message") or role not in (USER, ASSISTANT):
        return  # system/developer prompts, tool results, reasoning
    texts = [t for t in _content_texts(record.get("content")) if not (role == USER and _HOST_TEXT.match(t))]
    tools = []
    for call in record.get("tool_calls") or []:
        if isinstance(call, dict):
            function = found if isinstance(found := call.get("function"), dict) else call
            tools.append(tool_line(function.get("name"), function.get("arguments")))
    yield from _with_keys(role, texts, tools, own, at)


def _content_texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    out = []
    if isinstance(content, list):
        for part in content:
            if isinstance(part, str):
                out.append(part)
            elif (
                isinstance(part, dict)
                and part.get("type") in (None, "text", "input_text", "output_text")
                and (isinstance(part.get("text"), str))
            ):
                out.append(part["text"])
    return out


# -- generic ---------------------------------------------------------------------------------------
def _generic(record: dict[str, Any]) -> Iterator[RawTurn]:
    message = found if isinstance(found := record.get("message"), dict) else record
    role = message.get("role") or record.get("role") or record.get("speaker") or record.get("author")
    if not isinstance(role, str):
        role = kind if isinstance(kind := record.get("type"), str) else ""
    role = role.strip().lower()
    if role in _USER_ROLES:
        role = USER
    elif role in _ASSISTANT_ROLES:
        role = ASSISTANT
    else:
        return
    content = message.get("content", message.get("text"))
    if content is None and isinstance(record.get("message"), str):
        content = record["message"]
    texts = [t for t in _content_texts(content) if not (role == USER and _HOST_TEXT.match(t))]
    own = record.get("id") if isinstance(record.get("id"), str) else None
    yield from _with_keys(role, texts, [], own, _timestamp(record))
