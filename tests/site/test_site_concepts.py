"""The Concepts pages from dreaming, end to end: recall with `memgit search`, `memgit dream`, merge
the dream branch, `memgit site build`; the pages list the REM themes and light-phase tags and link
to lines that hold them, to the dream report and to the promoted MEMORY.md entry. Public scope,
incremental rebuilds and determinism with dream concepts."""

from __future__ import annotations

import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from memgit.core.paths import CONCEPTS_DIR
from memgit.ledger.lines import text_hash
from memgit.site import concepts as site_concepts
from memgit.site import urls
from tests.dream.test_dream import PASSWORD, dream, recall, seed
from tests.helpers import commit_all, git, memgit_json, write
from tests.site.helpers import build, check_links, tree_bytes

DAY = "2026-03-04"
THEME = "database"  # the REM theme of these recalls: in the promoted line and in today's log


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href, self._text = dict(attrs).get("href") or "", []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.hrefs.append((self._href, "".join(self._text)))
            self._href = None


def links(page: Path) -> list[tuple[str, str]]:
    parser = _Anchors()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.hrefs


def target_lines(page: Path, href: str) -> list[str]:
    """The text of the lines an `#L10-L14` link of `page` points at, read from the target page."""
    parts = urlsplit(href)
    target = (page.parent / unquote(parts.path)).resolve()
    match = re.fullmatch(r"L(\d+)(?:-L(\d+))?", parts.fragment)
    assert match, href
    html = target.read_text(encoding="utf-8")
    assert f'id="L{match[1]}"' in html and f'id="L{match[2] or match[1]}"' in html, href
    # A rendered note's lines are read from its numbered source page.
    source = Path(str(target).replace(f"{os.sep}notes{os.sep}", f"{os.sep}source{os.sep}", 1))
    html = source.read_text(encoding="utf-8") if source.is_file() else html
    out = []
    for number in range(int(match[1]), int(match[2] or match[1]) + 1):
        found = re.search(rf'<div id="L{number}"(?: class="h")?>(.*?)</div>', html)
        assert found, f"{href}: no line {number}"
        out.append(found[1])
    return out


def dreamt(ws: Path) -> dict:
    """Notes recalled on three days, a dream, its branch merged: the memory a site is built from."""
    seed(ws)
    recall(ws)
    # Written after the searches: a recent daily log the light phase reads for its concept tags.
    write(ws / "memory" / "2026-03-04.md", "# 2026-03-04\n\n- Rotated the staging database password with Bob today.\n")
    commit_all(ws, "today")
    out = dream(ws)
    git(ws, "merge", "-q", "--no-edit", out["branch"])
    return out


def test_dream_commits_its_concepts_beside_the_report(workspace: Path) -> None:
    out = dreamt(workspace)
    assert out["concepts_file"] == f"{CONCEPTS_DIR}/{DAY}.json"
    doc = json.loads(git(workspace, "show", f"HEAD:{CONCEPTS_DIR}/{DAY}.json"))
    themes = {t["tag"]: t["strength"] for t in doc["themes"]}
    assert themes == {t["tag"]: t["strength"] for t in out["themes"]} and THEME in themes
    places = {c["tag"]: c["places"] for c in doc["concepts"]}
    day_lines = git(workspace, "show", "HEAD:memory/2026-02-02.md").splitlines()
    assert any(p[0] == "memory/2026-02-02.md" and THEME in day_lines[p[1] - 1].lower() for p in places[THEME])
    for tag, rows in places.items():  # every place's own text carries its tag
        for path, start, end, _hash in rows:
            text = "\n".join(git(workspace, "show", f"{doc['base']}:{path}").splitlines()[start - 1 : end])
            assert tag in text.lower(), (tag, path, start)
    # The concepts file is dreaming's evidence, not memory: it is never indexed.
    hits = memgit_json(workspace, "search", "staging password", "--no-record", env={"MEMGIT_EMBEDDING": "none"})
    assert not any(".dreams" in hit["path"] for hit in hits["hits"])


