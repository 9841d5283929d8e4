"""Dates written the way other languages write them (pure, after one cached load of CLDR's words).

`events.py` reads the dates an English note writes ("2026-03-09", "9 March", "Thu 5/14"). A note in
German, Spanish or French writes the day first: "Di 24.03.", "am 28. April", "el jueves 22/01",
"le 6 mars". This reads those, so that what a line says about its day (a plan whose day has passed,
a date still ahead) is known in every language present: numeric day.month (a dot, or a slash in a
line that is not English, where "5/14" is month/day), and a day before a month's name in any of the
languages read (CLDR's names, through Babel, wide and abbreviated). A date without a year takes the
year that puts it nearest the note's day.
"""

from __future__ import annotations

import re
from datetime import date
from functools import cache

from memgit.dream.reltime_intl import CODES, language_code

_DOTTED = re.compile(r"(?<![\d.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4}|\d{2}(?!\d))?(?![\d])")
_SLASHED = re.compile(r"(?<![\d/])(?P<d>\d{1,2})/(?P<m>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?(?![\d/])")


@cache
def _month_pattern() -> tuple[re.Pattern[str], dict[str, int]] | None:
    """`28. April`, `6 de marzo`, `6 mars`: a day, then a month's name in any language read (a name
    that means two months in two languages is left out)."""
    try:
        from babel.dates import get_month_names
    except ImportError:  # pragma: no cover - babel is a dependency
        return None
    names: dict[str, int] = {}
    clashes: set[str] = set()
    for code in CODES.values():
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for number, name in get_month_names(width, context, locale=code).items():
                    word = name.lower().rstrip(".")
                    if len(word) >= 3:
                        if names.get(word, number) != number:
                            clashes.add(word)
                        names[word] = number
    for word in clashes:
        del names[word]
    words = "|".join(sorted((re.escape(w) for w in names), key=len, reverse=True))
    pattern = re.compile(
        r"(?<![\d\w])(?P<d>\d{1,2})\.?\s*(?:de\s+|del\s+)?(?P<month>" + words + r")\.?(?![\w])"
        r"(?:\s*(?:de\s+|del\s+)?(?P<y>\d{4}))?",
        re.IGNORECASE | re.UNICODE,
    )
    return pattern, names


def _nearest(year: int | None, month: int, day: int, near: date) -> date | None:
    if not 1 <= month <= 12:
        return None
    years = [year] if year is not None else [near.year - 1, near.year, near.year + 1]
    found = []
    for y in years:
        try:
            found.append(date(y, month, day))
        except ValueError:
            continue
    return min(found, key=lambda d: abs((d - near).days)) if found else None


def _year(raw: str | None) -> int | None:
    if not raw:
        return None
    return int(raw) if len(raw) == 4 else 2000 + int(raw)


def dates_intl(text: str, near: date) -> list[date]:
    """The dates `text` writes day first (see the module's docstring), read near the note's day."""
    code = language_code(text)
    out: list[date] = []
    for match in _DOTTED.finditer(text):
        found = _nearest(_year(match["y"]), int(match["m"]), int(match["d"]), near)
        if found is not None:
            out.append(found)
    if code is not None:
        for match in _SLASHED.finditer(text):
            found = _nearest(_year(match["y"]), int(match["m"]), int(match["d"]), near)
            if found is not None:
                out.append(found)
    months = _month_pattern()
    if months is not None:
        pattern, names = months
        for match in pattern.finditer(text):
            found = _nearest(_year(match["y"]), names[match["month"].lower()], int(match["d"]), near)
            if found is not None:
                out.append(found)
    return out
