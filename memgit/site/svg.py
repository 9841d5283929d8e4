"""The site's pictures, drawn at build time as inline SVG: no script library, nothing fetched, no
inline style or script (the page's CSP allows neither), colours from CSS classes so the dark
palette applies. Every picture has a text alternative (`role="img"` with a `<title>`) and the
numbers it draws are also on the page as text for those who would rather read.

Pure functions: numbers in, markup out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape


def _svg(width: int, height: int, label: str, body: list[str], cls: str, role: str = "img") -> Markup:
    """`role="img"` for a picture; a picture holding links is a `group` (an image has no parts)."""
    return Markup(
        f'<svg class="chart {cls}" viewBox="0 0 {width} {height}" role="{role}" aria-label="{escape(label)}" '
        f'preserveAspectRatio="none"><title>{escape(label)}</title>{"".join(body)}</svg>'
    )


def day_bars(days: Sequence[tuple[str, int]], label: str) -> Markup:
    """Lines written per day: one bar a day in order (the calendar beside it holds the links;
    bars a few pixels wide would be targets too small to tap).

    `days` are (ISO day, lines); missing days have 0 lines and draw no bar.
    """
    if not days:
        return Markup("")
    top = max(1, max(n for _, n in days))
    step = 8
    height = 48
    body = []
    for i, (day, lines) in enumerate(days):
        if lines <= 0:
            continue
        h = max(2.0, round(lines / top * (height - 2), 1))
        body.append(
            f'<rect class="bar" x="{i * step}" y="{round(height - h, 1)}" width="{step - 2}" height="{h}">'
            f"<title>{escape(day)}: {lines} lines</title></rect>"
        )
    width = max(step, len(days) * step)
    # A few days draw a few bars, not bars a screen wide: the picture is at most 12 px a day.
    return Markup(str(_svg(width, height, label, body, "days")).replace("<svg ", f'<svg width="{width * 1.5:g}" ', 1))


def heat_strip(heat: Mapping[int, int], lines: int, label: str) -> Markup:
    """How often searches recalled each line of a note: a strip, one cell per line, darker = more."""
    if not heat or lines <= 0:
        return Markup("")
    top = max(heat.values())
    width = min(max(lines, 40), 600)
    scale = width / lines
    body = [f'<rect class="track" x="0" y="0" width="{width}" height="10"/>']
    for line, count in sorted(heat.items()):
        if not 1 <= line <= lines:
            continue
        level = heat_level(count, top)
        body.append(
            f'<rect class="heat{level}" x="{round((line - 1) * scale, 2)}" y="0" '
            f'width="{max(1.0, round(scale, 2))}" height="10"><title>line {line}: recalled {count} '
            f"time{'' if count == 1 else 's'}</title></rect>"
        )
    return _svg(width, 10, label, body, "heat")


def heat_level(count: int, top: int) -> int:
    """1-4: the heat class of a line recalled `count` times when the most recalled one was `top`."""
    if count <= 0:
        return 0
    return max(1, min(4, math.ceil(4 * math.log1p(count) / math.log1p(max(top, 1)))))


def component_bars(components: Sequence[tuple[str, float]], label: str) -> Markup:
    """A promotion's score components as horizontal bars on a 0-1 scale, named beside each bar."""
    if not components:
        return Markup("")
    row = 14
    body = []
    for i, (name, value) in enumerate(components):
        v = min(1.0, max(0.0, value))
        y = i * row
        body.append(
            f'<text class="lbl" x="0" y="{y + 10}">{escape(name)}</text>'
            f'<rect class="track" x="96" y="{y + 2}" width="140" height="9"/>'
            f'<rect class="bar" x="96" y="{y + 2}" width="{round(v * 140, 1)}" height="9"/>'
            f'<text class="val" x="242" y="{y + 10}">{value:.2f}</text>'
        )
    return Markup(
        str(_svg(272, row * len(components), label, body, "components")).replace(' preserveAspectRatio="none"', "")
    )


def concept_map(
    concepts: Sequence[tuple[str, str, Sequence[str]]], notes: Mapping[str, tuple[str, str]], label: str
) -> Markup:
    """Concepts (left) and the notes that share them (right), a line for each place.

    `concepts` are (tag, url, note paths); `notes` maps a path to (label, url). Bipartite in two
    columns: readable at any size and deterministic, unlike a force layout.
    """
    if not concepts or not notes:
        return Markup("")
    order = sorted(notes)
    row = 28
    height = max(len(concepts), len(order)) * row + 6
    left = {tag: 6 + i * row + row // 2 for i, (tag, _, _) in enumerate(concepts)}
    right = {path: 6 + i * row + row // 2 for i, path in enumerate(order)}
    body = []
    for tag, _, paths in concepts:
        for path in paths:
            if path in right:
                body.append(f'<line class="edge" x1="150" y1="{left[tag]}" x2="330" y2="{right[path]}"/>')
    for tag, url, _ in concepts:
        y = left[tag]
        body.append(
            f'<a href="{escape(url)}"><circle class="node" cx="150" cy="{y}" r="5"/>'
            f'<text class="lbl" x="142" y="{y + 4}" text-anchor="end">{escape(tag)}</text></a>'
        )
    for path in order:
        text, url = notes[path]
        y = right[path]
        body.append(
            f'<a href="{escape(url)}"><circle class="node note" cx="330" cy="{y}" r="5"/>'
            f'<text class="lbl" x="340" y="{y + 4}">{escape(text)}</text></a>'
        )
    return Markup(str(_svg(520, height, label, body, "map", "group")).replace(' preserveAspectRatio="none"', ""))
