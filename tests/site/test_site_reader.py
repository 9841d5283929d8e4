"""The memory site as a reader meets it, in a real browser (Debian's chromium driven by Playwright).

One site for the module: a memory with hand-written and promoted MEMORY.md entries from a real
dream (recall ledger published, so notes have recall heat), a dream report, a note with a wide
table, tags and links, and a supersede. Every page kind is checked at 1280x800 and 390x844, in the
light and the dark palette: axe-core (tests/node, WCAG 2.2 A/AA tags) finds no violation and
nothing scrolls sideways. Then what a reader does: `#Ln` lands in view on a rendered note, the
header's search box (`/`) answers as one types and its result lands on the matching line, the
search page filters by kind and says when it fell back to any word.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from memgit.core.paths import ENTRIES_PATH
from tests.helpers import TESTS_DIR, commit_all, git, memgit, write
from tests.site.helpers import BM25, build, module_identity

AXE = TESTS_DIR / "node" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


NOTE = """# Heron runbook

Owner: #ops with Dana. See [the go/no-go day](2026-02-03.md) and memory/2026-02-02.md:5-5 for the
password rotation.

| step | who | when | what happens | rollback |
|---|---|---|---|---|
| freeze | Dana | Sunday 05:30 UTC | writes stop on the billing primary, queues drain, dashboards go amber | unfreeze |
| cutover | Priya | Sunday 06:00 UTC | the Postgres 16 replica is promoted and DNS flips over to it | flip DNS back |

- Zeppelinrunbook: a longwordwithoutanybreaksthatwouldpushthepagesidewaysonaphonescreenifnotwrapped.
- Check the `materialised views` after **any** rollback #ops

```
psql -c 'REFRESH MATERIALIZED VIEW CONCURRENTLY billing_daily_totals_by_customer_and_region_and_currency;'
```
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    from tests.conftest import shared_cache_dir

    env = {
        **module_identity(tmp_path_factory, "reader"),
        "MEMGIT_CACHE_DIR": str(shared_cache_dir()),
    }
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        mp.delenv("MEMGIT_NO_RECALL", raising=False)
        yield _make_site(tmp_path_factory.mktemp("reader"))


def _make_site(root: Path) -> Path:
    from tests.dream.test_dream import recall, seed
    from tests.site.test_site_concepts import dream

    ws = root / "ws"
    ws.mkdir()
    git(ws, "init", "-q")
    write(
        ws / "MEMORY.md",
        "# Long-term Memory\n\n## People\n\n- Dana prefers written agendas.\n- Bob runs the standup.\n",
    )
    commit_all(ws, "initial memory")
    seed(ws)
    recall(ws)
    assert memgit(ws, "recalls", "publish", env=BM25).returncode == 0
    write(ws / "memory" / "2026-03-04.md", "# 2026-03-04\n\n- Rotated the staging database password with Bob today.\n")
    write(ws / "memory" / "heron.md", NOTE)
    commit_all(ws, "today and the runbook")
    out = dream(ws)
    git(ws, "merge", "-q", "--no-edit", out["branch"])
    # The promoted line is reworded afterwards: its provenance now lands on a snapshot.
    from memgit.core.provenance import parse_marker
    from memgit.dream.entries import provenance

    store = provenance((ws / ENTRIES_PATH).read_text())
    markers = [m for line in (ws / "MEMORY.md").read_text().splitlines() if (m := parse_marker(line))]
    source = (markers[0].source or store[markers[0].key].source) if markers else None
    assert source is not None
    lines = (ws / source.path).read_text().splitlines()
    lines[source.start - 1] = lines[source.start - 1] + " (reworded later)"
    write(ws / source.path, "\n".join(lines) + "\n")
    commit_all(ws, "reword a promoted line")
    site = root / "site"
    build(ws, site)
    return site


KINDS = {
    "home": "index.html",
    "log": "notes/memory/2026-02-02.html",
    "note": "notes/memory/heron.html",
    "source": "source/memory/heron.html",
    "timeline": "timeline.html",
    "month": "timeline/2026-02.html",
    "notes": "notes.html",
    "concepts": "concepts.html",
    "concept": "concepts/ops.html",
    "dreams": "dreams.html",
    "report": "notes/memory/dreams/2026-03-04.html",
    "search": "search.html?q=password",
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_kind_passes_axe_and_fits_the_screen(browser: object, site: Path, size: str, scheme: str) -> None:
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing: run `npm ci` in tests/node ({AXE})")
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    problems = []
    snapshot = next(site.glob("snap/*/memory/*.html")).relative_to(site).as_posix()
    for kind, url in {**KINDS, "snapshot": snapshot}.items():
        assert (site / url.split("?")[0]).is_file(), url
        page.goto(site.as_uri() + "/" + url)
        page.wait_for_load_state("load")
        if kind == "search":
            page.wait_for_selector("#search-results li")
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)
        for v in result["violations"]:
            problems.append(
                f"{kind} {size} {scheme}: {v['id']}: "
                + "; ".join(n["target"][0] + " " + n.get("failureSummary", "")[:160] for n in v["nodes"][:3])
            )
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if wide > 0:
            problems.append(f"{kind} {size} {scheme}: scrolls sideways by {wide}px")
        assert page.locator("h1").count() == 1, f"{kind}: one H1"
        assert page.title().count("·") <= 1, page.title()
    context.close()
    assert problems == [], "\n".join(problems)
    assert errors == []


def in_view(page: object, selector: str) -> bool:
    return page.evaluate(
        """s => { const r = document.querySelector(s).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""",
        selector,
    )


