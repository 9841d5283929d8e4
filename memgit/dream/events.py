"""Dated events (pure): one rule for "a one-off event or plan tied to a day", and which of its days are past.

Two policies ask it, each with its own horizon:

* promotion (standalone.py): an event or plan whose day is on or before the dream is not a current
  fact ("rehearsal on 2026-03-04 at 14:00", "the go/no-go meeting is on 2026-03-19"); its outcome,
  told in the past tense ("the cutover completed on Saturday 2026-02-28"), is news and may be kept;
* forgetting (forget.py): an entry that is a dated event, plan or outcome, whose days are all long
  past (`forget_unrecalled_days`), may be proposed for removal.

A text is a dated event when it names a full day (ISO, or "March 28, 2026" / "4 April 2026"; "the
week of D" counts to its Sunday) that is not where a change starts ("from Monday 2026-03-09",
"starting 2026-03-16": the change lasts), and it gives a sign of a one-off: a plan ("will",
"scheduled", "is on"), an event ("meeting", "release", "cutover", "dinner"), or a time of day. A date
alone is not enough: "Dana's birthday is 1990-04-02" stays a fact.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from memgit.dream.reltime import PAST_TENSE, WEEKDAYS

_ISO = re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b")
_MONTHS = "january february march april may june july august september october november december".split()
_NAMED = re.compile(
    r"\b(?:(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s+(?P<m1>[A-Za-z]{3,9})\.?,?\s+(?P<y1>\d{4})"
    r"|(?P<m2>[A-Za-z]{3,9})\.?\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y2>\d{4}))\b"
)
#: Before a date: the day a change starts (or lasts until): the change is the fact, not an event.
_CHANGE_FROM = re.compile(
    r"\b(?:from|since|starting|as of|effective|beginning|onwards?|until|till|through)\s+"
    r"(?:the\s+(?:week|weekend|month)\s+of\s+|\w+\s+)?$",
    re.IGNORECASE,
)
_WEEKDAY_BEFORE = re.compile(r"(?:" + "|".join(WEEKDAYS) + r")\s*$", re.IGNORECASE)
#: A plan: something still to happen on its day.
PLAN = re.compile(
    r"\b(?:will|shall|going to|gonna|plan(?:s|ned)?|scheduled|is set for|are set for|booked|upcoming|agenda|"
    r"to be held|is on|are on|takes place|happens on|is due|are due|due on|deadline|rehearsal|appointment|"
    r"at \d{1,2}(?::\d{2})?\s*(?:am|pm)?|\d{1,2}:\d{2})\b",
    re.IGNORECASE,
)
#: An event: a one-off that happens on a day.
_EVENT = re.compile(
    r"\b(?:meeting|call|standup|stand-up|sync|1:1|rehearsal|demo|review|interview|appointment|visit|trip|"
    r"flight|party|dinner|lunch|event|workshop|conference|talk|deadline|release|launch|deploy|deployment|"
    r"cutover|maintenance|outage|incident|rollback|upgrade|dry[- ]run|test run|trial run|go-live|kickoff|"
    r"ceremony|wedding|parade|festival|concert|game|match|exam|recital)s?\b",
    re.IGNORECASE,
)


def _named_day(match: re.Match[str]) -> date | None:
    word = (match["m1"] or match["m2"]).lower()
    month = next((i for i, name in enumerate(_MONTHS, 1) if name.startswith(word[:3])), None)
    if month is None or (len(word) > 3 and not _MONTHS[month - 1].startswith(word)):
        return None
    try:
        return date(int(match["y1"] or match["y2"]), month, int(match["d1"] or match["d2"]))
    except ValueError:
        return None


def _iso_day(match: re.Match[str]) -> date | None:
    try:
        return date(int(match["y"]), int(match["m"]), int(match["d"]))
    except ValueError:
        return None


#: Dates without a year, read against the day of the note that wrote them: "9 March", "March 9",
#: "Thu 5/14", "Mon 3/9" (month/day, as the US writes it; a weekday before it must agree).
_MONTH_WORD = r"(?-i:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*)"
#: Before a bare month/day ("on 5/14"), so a fraction ("3/4 full") is not read as a date.
_DATE_PREP = re.compile(r"\b(?:on|by|until|till|due|before|after|from|for|since)\s+$", re.IGNORECASE)
_SHORT = re.compile(
    r"(?:\b(?P<wd>mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?\b(?:(?P<mm>\d{1,2})/(?P<dd>\d{1,2})\b(?![/\d])"
    r"|(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s+(?P<m1>" + _MONTH_WORD + r")\b(?!\.?,?\s+\d{4})"
    r"|(?P<m2>" + _MONTH_WORD + r")\.?\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b(?!,?\s+\d{4}|:))",
    re.IGNORECASE,
)


def _nearest_year(month: int, day: int, near: date) -> date | None:
    """The date of that month and day closest to `near` (within half a year either way)."""
    found: list[date] = []
    for year in (near.year - 1, near.year, near.year + 1):
        try:
            found.append(date(year, month, day))
        except ValueError:
            continue
    return min(found, key=lambda d: abs((d - near).days)) if found else None


def _short_day(match: re.Match[str], near: date) -> date | None:
    if match["mm"]:
        when = _nearest_year(int(match["mm"]), int(match["dd"]), near) if 1 <= int(match["mm"]) <= 12 else None
        if when is None or (match["wd"] and WEEKDAYS[when.weekday()][:3] != match["wd"].lower()[:3]):
            return None  # the weekday says it is not month/day: leave it alone
        return when if match["wd"] or abs((when - near).days) <= 120 else None
    word = (match["m1"] or match["m2"]).lower()
    month = next((i for i, name in enumerate(_MONTHS, 1) if name.startswith(word[:3])), None)
    if month is None or (len(word) > 3 and not _MONTHS[month - 1].startswith(word)):
        return None
    return _nearest_year(month, int(match["d1"] or match["d2"]), near)


def _matches(text: str, near: date | None) -> list[tuple[re.Match[str], date | None]]:
    found = [(m, _iso_day(m)) for m in _ISO.finditer(text)] + [(m, _named_day(m)) for m in _NAMED.finditer(text)]
    if near is not None:
        taken = [m.span() for m, _ in found]
        for m in _SHORT.finditer(text):
            if any(a <= m.start() < b or m.start() <= a < m.end() for a, b in taken):
                continue
            if m["mm"] and not m["wd"] and not _DATE_PREP.search(text[: m.start()]):
                continue
            found.append((m, _short_day(m, near)))
    return found


def dates_in(text: str, near: date | None = None) -> list[date]:
    """Every full date `text` names (ISO first, then named); with `near` (the day the note was
    written), also the dates written without a year."""
    return [when for _, when in _matches(text, near) if when is not None]


def event_days(text: str, near: date | None = None) -> list[date]:
    """The days a text ties itself to as a one-off (see the module's docstring), or [] when it is
    not a dated event. `near`: the note's day, to read dates written without a year."""
    if not (PLAN.search(text) or _EVENT.search(text)):
        return []
    out: list[date] = []
    for match, when in _matches(text, near):
        if when is None:
            continue
        before = text[: match.start()]
        if _CHANGE_FROM.search(_WEEKDAY_BEFORE.sub("", before)):
            continue
        stripped = before.rstrip()
        if stripped.endswith("the week of"):
            when += timedelta(days=6)
        elif stripped.endswith("the weekend of"):
            when += timedelta(days=1)
        out.append(when)
    return out


def outcome(text: str) -> bool:
    """Told in the past tense and planning nothing: what happened, not what is to happen."""
    return PAST_TENSE.search(text) is not None and PLAN.search(text) is None


def passed_plan(text: str, day: date, near: date | None = None) -> bool:
    """An event or plan that had a day on or before `day` and is not told as its outcome: not a
    current fact on `day` (promotion). `near`: the note's day (dates without a year)."""
    return any(when <= day for when in event_days(text, near)) and not outcome(text) and not starts_a_change(text, near)


def long_past(text: str, before: date) -> date | None:
    """The latest day of a dated event (plan or outcome) whose days are all before `before`
    (forgetting), else None."""
    days = event_days(text)
    return max(days) if days and max(days) < before else None


_CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b", re.IGNORECASE)
#: How far ahead a booked slot is an appointment of the coming days, not a fact to keep.
APPOINTMENT_DAYS = 14


def starts_a_change(text: str, near: date | None = None) -> bool:
    """`text` names the day a change starts ("from the week of 2026-10-19 supervision is Tuesdays
    11:00"): what it tells lasts, whatever other day it names ("first one Tue 20 Oct")."""
    return any(_CHANGE_FROM.search(_WEEKDAY_BEFORE.sub("", text[: m.start()])) for m, _ in _matches(text, near))


def near_appointment(text: str, day: date, near: date | None = None) -> bool:
    """A one-off booked for a clock time within the next two weeks ("massage booked Thursday
    2026-02-19 at 18:00"): an appointment of the coming days, not long-term memory (a deadline or a
    launch date names no clock time; a recurring slot names no date; a change says when it starts)."""
    if not _CLOCK.search(text) or outcome(text) or starts_a_change(text, near):
        return False
    days = event_days(text, near)
    return bool(days) and all(day < when <= day + timedelta(days=APPOINTMENT_DAYS) for when in days)
