"""Invisible characters made visible: what the site shows of a note, a title, a path or a commit.

A bidi override (U+202E) can make a line read backwards from what it holds, and zero-width, tag,
filler or variation-selector characters can hide words (or whole messages) from a reader that an
agent still reads. The site shows each of them as a visible escape such as `⟦U+202E⟧` wherever
text reaches a page: every rendered page passes through `visible` whole (render.render), and
search shards carry it too.

What counts as hidden is Unicode's own list, not one of ours: every default-ignorable code point
(`Default_Ignorable_Code_Point`, DerivedCoreProperties.txt) and every format character
(general category `Cf`), plus the control characters other than tab, newline and carriage
return. Three of them shape ordinary text and are kept where they do, and only there:

- the zero-width joiner (U+200D) between two pictographs (👩‍💻) or two letters of a script that
  joins (Arabic, Indic, …), never between Latin, Greek or Cyrillic letters or digits;
- the zero-width non-joiner (U+200C) between two such letters (Persian, Indic);
- one variation selector right after a character it can vary: U+FE0E/U+FE0F after a symbol or
  pictograph (❤️) or a keycap digit, U+FE00–FE0D and U+E0100–E01EF after a CJK ideograph. A second
  selector in a row, or one after a letter, carries nothing a reader sees: it is shown.

A file name git holds that is not UTF-8 reaches a page as lone surrogates (`surrogateescape`);
each undecodable byte is shown as `⟦0xE9⟧`.
"""

from __future__ import annotations

import re
import unicodedata

#: Default_Ignorable_Code_Point (Unicode 15.1 DerivedCoreProperties.txt), the format characters
#: (Cf) that are not default-ignorable (the prepended concatenation marks and a few others),
#: the C0 and C1 controls but tab, newline and carriage return, and lone surrogates.
_CANDIDATE = re.compile(
    "["
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
    "\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f"
    "\ud800-\udfff"
    "]"
)
_ZWNJ, _ZWJ = "\u200c", "\u200d"
_EMOJI_VS = frozenset("\ufe0e\ufe0f")
_KEYCAP = frozenset("0123456789#*")


def _letter_of_joining_script(char: str) -> bool:
    """A letter or mark beyond Latin, Greek, Cyrillic and Armenian: where joiners shape text."""
    return ord(char) >= 0x0590 and unicodedata.category(char)[0] in "LM"


def _pictograph(char: str) -> bool:
    code = ord(char)
    return (
        0x1F000 <= code <= 0x1FAFF
        or 0x2190 <= code <= 0x2BFF
        or code in (0x00A9, 0x00AE, 0x203C, 0x2049, 0x2122, 0x2139, 0x3030, 0x303D, 0x3297, 0x3299)
        or unicodedata.category(char) == "So"
    )


def _cjk(char: str) -> bool:
    return unicodedata.category(char) == "Lo" and "CJK" in unicodedata.name(char, "")


def _shapes_text(text: str, index: int, char: str) -> bool:
    """True when the invisible character at `index` does something a reader sees."""
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if char == _ZWJ:
        if not before or not after:
            return False
        if _pictograph(after) and (_pictograph(before) or before in _EMOJI_VS or 0x1F3FB <= ord(before) <= 0x1F3FF):
            return True
        return _letter_of_joining_script(before) and _letter_of_joining_script(after)
    if char == _ZWNJ:
        return bool(before and after) and _letter_of_joining_script(before) and _letter_of_joining_script(after)
    if char in _EMOJI_VS:
        return bool(before) and (_pictograph(before) or before in _KEYCAP)
    code = ord(char)
    if 0xFE00 <= code <= 0xFE0D or 0xE0100 <= code <= 0xE01EF:
        return bool(before) and _cjk(before)
    return False


def _may_shape(char: str) -> bool:
    code = ord(char)
    return char in (_ZWJ, _ZWNJ) or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte `surrogateescape` could not decode
        return f"⟦0x{code - 0xDC00:02X}⟧"
    return f"⟦U+{code:04X}⟧"


def visible(text: str) -> str:
    """`text` with every hidden character replaced by its visible escape."""
    if _CANDIDATE.search(text) is None:
        return text
    out: list[str] = []
    last = 0
    for match in _CANDIDATE.finditer(text):
        index = match.start()
        char = match[0]
        if _may_shape(char) and _shapes_text(text, index, char):
            continue
        out.append(text[last:index])
        out.append(_escape(char))
        last = index + 1
    out.append(text[last:])
    return "".join(out)
