"""The site of an Obsidian vault and of a GitHub documentation repository, through the CLI.

A generated vault (bench/gen_vault.py): wikilinks lead where the vault's resolver says (by name
anywhere, partial paths, case, aliases, `#heading`, `#^block`, `|label`), links no file matches
are listed in the build report and shown as text, embeds show the note, section or block in
place, pictures are images, callouts have their type, title and fold, comments are hidden,
highlights marked, code never links or tags, and a note's page is titled by its name. A
generated docs repository (bench/gen_docs_repo.py): reference links whose definitions follow an
HTML comment, footnotes, bare URLs, alerts and `<br>` render as GitHub renders them, and link
definitions make no concept pages. In Chromium both render under the CSP and axe finds nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from bench.gen_docs_repo import DocsRepo, make_docs_repo
from bench.gen_vault import Vault, make_vault
from memgit.site import urls, vault
from tests.helpers import TESTS_DIR, commit_all, write
from tests.site.helpers import build, module_identity

AXE = TESTS_DIR / "node" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
_WIKI_A = re.compile(r'<a class="wikilink(?: embed-link)?" href="([^"]*)">|<span class="dead-link wikilink"')


@pytest.fixture(scope="module")
def built_vault(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Vault, Path, dict]]:
    env = module_identity(tmp_path_factory, "vault")
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        root = tmp_path_factory.mktemp("vault")
        made = make_vault(root / "ws")
        out = root / "site"
        yield made, out, build(made.root, out)


@pytest.fixture(scope="module")
def built_docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DocsRepo, Path, dict]]:
    env = module_identity(tmp_path_factory, "docs")
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        root = tmp_path_factory.mktemp("docs")
        made = make_docs_repo(root / "ws")
        out = root / "site"
        yield made, out, build(made.root, out)


def _resolver(made: Vault) -> vault.Resolver:
    files = [*made.notes, *made.images]
    return vault.Resolver(files, made.aliases)


def _article(out: Path, path: str) -> str:
    html = (out / urls.note_url(path)).read_text(encoding="utf-8")
    return html[html.index('<article class="markdown rendered">') : html.index("</article>")]


def _expected_href(made: Vault, resolver: vault.Resolver, source: str, inner: str) -> str | None:
    link = vault.parse(inner)
    page = urls.note_url(source)
    anchor = ""
    if link.fragment:
        anchor = "#" + (link.fragment if link.fragment.startswith("^") else _slug(vault.heading_of(link.fragment)))
    if not link.target:
        return anchor
    hit = resolver.resolve(link.target, source)
    if hit is None:
        return None
    return urls.relative(page, urls.note_url(hit) + anchor)


def _slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]+", "", heading.strip().lower()).replace(" ", "-")


def test_wikilinks_lead_where_the_vault_resolves_them(built_vault: tuple[Vault, Path, dict]) -> None:
    made, out, report = built_vault
    resolver = _resolver(made)
    checked = 0
    for source in made.notes:
        article = _article(out, source)
        # the note's own links in its text, in order (embedded notes' links come after them, in
        # the embed's block, and code blocks hold none)
        own = article.split('<div class="embed"', 1)[0]
        found = [m[1] if m[1] is not None else None for m in _WIKI_A.finditer(own)]
        written = [inner for s, inner, embed in made.links if s == source and not embed]
        assert len(found) >= len(written), source
        for inner, href in zip(written, found, strict=False):
            assert href == _expected_href(made, resolver, source, inner), (source, inner)
            checked += 1
    assert checked >= 300
    dead = {(r["path"], r["target"]) for r in report["unresolved"]}
    expected = {
        (s, vault.parse(i).target)
        for s, i, _ in made.links
        if vault.parse(i).target and resolver.resolve(vault.parse(i).target, s) is None
    }
    assert dead == expected and len(expected) >= 5


def test_the_vault_resolves_as_obsidian_does_on_names_paths_case_and_aliases() -> None:
    files = [
        "Projects/Alpha/Overview.md",
        "Areas/Overview.md",
        "Overview.md",
        "Projects/Beta/Plan.md",
        "Attachments/pic one.png",
        "Deep/er/Notes/Plan.md",
    ]
    resolver = vault.Resolver(files, {"Areas/Overview.md": ["Area summary"]})
    assert resolver.resolve("Overview", "Projects/Alpha/Ideas.md") == "Overview.md"  # a path from the top first
    assert resolver.resolve("Plan", "Projects/Beta/Ideas.md") == "Projects/Beta/Plan.md"  # then beside
    assert resolver.resolve("plan", "Deep/er/Notes/x.md") == "Deep/er/Notes/Plan.md"  # any case
    assert resolver.resolve("Plan", "Somewhere/Else.md") == "Projects/Beta/Plan.md"  # then the shortest path
    assert resolver.resolve("Plan", "Deep/other.md") == "Deep/er/Notes/Plan.md"  # folders shared first
    assert resolver.resolve("Areas/Overview", "Projects/Alpha/Ideas.md") == "Areas/Overview.md"  # a path
    assert resolver.resolve("Notes/Plan", "Overview.md") == "Deep/er/Notes/Plan.md"  # a partial path
    assert resolver.resolve("Plan.md", "Projects/Beta/x.md") == "Projects/Beta/Plan.md"
    assert resolver.resolve("pic one.png", "Overview.md") == "Attachments/pic one.png"
    assert resolver.resolve("area SUMMARY", "Overview.md") == "Areas/Overview.md"  # an alias
    assert resolver.resolve("Nowhere", "Overview.md") is None
    assert resolver.resolve("", "Areas/Overview.md") == "Areas/Overview.md"
    assert vault.parse("Plan#Goals#Q2|the plan") == vault.WikiLink("Plan", "Goals#Q2", "the plan", False)
    assert vault.heading_of("Goals#Q2") == "Q2" and vault.heading_of("^b1") == ""
    assert vault.targets("[[A]] `[[B]]`\n```\n[[C]]\n```\n![[D#^x]] [[#Local]]") == ["A", "D"]


@pytest.mark.parametrize("seed", [3, 11])
def test_the_resolver_agrees_with_an_independent_implementation(seed: int, tmp_path: Path) -> None:
    """On ≥ 95 % of a generated vault's links (built to be hard: names repeated in sibling
    folders, aliases), memgit's resolver opens the file an independent implementation of
    Obsidian's rules (tests/site/obsidian_oracle.py, written without reading memgit) opens. The
    known differences: memgit resolves front matter aliases (Obsidian Publish does; the app does
    not), and among same-named notes in sibling folders it prefers the one sharing more folders
    with the note (a repository holding one vault a language links within each)."""
    from tests.site import obsidian_oracle

    made = make_vault(tmp_path / "ws", seed=seed)
    files = [*made.notes, *made.images]
    resolver = vault.Resolver(files, made.aliases)
    agree = [
        resolver.resolve(vault.parse(inner).target, source)
        == obsidian_oracle.resolve(inner, source, files, made.aliases)
        for source, inner, _ in made.links
    ]
    assert len(agree) >= 300
    assert sum(agree) / len(agree) >= 0.95, sum(agree) / len(agree)


def test_embeds_show_the_note_section_or_block_and_pictures(built_vault: tuple[Vault, Path, dict]) -> None:
    made, out, _ = built_vault
    resolver = _resolver(made)
    notes = pictures = 0
    for source, inner, embed in made.links:
        if not embed:
            continue
        link = vault.parse(inner)
        article = _article(out, source)
        target = resolver.resolve(link.target, source)
        assert target is not None, inner
        if target.endswith(".png"):
            img = re.search(r'<img class="note-img" src="([^"]+)" alt="[^"]*" width="120"', article)
            assert img is not None, (source, inner)
            copied = (out / urls.note_url(source)).parent / img[1]
            assert copied.resolve().read_bytes() == (made.root / target).read_bytes()
            pictures += 1
            continue
        part = link.fragment
        if (part.startswith("^") and part[1:] not in made.blocks[target]) or (
            part and not part.startswith("^") and vault.heading_of(part) not in made.notes[target]
        ):  # the name led to another note of that name, which has no such part: a link instead
            missing = re.search(
                r'<p class="embed embed-missing"><a class="wikilink embed-link" href="([^"]+)">', article
            )
            assert missing is not None and missing[1].startswith(
                urls.relative(urls.note_url(source), urls.note_url(target))
            )
            continue
        block = re.search(
            r'<div class="embed"[^>]*><p class="embed-title"><a href="([^"]+)">(.*?)</a></p>(.*?)</div>\n</div>',
            article,
            re.S,
        )
        assert block is not None, (source, inner)
        assert block[1] == urls.relative(urls.note_url(source), urls.note_url(target))
        shown = unescape(re.sub(r"<[^>]+>", "", block[3]))
        if link.fragment.startswith("^"):
            assert "relates to" in shown and shown.count("relates to") == 1  # the one paragraph
        elif link.fragment:
            assert shown.strip().startswith(vault.heading_of(link.fragment))
            others = [h for h in made.notes[target] if h != vault.heading_of(link.fragment)]
            assert not any(f"\n{h}\n" in shown for h in others)  # only that section
        else:
            assert all(h in shown for h in made.notes[target])  # the whole note
        notes += 1
    assert notes >= 10 and pictures >= 5


def test_callouts_comments_highlights_titles_and_code(built_vault: tuple[Vault, Path, dict]) -> None:
    made, out, _ = built_vault
    concept_pages = {p.stem for p in (out / "concepts").glob("*.html")}
    for path, callouts in made.callouts.items():
        article = _article(out, path)
        for kind, fold, title in callouts:
            family = {"faq": "question"}.get(kind, kind)
            tag = "details" if fold else "div"
            opened = re.search(rf'<{tag} class="callout callout-{family}" data-callout="{kind}"[^>]*>', article)
            assert opened is not None, (path, kind, fold)
            assert (" open" in opened[0]) == (fold == "+")
            head = "summary" if fold else "p"
            shown = title or kind.capitalize()
            assert re.search(
                rf'<{head} [^>]*class="blk callout-title"[^>]*>(?:<span[^>]*></span>)*{shown}</{head}>', article
            )
            assert f"[!{kind}]" not in article
    for path in made.notes:
        html = (out / urls.note_url(path)).read_text(encoding="utf-8")
        name = path.rsplit("/", 1)[-1][:-3]
        assert f'<h1 class="page-title">{name}</h1>' in html  # the note's name, as Obsidian shows it
        article = _article(out, path)
        assert "private aside" not in article and "%%" not in article
        assert "<mark>keep</mark>" in article
        assert "[[Not a link]]" in article and "not-a-tag" not in concept_pages
        ids = re.findall(r'\sid="([^"]+)"', html)
        assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1][:3]
        for block in made.blocks[path]:
            assert f'id="^{block}"' in article and f"^{block}" not in re.sub(r'id="[^"]*"', "", article)
    headings = {_slug(h) for hs in made.notes.values() for h in hs}
    assert not concept_pages & headings  # `[[#Heading]]` is a link, not a tag


def test_backlinks_follow_resolved_wikilinks(built_vault: tuple[Vault, Path, dict]) -> None:
    made, out, _ = built_vault
    resolver = _resolver(made)
    linked: dict[str, set[str]] = {}
    for source, inner, _ in made.links:
        target = resolver.resolve(vault.parse(inner).target, source) if vault.parse(inner).target else None
        if target and target != source and target.endswith(".md"):
            linked.setdefault(target, set()).add(source)
    assert len(linked) >= 20
    for target, sources in linked.items():
        html = (out / urls.note_url(target)).read_text(encoding="utf-8")
        section = html[html.index('<section class="backlinks"') :]
        listed = set(re.findall(r"<li><a href=\"[^\"]+\">([^<]+)</a></li>", section.split("</section>")[0]))
        assert listed == {unescape(s) for s in sources}, target


def _by_name_elsewhere(made: Vault) -> tuple[str, str]:
    """A note and a bare `[[name]]` of it that leads to a note in another folder."""
    resolver = vault.Resolver([*made.notes, *made.images], made.aliases)
    for source, inner, embed in made.links:
        link = vault.parse(inner)
        if embed or not link.target or link.fragment or link.label or "/" in inner or "." in link.target:
            continue
        hit = resolver.resolve(link.target, source)
        if hit not in (None, source) and hit.rsplit("/", 1)[0] != source.rsplit("/", 1)[0] and "/" in source:
            return source, link.target
    raise AssertionError("the generated vault has no link by name to another folder")


def test_a_new_note_nearer_the_link_takes_it_on_an_incremental_build(tmp_path: Path) -> None:
    made = make_vault(tmp_path / "ws", seed=8, notes=30)
    out = tmp_path / "site"
    build(made.root, out)
    source, name = _by_name_elsewhere(made)
    near = f"{source.rsplit('/', 1)[0]}/{name}.md"
    write(made.root / near, f"# {name}\n\nThe nearer one.\n")
    commit_all(made.root, "A note beside the linking one")
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*.html")}
    report = build(made.root, out)
    assert report["incremental"] and report["rendered"] < report["pages"]
    page = out / urls.note_url(source)
    assert page.stat().st_mtime_ns != before[page]  # the linking note's page was made again
    hrefs = [m[1] for m in _WIKI_A.finditer(_article(out, source)) if m[1]]
    assert urls.relative(urls.note_url(source), urls.note_url(near)) in hrefs


def test_github_docs_render_as_github_renders_them(built_docs: tuple[DocsRepo, Path, dict]) -> None:
    made, out, _ = built_docs
    for path, refs in made.references.items():
        article = _article(out, path)
        text = unescape(re.sub(r"<[^>]+>", "", article))
        for label, words, target in refs:
            assert f"[{words}][{label}]" not in text and f"[{label}]:" not in text  # no raw syntax
            if target.startswith("http"):
                assert f'href="{target.replace("&", "&amp;")}"' in article
            else:
                linked = re.search(rf'<a href="([^"]+)">{re.escape(words)}</a>', article)
                assert linked is not None, (path, words)
                here = path.rsplit("/", 1)[0]
                resolved = "/".join(p for p in f"{here}/{target}".split("/"))
                import posixpath

                assert linked[1] == urls.relative(urls.note_url(path), urls.note_url(posixpath.normpath(resolved)))
        assert re.search(r'<sup class="footnote-ref"><a href="#fn1" id="fnref1">', article)
        assert made.footnotes[path][0] in text and 'id="fn1"' in article
        assert '<a href="https://github.com/example/widgets" rel="nofollow noopener noreferrer">' in article
        assert '<div class="callout callout-note" data-callout="note" role="note">' in article
        assert re.search(r"<td>The \w+ name\.<br ?/?>\s*Wildcards are allowed\.</td>", article)
        assert "link references" not in text  # an HTML comment is not shown
    concepts = out / "concepts"
    assert not concepts.exists() or not list(concepts.glob("*.html"))  # definitions and URLs make no concepts


@pytest.mark.parametrize("which", ["vault", "docs"])
def test_vault_and_docs_pages_under_the_csp_in_chromium(
    which: str, built_vault: tuple[Vault, Path, dict], built_docs: tuple[DocsRepo, Path, dict], browser: object
) -> None:
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing: run `npm ci` in tests/node ({AXE})")
    if which == "vault":
        made, out, _ = built_vault
        pages = [p for p in made.callouts][:2] + [next(s for s, _, e in made.links if e)]
    else:
        docs, out, _ = built_docs
        pages = sorted(docs.references)[:2]
    for path in pages:
        page_url = (out / urls.note_url(path)).as_uri()
        context = browser.new_context(bypass_csp=False)  # type: ignore[attr-defined]
        page = context.new_page()
        console: list[str] = []
        page.on("console", lambda m, console=console: console.append(m.text))
        page.goto(page_url)
        page.wait_for_load_state("load")
        assert not [m for m in console if "Content Security Policy" in m or "Refused" in m], (path, console[:3])
        if which == "vault" and page.evaluate("document.querySelectorAll('details.callout').length"):
            opened = page.evaluate("[...document.querySelectorAll('details.callout')].map(d => d.open)")
            page.click("details.callout > summary")
            assert page.evaluate("document.querySelector('details.callout').open") != opened[0]
        context.close()
        checked = browser.new_context(bypass_csp=True)  # type: ignore[attr-defined]
        page = checked.new_page()
        page.goto(page_url)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)
        assert result["violations"] == [], (path, [v["id"] for v in result["violations"]])
        checked.close()
