"""One clock (memgit/core/clock.py): MEMGIT_NOW pins every date memgit takes, so a simulated day
or a test run that crosses midnight sees one day everywhere."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from memgit.core import clock
from memgit.errors import MemgitError
from tests.helpers import memgit


def test_memgit_now_pins_the_local_clock_and_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_NOW", "2031-02-28T23:30:00+05:00")
    assert clock.local_now() == datetime(2031, 2, 28, 18, 30, tzinfo=UTC)
    assert clock.today() == date(2031, 2, 28)  # the day the moment names, in its own zone
    monkeypatch.setenv("MEMGIT_NOW", "2031-03-01")
    assert clock.today() == date(2031, 3, 1) and clock.resolve_now().tzinfo is not None


def test_without_memgit_now_the_clock_is_the_machines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMGIT_NOW", raising=False)
    before = datetime.now().astimezone()
    now = clock.local_now()
    assert now.tzinfo is not None and before - timedelta(seconds=1) <= now <= datetime.now().astimezone()
    assert clock.today() in {before.date(), datetime.now().astimezone().date()}


def test_a_bad_memgit_now_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_NOW", "next tuesday")
    with pytest.raises(MemgitError, match="MEMGIT_NOW 'next tuesday' is not an ISO date"):
        clock.today()


def test_memgit_log_writes_the_day_memgit_now_names(workspace: Path) -> None:
    proc = memgit(
        workspace, "log", "Kestrels nested on the water tower.", env={"MEMGIT_NOW": "2030-07-04T09:15:00+00:00"}
    )
    assert proc.returncode == 0, proc.stderr
    day = workspace / "memory" / "2030-07-04.md"
    assert day.is_file() and "Kestrels nested on the water tower." in day.read_text(encoding="utf-8")
