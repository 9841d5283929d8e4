"""Screenshots of a built memory site as a reader sees it: desktop 1280x800 and phone 390x844,
light and dark, in Debian's chromium through Playwright.

    .venv/bin/python bench/site_screens.py SITE_DIR OUT_DIR [page[#anchor] ...]

Defaults to the home page, a daily log, its provenance landing, the timeline, Dreams, Concepts and
search. README's pictures come from `./dev demo`'s `.demo-site`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

PAGES = [
    "index.html",
    "notes/memory/2026-11-24.html#L8",
    "timeline.html",
    "dreams.html",
    "concepts.html",
    "search.html?q=rollback%20views",
    "notes.html",
]
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built memory site (e.g. ./dev demo's .demo-site)")
    parser.add_argument("out", type=Path, help="folder for the PNG files")
    parser.add_argument("pages", nargs="*", help="pages to shoot, page[#anchor] (default: a tour of the site)")
    opts = parser.parse_args()
    site, out = opts.site.resolve(), opts.out
    pages = opts.pages or PAGES
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for scheme in ("light", "dark"):
            for size, (width, height) in SIZES.items():
                context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
                page = context.new_page()
                for target in pages:
                    page.goto(site.as_uri() + "/" + target)
                    page.wait_for_load_state("load")
                    if "search.html" in target:
                        page.wait_for_selector("body[data-search-ready]")
                    page.wait_for_timeout(150)
                    name = target.split("?")[0].split("#")[0].replace("/", "_").removesuffix(".html")
                    page.screenshot(path=str(out / f"{name}-{size}-{scheme}.png"))
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
