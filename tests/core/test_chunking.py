"""Pure chunking and transcript parsing: properties over random input (hypothesis)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from memgit.core.chunking import (
    Chunk,
    char_token_counter,
    chunk_lines,
    cmark_heading_rows,
    heading_rows,
    split_lines,
    text_hash,
)
from memgit.core.transcripts import transcript_lines

_PARSER = MarkdownIt("commonmark").disable(["inline", "text_join"])


def parsed_heading_rows(texts: list[str]) -> frozenset[int]:
    """`heading_rows` by markdown-it-py's block parser (inline parsing is not needed): the
    tests' second CommonMark oracle, which the index no longer runs."""
    tokens = _PARSER.parse("\n".join(texts))
    return frozenset(tok.map[0] for tok in tokens if tok.type == "heading_open" and tok.map)


# -- strategies --------------------------------------------------------------------------------
# Text without line breaks (a line never contains "\n"; a CR inside a line is just a character).
_line_chars = st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r")
words = st.text(_line_chars, min_size=1, max_size=40)
headings = st.builds(lambda level, title: "#" * level + " " + title, st.integers(1, 6), words)
blank = st.sampled_from(["", " ", "\t", "   "])
long_line = st.builds(lambda w, n: (w + " ") * n, words, st.integers(20, 120))
unicode_line = st.sampled_from(
    ["東京で寿司を食べた", "Ünïcödé façade naïve", "emoji 🎉🚀 ok", "עברית", "x\u200by", "#hashtag not heading"]
)
line_text = st.one_of(words, words, headings, blank, long_line, unicode_line)


@st.composite
def numbered_lines(draw: st.DrawFn) -> list[tuple[int, str]]:
    texts = draw(st.lists(line_text, max_size=60))
    if draw(st.booleans()):
        return list(enumerate(texts, start=1))
    # Transcript-style numbering: increasing, with gaps.
    number, out = 0, []
    for text in texts:
        number += draw(st.integers(1, 4))
        out.append((number, text))
    return out


chunk_params = st.fixed_dictionaries(
    {
        "max_tokens": st.integers(1, 80),
        "overlap_tokens": st.integers(0, 40),
        "chars_per_token": st.integers(1, 6),
    }
)


def run_chunker(lines: list[tuple[int, str]], params: dict[str, int]) -> list[Chunk]:
    return chunk_lines(
        lines,
        max_tokens=params["max_tokens"],
        overlap_tokens=params["overlap_tokens"],
        count_tokens=char_token_counter(params["chars_per_token"]),
    )


def lines_of(lines: list[tuple[int, str]], chunk: Chunk) -> list[tuple[int, str]]:
    return [(n, t) for n, t in lines if chunk.start_line <= n <= chunk.end_line]


def heading_numbers(lines: list[tuple[int, str]]) -> set[int]:
    """Line numbers a CommonMark parser calls headings (the chunker's own definition)."""
    return {lines[i][0] for i in heading_rows([t for _, t in lines])}


def is_body(number: int, text: str, heads: set[int]) -> bool:
    return bool(text.strip()) and number not in heads


