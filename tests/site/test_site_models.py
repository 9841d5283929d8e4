"""Pure parts of the memory site: page paths, MEMORY.md entries and markers, provenance links,
scope rules, trailer parsing. No git, no browser."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from memgit.core.provenance import EntryMarker, SourceRef
from memgit.site import models, urls
from memgit.site.markdown import Renderer, entries

SEGMENT = st.text(st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)), min_size=1, max_size=12)


@given(st.lists(SEGMENT, min_size=1, max_size=3), st.lists(SEGMENT, min_size=1, max_size=3))
def test_note_urls_are_safe_and_never_shared(a: list[str], b: list[str]) -> None:
    path_a, path_b = "memory/" + "/".join(a) + ".md", "memory/" + "/".join(b) + ".md"
    url_a, url_b = urls.note_url(path_a), urls.note_url(path_b)
    assert re.fullmatch(r"notes/[A-Za-z0-9._/-]+\.html", url_a)
    assert not any(part.startswith(".") or part == "" for part in url_a.split("/"))
    assert (url_a == url_b) == (path_a == path_b)


def test_plain_names_stay_readable() -> None:
    assert urls.note_url("memory/2026-01-05.md") == "notes/memory/2026-01-05.html"
    assert urls.note_url("MEMORY.md") == "notes/MEMORY.html"
    assert urls.note_url("memory/a b.md").startswith("notes/memory/a-b-")


def test_relative_links_between_pages() -> None:
    assert urls.relative("index.html", "notes/memory/x.html#L3") == "notes/memory/x.html#L3"
    assert urls.relative("notes/memory/x.html", "index.html") == "../../index.html"
    assert urls.relative("snap/abc/memory/x.html", "notes/memory/x.html") == "../../../notes/memory/x.html"
    assert urls.relative("notes/memory/x.html", "notes/memory/y.html#L1-L2") == "y.html#L1-L2"


def test_entries_pair_markers_with_the_entry_below() -> None:
    marker = EntryMarker("k1", SourceRef("memory/2026-01-01.md", 3, 4, "abc1234"), 0.5, "2026-01-02")
    text = f"# Memory\n\n- hand written\n\n{marker.format()}\n- promoted fact\n- another hand entry\n\nA paragraph.\n"
    found = entries(text)
    assert [(e.start, e.marker.key if e.marker else None) for e in found] == [
        (3, None),
        (6, "k1"),
        (7, None),
        (9, None),
    ]


def test_rendered_markdown_is_inert_and_links_resolve() -> None:
    renderer = Renderer("index.html", "MEMORY.md", {"memory/a.md", "MEMORY.md"})
    html = renderer.render(
        "<script>x()</script>\n\n[j](javascript:alert(1)) [a](memory/a.md#L2-L3) [gone](memory/b.md) "
        "![i](https://e.org/p.png) [w](https://e.org/)\n"
    )
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "javascript:" not in html.split("[j]")[0] and 'href="javascript' not in html
    assert 'href="notes/memory/a.html#L2-L3"' in html
    assert '<span class="dead-link">gone</span>' in html and "<img" not in html and "[image: i]" in html
    assert 'href="https://e.org/" rel="nofollow noopener noreferrer"' in html


def test_provenance_link_states() -> None:
    ref = SourceRef("memory/d.md", 2, 3, "c0ffee")
    old = ["a", "b", "c", "d"]
    full = {"c0ffee": "c0ffee" + "1" * 34}
    same = models.provenance_link(ref, {"memory/d.md": old}, {("c0ffee", "memory/d.md"): old}, "index.html", full)
    assert (same["state"], same["url"]) == ("current", "notes/memory/d.html#L2-L3")
    moved = models.provenance_link(
        ref, {"memory/d.md": ["a", "B", "c"]}, {("c0ffee", "memory/d.md"): old}, "index.html", full
    )
    assert (moved["state"], moved["url"]) == ("changed", "snap/c0ffee111111/memory/d.html#L2-L3")
    assert moved["current_url"] == "notes/memory/d.html"
    # An abbreviated id no commit here expands to never becomes a snapshot's address.
    unexpanded = models.provenance_link(ref, {"memory/d.md": ["x"]}, {("c0ffee", "memory/d.md"): old}, "index.html")
    assert unexpanded["state"] == "no-commit" and "snap/" not in unexpanded["url"]
    # Lines that moved below the range do not count as a change of the range itself.
    appended = models.provenance_link(
        ref, {"memory/d.md": [*old, "e"]}, {("c0ffee", "memory/d.md"): old}, "index.html", full
    )
    assert appended["state"] == "current"
    unknown = models.provenance_link(ref, {"memory/d.md": old}, {}, "index.html")
    assert unknown["state"] == "no-commit"
    gone = models.provenance_link(ref, {}, {}, "index.html")
    assert (gone["state"], gone["url"]) == ("missing", None)


def test_private_paths() -> None:
    for path in ("MEMORY.md", "USER.md", "sessions/2026-01-01.jsonl", "memory/dreams/2026-01-01.md"):
        assert models.is_private(path)
    assert not models.is_private("memory/2026-01-01.md")
    assert models.is_private("memory/secret/x.md", ["memory/secret/**"])


def test_dream_actions_from_trailers() -> None:
    message = (
        "Promote: a fact\n\nMemgit-Promotion: k9\nMemgit-Source: memory/d.md:1-2@abcd123\n"
        "Memgit-Score: 0.812 (frequency=0.50 relevance=0.81)\nMemgit-Action: promote\n"
    )
    commits = [
        {
            "id": "f" * 40,
            "author": "a",
            "date": "2026-01-02T00:00:00+00:00",
            "subject": "Promote: a fact",
            "message": message,
        },
        {"id": "e" * 40, "author": "a", "date": "2026-01-01", "subject": "plain", "message": "plain"},
    ]
    [action] = models.dream_actions(commits)
    assert (action["key"], action["action"], action["score"]) == ("k9", "promote", 0.812)
    assert action["components"] == [("frequency", "0.50"), ("relevance", "0.81")]
    assert action["source"] == SourceRef("memory/d.md", 1, 2, "abcd123") and action["supersedes"] == ""
    superseding = {
        **commits[0],
        "message": "Supersede\n\nMemgit-Promotion: k10\nMemgit-Action: supersede\nMemgit-Supersedes: k9\n",
    }
    [replaced] = models.dream_actions([superseding])
    assert (replaced["action"], replaced["supersedes"], replaced["source"], replaced["score"]) == (
        "supersede",
        "k9",
        None,
        None,
    )


def test_summary_and_concepts() -> None:
    summary = models.summarise_text("memory/x.md", "# Title\n\n- first fact #Alpha\n- more #beta and #alpha\n")
    assert (summary.title, summary.first, summary.lines) == ("Title", "first fact #Alpha", 4)
    assert summary.concepts == {"alpha": [3, 4], "beta": [4]}
    assert str(models.decode(b"\xff", 1000)[1]).startswith("not valid UTF-8")
    assert str(models.decode(b"a\x00b", 1000)[1]).startswith("binary")
    assert str(models.decode(b"abc", 2)[1]).startswith("larger than 2 bytes")


def test_plain_text_summaries_end_in_an_ellipsis() -> None:
    assert models.plain_text("- **John**: Hey [Maria](people/maria.md)! `x` _y_") == "John: Hey Maria! x y"
    assert models.plain_text("```python") == "" and models.plain_text("plain words") == "plain words"
    cut = models.shorten("word " * 60, 40)
    assert cut.endswith("…") and len(cut) <= 40 and not cut[:-1].endswith(" ")
    summary = models.summarise_text("memory/x.md", "# T\n\n- **John**: " + "long " * 80 + "\n")
    assert summary.first.startswith("John: long") and summary.first.endswith("…")


def test_plain_text_unwraps_links_with_parentheses_and_reads_only_a_hostile_lines_head() -> None:
    assert models.plain_text("see [Foo](https://e.org/wiki/Foo_(bar)) and [x](y 'title')") == "see Foo and x"
    # A line of nested brackets (a JSON transcript line, say) keeps its head as it is: the link
    # pattern no longer rescans the rest of the line from every `[`, and the head is all a reader sees.
    nested = "[" * 100_000 + "]" * 100_000
    assert models.plain_text(nested) == "[" * 4096
    assert models.plain_text("**a " * 50_000).startswith("**a **a ")


def test_search_shard_postings_round_trip() -> None:
    from memgit.site.search_index import packed, shard_index

    assert packed([0, 1, 3, 2, 4, 1]) == [0, 3, 0, 1]
    docs = [
        ["notes/a.html", "memory/a.md", 1, "note", "", "A", "alpha beta\nbeta"],
        ["notes/a.html", "memory/a.md", 2, "note", "", "A", "beta\ngamma"],
    ]
    shard = shard_index(docs)
    assert shard["files"] == [["notes/a.html", "memory/a.md", "note", "", 1, "alpha beta\nbeta\ngamma"]]
    assert shard["docs"] == [[0, 1, 2, "A"], [0, 2, 3, "A"]]
    beta = shard["post"][shard["keys"].index("beta")]
    assert beta == [0, 0, 1]  # doc 0 twice, doc 1 once
    assert shard["keys"] == sorted(shard["keys"])


def test_search_shard_postings_are_the_packed_counts() -> None:
    """Postings packed while the shard is built equal the format's definition (`packed`) of
    each word's plain `[doc, count, ...]` list, on varied documents."""
    import random
    from collections import Counter

    from memgit.site.search_index import packed, shard_index, words

    rng = random.Random(7)
    vocab = ["kestrel", "ledger", "owner", "priya", "standup", "moves", "Straße", "café", "naïve", "x1"]
    docs = [
        [
            f"notes/{i % 5}.html",
            f"memory/{i % 5}.md",
            i + 1,
            "note",
            "",
            f"H{i % 3}",
            " ".join(rng.choices(vocab, k=rng.randint(1, 12))),
        ]
        for i in range(60)
    ]
    shard = shard_index(docs)
    plain: dict[str, list[int]] = {}
    for number, doc in enumerate(docs):
        for term, count in Counter(words(f"{doc[1]} {doc[5]}\n{doc[6]}")).items():
            plain.setdefault(term, []).extend((number, count))
    assert set(shard["keys"]) == set(plain)
    for key, got in zip(shard["keys"], shard["post"], strict=True):
        assert got == packed(plain[key]), key
    assert any(0 in got for got in shard["post"])  # some word occurs twice in a chunk


