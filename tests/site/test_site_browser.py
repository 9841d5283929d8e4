"""The memory site in a real browser (Debian's chromium driven by Playwright).

Provenance links land on highlighted, scrolled-into-view lines; search finds and links to line
ranges; hostile memory text stays inert under the page's Content-Security-Policy; all of it over
file:// and over `memgit site serve`. Screenshots of home, a note, the timeline and search are saved
under .artifacts/site/ for review. Without a browser every test here skips and says why.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memgit.core.provenance import EntryMarker, SourceRef, format_trailers
from tests.helpers import REPO_ROOT, commit_all, git, write
from tests.site.helpers import BM25, build, dream_commit, make_workspace, module_identity

ARTIFACTS = REPO_ROOT / ".artifacts" / "site"


HOSTILE = [
    "<script>window.pwned = 'script'</script>",
    "[click me](javascript:window.pwned='js-link')",
    "<img src=x onerror=\"window.pwned='onerror'\">",
    '<iframe src="https://example.com/frame"></iframe>',
    "<style>body { display: none }</style>",
    "![tracker](https://example.com/pixel.png)",
    "[data](data:text/html,<script>alert(1)</script>)",
    '<a href="#" onclick="window.pwned=\'onclick\'">inline handler</a>',
    '[title trick](https://example.com/ "t\\" onmouseover=\\"window.pwned=\'title\'")',
    "<javascript:window.pwned='autolink'>",
    "<svg onload=\"window.pwned='svg'\"></svg>",
]


@pytest.fixture(scope="module")
def site_ws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One workspace for the module, made under the same pinned identity and HOME as every test."""
    with pytest.MonkeyPatch.context() as mp:
        for key, value in module_identity(tmp_path_factory, "browser").items():
            mp.setenv(key, value)
        yield _make_site_ws(tmp_path_factory.mktemp("browser") / "ws")


def _make_site_ws(root: Path) -> Path:
    daily = [f"- routine line {n}: nothing special happened at step {n}." for n in range(1, 81)]
    daily[59:62] = [
        "- Zeppelinfact: the Heron cutover window is Sunday 06:00 UTC.",
        "- Zeppelinfact: rollback means flipping the flag off.",
        "- Zeppelinfact: Dana signs off the go/no-go.",
    ]
    files = {
        "MEMORY.md": "# Memory\n\n- The user prefers tea, written by hand.\n",
        "memory/2026-02-06.md": "# 2026-02-06\n\n" + "\n".join(daily) + "\n",
        "memory/2026-02-07.md": "# 2026-02-07\n\n## Hostile text\n\n" + "\n".join(f"- {h}" for h in HOSTILE) + "\n",
        'memory/ünïcödé #1? "q".md': "# Odd name\n\n- Quokkafact lives in an oddly named note.\n",
    }
    ws = make_workspace(root, files)
    source = git(ws, "rev-parse", "HEAD").strip()
    ref = SourceRef("memory/2026-02-06.md", 62, 64, source)
    marker = EntryMarker("kzep", ref, 0.77, "2026-02-08")
    write(
        ws / "MEMORY.md",
        (ws / "MEMORY.md").read_text()
        + f"\n{marker.format()}\n- Heron cuts over Sunday 06:00 UTC.\n"
        + "\n## Hostile entries\n\n"
        + "\n".join(f"- {h}" for h in HOSTILE)
        + "\n",
    )
    trailers = format_trailers(
        {
            "Memgit-Promotion": "kzep",
            "Memgit-Source": ref.format(),
            "Memgit-Score": "0.770 (frequency=0.40 relevance=0.90)",
            "Memgit-Action": "promote",
        }
    )
    dream_commit(ws, f"Promote: Heron cutover\n\n{trailers}", {"kzep": "promote"})
    return ws