# -- chunk_lines properties --------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(numbered_lines(), chunk_params)
def test_chunk_invariants(lines: list[tuple[int, str]], params: dict[str, int]) -> None:
    chunks = run_chunker(lines, params)
    count = char_token_counter(params["chars_per_token"])
    max_tokens = max(1, params["max_tokens"])
    overlap = max(0, min(params["overlap_tokens"], max_tokens // 2))
    numbers = [n for n, _ in lines]
    heads = heading_numbers(lines)

    for chunk in chunks:
        assert chunk.start_line <= chunk.end_line
        assert chunk.start_line in numbers and chunk.end_line in numbers
        inside = lines_of(lines, chunk)
        if chunk.start_char is not None:  # a piece of one line too long for a chunk
            assert chunk.start_line == chunk.end_line and count(inside[0][1]) + 1 > max_tokens
            assert chunk.text == inside[0][1][chunk.start_char : chunk.end_char]
            assert count(chunk.text) <= max(1, max_tokens - 1)
            continue
        # The text is exactly the source lines, joined by "\n".
        assert chunk.text == "\n".join(t for _, t in inside)
        assert chunk.text_hash == text_hash(chunk.text)
        # Blank lines never start or end a chunk.
        assert inside[0][1].strip() and inside[-1][1].strip()
        # Size: within max_tokens (each line costs its tokens + 1) unless it is one line.
        if len(inside) > 1:
            assert sum(count(t) + 1 for _, t in inside) <= max_tokens
        # A heading inside a chunk (not at its start) only follows headings and blank lines.
        for i, (number, text) in enumerate(inside):
            if i > 0 and number in heads:
                assert not any(is_body(n, t, heads) for n, t in inside[:i]), (chunk, text)

    # Ordered, always progressing, overlap bounded by the overlap budget.
    for prev, nxt in zip(chunks, chunks[1:], strict=False):
        if nxt.start_char is not None and prev.start_line == nxt.start_line:
            assert prev.start_char is not None and nxt.start_char > prev.start_char  # pieces of one line
            continue
        if prev.start_char is not None or nxt.start_char is not None:
            assert nxt.start_line > prev.start_line
            continue
        assert nxt.start_line > prev.start_line
        assert nxt.end_line > prev.end_line
        shared = [(n, t) for n, t in lines if nxt.start_line <= n <= prev.end_line]
        assert sum(count(t) + 1 for _, t in shared) <= overlap
        if overlap == 0:
            assert not shared

    # Every non-blank line is in some chunk; nothing at all when there is no text.
    for number, text in lines:
        if text.strip():
            assert any(c.start_line <= number <= c.end_line for c in chunks), (number, text)
    if not any(t.strip() for _, t in lines):
        assert chunks == []

    # Deterministic.
    assert run_chunker(list(lines), dict(params)) == chunks


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(words, blank, headings), max_size=40), st.integers(4, 60))
def test_heading_starts_a_chunk_after_body(texts: list[str], max_tokens: int) -> None:
    """A heading preceded by body text in the same window begins a new chunk (never mid-chunk)."""
    lines = list(enumerate(texts, start=1))
    chunks = chunk_lines(lines, max_tokens=max_tokens, overlap_tokens=8, count_tokens=char_token_counter(4))
    starts = {c.start_line for c in chunks}
    heads = heading_numbers(lines)
    for number, _text in lines:
        if number not in heads:
            continue
        holders = [c for c in chunks if c.start_line <= number <= c.end_line]
        assert holders
        for chunk in holders:
            before = [(n, t) for n, t in lines if chunk.start_line <= n < number]
            assert number in starts or not any(is_body(n, t, heads) for n, t in before)


def test_heading_example_sections_stay_with_their_heading() -> None:
    text = "# Title\n\nintro line\n\n## Section A\nalpha one\nalpha two\n\n## Section B\nbeta\n"
    lines = list(enumerate(split_lines(text), start=1))
    chunks = chunk_lines(lines, max_tokens=1000, overlap_tokens=10, count_tokens=char_token_counter(4))
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 3), (5, 7), (9, 10)]
    assert chunks[1].text == "## Section A\nalpha one\nalpha two"
    assert chunks[2].text.startswith("## Section B")


def test_a_hash_line_in_a_fenced_code_block_is_not_a_heading() -> None:
    text = "# Notes\n\nsetup:\n\n```sh\n# install the tools\nmake install\n```\n\n## Next\nmore\n"
    lines = list(enumerate(split_lines(text), start=1))
    assert heading_numbers(lines) == {1, 10}
    chunks = chunk_lines(lines, max_tokens=1000, overlap_tokens=0, count_tokens=char_token_counter(4))
    # The comment line stays inside the code block's chunk; only `## Next` starts a new one.
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 8), (10, 11)]


