"""The pure parts of reading Markdown memgit did not write: front matter, titles, template
headings, table cells, history across renames, one snapshot page a blob."""

from __future__ import annotations

from memgit.site import titles
from memgit.site.inputs import ZERO
from memgit.site.pages import past_versions, snapshot_links, version_budget
from memgit.site.renames import follow, past_names
from memgit.site.repo_markdown import blank_front_matter, fix_cells


def lines(text: str) -> list[str]:
    return text.split("\n")


def test_front_matter_needs_keys_and_a_closing_line() -> None:
    assert titles.front_matter(lines("---\ntitle: 'A: B'\ntags:\n  - x\n  - y\nnote: >\n  folded text\n---\n# H")) == (
        8,
        [("title", "A: B"), ("tags", "x, y"), ("note", "folded text")],
    )
    assert titles.front_matter(lines("---\nJust a rule and a setext heading\n---\n")) is None
    assert titles.front_matter(lines("---\ntitle: never closed\n\nText.")) is None
    assert titles.front_matter(lines("text\n---\ntitle: late\n---")) is None
    assert titles.front_matter(lines("\ufeff---\r\nlayout: post\r\n...\r\nBody")) == (3, [("layout", "post")])


def test_title_is_front_matter_then_first_h1_never_a_lower_heading() -> None:
    assert titles.own_title(lines("---\ntitle: Front\n---\n# Heading one"))[:2] == ("Front", "front")
    assert titles.own_title(lines("## Section first\n\n# The *real* title\n"))[:2] == ("The real title", "h1")
    assert titles.own_title(lines("## Only sections\n\n### Deeper\n"))[:2] == ("", "")
    assert titles.own_title(lines("```sh\n# a comment, not a heading\n```\nSetext title\n===\n"))[:2] == (
        "Setext title",
        "h1",
    )
    title, source, heads, skip = titles.own_title(lines("---\nrfc: 9\n---\n# Summary:\n## Motivation\n"))
    assert (title, source, heads, skip) == ("Summary:", "h1", ["summary", "motivation"], 3)


def test_template_headings_need_most_files_and_a_few_of_them() -> None:
    heads = [["summary", "motivation", f"own {n}"] for n in range(6)] + [["summary"], ["other"]]
    assert titles.template_headings(heads, 8) == {"summary", "motivation"}
    assert titles.template_headings(heads[:4], 4) == frozenset()  # four files are no template yet
    assert titles.template_headings([["notes"]] * 3 + [[]] * 7, 10) == frozenset()


def test_site_title_skips_a_template_h1_and_falls_back_to_the_file_name() -> None:
    templates = frozenset({"summary"})
    assert titles.site_title("text/0042-x.md", "Summary", "h1", templates) == ("0042-x", "file")
    assert titles.site_title("text/0042-x.md", "Const generics", "h1", templates) == ("Const generics", "h1")
    assert titles.site_title("a/b.md", "Summary", "front", templates) == ("Summary", "front")
    assert titles.site_title("notes/plain.md", "", "", templates) == ("plain", "file")
    assert titles.concept_slugs({"guide-level explanation", "rationale and alternatives"}) == {
        "guide-level-explanation",
        "rationale-and-alternatives",
    }
    assert titles.result_heading("Const generics", "Motivation") == "Const generics › Motivation"
    assert titles.result_heading("Const generics", "") == "Const generics"


def test_blanked_front_matter_keeps_the_line_numbers() -> None:
    text, fields = blank_front_matter("---\ntitle: T\n---\n# H\nbody\n")
    assert text == "\n\n\n# H\nbody\n" and fields == [("title", "T")]
    assert blank_front_matter("# No front matter\n") == ("# No front matter\n", [])


def test_cells_get_classes_and_line_breaks() -> None:
    from markdown_it import MarkdownIt

    tokens = (
        MarkdownIt("commonmark", {"html": False})
        .enable("table")
        .parse("| a | b |\n|:-:|--:|\n| x<br>y | <b>z</b><BR />w |\n\nOutside<br>stays text\n")
    )
    fix_cells(tokens)
    assert not [t for t in tokens if t.attrGet("style")]
    assert [t.attrGet("class") for t in tokens if t.type in ("th_open", "td_open")] == ["al-center", "al-right"] * 2
    kinds = [[c.type for c in t.children or []] for t in tokens if t.type == "inline"]
    assert kinds[2] == ["text", "hardbreak", "text"]
    inline = [t for t in tokens if t.type == "inline"]
    assert "hardbreak" in kinds[3]
    assert [c.content for c in inline[-1].children or []] == ["Outside<br>stays text"]


def _row(commit: str, blob: str) -> dict:
    return {"id": commit, "blob": blob}


def test_follow_chains_renames_and_stops_at_each_rename() -> None:
    renames = [("c5", "b.md", "c.md"), ("c3", "a.md", "b.md")]  # newest first
    logs = {
        "c.md": [_row("c6", "x6"), _row("c5", "x4")],
        "b.md": [_row("c5", ZERO), _row("c4", "x4"), _row("c3", "x2"), _row("c0", "old life")],
        "a.md": [_row("c3", ZERO), _row("c2", "x2"), _row("c1", "x1")],
    }
    assert past_names("c.md", renames) == [("c5", "b.md"), ("c3", "a.md")]
    got = follow(logs, renames, ["c.md"], limit=10)["c.md"]
    assert [r["id"] for r in got] == ["c6", "c5", "c4", "c3", "c2", "c1"]
    assert [r["id"] for r in follow(logs, renames, ["c.md"], limit=3)["c.md"]] == ["c6", "c5", "c4"]
    assert follow(logs, [], ["a.md"], limit=2)["a.md"] == logs["a.md"][:2]


def test_snapshot_links_one_page_a_blob_and_bounded() -> None:
    c = {n: f"{n:x}" * 40 for n in range(5)}  # full commit ids: snapshot urls take nothing shorter
    rows = [_row(c[4], "now"), _row(c[3], "a"), _row(c[2], "b"), _row(c[1], "a"), _row(c[0], ZERO)]
    assert [v[1:] for v in past_versions("n.md", "now", rows, keep=10)] == [(c[3], "a"), (c[2], "b")]
    links = snapshot_links("n.md", "now", rows, allowed=("a", "b"))
    assert links[c[4]] == "notes/n.html"
    assert links[c[3]] == links[c[1]] == f"snap/{c[3][:12]}/n.html" != links[c[2]]
    assert c[0] not in links
    assert [v[2] for v in past_versions("n.md", "now", rows, keep=1)] == ["a"]
    assert set(snapshot_links("n.md", "now", rows, allowed=("a",)).values()) == {
        "notes/n.html",
        f"snap/{c[3][:12]}/n.html",
    }
    assert set(snapshot_links("n.md", "now", rows, allowed=()).values()) == {"notes/n.html"}


def test_the_site_wide_budget_keeps_the_newest_versions_of_all_notes() -> None:
    versions = {
        "a.md": [("2026-03-05", "c5", "a4"), ("2026-03-01", "c1", "a3")],
        "b.md": [("2026-03-04", "c4", "b2"), ("2026-03-03", "c3", "b1"), ("2026-02-01", "c0", "b0")],
    }
    assert version_budget(versions, 3) == {"a.md": ("a4",), "b.md": ("b1", "b2")}
    assert version_budget(versions, 0) == {}
    assert version_budget(versions, 99) == {"a.md": ("a3", "a4"), "b.md": ("b0", "b1", "b2")}
