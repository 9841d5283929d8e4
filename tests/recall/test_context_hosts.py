"""The session context fitted to an agent host: priority order, MEMORY.md's most used entries,
the host's character limit, the last line that says what was left out, and the state line."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.recall.context import Source, assemble_context, fit_context
from memgit.recall.context_blocks import split_blocks
from tests.helpers import commit_all, git, memgit, write

DAY = date(2026, 2, 6)
TODAY = "memory/2026-02-06.md"
WORDS = ["harbour", "lantern", "quartz", "meadow", "falcon", "cobalt", "juniper", "saffron", "glacier", "ember"]


def _memory(entries: int) -> str:
    """A long curated file: sections of bullets, each entry with a word of its own."""
    out = ["# Long-term Memory", ""]
    for i in range(entries):
        if i % 50 == 0:
            out += [f"## Topic {i // 50}", ""]
        out.append(f"- Fact {i}: the {WORDS[i % len(WORDS)]} setting number {i} is kept at value {i * 7}.")
    return "\n".join(out) + "\n"


def _today(entries: int) -> str:
    return "# 2026-02-06\n\n" + "".join(
        f"## 09:{i:02d}\n\n- today's note {i}: shipped step {i}\n\n" for i in range(entries)
    )


def test_claude_code_context_fits_holds_today_and_the_used_entries(workspace: Path) -> None:
    write(workspace / "MEMORY.md", _memory(600))
    write(workspace / TODAY, _today(20))
    write(workspace / "memory" / "2026-02-05.md", "# 2026-02-05\n\n- yesterday's only note\n")
    commit_all(workspace, "memory")
    # Searches that hit one entry deep in the file make it a used entry.
    for _ in range(3):
        found = memgit(workspace, "search", "setting number 437 value 3059", "-k", "1", "--path", "MEMORY.md")
        assert found.returncode == 0, found.stderr
    proc = memgit(workspace, "context", "--host", "claude-code", "--date", "2026-02-06", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    text = data["text"]
    assert data["host"] == "claude-code" and data["limit"] == 9000
    assert len(text) <= 9000 and len(text.encode()) <= 9000
    # Today's log whole, yesterday's too, then the used entry although it is line ~450 of 620.
    assert all(f"today's note {i}: shipped" in text for i in range(20))
    assert "yesterday's only note" in text
    assert "Fact 437: the" in text and "## Topic 8" in text
    assert "Fact 599:" not in text
    last = text.rstrip("\n").splitlines()[-1]
    assert last.startswith("[memgit: the context budget of") and "MEMORY.md" in last and "memory_get" in last
    # Each place left out says which lines and how to read them.
    gap = re.search(r'lines (\d+)-(\d+) left out \(used less\); memory_get path="MEMORY.md" from=(\d+)', text)
    assert gap and gap[1] == gap[3]
    # The same command without --host keeps the configured budget (8,000 tokens): more of MEMORY.md.
    generic = json.loads(memgit(workspace, "context", "--date", "2026-02-06", "--json").stdout)
    assert generic["host"] == "generic" and len(generic["text"]) > 9000


def test_a_smaller_budget_setting_stays_under_the_host_limit(workspace: Path) -> None:
    write(workspace / "MEMORY.md", _memory(300))
    commit_all(workspace, "memory")
    small = json.loads(memgit(workspace, "context", "--host", "claude-code", "--budget", "500", "--json").stdout)
    assert small["budget"] <= 500 and len(small["text"]) <= 2000
    big = json.loads(memgit(workspace, "context", "--host", "codex", "--budget", "100000", "--json").stdout)
    assert len(big["text"].encode()) <= 9000 and big["budget"] <= 9000 // 4


def test_wide_characters_still_fit_the_byte_limit() -> None:
    memory = "# Memory\n\n" + "".join(f"- 記憶 {i}: 東京の会議は毎週火曜日に行われる。\n" for i in range(800))
    result = fit_context(
        [Source("MEMORY.md", "m", "entries", memory)], scope="private", day=DAY, budget=8000, limit=9000
    )
    assert len(result.text.encode()) <= 9000
    assert "記憶 0:" in result.text and result.cuts


def test_memory_entries_most_used_first_then_file_order() -> None:
    memory = _memory(200)
    lines = memory.splitlines()
    used_line = next(i for i, line in enumerate(lines, 1) if line.startswith("- Fact 150:"))
    sources = [Source("MEMORY.md", "m", "entries", memory, uses=((used_line, used_line),) * 2)]
    result = assemble_context(sources, scope="private", day=DAY, budget=600)
    assert "Fact 150:" in result.text and "## Topic 3" in result.text  # with its heading
    assert "Fact 0:" in result.text and "Fact 199:" not in result.text
    [section] = result.sections
    assert len(section.omitted) >= 2  # a gap before the used entry and one after it


@settings(max_examples=60, deadline=None)
@given(
    entries=st.integers(min_value=0, max_value=120),
    used=st.lists(st.integers(min_value=1, max_value=140), max_size=6),
    budget=st.integers(min_value=60, max_value=2500),
)
def test_every_memory_line_is_shown_or_announced(entries: int, used: list[int], budget: int) -> None:
    memory = _memory(entries)
    sources = [Source("MEMORY.md", "m", "entries", memory, uses=tuple((u, u) for u in used))]
    result = assemble_context(sources, scope="private", day=DAY, budget=budget)
    [section] = result.sections
    lines = memory.splitlines()
    shown = set()
    for first, last in section.shown or ([(section.start_line, section.end_line)] if section.included else []):
        shown |= set(range(first, last + 1))
    omitted = {n for first, last in section.omitted for n in range(first, last + 1)}
    assert shown | omitted == set(range(1, len(lines) + 1)) and not shown & omitted
    for first, last in section.omitted:
        assert f"{first}-{last}" in result.text
    for n in shown:
        assert lines[n - 1] in result.text


def test_blocks_cover_every_line_once() -> None:
    lines = ["# T", "", "- a", "  more of a", "- b", "", "para", "still para", "", "## H", "- c"]
    blocks = split_blocks(lines)
    covered = [n for b in blocks for n in range(b.first, b.last + 1)]
    assert covered == list(range(1, len(lines) + 1))
    assert [(b.first, b.last, b.level) for b in blocks] == [
        (1, 2, 1),
        (3, 4, 0),
        (5, 6, 0),
        (7, 9, 0),
        (10, 10, 2),
        (11, 11, 0),
    ]


def test_rebase_and_conflict_markers_are_the_first_line(workspace: Path) -> None:
    write(workspace / TODAY, "# today\n\n<<<<<<< HEAD\n- ours\n=======\n- theirs\n>>>>>>> other\n")
    proc = memgit(workspace, "context", "--host", "claude-code", "--date", "2026-02-06")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("[memgit: WARNING:") and f"{TODAY} holds git conflict markers" in first
    commit_all(workspace, "today")
    base = git(workspace, "rev-parse", "HEAD").strip()
    write(workspace / TODAY, "# today\n\n- plain A\n")
    commit_all(workspace, "a")
    git(workspace, "checkout", "-q", "-b", "other", base)
    write(workspace / TODAY, "# today\n\n- plain B\n")
    commit_all(workspace, "b")
    git(workspace, "rebase", "main", check=False)
    proc = memgit(workspace, "context", "--date", "2026-02-06")
    assert "in the middle of a rebase" in proc.stdout.splitlines()[0]