markdownish = st.one_of(
    line_text,
    st.sampled_from(["```", "~~~", "    # indented", "> # quoted", "<div>", "---", "===", "***", "- item", "  # two"]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(markdownish, max_size=30))
def test_heading_detection_agrees_with_commonmark(texts: list[str]) -> None:
    """The fast path for files without fences, quotes, HTML or underlines answers exactly as
    markdown-it-py's parser does."""
    assert heading_rows(texts) == cmark_heading_rows(texts)


# Block-level Markdown as memory files hold it, and the constructs that trip a line-by-line reading:
# fences of both kinds and lengths (with info strings, closers indented or too short, never
# closed), fences and headings inside list items, nested markers, tabs, setext underlines and
# thematic breaks at any indentation, quotes, HTML.
_indent = st.sampled_from(["", "", "", " ", "  ", "   ", "    ", "\t", " \t", "      "])
_fence_marks = st.sampled_from(["```", "````", "~~~", "~~~~", "``", "`````"])
_info = st.sampled_from(["", "python", " sh", "x`y", "~~", " {.lang}"])
_markers = st.sampled_from(["-", "*", "+", "1.", "2)", "10.", "- -", "1. -"])
_content = st.one_of(
    words,
    st.sampled_from(["# title", "## sub", "```", "~~~", "> quote", "<div>", "---", "===", "- nested", "text # no"]),
)
block_line = st.one_of(
    words,
    headings,
    blank,
    st.builds(lambda i, h: i + h, _indent, headings),
    st.builds(lambda m, info: m + info, _fence_marks, _info),
    st.builds(lambda i, m: i + m, _indent, _fence_marks),
    st.builds(
        lambda i, m, sep, c: i + m + sep + c, _indent, _markers, st.sampled_from([" ", "  ", "\t", "     "]), _content
    ),
    st.builds(lambda i, u: i + u, _indent, st.sampled_from(["---", "===", "***", "___", "- - -", "-", "=", "* * *"])),
    st.builds(
        lambda i, t: i + t, _indent, st.sampled_from(["> # q", "<!-- c -->", "<p>", "#hashtag", "#", "####### seven"])
    ),
)


@st.composite
def memory_documents(draw: st.DrawFn) -> list[str]:
    """Mostly-plain documents (the fast path's case) with a few tricky lines mixed in."""
    plain = st.one_of(words, headings, blank, st.builds(lambda w: "- " + w, words))
    body = draw(st.lists(st.one_of(plain, plain, block_line), max_size=40))
    if draw(st.booleans()):  # a well-formed fenced block somewhere, with heading-like code inside
        mark = draw(st.sampled_from(["```", "~~~", "````"]))
        inside = draw(st.lists(st.one_of(headings, words, block_line), max_size=6))
        at = draw(st.integers(0, len(body)))
        body[at:at] = [mark + draw(_info.filter(lambda x: "`" not in x)), *inside, mark]
    return body


@settings(max_examples=1500, deadline=None)
@given(memory_documents())
def test_fast_heading_path_agrees_with_commonmark_on_generated_markdown(texts: list[str]) -> None:
    """The regex path (plain blocks and first-column fences) and the parser give the same headings."""
    assert heading_rows(texts) == cmark_heading_rows(texts)


@settings(max_examples=1500, deadline=None)
@given(memory_documents())
def test_cmark_agrees_with_markdown_it_on_generated_markdown(texts: list[str]) -> None:
    """The parser the index runs (cmark, C) and markdown-it-py's give the same headings, on every
    document the fast path does not answer alone (the index never asks markdown-it-py)."""
    # One known difference, where cmark follows the spec: a line indented four spaces or more
    # that starts with `>` after a block quote is indented code, not the quote going on
    # (markdown-it-py reads `>`, `    >#` as a quote holding an empty heading).
    # Four columns of indentation, tabs to the next multiple of four (" \t>" is four columns too).
    assume(
        not any(
            len(t[: len(t) - len(t.lstrip(" \t"))].expandtabs(4)) >= 4 and t.lstrip(" \t")[:1] == ">" for t in texts
        )
    )
    # A second: a list item whose content starts past column four ("-    0", "00.  0": marker and
    # spaces five columns wide), so a line indented four ("    #") is a lazy paragraph line, and a
    # heading indented to the content column below it is the item's (cmark); markdown-it-py reads
    # no heading there. Hypothesis found it twice: ['-    0', '    #', '     #'], then with "00.  0".
    assume(not any(_content_column(t) > 4 for t in texts))
    # A third: an empty list item ("-") and then a blank line holding a tab. cmark keeps the item
    # open across that line (an empty line or spaces close it, as the spec's empty-item example
    # says), so "    #" below is the item's heading; markdown-it-py reads indented code there, as
    # both parsers do when the blank line has no tab. Found by hypothesis: ['-', '\t', '    #'].
    assume(not any(_empty_item(a) and "\t" in b and not b.strip() for a, b in zip(texts, texts[1:], strict=False)))
    assert cmark_heading_rows(texts) == parsed_heading_rows(texts)


def _empty_item(line: str) -> bool:
    return re.fullmatch(r" {0,3}([-*+]|\d{1,9}[.)])[ \t]*", line) is not None


def _content_column(line: str) -> int:
    """Where a list item's content starts (its indent, marker and one to four spaces); 0 for a
    line that opens no list item."""
    item = re.match(r"^( {0,3})([-*+]|\d{1,9}[.)])( {1,4})\S", line)
    return len(item.group(0)) - 1 if item else 0


def test_cmark_reads_an_indented_quote_marker_as_code() -> None:
    assert cmark_heading_rows([">", "    >#"]) == frozenset()


def test_the_known_empty_item_difference_is_only_where_the_blank_line_holds_a_tab() -> None:
    assert cmark_heading_rows(["-", "\t", "    #"]) == frozenset({2})
    assert cmark_heading_rows(["-", "", "    #"]) == parsed_heading_rows(["-", "", "    #"]) == frozenset()
    assert cmark_heading_rows(["- a", "\t", "    # x"]) == parsed_heading_rows(["- a", "\t", "    # x"])


@pytest.mark.parametrize(
    "texts",
    [
        ["- # heading in a list item"],
        ["1. # heading in an ordered item"],
        ["- a", "\t# tab-indented heading in the item"],
        ["- Foo", "    ---"],
        ["- ```", "  # code", "  ```"],
        ["- item", "  ```", "# after the list ends the fence"],
        ["```", "# code", "````"],
        ["````", "# code", "```", "# still code"],
        ["~~~ sh ```", "# code", "~~~", "# heading"],
        ["``` x`y", "# heading: that was no fence"],
        ["```", "# never closed"],
        ["```", "    ```", "# still code: a closer is indented three spaces at most", "```", "# heading"],
        ["```", "   ```", "# heading after a closer indented three spaces"],
        ["```", "\t```", "# still code", "```"],
        ["~~~", "```", "# still code", "~~~~  ", "# heading"],
        ["```", "``` x", "# still code: a closer has no info string", "```"],
    ],
)
def test_fast_heading_path_examples(texts: list[str]) -> None:
    assert heading_rows(texts) == cmark_heading_rows(texts)


def test_plain_files_with_code_fences_take_the_regex_path() -> None:
    """The common case (daily logs with code blocks) must not need the parser: that is the speed."""
    from memgit.core.chunking import _plain_heading_rows

    texts = [
        "# 2026-01-05",
        "",
        "## Deploy",
        "- ran it:",
        "",
        "```sh",
        "# install",
        "    # indented",
        "<b>",
        "```",
        "- done",
    ]
    assert _plain_heading_rows(texts) == frozenset({0, 2}) == cmark_heading_rows(texts) == parsed_heading_rows(texts)


def test_setext_headings_and_plain_hash_words() -> None:
    lines = list(enumerate(["Title", "=====", "body", "", "#hashtag is not a heading", "", "Sub", "---", "x"], start=1))
    assert heading_numbers(lines) == {1, 7}


def test_consecutive_headings_stay_together() -> None:
    lines = list(enumerate(["# A", "## B", "", "### C", "body"], start=1))
    chunks = chunk_lines(lines, max_tokens=100, overlap_tokens=0, count_tokens=char_token_counter(4))
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 5)]


