"""A read of MEMORY.md is recorded as a use by the reading service itself (`read_memory`,
`build_context`), so every front end gets it the same: once per read, one line per entry a `get`
showed, one line per session-start load however often the load was fitted to its host, and none
when the caller turns recording off (a read-only MCP session)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from memgit.ledger.spool import read_spool
from memgit.ledger.uses import USE_QUERIES
from memgit.recall.context import HOST_LIMITS, ContextResult, build_context
from memgit.recall.get import read_memory
from memgit.workspace import Workspace
from tests.dream.test_dream import marked
from tests.helpers import write

DAY = date(2026, 2, 6)
ENTRIES = ["The billing service runs on three nodes.", "Dana wants a go/no-go checklist before launches."]


def _uses(ws: Workspace) -> list[dict[str, Any]]:
    lines = [json.loads(line) for day in read_spool(ws.data_dir).values() for line in day]
    return [line for line in lines if "use" in line]


def _workspace(root: Path) -> Workspace:
    body = "".join(
        marked(text, f"memory/2026-01-05.md:{5 + n}-{5 + n}@{n:040x}", "2026-01-06", key=f"k{n:010d}") + "\n"
        for n, text in enumerate(ENTRIES)
    )
    write(root / "MEMORY.md", "# Long-term Memory\n\n- The user prefers tea over coffee.\n\n" + body)
    return Workspace.discover(root)


def test_a_get_of_memory_md_is_recorded_by_the_reader(workspace: Path) -> None:
    ws = _workspace(workspace)
    lines = (workspace / "MEMORY.md").read_text().splitlines()
    at = next(n for n, line in enumerate(lines, 1) if "Dana wants" in line)

    read_memory(ws, "MEMORY.md", at, at, record=False)
    read_memory(ws, "memory/2026-01-05.md")  # not MEMORY.md: never a use
    assert _uses(ws) == []

    read = read_memory(ws, "MEMORY.md", at, at)
    assert "Dana wants" in read.text
    uses = _uses(ws)
    assert [(u["use"], u["path"], u["query"]) for u in uses] == [("get", "MEMORY.md", USE_QUERIES["get"])]
    assert uses[0]["lines"][0] <= at <= uses[0]["lines"][1]

    read_memory(ws, "MEMORY.md")  # the whole file: one line per entry it showed
    assert len(_uses(ws)) == 1 + len(ENTRIES)


def test_a_load_is_recorded_once_however_often_it_is_fitted(workspace: Path) -> None:
    ws = _workspace(workspace)
    limit = HOST_LIMITS["claude-code"]
    assert limit is not None
    budgets: list[int | None] = []

    def measure(result: ContextResult) -> int:
        budgets.append(result.budget)
        return limit + 1 if len(budgets) < 3 else len(result.text)  # too big twice, as a hook's JSON can be

    result = build_context(ws, day=DAY, host="claude-code", measure=measure)
    assert len(budgets) == 3 and budgets[0] is not None and budgets[2] is not None and budgets[2] < budgets[0]
    assert result.budget == budgets[2]
    memory = next(s for s in result.sections if s.path == "MEMORY.md")
    uses = _uses(ws)
    assert [(u["use"], u["path"], u["lines"]) for u in uses] == [
        ("context", "MEMORY.md", [memory.start_line, memory.end_line])
    ]

    build_context(ws, day=DAY, record=False)
    build_context(ws, scope="group", day=DAY)  # the group scope never loads MEMORY.md
    assert len(_uses(ws)) == 1