def test_concepts_pages_list_themes_and_link_to_lines_that_hold_them(workspace: Path, tmp_path: Path) -> None:
    out = dreamt(workspace)
    site = tmp_path / "site"
    build(workspace, site)
    index = site / "concepts.html"
    html = index.read_text()
    assert "Themes (REM)" in html
    theme = next(t for t in out["themes"] if t["tag"] == THEME)
    row = html[html.index('<table class="themes">') :].split("</tr>")
    theme_row = next(r for r in row if f">{THEME}</a>" in r)
    assert f"{theme['strength']:.2f}" in theme_row and DAY in theme_row
    page = site / urls.concept_url(THEME)
    hrefs = links(page)
    # Every place links to lines that contain the concept, in the note as it is at HEAD.
    note_links = [
        h for h, _ in hrefs if "/notes/memory/20" in "/" + h.lstrip("./") or h.startswith("../notes/memory/2")
    ]
    note_links = [h for h in note_links if "#L" in h and "/dreams/" not in h]
    assert note_links, hrefs
    for href in note_links:
        assert any(THEME in line.lower() for line in target_lines(page, href)), href
    assert any("2026-02-02" in h for h in note_links) and any("2026-03-04" in h for h in note_links)
    # The dream report that named it, at its Themes line.
    report_links = [h for h, _ in hrefs if "notes/memory/dreams/" in h and "#L" in h]
    assert report_links
    assert target_lines(page, report_links[0])[0].startswith("Themes: ")
    # The promoted MEMORY.md entry that carries it.
    memory_links = [h for h, _ in hrefs if "notes/MEMORY.html#L" in h]
    assert memory_links and any(PASSWORD in line for h in memory_links for line in target_lines(page, h))
    # A light-phase tag that is not a theme has its own page too, listed on the index.
    light_only = {c["tag"] for c in json.loads(git(workspace, "show", f"HEAD:{CONCEPTS_DIR}/{DAY}.json"))["concepts"]}
    light_only -= {t["tag"] for t in out["themes"]}
    assert light_only and all((site / urls.concept_url(tag)).is_file() for tag in light_only)
    assert "Concept tags of the light phase" in html
    checked, problems = check_links(site)
    assert problems == [] and checked > 30


def test_concept_pages_follow_moved_lines_and_count_rewritten_ones(workspace: Path, tmp_path: Path) -> None:
    dreamt(workspace)
    note = workspace / "memory" / "2026-02-02.md"
    text = note.read_text()
    write(note, text.replace("## 09:00\n", "## 09:00\n\n- Inserted above: the lines moved down.\n- Another.\n"))
    commit_all(workspace, "lines moved")
    site = tmp_path / "site"
    build(workspace, site)
    page = site / urls.concept_url(THEME)
    moved = [h for h, _ in links(page) if "2026-02-02.html#L" in h]
    assert moved and all(any(PASSWORD in line for line in target_lines(page, h)) for h in moved)
    write(note, text.replace(PASSWORD, "The rotation changed; ask Bob."))
    commit_all(workspace, "rewritten")
    report = build(workspace, site)
    assert report["incremental"] is True
    html = page.read_text()
    assert "no longer hold the same text" in html and "2026-02-02.html#L" not in html
    full = tmp_path / "full"
    build(workspace, full)
    assert tree_bytes(full) == tree_bytes(site)
    assert check_links(site)[1] == []


