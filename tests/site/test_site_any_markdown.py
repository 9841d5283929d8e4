"""The site of a Markdown repository memgit did not write (tests/site/rfc_repo.py), through the CLI.

Design documents from one template: titles are the documents' (front matter, their own H1, else
the file name), never the template's "Summary"; front matter is a table; a renamed file's history
is complete, as `git log --follow` lists it; the template's headings are no concepts; a version a
revert brings back has one snapshot page; `[site] snapshots` bounds them; the report gives the
site's size. In Chromium: `<br>` and aligned cells render with no CSP error, and axe finds nothing.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from bench.gen_rfc_repo import SECTIONS, RfcRepo, make_rfc_repo, move
from memgit.site import urls
from tests.helpers import TESTS_DIR, commit_all, git, memgit, write
from tests.site.helpers import BM25, build, module_identity

AXE = TESTS_DIR / "node" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@pytest.fixture(scope="module")
def rfc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RfcRepo, Path, dict]]:
    env = module_identity(tmp_path_factory, "rfc")
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        root = tmp_path_factory.mktemp("rfc")
        repo = make_rfc_repo(root / "ws")
        out = root / "site"
        yield repo, out, build(repo.root, out)


def _title(page: Path) -> str:
    found = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"), re.S)
    assert found, page
    return unescape(found[1]).strip()


def _shared(values: list[str]) -> float:
    """The share of values that another value equals."""
    counts = Counter(values)
    return sum(n for n in counts.values() if n > 1) / len(values)


def test_titles_are_the_documents(rfc: tuple[RfcRepo, Path, dict]) -> None:
    repo, out, _ = rfc
    titles = {path: _title(out / urls.note_url(path)) for path in repo.kinds}
    assert len(titles) >= 30
    assert _shared(list(titles.values())) <= 0.05, Counter(titles.values()).most_common(3)
    for path, expected in repo.titles.items():
        assert titles[path].startswith(expected), (path, titles[path])
    assert not any(t.startswith(tuple(SECTIONS)) for t in titles.values())
    # A page whose first H1 is the template's shows the file's name as its H1, the section as an H2.
    preamble = next(p for p, k in repo.kinds.items() if k == "preamble")
    html = (out / urls.note_url(preamble)).read_text(encoding="utf-8")
    assert len(re.findall(r"<h1[ >]", html)) == 1
    assert re.search(r"<h2[^>]*>(?:<span[^>]*></span>)*Summary</h2>", html)
    # The notes list names the documents the same way.
    listing = (out / urls.NOTES).read_text(encoding="utf-8")
    for path, expected in repo.titles.items():
        assert expected in unescape(listing), path


def test_search_results_are_named_by_their_document(rfc: tuple[RfcRepo, Path, dict]) -> None:
    repo, out, _ = rfc
    first: dict[str, tuple[int, str]] = {}
    for shard in sorted((out / "assets" / "search").glob("[0-9]*.js")):
        text = shard.read_text(encoding="utf-8")
        literal = text[text.index("JSON.parse('") + 12 : text.rindex("')")]
        data = json.loads(literal.replace("\\'", "'").replace("\\\\", "\\"))
        for file_no, start, _end, heading in data["docs"]:
            path = data["files"][file_no][1]
            if path in repo.titles and (path not in first or start < first[path][0]):
                first[path] = (start, heading)
    names = {path: heading for path, (_, heading) in first.items()}
    assert set(names) == set(repo.titles)
    assert _shared(list(names.values())) <= 0.05, Counter(names.values()).most_common(3)
    for path, expected in repo.titles.items():
        assert names[path].startswith(expected), (path, names[path])


def test_front_matter_is_a_table(rfc: tuple[RfcRepo, Path, dict]) -> None:
    repo, out, _ = rfc
    path = next(p for p, k in repo.kinds.items() if k == "front")
    html = (out / urls.note_url(path)).read_text(encoding="utf-8")
    article = html[html.index('<article class="markdown rendered">') :]
    table = re.search(r'<table class="front-matter">.*?</table>', article, re.S)
    assert table is not None
    assert re.search(r'<th scope="row">title</th><td>' + re.escape(repo.titles[path]) + "</td>", table[0])
    assert '<th scope="row">authors</th><td>Ada, Lin</td>' in table[0]
    before = article[: table.start()]
    assert "<hr" not in article and "status: accepted" not in article.replace(table[0], "")
    assert "<h2" not in before  # the table comes first, not a rule and a heading made of `title: …`
    assert f'<h1 class="page-title">{repo.titles[path]}</h1>' in html
    assert 'id="L1"' in html and 'id="L7"' in html  # the front matter's lines still have anchors


def test_history_of_a_renamed_file_is_complete(rfc: tuple[RfcRepo, Path, dict]) -> None:
    repo, out, _ = rfc
    for new in repo.renamed:
        followed = git(repo.root, "log", "--follow", "--format=%H", "--", new).split()
        html = (out / urls.note_url(new)).read_text(encoding="utf-8")
        history = html[html.index('<section class="history"') :]
        listed = re.findall(r'<code title="([0-9a-f]{40})">', history)
        assert listed == followed, new
        assert len(followed) >= 5


def test_renames_followed_by_an_incremental_build(tmp_path: Path) -> None:
    """A rebuild after renames gives the history a full build gives: a note moved within the
    memory, and a draft that was not memory (a .txt file) until it was renamed into it."""
    repo = make_rfc_repo(tmp_path / "ws", seed=11, files=12, rounds=1)
    draft = "drafts/idea.txt"
    for n in range(3):
        write(repo.root / draft, "Idea: " + " ".join(f"point {i} of the draft" for i in range(n + 20)) + "\n")
        commit_all(repo.root, f"Draft, take {n}")
    out = tmp_path / "site"
    build(repo.root, out)
    assert not (out / urls.note_url(draft)).exists()
    old = sorted(repo.kinds)[10]
    moved = {old: old.replace("text/", "text/final/"), draft: "text/9999-idea.md"}
    for before, after in moved.items():
        move(repo.root, before, after)
    commit_all(repo.root, "Move one more, adopt the draft")
    for after in moved.values():
        write(repo.root / after, (repo.root / after).read_text() + "\nFinal.\n")
        commit_all(repo.root, f"Finalise {after}")
    report = build(repo.root, out)
    assert report["incremental"]
    for after in moved.values():
        html = (out / urls.note_url(after)).read_text(encoding="utf-8")
        listed = re.findall(r'<code title="([0-9a-f]{40})">', html[html.index('<section class="history"') :])
        followed = git(repo.root, "log", "--follow", "--format=%H", "--", after).split()
        assert listed == followed, after
        assert len(followed) >= 3


def test_template_headings_are_no_concepts(rfc: tuple[RfcRepo, Path, dict]) -> None:
    _, out, _ = rfc
    made = {p.stem for p in (out / "concepts").glob("*.html")}
    assert "borrowck" in made  # a tag people wrote in a few files stays a concept
    slugs = {s.lower().replace(" ", "-") for s in SECTIONS}
    assert not made & slugs
    assert not any(
        f"concepts/{s}.html" in p.read_text(encoding="utf-8") for p in out.glob("notes/**/*.html") for s in slugs
    )


def test_snapshots_one_a_blob_and_bounded_with_the_size_reported(
    rfc: tuple[RfcRepo, Path, dict], tmp_path: Path
) -> None:
    repo, out, report = rfc
    html = (out / urls.note_url(repo.reverted)).read_text(encoding="utf-8")
    history = html[html.index('<section class="history"') :]
    links = re.findall(r'<code title="([0-9a-f]{40})">.*?<a href="([^"]+)">', history)
    log = git(repo.root, "log", "--format=%H %T", "--", repo.reverted).split("\n")
    blobs = {
        line.split()[0]: git(repo.root, "rev-parse", f"{line.split()[0]}:{repo.reverted}").strip()
        for line in log
        if line
    }
    assert len(links) == len(blobs) == 4
    by_blob: dict[str, set[str]] = {}
    for commit, href in links:
        by_blob.setdefault(blobs[commit], set()).add(href)
    assert len(by_blob) == 3 and all(len(hrefs) == 1 for hrefs in by_blob.values())  # the revert's version once
    snaps = [p for p in (out / "snap").rglob("*.html") if urls.slug(repo.reverted) in p.as_posix()]
    assert len(snaps) == 2  # two past versions, three commits that made them
    on_disk = sum(p.stat().st_size for p in out.rglob("*") if p.is_file() and p.name != ".memgit-site")
    assert report["bytes"] == on_disk
    assert report["snapshot_pages"] == len(list((out / "snap").rglob("*.html"))) > 0
    assert 0 < report["snapshot_bytes"] < report["bytes"]
    # `[site] snapshots = 1`: only the newest past version of each note gets a page.
    toml = repo.root / "memgit.toml"
    saved = toml.read_text()
    try:
        toml.write_text(saved.replace("history = 50", "history = 50\nsnapshots = 1"))
        small = build(repo.root, tmp_path / "small")
        said = memgit(repo.root, "site", "build", "-o", str(tmp_path / "small"), env=BM25)
    finally:
        toml.write_text(saved)
    assert small["snapshot_pages"] < report["snapshot_pages"]
    assert small["bytes"] < report["bytes"]
    per_note = Counter(
        p.relative_to(tmp_path / "small" / "snap").as_posix().split("/", 1)[1]
        for p in (tmp_path / "small" / "snap").rglob("*.html")
    )
    assert max(per_note.values()) == 1
    assert said.returncode == 0, said.stderr
    mb = small["bytes"] / 1e6
    assert f"size: {mb:.1f} MB, of which " in said.stdout or f"size: {small['bytes'] / 1e3:.1f} kB" in said.stdout
    assert f"in {small['snapshot_pages']} past versions of notes" in said.stdout


def test_tables_and_front_matter_under_the_csp_in_chromium(rfc: tuple[RfcRepo, Path, dict], browser: object) -> None:
    repo, out, _ = rfc
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing: run `npm ci` in tests/node ({AXE})")
    front = next(p for p, k in repo.kinds.items() if k == "front")
    preamble = next(p for p, k in repo.kinds.items() if k == "preamble")
    for path in (repo.tables, front, preamble, urls.NOTES):
        page_url = (out / (path if path == urls.NOTES else urls.note_url(path))).as_uri()
        context = browser.new_context(bypass_csp=False)  # type: ignore[attr-defined]
        page = context.new_page()
        console: list[str] = []
        page.on("console", lambda m, console=console: console.append(m.text))
        page.goto(page_url)
        page.wait_for_load_state("load")
        assert not [m for m in console if "Content Security Policy" in m or "Refused" in m], (path, console[:3])
        if path == repo.tables:
            assert page.evaluate("document.querySelectorAll('td br').length") == 3
            aligns = page.evaluate(
                "[...document.querySelectorAll('tbody tr:first-child td')].map(td => getComputedStyle(td).textAlign)"
            )
            assert aligns == ["left", "center", "right"]
        context.close()
        checked = browser.new_context(bypass_csp=True)  # type: ignore[attr-defined]
        page = checked.new_page()
        page.goto(page_url)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)
        assert result["violations"] == [], (path, [v["id"] for v in result["violations"]])
        checked.close()


def test_no_page_carries_an_inline_style(rfc: tuple[RfcRepo, Path, dict]) -> None:
    _, out, _ = rfc
    styled = [p for p in out.rglob("*.html") if re.search(r"<[^>]+\sstyle=", p.read_text(encoding="utf-8"))]
    assert styled == []


def test_other_shapes_of_repository_keep_sensible_titles(tmp_path: Path) -> None:
    """Shapes the RFC generator never made: daily logs sharing a section heading, a docs folder
    whose front matter has no title, wiki pages with no H1, command pages titled by their H1."""
    files = {
        f"memory/2026-03-{d:02d}.md": f"# 2026-03-{d:02d}\n\n## Tasks\n[tasks]: #tasks\n\n- task {d}{' #backup' * (d < 3)}\n"
        for d in range(1, 9)
    }
    files |= {
        f"docs/{name}.md": f"---\nlayout: page\nnav_order: {n}\n---\n# {name.title()} guide\n\n## Tasks\n\nText.\n"
        for n, name in enumerate(["install", "upgrade"])
    }
    files |= {f"wiki/{name}.md": f"## Tasks\n\nWiki page about {name}.\n" for name in ("Home", "Roadmap")}
    files |= {
        f"pages/{cmd}.md": f"# {cmd}\n\n> Manage {cmd} things.\n\n- Do it:\n\n`{cmd} -x`\n" for cmd in ("tar", "git")
    }
    ws = tmp_path / "ws"
    ws.mkdir()
    git(ws, "init", "-q")
    for rel, text in files.items():
        write(ws / rel, text)
    write(ws / "memgit.toml", '[memory]\nextra_paths = ["docs/**/*.md", "wiki/**/*.md", "pages/**/*.md"]\n')
    commit_all(ws, "shapes")
    out = tmp_path / "site"
    build(ws, out)
    titles = {rel: _title(out / urls.note_url(rel)).split(" · ")[0] for rel in files}
    assert titles["memory/2026-03-04.md"] == "2026-03-04"  # a shared "Tasks" section changes no log's title
    assert titles["docs/install.md"] == "Install guide"  # front matter without a title: the H1
    assert titles["wiki/Home.md"] == "Home"  # no H1: the file's name, not "Tasks"
    assert titles["pages/tar.md"] == "tar"
    assert _shared(list(titles.values())) == 0
    assert (out / "concepts" / "backup.html").exists() and not (out / "concepts" / "tasks.html").exists()
    docs_page = (out / urls.note_url("docs/install.md")).read_text(encoding="utf-8")
    assert '<th scope="row">layout</th><td>page</td>' in docs_page and '<h1 class="page-title' in docs_page