def test_overlap_carries_whole_lines() -> None:
    texts = [f"line number {i:02d}" for i in range(1, 21)]  # 14 chars -> 4 tokens + 1 = 5 each
    lines = list(enumerate(texts, start=1))
    chunks = chunk_lines(lines, max_tokens=20, overlap_tokens=10, count_tokens=char_token_counter(4))
    assert [(c.start_line, c.end_line) for c in chunks][:3] == [(1, 4), (3, 6), (5, 8)]
    no_overlap = chunk_lines(lines, max_tokens=20, overlap_tokens=0, count_tokens=char_token_counter(4))
    assert [(c.start_line, c.end_line) for c in no_overlap] == [(1, 4), (5, 8), (9, 12), (13, 16), (17, 20)]


def test_a_line_longer_than_a_chunk_is_split_with_exact_character_ranges() -> None:
    huge = "x" * 10_000
    lines = list(enumerate(["short", huge, "after"], start=1))
    chunks = chunk_lines(lines, max_tokens=16, overlap_tokens=8, count_tokens=char_token_counter(4))
    assert (chunks[0].start_line, chunks[-1].start_line) == (1, 3)
    pieces = [c for c in chunks if c.start_line == 2]
    assert len(pieces) > 10 and all(c.end_line == 2 for c in pieces)
    assert all(huge[c.start_char : c.end_char] == c.text and len(c.text) <= 60 for c in pieces)
    assert pieces[0].start_char == 0 and pieces[-1].end_char == len(huge)
    assert chunks[0].start_char is None and chunks[-1].text == "after"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=30), min_size=1, max_size=400),
    st.integers(8, 64),
    st.integers(0, 32),
)
def test_long_line_pieces_cover_the_line_within_the_size(words: list[str], max_tokens: int, overlap: int) -> None:
    """Every piece is the line's text at its range, within the chunk size; the pieces cover the
    line from its first character to its last, each starting after the one before."""
    line = " ".join(words)
    count = char_token_counter(4)
    chunks = chunk_lines([(7, line)], max_tokens=max_tokens, overlap_tokens=overlap, count_tokens=count)
    if count(line) + 1 <= max_tokens:
        assert [(c.text, c.start_char) for c in chunks] == [(line, None)]
        return
    covered = 0
    for before, piece in zip([None, *chunks], chunks, strict=False):
        assert piece.start_char is not None and piece.end_char is not None
        assert line[piece.start_char : piece.end_char] == piece.text and count(piece.text) <= max_tokens - 1
        assert piece.start_char <= covered  # no gap
        assert before is None or before.start_char is None or piece.start_char > before.start_char
        covered = max(covered, piece.end_char)
    assert covered == len(line)