class Watch:
    """Everything a page does that a static, inert site must not: requests out, errors, CSP hits."""

    def __init__(self, page: object, allowed: tuple[str, ...]) -> None:
        self.requests: list[str] = []
        self.console: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: None if r.url.startswith(allowed) else self.requests.append(r.url))
        page.on("console", lambda m: self.console.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def assert_clean(self) -> None:
        assert self.requests == [], self.requests
        assert self.errors == [], self.errors
        assert not [m for m in self.console if "Content Security Policy" in m or "Refused" in m], self.console


def highlighted(page: object) -> list[str]:
    return page.eval_on_selector_all(".hl", "els => els.map(e => e.id)")


def in_view(page: object, element_id: str) -> bool:
    return page.evaluate(
        """id => { const r = document.getElementById(id).getBoundingClientRect();
                   return r.top >= 0 && r.bottom <= window.innerHeight; }""",
        element_id,
    )


def exercise(browser: object, base: str, allowed: tuple[str, ...], shots: str | None = None) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 700})
    watch = Watch(page, allowed)
    page.goto(base + "index.html")
    assert (
        page.locator("meta[http-equiv='Content-Security-Policy']")
        .get_attribute("content")
        .startswith("default-src 'self'")
    )
    if shots:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{shots}-home.png"), full_page=True)
    # Provenance: the promoted entry's link lands on the highlighted source lines, scrolled into view.
    page.click(".prov-managed a.prov-source")
    page.wait_for_selector(".hl")
    assert page.url.endswith("notes/memory/2026-02-06.html#L62-L64")
    assert highlighted(page) == ["L62", "L63", "L64"]
    assert in_view(page, "L62") and in_view(page, "L64") and not in_view(page, "L1")
    assert "Zeppelinfact" in page.inner_text("#L62")
    if shots:
        page.screenshot(path=str(ARTIFACTS / f"{shots}-note.png"))
    # A hand-edited hash moves the highlight (no reload).
    page.evaluate("location.hash = '#L3'")
    page.wait_for_selector("#L3.hl")
    assert highlighted(page) == ["L3"]
    # Search: type, submit, follow the first result to its lines.
    page.goto(base + "search.html")
    page.wait_for_selector("body[data-search-ready]")
    page.fill("#search-input", "zeppelinfact rollback")
    page.press("#search-input", "Enter")
    page.wait_for_selector("#search-results li")
    first = page.locator("#search-results a").first
    assert re.search(r"notes/memory/2026-02-06\.html#L\d+(-L\d+)?$", first.get_attribute("href"))
    if shots:
        page.screenshot(path=str(ARTIFACTS / f"{shots}-search.png"))
    first.click()
    page.wait_for_selector(".hl")
    lines = highlighted(page)
    assert "L63" in lines and in_view(page, lines[0])
    # Unicode, '#', '?' and quotes in a file name: searchable and reachable.
    page.goto(base + "search.html?q=Quokkafact")
    page.wait_for_selector("#search-results li")
    page.locator("#search-results a").first.click()
    page.wait_for_selector("#L3.hl")
    assert "Quokkafact" in page.inner_text("#L3")
    assert 'ünïcödé #1? "q".md' in page.inner_text(".note-meta .path")
    page.goto(base + "timeline.html")
    if shots:
        page.screenshot(path=str(ARTIFACTS / f"{shots}-timeline.png"), full_page=True)
    watch.assert_clean()
    page.close()


def check_inert(browser: object, base: str, allowed: tuple[str, ...]) -> None:
    page = browser.new_page()
    watch = Watch(page, allowed)
    for url in ("index.html", "notes/memory/2026-02-07.html", "search.html?q=pwned"):
        page.goto(base + url)
        page.wait_for_load_state("load")
        page.mouse.move(200, 200)
        page.evaluate("""() => document.querySelectorAll('main *').forEach(el => {
            for (const kind of ['mouseover', 'focus', 'load', 'error']) el.dispatchEvent(new Event(kind)); })""")
        assert page.evaluate("typeof window.pwned") == "undefined", url
        bad = page.evaluate("""() => Array.from(document.querySelectorAll('*')).flatMap(el =>
            Array.from(el.attributes).filter(a => a.name.startsWith('on') || /^\\s*(javascript|data):/i.test(a.value))
              .map(a => el.tagName + ' ' + a.name + '=' + a.value))""")
        assert bad == [], (url, bad)
        assert page.locator("main iframe, main img, main style, main svg, main object, main embed").count() == 0
        inline = page.evaluate("Array.from(document.scripts).filter(s => !s.src).length")
        assert inline == 0, url
        assert page.is_visible("main"), url
    # The hostile text is shown as text, for a person to read.
    page.goto(base + "notes/memory/2026-02-07.html")
    assert "<script>window.pwned = 'script'</script>" in page.inner_text("main")
    page.goto(base + "index.html")
    assert "window.pwned" in page.inner_text("main")
    watch.assert_clean()
    page.close()


