"""`--now ISO` / MEMGIT_NOW: one clock for everything memgit dates (search recording, dreaming,
daily logs, the lint's dates, the agent context), so days can be simulated and any run reproduced
byte for byte. Without MEMGIT_NOW, `resolve_now` is UTC (what the ledgers record) and
`local_now`/`today` are the machine's local time (which day's log a note belongs to)."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime

from memgit.errors import MemgitError


def resolve_now(value: str | None = None) -> datetime:
    """`value`, else MEMGIT_NOW, else the current time; always timezone-aware (naive means UTC)."""
    text = value if value is not None else os.environ.get("MEMGIT_NOW", "").strip() or None
    if text is None:
        return datetime.now(UTC).replace(microsecond=0)
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        source = "--now" if value is not None else "MEMGIT_NOW"
        raise MemgitError(
            f"{source} {text!r} is not an ISO date or time; use e.g. 2026-11-30 or 2026-11-30T03:00:00+00:00"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when


def local_now() -> datetime:
    """MEMGIT_NOW when set, else the current local time (aware): the time a note is written at."""
    if os.environ.get("MEMGIT_NOW", "").strip():
        return resolve_now()
    return datetime.now().astimezone()


def today() -> date:
    """MEMGIT_NOW's day when set, else today's local date."""
    return local_now().date()