def test_public_scope_names_no_private_place_of_a_concept(workspace: Path, tmp_path: Path) -> None:
    secret = "Privatewombat keeps the staging database password taped under the desk."
    write(workspace / "memory" / "secret" / "vault.md", f"# Vault\n\n- {secret}\n")
    write(workspace / "memgit.toml", '[site]\nprivate_paths = ["memory/secret/**"]\n')
    commit_all(workspace, "a private note")
    for query, day in zip(
        ("where is the staging password kept", "Privatewombat staging password", "staging password desk"),
        ("2026-03-02", "2026-03-03", "2026-03-04"),
        strict=True,
    ):
        memgit_json(
            workspace,
            "search",
            query,
            "--now",
            f"{day}T12:00:00+00:00",
            env={"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "0"},
        )
    dreamt(workspace)
    doc = git(workspace, "show", f"HEAD:{CONCEPTS_DIR}/{DAY}.json")
    assert "memory/secret/vault.md" in doc  # dreaming saw the private place: the site must hide it
    site = tmp_path / "public"
    build(workspace, site, "--scope", "public")
    files = tree_bytes(site)
    private_lines = [secret, "Themes: ", "memgit:entry"]  # the vault, the report, MEMORY.md's marker
    for name, data in files.items():
        body = data.decode("utf-8", "replace")
        for needle in [*private_lines, "Privatewombat", "secret/vault", "MEMORY.html", "dreams/", "strength"]:
            assert needle not in body, f"{needle!r} leaked into {name}"
    page = site / urls.concept_url(THEME)
    assert page.is_file()
    hrefs = [h for h, _ in links(page) if "#L" in h]
    assert hrefs and all(THEME in line.lower() for h in hrefs for line in target_lines(page, h))
    assert check_links(site)[1] == []


def test_rebuild_without_concept_inputs_renders_no_concept_page_and_is_deterministic(
    workspace: Path, tmp_path: Path
) -> None:
    dreamt(workspace)
    site = tmp_path / "site"
    build(workspace, site)
    write(workspace / "memory" / "2026-01-20.md", "# 2026-01-20\n\n- An unrelated note about kayaks.\n")
    commit_all(workspace, "unrelated")
    before = {n: (site / n).stat().st_mtime_ns for n in tree_bytes(site)}
    build(workspace, site)
    changed = {n for n in tree_bytes(site) if (site / n).stat().st_mtime_ns != before.get(n)}
    assert changed and not any(n.startswith("concepts") for n in changed), changed
    again = tmp_path / "again"
    build(workspace, again)
    shutil.rmtree(workspace / ".git" / "memgit" / "site")
    third = tmp_path / "third"
    build(workspace, third)
    assert tree_bytes(site) == tree_bytes(again) == tree_bytes(third)
    # --at a commit before the dream's report: the concepts are those of that commit, none.
    before_report = tmp_path / "before"
    build(workspace, before_report, "--at", f"{git(workspace, 'rev-list', '-1', 'HEAD', '--', CONCEPTS_DIR).strip()}~1")
    assert "Themes (REM)" not in (before_report / "concepts.html").read_text()
    assert "Themes (REM)" in (site / "concepts.html").read_text()


def test_reports_without_a_concepts_file_still_give_their_themes() -> None:
    text = "# Dream 2026-03-01\n\n## REM: themes and candidate truths\n\nThemes: kayak (1.00), river (0.50).\n"
    assert site_concepts.report_themes(text) == (5, [("kayak", 1.0), ("river", 0.5)])
    doc = {
        "day": "2026-03-01",
        "base": "",
        "themes": [["kayak", 1.0]],
        "concepts": [
            ["river", 2, [["memory/a.md", 2, 2, "0" * 16], ["memory/a.md", 1, 1, text_hash("- the river")]]],
            ["gone", 1, [["memory/a.md", 2, 2, "0" * 16]]],
        ],
    }
    found = site_concepts.dream_concepts([doc], {"memory/a.md"})
    # Themes (with their strength) and every tag with a place in a shown note; nothing is read yet.
    assert [(c.tag, c.strength, len(c.raw)) for c in found] == [
        ("kayak", 1.0, 0),
        ("river", None, 2),
        ("gone", None, 1),
    ]
    # The river line moved down one line and is found there; the rewritten place is counted, not linked.
    assert site_concepts.locate(found[1].raw, {"memory/a.md": ["# a", "- the river"]}) == (
        [("memory/a.md", 2, 2, "- the river")],
        1,
    )
    assert site_concepts.dream_concepts([doc], {"memory/b.md"}) == found[:1]
    assert site_concepts.dream_concepts([doc], {}, public=True) == []
    assert site_concepts.parse_document(b"{not json") is None
    assert site_concepts.parse_document(b'{"version": 1, "day": "x", "concepts": [{"tag": 1}]}') is None


def test_a_report_from_before_concepts_files_still_lists_its_themes(workspace: Path, tmp_path: Path) -> None:
    out = dreamt(workspace)
    git(workspace, "rm", "-q", f"{CONCEPTS_DIR}/{DAY}.json")
    commit_all(workspace, "as an older memgit left it: a report only")
    site = tmp_path / "site"
    build(workspace, site)
    html = (site / "concepts.html").read_text()
    for theme in out["themes"]:
        assert f">{theme['tag']}</a></td><td>{theme['strength']:.2f}</td>" in html
    page = site / urls.concept_url(THEME)
    report = [h for h, _ in links(page) if "notes/memory/dreams/" in h]
    assert report and target_lines(page, report[0])[0].startswith("Themes: ")
    assert check_links(site)[1] == []


def test_concepts_file_is_bounded_and_deterministic() -> None:
    from memgit.dream import concept_map

    places = {
        f"tag{n:03d}": [(f"memory/2026-01-{d % 28 + 1:02d}.md", d + 1, d + 1, f"{d:016x}") for d in range(n % 45)]
        for n in range(120)
    }
    themes = [("tag001", 1.0), ("tag119", 0.8)]
    text = concept_map.concepts_document("2026-03-04", "c" * 40, themes, places)
    assert text == concept_map.concepts_document("2026-03-04", "c" * 40, themes, dict(reversed(places.items())))
    doc = json.loads(text)
    tags = [c["tag"] for c in doc["concepts"]]
    assert tags[:2] == ["tag001", "tag119"]  # every theme, whatever its count
    assert len(tags) == 2 + concept_map.MAX_CONCEPTS
    assert all(len(c["places"]) <= concept_map.MAX_PLACES for c in doc["concepts"])
    assert doc["concepts"][2]["count"] == 44  # then by places, most first
    assert site_concepts.parse_document(text.encode()) is not None


def test_recalled_places_come_before_lines_only_read_in_a_recent_log() -> None:
    from memgit.dream.concept_map import concept_places
    from memgit.dream.model import ShortTerm

    recalled = ShortTerm(
        "memory/z.md", 1, 1, "Kayak river trip planned", "h", {}, ["kayak"], sources=[("memory/z.md", 1, 1)]
    )
    places = concept_places(
        [recalled],
        {"memory/z.md": "Kayak river trip planned\n"},
        {"memory/a.md": "# a\n- kayak on the lake\n", "sessions/x.jsonl": "kayak kayak kayak"},
    )
    assert [p[:3] for p in places["kayak"]] == [("memory/z.md", 1, 1), ("memory/a.md", 2, 2)]
    assert places["lake"] == [("memory/a.md", 2, 2, text_hash("- kayak on the lake"))]
