"""Invisible characters made visible (memgit/site/visible.py): Unicode's own lists, not ours.

Every format character (`Cf`) Python's Unicode database knows and every default-ignorable code
point (DerivedCoreProperties.txt, listed here as the standard gives them) is escaped wherever it
stands alone; a joiner or a selector is kept only where it shapes what a reader sees.
"""

from __future__ import annotations

import sys
import unicodedata

from memgit.site.visible import visible

#: Default_Ignorable_Code_Point, Unicode 15.1 DerivedCoreProperties.txt (every range of it).
DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]  # fmt: skip


def _escaped(char: str) -> bool:
    shown = visible(f"a{char}b")
    return shown == f"a⟦U+{ord(char):04X}⟧b"


def test_every_format_character_python_knows_is_shown() -> None:
    missed = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) == "Cf" and not _escaped(chr(code))
    ]
    assert missed == []


def test_every_default_ignorable_code_point_is_shown_between_letters() -> None:
    missed = [
        f"U+{code:04X}"
        for first, last in DEFAULT_IGNORABLE
        for code in range(first, last + 1)
        if not _escaped(chr(code))
    ]
    assert missed == []


def test_joiners_and_selectors_are_kept_only_where_they_shape_text() -> None:
    kept = [
        "👩\u200d💻",  # an emoji ZWJ sequence
        "❤\ufe0f",  # emoji presentation
        "❤\ufe0f\u200d🔥",
        "1\ufe0f\u20e3",  # a keycap
        "می\u200cخواهم",  # Persian: the non-joiner between letters
        "क्\u200dष",  # Devanagari: the joiner after a virama
        "葛\U000e0100",  # an ideographic variation sequence
    ]
    for text in kept:
        assert visible(text) == text, text
    shown = {
        "pass\u200dword": "pass⟦U+200D⟧word",  # between Latin letters: hides a split
        "x\ufe0fy": "x⟦U+FE0F⟧y",  # a selector after a letter varies nothing
        "❤\ufe0f\ufe0f": "❤\ufe0f⟦U+FE0F⟧",  # a second selector carries nothing a reader sees
        "😀" + "\ufe00\ufe01\ufe02": "😀⟦U+FE00⟧⟦U+FE01⟧⟦U+FE02⟧",  # data smuggled in selectors
        "\u200d": "⟦U+200D⟧",
        "caf\udce9": "caf⟦0xE9⟧",  # a byte of a name that is not UTF-8
        "tab\there\nnew": "tab\there\nnew",  # layout, not hidden
    }
    for text, expected in shown.items():
        assert visible(text) == expected, text