def test_site_over_file_urls(browser: object, site_ws: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(site_ws, out)
    base = out.as_uri() + "/"
    exercise(browser, base, ("file://",), shots="file")
    check_inert(browser, base, ("file://",))


@pytest.fixture
def served(site_ws: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    env = {**os.environ, **BM25, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "memgit", "site", "serve", "--port", "0", "--interval", "0.2"],
        cwd=site_ws,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    url = None
    deadline = time.monotonic() + 60
    while url is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        match = re.search(r"serving (http://127\.0\.0\.1:\d+/)", line)
        url = match.group(1) if match else None
    assert url, "memgit site serve did not start"
    try:
        yield url, proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_site_over_memgit_site_serve(browser: object, site_ws: Path, served: tuple[str, subprocess.Popen[str]]) -> None:
    url, _ = served
    exercise(browser, url, (url,), shots="serve")
    check_inert(browser, url, (url,))
    # An edit of a memory file (committed or not) shows up after the preview rebuilds.
    page = browser.new_page()
    with open(site_ws / "memory" / "2026-02-07.md", "a", encoding="utf-8") as handle:
        handle.write("- Uncommittedwombat appears in the preview.\n")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        page.goto(url + "notes/memory/2026-02-07.html")
        if "Uncommittedwombat" in page.inner_text("main"):
            break
        time.sleep(0.3)
    assert "Uncommittedwombat" in page.inner_text("main")
    # A new note appears once it is committed (a new HEAD).
    write(site_ws / "memory" / "2026-02-08.md", "# 2026-02-08\n\n- Committedkoala arrives with a commit.\n")
    commit_all(site_ws, "wombat and koala")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        response = page.goto(url + "notes/memory/2026-02-08.html")
        if response is not None and response.ok and "Committedkoala" in page.inner_text("main"):
            break
        time.sleep(0.3)
    assert "Committedkoala" in page.inner_text("main")
    page.close()


def test_concept_page_links_land_on_highlighted_lines(browser: object, workspace: Path, tmp_path: Path) -> None:
    """A dream's theme, from the Concepts page to the lines that hold it, highlighted and in view."""
    from memgit.site import urls
    from tests.site.test_site_concepts import THEME, dreamt

    dreamt(workspace)
    out = tmp_path / "site"
    build(workspace, out)
    base = out.as_uri() + "/"
    page = browser.new_page(viewport={"width": 1200, "height": 700})
    watch = Watch(page, ("file://",))
    page.goto(base + "concepts.html")
    page.click(f"table.themes a[href='{urls.concept_url(THEME)}']")
    assert page.url.endswith(urls.concept_url(THEME))
    page.locator(".dream-places a").first.click()
    page.wait_for_selector(".hl")
    lines = highlighted(page)
    assert lines and in_view(page, lines[0])
    assert THEME in page.inner_text(f"#{lines[0]}").lower()
    page.goto(base + urls.concept_url(THEME))
    page.locator(".memory-places a").first.click()
    page.wait_for_selector(".hl")
    assert page.url.split("#")[0].endswith("notes/MEMORY.html")
    assert THEME in " ".join(page.inner_text(f"#{n}") for n in highlighted(page)).lower()
    watch.assert_clean()
    page.close()