def test_empty_and_blank_input() -> None:
    params = {"max_tokens": 10, "overlap_tokens": 2, "count_tokens": char_token_counter(4)}
    assert chunk_lines([], **params) == []
    assert chunk_lines([(1, ""), (2, "  "), (3, "\t")], **params) == []


def test_char_token_counter_rounds_up() -> None:
    count = char_token_counter(4)
    assert [count(""), count("a"), count("abcd"), count("abcde")] == [0, 1, 1, 2]


# -- split_lines -------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(_line_chars, max_size=20), max_size=20),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_split_lines_roundtrip(lines: list[str], crlf: bool, bom: bool, trailing: bool) -> None:
    assume(not (lines and lines[0].startswith("\ufeff")))
    newline = "\r\n" if crlf else "\n"
    text = newline.join(lines)
    if trailing and lines:
        text += newline
    if bom:
        text = "\ufeff" + text
    expected = list(lines)
    # Without a trailing newline, a final empty line is indistinguishable from none.
    if not trailing and expected and expected[-1] == "":
        expected.pop()
    assert split_lines(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("\n", [""]),
        ("a", ["a"]),
        ("a\n", ["a"]),
        ("a\r\nb\r\n", ["a", "b"]),
        ("a\r\nb", ["a", "b"]),
        ("a\n\n", ["a", ""]),
        ("\ufeffa\nb", ["a", "b"]),
        ("\ufeff\r\nx", ["", "x"]),
        ("a\rb\n", ["a\rb"]),  # a lone CR is not a line break (git numbers by LF)
        ("mid\ufeffbom\n", ["mid\ufeffbom"]),  # only a leading BOM is dropped
        ("mixed\r\nends\nhere\r\n", ["mixed", "ends", "here"]),
    ],
)
def test_split_lines_examples(text: str, expected: list[str]) -> None:
    assert split_lines(text) == expected


