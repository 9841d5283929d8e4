"""Relative dates (pure): "today", "next week", "on Saturday" read against the day a note was written.

A daily log says "today" and means its own day; copied into MEMORY.md weeks later, the same word
means the reader's day. So a promoted copy names the date instead: the log line is never changed,
only the entry's text. `resolve` rewrites every relative expression it can pin to a date (or a week,
a month, a year); `unresolved` finds what is left, so a caller can refuse an entry that still
depends on when it is read.

Weekday names without a modifier take the tense of their sentence: "completed on Saturday" is the
Saturday before the note (or its own day), "the demo is on Saturday" the one after it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from functools import partial

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_WEEKDAY = r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
_NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "couple of": 2,
    "a couple of": 2,
}
_NUMBER = r"(?P<n>\d{1,3}|a couple of|couple of|an?|one|two|three|four|five|six|seven|eight|nine|ten)"
#: Prepositions after which a date reads without another one ("from 2026-03-09", not "from on ...").
_PREPOSITIONS = (
    "on",
    "in",
    "by",
    "from",
    "until",
    "till",
    "since",
    "before",
    "after",
    "during",
    "for",
    "of",
    "over",
    "through",
    "starting",
    "as of",
    "until",
    "around",
    "at",
)
_PREP = r"(?P<prep>\b(?:" + "|".join(sorted({re.escape(p) for p in _PREPOSITIONS}, key=len, reverse=True)) + r")\s+)?"
#: After a weekday, the date it names already: ISO, "7 October", "October 7", "5/14" ("Thu 5/14").
_ISO_AFTER = re.compile(
    r"^\s*,?\s*\(?(?:\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th)?\s+(?-i:[A-Z][a-z]{2,8})\b|\d{1,2}/\d{1,2}\b"
    r"|(?-i:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*)\.?\s+\d{1,2}\b)"
)
PAST_TENSE = re.compile(
    r"\b(?:was|were|did|had|went|got|took|came|made|said|told|met|ran|began|left|found|gave|saw|held|won|lost|"
    r"wrote|sent|spent|bought|paid|moved|finished|completed|happened|shipped|decided|agreed|started|ended|"
    r"launched|released|merged|deployed|visited|attended|joined|signed|\w{3,}ed)\b",
    re.IGNORECASE,
)
_FUTURE = re.compile(
    r"\b(?:will|shall|going to|gonna|plan(?:s|ned)? to|planned|scheduled|is set|are set|"
    r"upcoming|coming|next|from|starting|until|by|due|is on|are on|moves?|is moving)\b",
    re.IGNORECASE,
)

_DAY_WORD = re.compile(
    _PREP + r"(?P<word>\b(?:today|tonight|tomorrow|yesterday|last night|this (?:morning|afternoon|evening))\b)"
    r"(?:(?P<poss>'s)|\s+(?P<part>morning|afternoon|evening|night)\b)?",
    re.IGNORECASE,
)
_PERIOD = re.compile(
    _PREP + r"(?<!the )(?<!The )\b(?P<mod>this|next|last|past|coming)\s+(?P<unit>week(?:end)?|month|year)\b"
    r"(?P<poss>'s)?",
    re.IGNORECASE,
)
_AGO = re.compile(_PREP + r"\b" + _NUMBER + r"\s+(?P<unit>day|week|month|year)s?\s+ago\b", re.IGNORECASE)
_IN = re.compile(
    r"\bin\s+" + _NUMBER + r"\s+(?P<unit>day|week)s?(?:['’]s?\s+time\b)?(?!\s+ago)(?!['’\w])"
    r"(?!\s+(?:before|after|ahead|earlier|later|prior|of|notice|in advance|beforehand)\b)",  # a span, not a day
    re.IGNORECASE,
)
_ABOUT_AGO = re.compile(
    r"\b(?P<word>about|around|roughly|nearly|almost|over|some)\s+"
    + _NUMBER
    + r"\s+(?P<unit>day|week|month|year)s?\s+ago\b",
    re.IGNORECASE,
)
_FEW_AGO = re.compile(r"\b(?:a few|several) (?P<unit>day|week|month)s ago\b", re.IGNORECASE)
_NAMED = re.compile(
    _PREP + r"(?P<mod>\b(?:this|next|last|past|coming)\s+)?\b(?P<day>" + _WEEKDAY + r")(?P<tail>s\b|'s\b)?"
    r"(?P<part>\s+(?:morning|afternoon|evening|night))?",
    re.IGNORECASE,
)
#: Before a weekday: it is any such day, or the one a date just named ("2026-04-04, a Saturday").
_ABBREVIATED = re.compile(
    _PREP + r"(?P<mod>\b(?:this|next|last|past|coming)\s+)(?P<abbr>mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b",
    re.IGNORECASE,
)
_FULL_DAY = {
    "mon": "Monday",
    "tue": "Tuesday",
    "tues": "Tuesday",
    "wed": "Wednesday",
    "thu": "Thursday",
    "thur": "Thursday",
    "thurs": "Thursday",
    "fri": "Friday",
    "sat": "Saturday",
    "sun": "Sunday",
}
_SEASON = re.compile(
    _PREP + r"\b(?P<mod>this|next|last|past)\s+(?P<season>summer|winter|spring|fall|autumn)\b", re.IGNORECASE
)
#: Northern seasons by their first month (winter starts in December and is named by that year).
_SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
_OTHER_DAY = re.compile(r"\bthe other day\b", re.IGNORECASE)
_END_OF = re.compile(r"\b(?:the\s+)?end of (?:the |this )?(?P<unit>week|month)\b(?!\s+of\b)", re.IGNORECASE)
_EVERY = re.compile(
    r"\b(?:every|each|most|some|all|other|any|a|an|alternate|second|third|fourth|first)\s+$"
    r"|\d{4}-\d{2}-\d{2}\W{0,3}(?:a\s+)?$",
    re.IGNORECASE,
)
#: A sentence that states a standing rule or a recurring event: a weekday in it is every such day,
#: never one date ("no calls on Monday morning, under any circumstances", "weigh-in is Friday, always").
STANDING = re.compile(
    r"\b(?:every|each|always|never|ever|weekly|fortnightly|biweekly|alternate|going forward|from now on|"
    r"henceforth|as a rule|standing|usually|normally|regularly|under any circumstances|at any time|now|"
    r"no longer|each week|per week|a week)\b",
    re.IGNORECASE,
)
#: A standing requirement told in the habitual present: a verb of wanting or requiring whose object
#: is a bare plural (no article, possessive or number: things of that kind, each time), due "by" a
#: weekday ("expects reports filed by Friday noon", "needs timesheets in by Monday"). With an article
#: ("wants the slides by Friday") it is one thing, once, and the weekday is one date.
_HABITUAL_DEADLINE = re.compile(
    r"\b(?:expects?|wants?|asks?\s+for|needs?|requires?|insists\s+on)\s+"
    r"(?!(?:the|this|that|these|those|a|an|my|your|his|her|our|their|its|one|two|three|some|all)\b|\d)"
    r"(?:[a-z-]+\s+){0,2}[a-z-]+s\b[^.;:!?]*?\bby\s+(?:" + "|".join(WEEKDAYS) + r")\b",
    re.IGNORECASE,
)


def standing(sentence: str) -> bool:
    """`sentence` states a standing rule or a recurring event: a weekday in it is every such day."""
    return STANDING.search(sentence) is not None or _HABITUAL_DEADLINE.search(sentence) is not None


# What is still relative after resolving (a reader cannot tell the date from the entry alone).
_UNRESOLVED = (
    re.compile(r"\b(?:today|tonight|tomorrow|yesterday)\b", re.IGNORECASE),
    re.compile(
        r"(?<!the )\b(?:this|next|last|past|coming)\s+(?:week(?:end)?|month|year|morning|afternoon|evening|"
        r"night)\b",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:this|next|last|coming)\s+" + _WEEKDAY + r"\b", re.IGNORECASE),
    re.compile(
        r"\b(?:this|next|last|past|coming)\s+(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun|summer|winter|spring|"
        r"fall|autumn)\b|\bthe other day\b|\bend of (?:the |this )?(?:week|month)\b(?!\s+of\b)",
        re.IGNORECASE,
    ),
    re.compile(r"\b\d+\s+(?:day|week)s?\s+ago\b|\b(?:a|one|two|three)\s+(?:day|week)s?\s+ago\b", re.IGNORECASE),
)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _month_name(day: date) -> str:
    return f"{MONTHS[day.month - 1]} {day.year}"


def _shift_month(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _count(text: str) -> int:
    text = text.lower()
    return int(text) if text.isdigit() else _NUMBER_WORDS.get(text, 1)


def _with_prep(prep: str | None, default: str, noun: str) -> str:
    """`noun` after the sentence's own preposition, or after `default` when it had none."""
    if prep:
        return prep + noun
    return f"{default} {noun}" if default else noun


