"""`--now ISO` / MEMGIT_NOW: one clock for search recording and dreaming, so days can be simulated
and any run reproduced byte for byte."""

from __future__ import annotations

import os
from datetime import UTC, datetime

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
