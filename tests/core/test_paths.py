"""Pure path rules: which paths are memory, glob matching, daily-log dates, user paths."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.core.paths import daily_date, glob_match, glob_to_regex, is_memory_path, normalise_user_path


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("MEMORY.md", True),
        ("USER.md", True),
        ("memory/note.md", True),
        ("memory/2026-02-06.md", True),
        ("memory/projects/deep/er/x.md", True),
        ("memory/.dreams/recall.md", False),  # hidden dirs under memory/ are dreaming's own output
        ("memory/a/.hidden/b.md", False),
        ("memory/.note.md", False),
        ("memory/note.txt", False),
        ("memory/note.md.bak", False),
        ("memory", False),
        ("memory.md", False),
        ("Memory.md", False),
        ("memory.MD", False),
        ("docs/MEMORY.md", False),
        ("sub/memory/x.md", False),
        ("sessions/2026-02-06.jsonl", True),
        ("sessions/nested/x.jsonl", False),
        ("sessions/x.json", False),
        ("notes/a.md", False),
        ("README.md", False),
        ("memgit.toml", False),
        ("", False),
        ("/MEMORY.md", False),
        ("./MEMORY.md", False),
        ("memory/../MEMORY.md", False),
        ("memory//x.md", False),
        ("memory/x.md/", False),
        ("memory/x\x00.md", False),
    ],
)
def test_default_memory_paths(path: str, expected: bool) -> None:
    assert is_memory_path(path) is expected


def test_sessions_can_be_turned_off() -> None:
    assert is_memory_path("sessions/a.jsonl", sessions=True)
    assert not is_memory_path("sessions/a.jsonl", sessions=False)
    assert is_memory_path("MEMORY.md", sessions=False)


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("notes/**/*.md", "notes/a.md", True),
        ("notes/**/*.md", "notes/x/y/z.md", True),
        ("notes/**/*.md", "notes/a.txt", False),
        ("notes/**/*.md", "other/notes/a.md", False),
        ("notes/*.md", "notes/a.md", True),
        ("notes/*.md", "notes/x/a.md", False),  # one * never crosses a '/'
        ("**/*.md", "a.md", True),
        ("**/*.md", "deep/er/a.md", True),
        ("docs/**", "docs/a/b/c.txt", True),
        ("docs/**", "docsx/a", False),
        ("journal/????.md", "journal/2026.md", True),
        ("journal/????.md", "journal/26.md", False),
        ("journal/?.md", "journal//.md", False),
        ("a+b/x.md", "a+b/x.md", True),  # regex metacharacters are literal
        ("a+b/x.md", "aab/x.md", False),
        ("a+b/[x].md", "a+b/x.md", True),  # [...] is a character class, as in git
        ("memory/2026-0[12]-*.md", "memory/2026-02-06.md", True),
        ("memory/2026-0[12]-*.md", "memory/2026-03-06.md", False),
        ("memory/2026-0[!1]-*.md", "memory/2026-02-06.md", True),
        ("memory/2026-0[!1]-*.md", "memory/2026-01-06.md", False),
        ("notes/*", "notes/x/a.md", False),  # a match on a folder is not a match on its files
        ("notes/", "notes/x/a.md", True),  # a trailing slash means everything below
        ("n.md", "n.md", True),
        ("n.md", "nxmd", False),
        ("n.md", "n.md.bak", False),  # anchored at the end
        ("n.md", "x/n.md", False),  # and at the start
    ],
)
def test_glob_match(pattern: str, path: str, expected: bool) -> None:
    assert glob_match(pattern, path) is expected


def test_extra_paths_make_memory() -> None:
    extra = ("notes/**/*.md", "journal/*.txt")
    assert is_memory_path("notes/a.md", extra)
    assert is_memory_path("notes/2026/q1/plan.md", extra)
    assert is_memory_path("journal/today.txt", extra)
    assert not is_memory_path("journal/sub/today.txt", extra)
    assert not is_memory_path("notes/a.txt", extra)
    # Extra globs never admit unsafe paths.
    assert not is_memory_path("notes/../x.md", extra)
    assert not is_memory_path("/notes/a.md", extra)


segment = st.text(st.sampled_from("abcXYZ019-_."), min_size=1, max_size=6).filter(lambda s: s not in (".", ".."))
rel_path = st.lists(segment, min_size=1, max_size=5).map("/".join)


@settings(max_examples=200, deadline=None)
@given(rel_path)
def test_double_star_glob_matches_every_depth(path: str) -> None:
    assert glob_match("**", path)
    assert glob_match("**/" + path.rsplit("/", 1)[-1], path)
    assert glob_match("x/**/" + path, "x/" + path)
    single = glob_match("*", path)
    assert single is ("/" not in path)


@settings(max_examples=200, deadline=None)
@given(rel_path)
def test_glob_of_literal_path_matches_only_itself(path: str) -> None:
    escaped = path.replace("*", "").replace("?", "")
    assert glob_match(escaped, escaped)
    assert not glob_match(escaped, escaped + "x")
    assert not glob_match(escaped, "x/" + escaped)
    assert isinstance(glob_to_regex(escaped), re.Pattern)


@pytest.mark.parametrize(
    ("path", "day"),
    [
        ("memory/2026-02-06.md", "2026-02-06"),
        ("memory/2026-02-06-standup.md", "2026-02-06"),
        ("memory/logs/2025-12-31.md", "2025-12-31"),
        ("sessions/2026-02-06-claude.jsonl", "2026-02-06"),
        ("2026-02-06.md", "2026-02-06"),
        ("MEMORY.md", None),
        ("USER.md", None),
        ("memory/notes.md", None),
        ("memory/x2026-02-06.md", None),  # the date must start the file name
        ("memory/2026-02-06.txt", None),
        ("memory/2026-02-06/notes.md", None),
        ("memory/2026-13-01.md", None),
        ("memory/2026-00-10.md", None),
        ("memory/2026-02-30.md", None),  # no such day
        ("memory/2025-02-29.md", None),  # not a leap year
        ("memory/2024-02-29.md", "2024-02-29"),  # a leap year
        ("memory/2026-04-31.md", None),
    ],
)
def test_daily_date(path: str, day: str | None) -> None:
    assert daily_date(path) == day


@pytest.mark.parametrize(
    ("user_path", "expected"),
    [
        ("memory/x.md", "memory/x.md"),
        ("./memory/x.md", "memory/x.md"),
        ("memory//x.md", "memory/x.md"),
        ("memory\\x.md", "memory/x.md"),
        ("memory/./x.md", "memory/x.md"),
        ("../x.md", None),
        ("memory/../../x.md", None),
        ("memory/../MEMORY.md", None),
        ("/etc/passwd", None),
        ("\\\\server\\share", None),
        ("C:/x.md", None),
        ("c:x.md", None),
        ("", None),
        (".", None),
        ("memory/x\x00.md", None),
    ],
)
def test_normalise_user_path(user_path: str, expected: str | None) -> None:
    assert normalise_user_path(user_path) == expected