def _sentence_of(text: str, at: int) -> str:
    start = max(text.rfind(".", 0, at), text.rfind("!", 0, at), text.rfind("?", 0, at), text.rfind(";", 0, at)) + 1
    ends = [i for i in (text.find(".", at), text.find("!", at), text.find("?", at), text.find(";", at)) if i >= 0]
    return text[start : min(ends) if ends else len(text)]


def _weekday_date(day: date, weekday: int, mod: str, sentence: str) -> date:
    mod = mod.strip().lower()
    if mod == "next":
        return _monday(day) + timedelta(days=7 + weekday)
    if mod in ("this", "coming"):
        found = _monday(day) + timedelta(days=weekday)
        return found if mod == "this" or found > day else found + timedelta(days=7)
    before = (day.weekday() - weekday) % 7
    if mod in ("last", "past"):
        return day - timedelta(days=before or 7)
    # No modifier: the tense decides. Past: that day of this week or the one before; else the next one.
    past = PAST_TENSE.search(sentence) and not _FUTURE.search(sentence)
    if past:
        return day - timedelta(days=before)
    ahead = (weekday - day.weekday()) % 7
    return day + timedelta(days=ahead or 7)


def resolve(text: str, day: date) -> str:
    """`text` with every relative date expression it can pin down named by its date."""
    text = _DAY_WORD.sub(_keep_case(partial(_day_word, day)), text)
    text = _PERIOD.sub(_keep_case(partial(_period, day)), text)
    text = _ABOUT_AGO.sub(_keep_case(partial(_ago_about, day)), text)
    text = _AGO.sub(_keep_case(partial(_ago, day)), text)
    text = _FEW_AGO.sub(_keep_case(lambda m: f"a few {m['unit'].lower()}s before {day.isoformat()}"), text)
    text = _IN.sub(_keep_case(partial(_within, day)), text)
    text = _OTHER_DAY.sub(f"a few days before {day.isoformat()}", text)
    text = _END_OF.sub(
        _keep_case(
            lambda m: (
                f"the end of the week of {_monday(day).isoformat()}"
                if m["unit"].lower() == "week"
                else f"the end of {_month_name(day)}"
            )
        ),
        text,
    )
    text = _SEASON.sub(_keep_case(partial(_season, day)), text)
    text = _ABBREVIATED.sub(lambda m: (m["prep"] or "") + m["mod"] + _FULL_DAY[m["abbr"].lower()], text)
    return _NAMED.sub(partial(_named, day, text), text)


