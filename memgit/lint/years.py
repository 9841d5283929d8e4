"""A year after a code's label that a month or a season dates (lint S108; pure).

"The door code changes in spring 2026", "gate code until end of March 2027", "le code de la porte
change en mars 2027": the year is when something happens, not the code. After any other word a
year-shaped value stays a code: PINs are often years ("PIN ya M-Pesa 1958"). Month names are
CLDR's (through Babel) in every language of `labels.py`, read only when a year-shaped code needs
them; seasons, which CLDR does not name, are listed here.
"""

from __future__ import annotations

import re
from functools import cache

_YEAR = re.compile(r"^(?:19|20)\d{2}$")
_LAST_WORD = re.compile(r"([^\W\d_]+)[^\w]*$")
_SEASONS = frozenset(
    "spring summer autumn fall winter frühjahr frühling sommer herbst printemps été ete automne hiver "
    "primavera verano otoño otono invierno verão verao outono inverno estate autunno inverno lente zomer "
    "najaar herfst wiosna lato jesień jesien zima vår sommar höst vinter forår efterår kevät kesä syksy talvi".split()
)


@cache
def _months() -> frozenset[str]:
    """Month names, wide and abbreviated, of every language the secret labels are written in."""
    from babel import Locale, UnknownLocaleError

    from memgit.lint.labels import LANGUAGES

    out: set[str] = set()
    for code in LANGUAGES:
        try:
            locale = Locale(code)
        except (UnknownLocaleError, ValueError):
            continue
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                out.update(n.casefold().rstrip(".") for n in dict(locale.months[context][width]).values())
    return frozenset(w for w in out if len(w) >= 3)


def year_dated(value: str, gap: str) -> bool:
    """Whether `value`, found after a code's label and the words `gap`, is a year that the word
    right before it (a month or a season) dates."""
    if _YEAR.match(value) is None:
        return False
    last = _LAST_WORD.search(gap.rstrip())
    if last is None:
        return False
    word = last.group(1).casefold()
    return word in _SEASONS or word in _months()
