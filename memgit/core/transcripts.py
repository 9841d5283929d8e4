"""Pure: agent session transcripts (JSONL) -> numbered text lines of user and assistant turns.

Only what people and the agent said is memory; tool calls, system prompts and metadata are not.
Line numbers point into the JSONL file so `memgit get sessions/x.jsonl:12` shows the source.
User-role text a host wrote (`!` bash-mode output, task notifications: `HOST_TEXT`) is not a
turn either, also in session files captured before capture learnt to leave it out: it never
reaches the index or the dream's evidence.
"""

from __future__ import annotations

import json
from typing import Any

from memgit.core.transcript_formats import HOST_TEXT

ROLES = ("user", "assistant")


def transcript_lines(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        raw = raw.strip()
        if not raw:
            continue
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):  # not JSON, or nested too deep to read: not a turn
            continue
        turn = _turn(record)
        if turn:
            role, said = turn
            said = " ".join(said.split())
            if said:
                out.append((number, f"{role}: {said}"))
    return out


def _turn(record: Any) -> tuple[str, str] | None:
    if not isinstance(record, dict):
        return None
    message = found if isinstance(found := record.get("message"), dict) else record
    role = message.get("role") or record.get("role") or record.get("type")
    if role not in ROLES:
        return None
    content = message.get("content", message.get("text"))
    said = _text_of(content)
    if role == "user" and HOST_TEXT.match(said):
        return None
    return (role, said) if said else None


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and part.get("type") in (None, "text", "input_text", "output_text"):
                value = part.get("text")
                if isinstance(value, str):
                    parts.append(value)
        return " ".join(parts)
    return ""