def _day_word(day: date, m: re.Match[str]) -> str:
    word = m["word"].lower()
    offset = {"tomorrow": 1, "yesterday": -1, "last night": -1}.get(word, 0)
    when = (day + timedelta(days=offset)).isoformat()
    part = (m["part"] or "").lower()
    if word in ("tonight", "last night"):
        part = "night" if word == "last night" else "evening"
    elif word.startswith("this "):
        part = word.split()[1]
    if m["poss"]:
        return (m["prep"] or "") + f"the {when}"
    noun = f"the {part} of {when}" if part else when
    return _with_prep(m["prep"], "on", noun)


def _period(day: date, m: re.Match[str]) -> str:
    mod, unit = m["mod"].lower(), m["unit"].lower()
    step = {"this": 0, "coming": 1, "next": 1, "last": -1, "past": -1}[mod]
    if unit == "week":
        noun, default = f"the week of {(_monday(day) + timedelta(weeks=step)).isoformat()}", "in"
    elif unit == "weekend":
        saturday = _monday(day) + timedelta(days=5, weeks=step)
        noun, default = f"the weekend of {saturday.isoformat()}", "on"
    elif unit == "month":
        noun, default = _month_name(_shift_month(day, step)), "in"
    else:
        noun, default = str(day.year + step), "in"
    if m["poss"]:
        return (m["prep"] or "") + noun + "'s"
    return _with_prep(m["prep"], default, noun)