def test_credits_fold_per_section() -> None:
    from memgit.site.markdown import Entry

    person = {"marker": None, "blame": {"id": "c1"}}
    other = {"marker": None, "blame": {"id": "c2"}}
    items = [
        (Entry(3, 3, None), person),
        (Entry(4, 4, None), person),
        (Entry(7, 7, None), person),
        (Entry(8, 8, None), other),
    ]
    folded = models.fold_credits(items, headings=[1, 6])
    assert sorted(folded) == [4, 7, 8] and folded[4]["count"] == 2 and folded[7]["count"] == 1


def test_hand_written_entry_writers_skip_blank_and_marker_lines() -> None:
    lines = ["- by hand", "", "<!-- memgit:entry key=k1 -->", "- promoted"]
    assert models.writers(["a", "b", "b", "b"], lines, 1, 3) == ["a"]


def test_entry_words_never_show_a_marker() -> None:
    lines = [
        "<!-- memgit:entry key=kold source=memory/a.md:1-1@" + "a" * 40 + " -->",
        "- Old entry.",
        "- The report is due on **Friday**. <!--mg:k3ab640d195-->",
    ]
    assert models.entry_words(lines, 1, 2, 100) == "Old entry."
    assert models.entry_words(lines, 3, 3, 100) == "The report is due on Friday."
