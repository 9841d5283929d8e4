"""One secret found in a text (pure): shared by the engine and the rules that read across lines."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hit:
    """One secret: its 0-based line, rule, message, and the value as written on that line (None:
    not bounded, the line goes whole). `reported` is False for the body of a key block, which the
    lint reports once at its BEGIN line but redaction hides whole."""

    index: int
    code: str
    message: str
    value: str | None
    reported: bool = True
