"""What a reader of a rendered note expects from a Markdown viewer, in a real browser (Debian's
chromium through Playwright): section links land on headings, images show, task lists are
checkboxes, code is coloured, `[[wikilinks]]` go somewhere, search forgives a typo and a British
spelling, and table cells break only between words on a phone. The notes are this test's own.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import TESTS_DIR, commit_all, git, write
from tests.site.helpers import build, check_links, module_identity

AXE = TESTS_DIR / "node" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def png(width: int, height: int) -> bytes:
    """A small real PNG (a green and white stripe pattern), made here: no file from elsewhere."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(
        b"\x00" + b"".join(b"\x2e\x8b\x57" if (x // 4) % 2 else b"\xff\xff\xff" for x in range(width))
        for _ in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


GARDEN = """# Allotment plan

Seed stock is listed in [[seeds]]; the [evening watering](care/watering.md#evening-rounds) matters most.
An [[unknown page]] stays text.

## Beds

| Bed | Responsible gardener | Planting notes |
|---|---|---|
| North | Marguerite Oyelaran | Tomatoes alongside marigolds, interplanted with companionable basil |
| South | Bartholomew Nakamura | Pumpkins trailing over the compost enclosure boundary |
| East | Wilhelmina Castellanos-Featherstonehaugh | see allotment-association-companion-planting-handbook |

![North bed sketch](../img/north-bed.png)

- [x] Order the compost delivery
- [ ] Mend the rain barrel lid

```python
def water(bed: str, litres: int = 4) -> None:
    print(f"watering {bed}")  # evenings only
```
"""

WATERING = (
    "# Watering\n\n## Morning rounds\n\n"
    + "".join(f"- Morning check {n}: soil moisture by the shed\n" for n in range(60))
    + "\n## Evening rounds\n\n- The colourful glazed pots need two litres each\n"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    env = module_identity(tmp_path_factory, "reading")
    root = tmp_path_factory.mktemp("reading")
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        ws = root / "ws"
        ws.mkdir()
        git(ws, "init", "-q")
        write(ws / "memory" / "allotment.md", GARDEN)
        write(ws / "memory" / "care" / "watering.md", WATERING)
        write(ws / "memory" / "seeds.md", "# Seeds\n\n- Heirloom tomato seeds from the spring swap\n")
        (ws / "img").mkdir()
        (ws / "img" / "north-bed.png").write_bytes(png(120, 60))
        commit_all(ws, "the allotment")
        build(ws, root / "site")
        yield root / "site"


def open_page(browser: object, site: Path, url: str, width: int = 1280, scheme: str = "light") -> object:
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    page.goto(site.as_uri() + "/" + url)
    page.wait_for_load_state("load")
    return page


def in_view(page: object, selector: str) -> bool:
    return page.evaluate(
        """s => { const r = document.querySelector(s).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""",
        selector,
    )


def test_links_resolve_and_pages_pass_axe_in_both_palettes(browser: object, site: Path) -> None:
    assert check_links(site)[1] == []
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing: run `npm ci` in tests/node ({AXE})")
    problems = []
    for width in (1280, 390):
        for scheme in ("light", "dark"):
            page = open_page(browser, site, "notes/memory/allotment.html", width, scheme)
            page.add_script_tag(path=str(AXE))
            result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)
            problems += [f"{width} {scheme}: {v['id']} {v['nodes'][0]['target']}" for v in result["violations"]]
            wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            if wide > 0:
                problems.append(f"{width} {scheme}: scrolls sideways by {wide}px")
            page.context.close()
    assert problems == []


def test_a_section_link_lands_on_its_heading(browser: object, site: Path) -> None:
    page = open_page(browser, site, "notes/memory/allotment.html", 390)
    page.click("text=evening watering")
    page.wait_for_url("**/care/watering.html#evening-rounds")
    assert page.evaluate("document.getElementById('evening-rounds').tagName") == "H2"
    assert in_view(page, "#evening-rounds")
    # The heading's line anchor still lands there too.
    assert page.evaluate("document.getElementById('evening-rounds').querySelector('[id^=L]') !== null")
    page.context.close()


def test_images_checkboxes_and_highlighted_code(browser: object, site: Path) -> None:
    for scheme in ("light", "dark"):
        page = open_page(browser, site, "notes/memory/allotment.html", 390, scheme)
        image = page.locator("img.note-img")
        assert image.get_attribute("alt") == "North bed sketch"
        assert image.evaluate("i => i.complete && i.naturalWidth === 120 && i.getBoundingClientRect().width > 0")
        assert image.evaluate("i => i.getBoundingClientRect().right <= window.innerWidth")
        boxes = page.locator("input[type=checkbox].task")
        assert boxes.count() == 2 and boxes.nth(0).is_checked() and not boxes.nth(1).is_checked()
        assert boxes.nth(0).is_disabled() and boxes.nth(1).is_disabled()
        assert "Mend the rain barrel lid" in page.locator("li.task-item").nth(1).inner_text()
        keyword = page.locator("pre code span", has_text="def").first
        assert (keyword.get_attribute("class") or "").startswith("tok-k")
        colours = page.evaluate(
            """() => { const code = document.querySelector('pre code');
            const kinds = {};
            for (const s of code.querySelectorAll('span[class^=tok-]')) kinds[s.className[4]] = getComputedStyle(s).color;
            return [getComputedStyle(code).color, kinds]; }"""
        )
        plain, kinds = colours
        assert {"k", "s", "c"} <= kinds.keys() and len({plain, kinds["k"], kinds["s"], kinds["c"]}) == 4, colours
        page.context.close()


def test_a_wikilink_resolves_and_an_unknown_one_stays_text(browser: object, site: Path) -> None:
    page = open_page(browser, site, "notes/memory/allotment.html")
    assert page.locator(".dead-link", has_text="unknown page").count() == 1
    page.click("a.wikilink >> text=seeds")
    page.wait_for_url("**/notes/memory/seeds.html")
    assert "Heirloom tomato seeds" in page.inner_text("main")
    page.context.close()


@pytest.mark.parametrize(
    ("query", "path"),
    [("heirlom", "memory/seeds.md"), ("colorful", "memory/care/watering.md"), ("compsot", "memory/allotment.md")],
)
def test_search_forgives_one_typo_and_a_spelling(browser: object, site: Path, query: str, path: str) -> None:
    page = open_page(browser, site, "search.html?q=" + query)
    page.wait_for_selector("#search-results li")
    wheres = page.eval_on_selector_all("#search-results .where", "els => els.map(e => e.textContent)")
    assert wheres and wheres[0].startswith(path + ":"), wheres
    assert page.locator("#search-results mark").count() >= 1
    page.context.close()


def test_table_cells_break_only_between_words_on_a_phone(browser: object, site: Path) -> None:
    """No word is split over two lines (a hyphen is a place to break, as in any browser)."""
    page = open_page(browser, site, "notes/memory/allotment.html", 390)
    broken = page.evaluate(
        """() => { const out = [];
        for (const cell of document.querySelectorAll('.markdown td, .markdown th')) {
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.textContent.matchAll(/[^\\s-]+/g)) {
              const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
              if (r.getClientRects().length > 1) out.push(m[0]);
            }
          }
        }
        return out; }"""
    )
    assert broken == []
    # Its longest words make it wider than the phone: it scrolls inside its own box, the page does not.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.locator(".table-wrap").evaluate("e => e.scrollWidth > e.clientWidth")
    page.context.close()


def test_the_favicon_is_there(site: Path) -> None:
    page = (site / "notes" / "memory" / "allotment.html").read_text(encoding="utf-8")
    assert '<link rel="icon" href="../../assets/favicon.svg"' in page
    assert (site / "assets" / "favicon.svg").read_bytes().startswith(b"<svg")
