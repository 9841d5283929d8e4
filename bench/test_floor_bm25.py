"""The floor's variants (``bench/floor_bm25.py --sensitivity``) on a small workspace folder."""

from __future__ import annotations

from pathlib import Path

from bench.floor_bm25 import FloorIndex, without_stop_words


def workspace(tmp_path: Path) -> Path:
    (tmp_path / "memory").mkdir()
    lines = [f"- note {i}: the weather was mild and nothing happened" for i in range(40)]
    lines[30] = "- Melanie painted a sunrise over the lake"
    (tmp_path / "memory" / "2023-05-08.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "MEMORY.md").write_text("# Long-term Memory\n\n- Caroline runs marathons\n", encoding="utf-8")
    return tmp_path


def test_the_default_floor_finds_the_line_in_a_whole_chunk(tmp_path: Path) -> None:
    index = FloorIndex(workspace(tmp_path))
    hit = index.search("When did Melanie paint a sunrise?")[0]
    assert hit.path == "memory/2023-05-08.md" and hit.start_line <= 31 <= hit.end_line
    assert len(hit.text.split("\n")) == hit.end_line - hit.start_line + 1  # the whole chunk, uncut
    assert len(hit.text) > 700 and "Melanie painted" in hit.text


def test_cut_chunk_size_and_tokenizer_change_what_is_returned(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    assert len(FloorIndex(root, cut=700).search("Melanie sunrise")[0].text) == 700
    small = FloorIndex(root, chunk_chars=300, overlap_chars=0).search("Melanie sunrise")[0]
    assert small.end_line - small.start_line < 8 and small.start_line <= 31 <= small.end_line
    # "paint" matches "painted" only with porter stemming
    assert FloorIndex(root).search("paint") == []
    assert FloorIndex(root, tokenize="porter unicode61").search("paint")[0].path == "memory/2023-05-08.md"


def test_stop_words_dropped_leaves_the_content_words() -> None:
    match = without_stop_words("When did Melanie paint a sunrise?")
    assert match is not None and '"when"' not in match and '"melanie"' in match