def _ago_about(day: date, m: re.Match[str]) -> str:
    """ "about a year ago" -> "in about 2022": the approximation stays with the date it qualifies."""
    return f"in {m['word'].lower()} {_ago_noun(day, m)}"


def _ago(day: date, m: re.Match[str]) -> str:
    return _ago_dated(day, m)


def _ago_noun(day: date, m: re.Match[str]) -> str:
    n, unit = _count(m["n"]), m["unit"].lower()
    if unit == "day":
        return (day - timedelta(days=n)).isoformat()
    if unit == "week":
        return f"the week of {_monday(day - timedelta(weeks=n)).isoformat()}"
    if unit == "month":
        return _month_name(_shift_month(day, -n))
    return str(day.year - n)


def _ago_dated(day: date, m: re.Match[str]) -> str:
    n, unit = _count(m["n"]), m["unit"].lower()
    if unit == "day":
        return _with_prep(m["prep"], "on", (day - timedelta(days=n)).isoformat())
    if unit == "week":
        return _with_prep(m["prep"], "in", f"the week of {_monday(day - timedelta(weeks=n)).isoformat()}")
    if unit == "month":
        return _with_prep(m["prep"], "in", _month_name(_shift_month(day, -n)))
    return _with_prep(m["prep"], "in", str(day.year - n))


#: Before "in N weeks", what makes it the time something happens ("harvest is in three weeks", "back in
#: two days"), not a span ("second change in 3 weeks", "done in 2 days"): only then is it a date.
_AT_A_TIME = re.compile(
    r"\b(?:is|are|will be|'s|starts?|begins?|opens?|due|comes?|happens?|back|arrives?|ends?|returns?|"
    r"expected|scheduled|planned|again|closes?|leaves?|ready|lands?|ships?)\s+$",
    re.IGNORECASE,
)


def _within(day: date, m: re.Match[str]) -> str:
    if "time" not in m.group(0).lower() and not _AT_A_TIME.search(m.string[: m.start()]):
        return m.group(0)  # a span, or not sure which: left as written
    n, unit = _count(m["n"]), m["unit"].lower()
    if unit == "week":  # a week later is a week, not a day: name the week it falls in
        return f"in the week of {_monday(day + timedelta(weeks=n)).isoformat()}"
    return f"on {(day + timedelta(days=n)).isoformat()}"


def _season(day: date, m: re.Match[str]) -> str:
    name, mod = m["season"].lower(), m["mod"].lower()
    first = _SEASON_START[name]
    started = (day.year, first) <= (day.year, day.month)  # this year's season has begun by `day`
    ended = day.month >= first + 3 if name != "winter" else False
    if mod == "this":
        year = day.year
    elif mod == "next":
        year = day.year if not started else day.year + 1
    else:  # last / past: the latest one that is over
        year = day.year if ended else day.year - 1
    label = "fall" if name == "autumn" else name
    return _with_prep(m["prep"], "in", f"{label} {year}")