def test_line_anchor_lands_on_the_rendered_block(browser: object, site: Path) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True).new_page()
    text = (site / "source" / "memory" / "heron.html").read_text()
    number = int(re.search(r'<div id="L(\d+)">- Zeppelin', text)[1])
    page.goto(site.as_uri() + f"/notes/memory/heron.html#L{number}")
    page.wait_for_selector(".blk.hl")
    assert "Zeppelinrunbook" in page.inner_text(".blk.hl") and in_view(page, ".blk.hl")
    # A range across blocks highlights each block that holds one of its lines, and the first is in view.
    page.evaluate(f"location.hash = '#L{number - 5}-L{number}'")
    page.wait_for_function("document.querySelectorAll('.blk.hl').length > 1")
    assert in_view(page, ".blk.hl")
    # Tags and provenance references are links, the table scrolls in its own region.
    assert page.locator("a.tag").first.get_attribute("href").endswith("concepts/ops.html")
    assert page.locator("a.ref").first.get_attribute("href") == "2026-02-02.html#L5"
    assert page.locator(".table-wrap").evaluate("e => e.getBoundingClientRect().right <= window.innerWidth")
    page.close()


def test_source_lines_show_their_numbers_and_a_click_on_one_sets_the_address(browser: object, site: Path) -> None:
    """The stylesheet draws the numbers (no element a line): they read 1, 2, 3… beside the text,
    copying the text leaves them out, and a click in the number's gutter sets `#Ln`."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True).new_page()
    page.goto(site.as_uri() + "/source/memory/heron.html")
    text = (site / "source" / "memory" / "heron.html").read_text()
    number = int(re.search(r'<div id="L(\d+)">- Zeppelin', text)[1])
    drawn = page.evaluate(
        """n => { const row = document.getElementById('L' + n);
        row.scrollIntoView();
        return getComputedStyle(row, '::before').content; }""",
        number,
    )
    assert drawn.startswith("counter(ln)"), drawn
    assert page.inner_text(f"#L{number}").startswith("- Zeppelin")  # the text holds no number
    box = page.locator(f"#L{number}").bounding_box()
    page.mouse.click(box["x"] + box["width"] - 8, box["y"] + box["height"] / 2)  # on the text: no address
    assert page.evaluate("location.hash") == ""
    page.mouse.click(box["x"] + 8, box["y"] + box["height"] / 2)
    page.wait_for_function(f"location.hash === '#L{number}'")
    # the line is marked by the page's hashchange handler, which runs after the address changes
    page.wait_for_function(f"document.getElementById('L{number}').classList.contains('hl')", timeout=5000)
    page.close()


def test_header_search_finds_a_fact_and_lands_on_its_line(browser: object, site: Path) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
    page.goto(site.as_uri() + "/notes/memory/2026-03-04.html")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "hq"
    page.keyboard.type("zeppelinrun")  # a prefix, as one types
    page.wait_for_selector("#hresults li.result")
    status = page.inner_text("#hstatus")
    assert status.startswith("1 result") and page.locator("#hresults mark").first.inner_text() == "Zeppelinrunbook"
    page.keyboard.press("ArrowDown")  # from the box to the first result
    first = page.locator("#hresults li.result a").first
    assert page.evaluate("document.activeElement.closest('#hresults') !== null")
    href = first.get_attribute("href")
    assert re.search(r"notes/memory/heron\.html#L\d+$", href), href
    page.keyboard.press("Enter")
    page.wait_for_selector(".blk.hl")
    assert "Zeppelinrunbook" in page.inner_text(".blk.hl") and in_view(page, ".blk.hl")
    page.close()


def test_search_page_filters_kinds_ranks_dreams_last_and_says_when_any_word_matched(
    browser: object, site: Path
) -> None:
    # bypass_csp only so that Playwright may evaluate its waiting conditions (the CSP forbids eval)
    page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
    page.goto(site.as_uri() + "/search.html?q=password")
    page.wait_for_selector("#search-results li")
    wheres = page.eval_on_selector_all("#search-results .where", "els => els.map(e => e.textContent)")
    dreams = [i for i, w in enumerate(wheres) if "dream report" in w]
    assert dreams and len(wheres) > len(dreams) and min(dreams) > max(i for i in range(len(wheres)) if i not in dreams)
    page.check("input[name=kind][value=log]")
    page.wait_for_function(
        "!Array.from(document.querySelectorAll('#search-results .where'))"
        ".some(e => e.textContent.includes('dream report'))"
    )
    assert all(
        "memory/20" in w
        for w in page.eval_on_selector_all("#search-results .where", "els => els.map(e => e.textContent)")
    )
    page.check("input[name=kind][value=all]")
    page.fill("#search-input", "zeppelinrunbook nosuchwordanywhere")
    page.wait_for_function("document.getElementById('search-status').textContent.includes('any of them')")
    assert page.locator("#search-results li").count() == 1
    page.close()


def test_changed_since_banner_is_on_screen_on_arrival(browser: object, site: Path) -> None:
    """Following a provenance link to lines that changed since lands on a snapshot: the banner
    saying so is on screen with the highlighted lines, on a phone and on a desktop."""
    home = (site / "index.html").read_text()
    href = re.search(r'href="(snap/[^"#]+#L\d+(?:-L\d+)?)"', home)[1]
    for width, height in SIZES.values():
        page = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True).new_page()
        page.goto(site.as_uri() + "/" + href)
        page.wait_for_selector(".hl")
        assert in_view(page, ".snapshot-banner") and in_view(page, ".hl"), (width, href)
        page.close()