# -- transcripts -------------------------------------------------------------------------------
def test_transcript_lines_user_and_assistant_only() -> None:
    records = [
        {"role": "system", "content": "You are a helpful agent"},
        {"role": "user", "content": "Where did   we deploy\n the billing service?"},
        "not json at all {",
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "To production,"},
                    {"type": "tool_use", "name": "bash", "input": {"cmd": "ls"}},
                    {"type": "text", "text": "yesterday."},
                ],
            },
        },
        {"type": "tool_result", "content": "secret tool output"},
        {"role": "user", "content": ""},
        {"role": "assistant", "content": "   "},
        [1, 2, 3],
        {"role": "user", "content": [{"type": "input_text", "text": "thanks"}, "plain part"]},
        {"role": "assistant", "text": "You are welcome"},
        {"role": "user", "content": 42},
    ]
    raw = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n\n"
    out = transcript_lines(raw)
    assert out == [
        (2, "user: Where did we deploy the billing service?"),
        (4, "assistant: To production, yesterday."),
        (9, "user: thanks plain part"),
        (10, "assistant: You are welcome"),
    ]
    joined = " ".join(t for _, t in out)
    assert "secret tool output" not in joined and "helpful agent" not in joined and "bash" not in joined


def test_transcript_crlf_and_truncated_last_line() -> None:
    raw = json.dumps({"role": "user", "content": "first"}) + "\r\n" + '{"role": "assistant", "content": "cut of'
    assert transcript_lines(raw) == [(1, "user: first")]


turn = st.fixed_dictionaries(
    {
        "role": st.sampled_from(["user", "assistant", "system", "tool", "developer"]),
        "content": st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
    }
)
jsonl_line = st.one_of(
    turn.map(json.dumps),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=30),
    st.just(""),
    st.just("{broken"),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(jsonl_line, max_size=25))
def test_transcript_lines_property(raw_lines: list[str]) -> None:
    out = transcript_lines("\n".join(raw_lines))
    expected = []
    for number, raw in enumerate(raw_lines, start=1):
        try:
            record = json.loads(raw.strip())
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("role") not in ("user", "assistant"):
            continue
        said = " ".join(str(record.get("content", "")).split())
        if said:
            expected.append((number, f"{record['role']}: {said}"))
    assert out == expected
    numbers = [n for n, _ in out]
    assert numbers == sorted(set(numbers))
    # Transcript lines chunk like any other numbered lines (line numbers point into the JSONL).
    chunks = chunk_lines(out, max_tokens=32, overlap_tokens=4, count_tokens=char_token_counter(4))
    for chunk in chunks:
        assert chunk.start_line in numbers and chunk.end_line in numbers
