"""MCP prompts: the two moments a host should hand its agent the memory.

* `memory_flush`, before the host compacts a long conversation: older turns are about to be
  summarised away, so the agent is asked to write what should last into today's daily log, the
  workspace's way (append-only, one readable fact a bullet, no secrets), and to answer nothing
  the user would notice when nothing is worth keeping (no text, or a short acknowledgement: a
  code word such as `NO_REPLY` is shown to the user as a reply by hosts like Claude Code). A host
  sends it as a silent turn when the conversation nears its compaction threshold.
* `session_start`, when a session begins: what `memgit context` prints, in the session's scope.

The wording follows the session: a read-only session is told that `memory_append` will refuse and
to hand its notes back instead; a group session never hears of MEMORY.md or USER.md. Prompt text
is built by pure functions; only `session_start` reads files (through the resources module, so
the context has one reader).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from memgit.config import COUNT
from memgit.core.paths import daily_log_path
from memgit.mcp.options import ServerOptions
from memgit.mcp.wire import ParamsError

if TYPE_CHECKING:
    from memgit.workspace import Workspace

#: The most the agent answers when the flush finds nothing worth keeping (the user may see it).
NOTHING_TO_SAVE = "Nothing new to save."


@dataclass(frozen=True)
class Argument:
    name: str
    description: str
    required: bool = False

    def listing(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "required": self.required}


@dataclass(frozen=True)
class Prompt:
    name: str
    title: str
    description: str
    arguments: tuple[Argument, ...]

    def listing(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "arguments": [a.listing() for a in self.arguments],
        }


_DATE = Argument("date", "The day as YYYY-MM-DD (default: today on the memory server).")

PROMPTS: tuple[Prompt, ...] = (
    Prompt(
        "memory_flush",
        "Save memory before compaction",
        "Send before the conversation is compacted: asks the agent to append what should outlast the "
        "session to today's daily log (memory/YYYY-MM-DD.md); when nothing should, the agent answers "
        "nothing visible (or a short acknowledgement).",
        (_DATE, Argument("focus", "Anything the notes should pay particular attention to.")),
    ),
    Prompt(
        "session_start",
        "Load memory at session start",
        "The memory to load when a session begins: what `memgit context` prints (today's and "
        "yesterday's logs, and MEMORY.md and USER.md outside group sessions), within a token budget.",
        (_DATE, Argument("budget", "Token budget, a whole number (default: [mcp] context_budget).")),
    ),
)
_BY_NAME = {prompt.name: prompt for prompt in PROMPTS}


def listing() -> list[dict[str, Any]]:
    return [prompt.listing() for prompt in PROMPTS]


def get(ws: Workspace, options: ServerOptions, params: Any, today: date) -> dict[str, Any]:
    """`prompts/get`: the named prompt's messages for these arguments."""
    if not isinstance(params, dict) or not isinstance(params.get("name"), str):
        raise ParamsError("prompts/get needs params.name, the prompt's name")
    name: str = params["name"]
    prompt = _BY_NAME.get(name)
    if prompt is None:
        raise ParamsError(f"Unknown prompt: {name}", {"name": name, "known": sorted(_BY_NAME)})
    arguments = _arguments(prompt, params.get("arguments"))
    day = _day(arguments.get("date"), today)
    if name == "memory_flush":
        text = flush_text(options, day=day, today=today, focus=arguments.get("focus"))
        description = f"Save what should outlast this session to {daily_log_path(day)} before compaction."
    else:
        from memgit.mcp.resources import session_context

        text = session_context(ws, options, day, _budget(arguments.get("budget")))
        description = f"Memory context for {day.isoformat()} ({options.scope} scope)."
    return {"description": description, "messages": [{"role": "user", "content": {"type": "text", "text": text}}]}


def _arguments(prompt: Prompt, raw: Any) -> dict[str, str]:
    """Arguments are strings by the protocol; names the prompt does not take are ignored."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ParamsError(f"{prompt.name}: arguments must be an object of strings")
    known = {a.name for a in prompt.arguments}
    out: dict[str, str] = {}
    for key, value in raw.items():
        if key not in known or value is None:
            continue
        if not isinstance(value, str):
            raise ParamsError(f"{prompt.name}: argument {key} must be a string, got {type(value).__name__}")
        if value.strip():
            out[key] = value.strip()
    return out


def _day(value: str | None, today: date) -> date:
    if value is None:
        return today
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ParamsError(f"date must look like 2026-02-06, got {value!r}") from None


def _budget(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        budget = int(value)
    except ValueError:
        raise ParamsError(f"budget must be a whole number of tokens, got {value!r}") from None
    if not 1 <= budget <= COUNT:
        raise ParamsError(f"budget must be between 1 and {COUNT:,} tokens, got {budget:,}")
    return budget


def flush_text(options: ServerOptions, *, day: date, today: date, focus: str | None = None) -> str:
    """The pre-compaction flush instruction for this session (pure)."""
    log = daily_log_path(day)
    lines = [
        "This conversation is close to being compacted: its older turns will soon be replaced by a "
        "summary, and details that are only in them will be lost.",
        "",
        f"Before that happens, save what should outlast this session in the daily log {log}.",
    ]
    if options.read_only:
        lines += [
            "This memory session is read-only, so memory_append will refuse. Instead, reply with the "
            f"notes as a Markdown list under the heading `Notes for {log}`, for the user or the host to store.",
        ]
    elif day == today:
        lines += [
            "Use the memory_append tool with the notes as its text (long_term false): it appends them "
            f"to {log} under a `## HH:MM` heading.",
        ]
    else:
        lines += [
            f"memory_append writes to today's log ({daily_log_path(today)}), not {log}: start the note "
            f"with `About {day.isoformat()}:` so the day stays clear.",
        ]
    lines += [
        "",
        "How this memory is kept:",
        "- daily logs are append-only: add notes at the end, never rewrite or delete earlier lines;",
        "- one decision, fact, preference, owner or open task a bullet, each readable on its own: "
        "name the people and projects, and write dates as YYYY-MM-DD, not 'today' or 'next week';",
        "- leave out chat filler, questions, and what memory already holds (check with memory_search when unsure);",
        "- never store secrets (keys, passwords, tokens): the memory lint refuses them.",
    ]
    if options.scope == "group":
        lines.append("- this is a group session: write nothing personal about the user.")
    else:
        lines.append(
            "- MEMORY.md, the long-term memory, grows through reviewed promotion of what keeps being "
            "recalled: write to the daily log, not MEMORY.md, unless the user asked for something to be "
            "remembered for good."
        )
    if focus:
        lines += ["", f"Pay particular attention to: {focus}"]
    lines += [
        "",
        "If nothing is worth keeping, save nothing and answer with no text at all; if a reply is needed, "
        f"only the short acknowledgement `{NOTHING_TO_SAVE}` (the user may see it: no code words, no summary).",
    ]
    return "\n".join(lines) + "\n"
