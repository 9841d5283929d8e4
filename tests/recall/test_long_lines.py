"""A line longer than a chunk (a minified page, a pasted log) is split into chunks of the usual
size, each naming its exact character range; a hit's snippet shows the match."""

from __future__ import annotations

import random
from pathlib import Path

from memgit.recall.hits import snippet
from tests.helpers import commit_all, memgit_json, write

BM25 = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "1"}
WORDS = "harbor ledger window basalt copper meadow signal thistle orbit lantern quarry velvet".split()


def test_a_long_line_is_chunked_and_its_hit_names_the_characters(workspace: Path) -> None:
    rng = random.Random(4)
    words = [rng.choice(WORDS) for _ in range(30_000)]
    words[18_000] = "quetzalwidget"
    line = " ".join(words)
    write(workspace / "memory" / "notes" / "dump.md", "# Dump\n\n" + line + "\n\nafter the dump\n")
    commit_all(workspace, "a page on one line")
    report = memgit_json(workspace, "index", env=BM25)
    assert report["chunks"] > len(line) // 700  # pieces of the usual size, not one huge chunk

    hits = memgit_json(workspace, "search", "quetzalwidget", env=BM25)["hits"]
    top = hits[0]
    assert (top["path"], top["start_line"], top["end_line"]) == ("memory/notes/dump.md", 3, 3)
    assert "quetzalwidget" in line[top["start_char"] : top["end_char"]]
    assert top["end_char"] - top["start_char"] <= 700 and "quetzalwidget" in top["text"]
    assert top["text"] == line[top["start_char"] : top["end_char"]][: len(top["text"])]
    others = memgit_json(workspace, "search", "after the dump", env=BM25)["hits"]
    assert any(h["start_line"] == 5 and h["start_char"] is None for h in others)
    assert memgit_json(workspace, "index", "--verify", env=BM25)["verify"]["ok"]


def test_a_snippet_shows_the_match() -> None:
    text = "\n".join(f"line {i} about harbors and ledgers" for i in range(60)) + "\nthe quetzalwidget came last"
    shown = snippet(text, ["quetzalwidget"], 200)
    assert "quetzalwidget" in shown and len(shown) <= 200 and shown.startswith("the quetzalwidget")
    assert snippet(text, ["harbors"], 200) == text[:200]  # a match in the first part: the start
    assert snippet(text, ["absent"], 200) == text[:200]
    one_line = "x " * 500 + "quetzalwidget " + "y " * 500
    long_shown = snippet(one_line, ["quetzalwidget"], 100)
    assert "quetzalwidget" in long_shown and len(long_shown) == 100
