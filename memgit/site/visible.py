"""Invisible characters made visible: what the site shows of a note, a title or a commit.

A bidi override (U+202E) can make a line read backwards from what it holds, and zero-width or tag
characters can hide words from a reader that an agent still reads. The site shows each of them as
a visible escape such as `⟦U+202E⟧` wherever text reaches a page: every rendered page passes
through `visible` whole (render.render), and search shards carry it too. Characters
that shape legitimate text (the zero-width joiner and non-joiner inside emoji and Indic scripts,
variation selectors) are kept; tab, newline and carriage return are layout, not hidden.
"""

from __future__ import annotations

import re

# C0/C1 controls (not tab, newline, carriage return), the bidi embeddings, overrides, isolates and
# marks, zero-width space, word joiner and invisible operators, the BOM, interlinear annotation
# marks, and the tag block (U+E0000-E007F, "ASCII smuggling").
_HIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u180e\u200b\u200e\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)


def _escape(match: re.Match[str]) -> str:
    return f"⟦U+{ord(match[0]):04X}⟧"


def visible(text: str) -> str:
    """`text` with every hidden control character replaced by its visible escape."""
    return _HIDDEN.sub(_escape, text) if _HIDDEN.search(text) else text
