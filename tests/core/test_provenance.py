"""Provenance references, entry markers and trailers: what dreaming writes the site must read back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memgit.core.provenance import (
    BadReference,
    EntryMarker,
    SourceRef,
    format_trailers,
    has_inline_marker,
    is_marker_line,
    parse_marker,
    parse_reference,
    parse_trailers,
    strip_marker,
    strip_markers,
)

paths = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).map(
    lambda s: "memory/" + s.replace("/", "_") + ".md"
)
commits = st.one_of(st.none(), st.text(alphabet="0123456789abcdef", min_size=7, max_size=40))


@given(paths, st.integers(1, 10_000), st.integers(0, 500), commits)
def test_references_round_trip_for_any_path(path: str, start: int, length: int, commit: str | None) -> None:
    ref = SourceRef(path, start, start + length, commit)
    text = ref.format()
    assert " " not in text and "\n" not in text and "-->" not in text
    assert parse_reference(text) == ref


@pytest.mark.parametrize("text", ["memory/a.md", "memory/a.md:5", "memory/a.md:0-3", "memory/a.md:9-3", "a b:1-2", ""])
def test_bad_references_are_refused(text: str) -> None:
    with pytest.raises(BadReference):
        parse_reference(text)


@given(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=16),
    st.one_of(st.none(), st.builds(SourceRef, paths, st.integers(1, 99), st.integers(99, 200), commits)),
    st.one_of(st.none(), st.floats(0, 1).map(lambda x: round(x, 3))),
)
def test_markers_round_trip(key: str, source: SourceRef | None, score: float | None) -> None:
    marker = EntryMarker(key=key, source=source, score=score, promoted="2026-11-30", extra={"action": "supersede"})
    line = marker.format()
    assert line.startswith("<!-- memgit:entry ") and line.endswith(" -->") and "\n" not in line
    assert is_marker_line(line)
    assert parse_marker(line) == marker


def test_marker_parsing_tolerates_hand_edits() -> None:
    assert parse_marker("- an ordinary line") is None
    assert parse_marker("<!-- a person's comment -->") is None
    assert parse_marker("<!-- memgit:entry source=memory/a.md:1-2 -->") is None  # no key
    broken = parse_marker("<!-- memgit:entry key=k1 source=nonsense score=high -->")
    assert broken == EntryMarker(key="k1")


def test_short_markers_are_read_by_the_same_recognisers() -> None:
    line = "- Sam prefers squash merges. <!--mg:k3b71873e72-->"
    assert parse_marker(line) == EntryMarker(key="k3b71873e72")
    assert not is_marker_line(line) and has_inline_marker(line)  # a line of text that carries a marker
    assert strip_marker(line) == "- Sam prefers squash merges."
    assert strip_marker(line + "\r") == "- Sam prefers squash merges.\r"
    assert is_marker_line("<!-- mg:k1 -->") and strip_marker("<!-- mg:k1 -->") == ""
    long = EntryMarker("k1", SourceRef("memory/a.md", 1, 2), 0.5, "2026-01-01").format()
    assert is_marker_line(long) and strip_marker(long) == "" and parse_marker(long).key == "k1"  # type: ignore[union-attr]
    assert parse_marker("- text <!-- a person's comment -->") is None
    assert parse_marker("<!--mg:k1--> and text after it") is None  # a marker ends its line
    assert strip_markers("a <!--mg:k1-->\n<!--mg:k2-->\nb\n") == "a\n\nb\n"  # line numbers stay


@given(st.text(max_size=60))
def test_strip_marker_never_grows_a_line_and_keeps_text_without_markers(text: str) -> None:
    line = text.replace("\n", " ")
    assert len(strip_marker(line)) <= len(line)
    if "<!--" not in line:
        assert strip_marker(line) == line


def test_trailers() -> None:
    trailers = {"Memgit-Promotion": "k1", "Memgit-Source": "memory/a.md:3-4@abc1234", "Memgit-Score": "0.812"}
    message = "Promote: the user moved to Lisbon\n\nWhy: recalled on 4 days.\n\n" + format_trailers(trailers)
    assert parse_trailers(message) == trailers
    assert parse_trailers("subject only") == {}
    assert parse_trailers("subject\n\nbody with Memgit-Promotion: k1 inside a sentence") == {}