#: A weekday as a list or a range writes it ("Tue+Thu", "Mon–Fri", "Tuesday and Thursday", "mon, wed"):
#: each of those days, every week; a date for one of them would change what was said.
_DAY_TOKEN = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?"
_LIST_BEFORE = re.compile(
    r"\b" + _DAY_TOKEN + r"\s*(?:[+&,/–—-]|\band\b|\bor\b|\bto\b|\bthrough\b|\bthru\b|\btill\b|\buntil\b)\s*$",
    re.IGNORECASE,
)
_LIST_AFTER = re.compile(
    r"^\s*(?:[+&,/–—-]|\band\b|\bor\b|\bto\b|\bthrough\b|\bthru\b|\btill\b|\buntil\b)\s*" + _DAY_TOKEN + r"\b",
    re.IGNORECASE,
)
#: A weekday that opens its sentence as its subject ("Monday is our day off", "Fridays: …") names the day of every week.
_DAY_SUBJECT = re.compile(r"^\s*(?:is|are|=|:|stays?|remains?)\b|^\s*[:=]", re.IGNORECASE)


def in_weekday_list(text: str, start: int, end: int) -> bool:
    """The weekday at text[start:end] is one of a list or range of weekdays, or opens its sentence as
    its subject: every such day, never one date."""
    if _LIST_BEFORE.search(text[max(0, start - 24) : start]) or _LIST_AFTER.match(text[end : end + 24]):
        return True
    sentence_start = max(text.rfind(".", 0, start), text.rfind(";", 0, start), text.rfind("\n", 0, start)) + 1
    return not text[sentence_start:start].strip() and _DAY_SUBJECT.match(text[end:]) is not None


#: A weekday given as a setting's value ("editing day = THURSDAY"), or said to hold from a time on
#: ("THURSDAY from next week", "Fridays starting 3/2"): the day of every week from then.
_ASSIGNED = re.compile(r"=\s*$")
_STARTS_AFTER = re.compile(
    r"^\s*(?:from|starting|beginning|as of)\s+(?:next\b|the week\b|this coming\b|\d{1,2}[/.]\d{1,2}\b|"
    r"\d{4}-\d{2}-\d{2}\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|the \d)",
    re.IGNORECASE,
)


def every_such_day(text: str, m: re.Match[str]) -> bool:
    """The weekday `m` found in `text` names every such day (or is dated already), never one date:
    the one test both the rewrite (`resolve`) and the check of what is left (`unresolved`) ask."""
    after = text[m.end("day") + len(m["tail"] or "") :]
    return bool(
        (m["tail"] and m["tail"].lower() == "s")  # "on Mondays"
        or (not m["mod"] and in_weekday_list(text, m.start("day"), m.end("day") + len(m["tail"] or "")))
        or (not m["mod"] and (_ASSIGNED.search(text[: m.start("day")]) or _STARTS_AFTER.match(after)))
        or _ISO_AFTER.match(after)  # "Thursday 2026-02-26": dated already
        or _EVERY.search(text[: m.start("day")])
        or (not m["mod"] and standing(_sentence_of(text, m.start("day"))))  # a standing rule's weekday
        or (m["part"] and text[m.end() : m.end() + 1].lower() == "s")  # "on Sunday afternoons"
    )


def _named(day: date, text: str, m: re.Match[str]) -> str:
    if every_such_day(text, m):
        return m.group(0)
    weekday = WEEKDAYS.index(m["day"].lower())
    when = _weekday_date(day, weekday, m["mod"] or "", _sentence_of(text, m.start("day")))
    name = m["day"][0].upper() + m["day"][1:].lower()
    part = m["part"] or ""
    poss = "'s" if m["tail"] else ""
    return (m["prep"] or "") + f"{name} {when.isoformat()}{poss}{part}"


def _keep_case(replace: Callable[[re.Match[str]], str]) -> Callable[[re.Match[str]], str]:
    """A replacement that starts with a capital where the words it replaces did (a sentence's start)."""

    def wrapped(m: re.Match[str]) -> str:
        out = replace(m)
        return out[:1].upper() + out[1:] if m.group(0)[:1].isupper() and out else out

    return wrapped


def unresolved(text: str) -> str | None:
    """The first relative time expression left in `text` (a weekday without its date included)."""
    for pattern in _UNRESOLVED:
        match = pattern.search(text)
        if match:
            return match.group(0)
    for match in _NAMED.finditer(text):
        if not every_such_day(text, match):
            return match.group("day")
    return None
