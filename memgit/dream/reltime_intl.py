"""Relative dates in other languages than English (pure, after one cached load of CLDR's words).

`reltime.py` resolves English ("today", "next week", "on Saturday"); a workspace written in German,
French, Spanish, Italian, Portuguese or Dutch says "morgen", "la semana pasada", "mardi prochain".
The words are CLDR's (through Babel: each language's relative day, week, month and year fields,
its "next Tuesday" forms, "in 3 days" / "3 days ago" patterns, and its weekday names), so no word
list of ours decides them. A copy keeps the language it was written in: the relative words stay
and the date they name follows in brackets ("morgen (2026-03-05)", "la semana pasada
(2026-03-02–2026-03-08)"), which is certain and translates nothing.

A weekday alone ("am Montag", "el lunes") may be a one-off or every week's, and only the sentence
knows: it is never given a date. It stands as written when something says it recurs (a plural or
adverb form, "montags", "los lunes"; a list or range, "Di–Do", "dienstags bis donnerstags"; an
"every" word, "jeden zweiten Samstag", "cada martes"; the sentence's own standing words, "immer",
"siempre"; or its date beside it, "Montag, 9. März"), and otherwise the line needs its log
(`unresolved_intl`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache

from memgit.dream.languages import language_of

#: The languages read, by the stop-word detector's names (languages.py) -> CLDR's codes.
CODES = {"german": "de", "french": "fr", "spanish": "es", "italian": "it", "portuguese": "pt", "dutch": "nl"}
_NUMBER = r"(\d{1,3})"
#: Words that make a weekday every week's, by language (after CLDR's names, the only list of ours).
_EVERY = {
    "de": r"jeden|jede|jedes|jeweils|alle|immer|regelmäßig|wöchentlich|ab sofort|ab jetzt|künftig|normalerweise"
    r"|grundsätzlich|nie|niemals|bis auf weiteres|meistens",
    "fr": r"chaque|tous les|toutes les|toujours|hebdomadaire|désormais|normalement|jamais|d['’]habitude",
    "es": r"cada|todos los|todas las|siempre|semanal|normalmente|nunca|de ahora en adelante",
    "it": r"ogni|tutti i|tutte le|sempre|settimanale|di solito|mai|d['’]ora in poi",
    "pt": r"cada|todos os|todas as|sempre|semanal|normalmente|nunca|de agora em diante",
    "nl": r"elke|iedere|altijd|wekelijks|normaal|nooit|voortaan",
}
#: Before a weekday, what makes it the plural, every week's: "los lunes", "aos sábados", "les lundis".
_PLURAL_BEFORE = {"es": r"los", "pt": r"aos|às|nas|nos", "fr": r"les", "it": r"ogni"}
#: Between two weekdays of a list or a range ("Di–Do", "dienstags bis donnerstags", "de lunes a viernes").
_JOIN = r"\s*(?:[+&,/–—-]|\b(?:und|bis|oder|et|au|à|ou|y|a|hasta|e|o|al|fino a|en|tot|of)\b)\s*"


@dataclass(frozen=True)
class Lexicon:
    code: str
    #: (pattern, unit, offset): "morgen" -> ("day", 1); "nächste Woche" -> ("week", 1)
    relative: tuple[tuple[re.Pattern[str], str, int], ...]
    #: (pattern, weekday, offset): "nächsten Dienstag" -> (1, 1)
    weekday_relative: tuple[tuple[re.Pattern[str], int, int], ...]
    #: (pattern with one number group, unit, sign): "vor 3 Tagen" -> ("day", -1)
    counted: tuple[tuple[re.Pattern[str], str, int], ...]
    weekdays: re.Pattern[str]
    every: re.Pattern[str]


def _phrase(text: str) -> str:
    """A CLDR phrase as a pattern: its words as written, an adjective's ending free ("nächste Woche"
    also reads "nächster Woche", "nächsten Woche"), apostrophes either way."""
    out = []
    for word in text.split():
        if word == "{0}":
            out.append(_NUMBER)
            continue
        escaped = re.sub(r"['’]", "\x00", re.escape(word)).replace("\x00", "['’]")
        if len(word) >= 5 and word[-1] in "enrs" and word[:1].islower():
            stem = re.escape(word.rstrip("nrs").rstrip("e")) if len(word.rstrip("nrs").rstrip("e")) >= 4 else None
            if stem:
                escaped = stem + r"(?:e|en|er|es|em|n|r|s)?"  # "demain" keeps its own ending
        out.append(escaped)
    return r"\s+".join(out)


def _compile(pattern: str, cased: bool = False) -> re.Pattern[str]:
    flags = re.UNICODE if cased else re.IGNORECASE | re.UNICODE
    return re.compile(r"(?<![\w])" + pattern + r"(?![\w])", flags)


@cache
def lexicon(code: str) -> Lexicon:
    from babel import Locale

    locale = Locale(code)
    fields = locale._data["date_fields"]
    relative: list[tuple[re.Pattern[str], str, int]] = []
    for unit, field in (("day", "day"), ("week", "week"), ("month", "month"), ("year", "year")):
        for offset, text in dict(fields[field]["relative"]).items():
            # "morgen" (tomorrow) is also "Morgen" (morning): German day words only as written.
            cased = code == "de" and unit == "day"
            relative.append((_compile(_phrase(text), cased), unit, int(offset)))
    relative.sort(key=lambda item: -len(item[0].pattern))
    weekday_relative = []
    for index, key in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun")):
        for offset, text in dict(fields[key]["relative"]).items():
            weekday_relative.append((_compile(_phrase(text)), index, int(offset)))
    counted = []
    for unit in ("day", "week"):
        for sign, kind in ((1, "future"), (-1, "past")):
            for text in set(dict(fields[unit][kind]).values()):
                counted.append((_compile(_phrase(text)), unit, sign))
    names: set[str] = set()
    for width in ("wide", "abbreviated"):
        for context in ("format", "stand-alone"):
            names.update(n.lower().rstrip(".") for n in dict(locale.days[context][width]).values())
    names = {n for n in names if len(n) >= 2}
    plural = r"(?:s|en)?"  # "montags", "lundis"; Spanish and Portuguese plurals are the same word
    weekdays = re.compile(
        r"(?<![\w])(?P<day>" + "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True)) + r")"
        r"(?P<tail>" + plural + r")\.?(?![\w])",
        re.IGNORECASE | re.UNICODE,
    )
    every = re.compile(r"(?<![\w])(?:" + _EVERY[code] + r")(?![\w])", re.IGNORECASE | re.UNICODE)
    return Lexicon(code, tuple(relative), tuple(weekday_relative), tuple(counted), weekdays, every)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _named(unit: str, when: date) -> str:
    if unit == "week":
        monday = _monday(when)
        return f"{monday.isoformat()}–{(monday + timedelta(days=6)).isoformat()}"
    if unit == "month":
        return f"{when.year}-{when.month:02d}"
    if unit == "year":
        return str(when.year)
    return when.isoformat()


def _shift(day: date, unit: str, n: int) -> date:
    if unit == "day":
        return day + timedelta(days=n)
    if unit == "week":
        return day + timedelta(weeks=n)
    if unit == "month":
        index = day.year * 12 + day.month - 1 + n
        return date(index // 12, index % 12 + 1, 1)
    return date(day.year + n, 1, 1)


def _dated_already(text: str, end: int) -> bool:
    return re.match(r"\s*\(\d{4}-\d{2}", text[end:]) is not None


def _mentions(text: str, lex: Lexicon, day: date) -> list[tuple[int, int, str]]:
    """(start, end, the date it names) of each relative expression, longest first, not overlapping."""
    found: list[tuple[int, int, str]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e, _ in found)

    for pattern, weekday, offset in lex.weekday_relative:
        for m in pattern.finditer(text):
            when = _monday(day) + timedelta(days=weekday + 7 * offset)
            if free(m.start(), m.end()):
                found.append((m.start(), m.end(), when.isoformat()))
    for pattern, unit, sign in lex.counted:
        for m in pattern.finditer(text):
            if free(m.start(), m.end()):
                found.append((m.start(), m.end(), _named(unit, _shift(day, unit, sign * int(m.group(1))))))
    for pattern, unit, offset in lex.relative:
        for m in pattern.finditer(text):
            if free(m.start(), m.end()) and not _morning(text, m.start(), lex.code):
                found.append((m.start(), m.end(), _named(unit, _shift(day, unit, offset))))
    return sorted(found)


def _morning(text: str, at: int, code: str) -> bool:
    """Spanish "mañana" after an article or a demonstrative is the morning, not tomorrow."""
    return code == "es" and re.search(r"(?:\b(?:la|esta|cada|una|por la|de la)\s+)$", text[:at], re.I) is not None


#: English words for the day a note was written and the next; "from today" starts a change that lasts.
_ITS_DAY_EN = re.compile(
    r"(?<!from )(?<!since )(?<!starting )\b(?:today|tonight|tomorrow|this (?:morning|afternoon|evening))\b", re.I
)


_ASIDE = re.compile(r"\([^()]*\)")


def tells_of_its_day(text: str) -> bool:
    """The line names the day it was written or the next one ("today", "heute", "hoy", "oggi",
    "tomorrow", "morgen", "mañana"): the news of its day or a plan for the next, which a log tells
    and long-term memory does not keep. CLDR's words for the relative days 0 and 1 in the line's
    language (Babel), English's own; an aside in brackets ("Jana (trial day today, very good): starts
    Tue 17.03.") tells none. On the tuning cases' daily logs and turns such lines were 106 transient,
    questions or chatter to 10 durable (German 25 to 1, Spanish 23 to 4, English 58 to 5)."""
    text = _ASIDE.sub(" ", text) if not text.strip().startswith("(") else text  # an aside tells no news
    if _ITS_DAY_EN.search(text):
        return True
    # every language's words, not only the line's: a short line's language is a guess, and these
    # words mean the same day wherever they stand
    return any(
        unit == "day" and offset in (0, 1) and not _morning(text, m.start(), code)
        for code in CODES.values()
        for pattern, unit, offset in lexicon(code).relative
        for m in pattern.finditer(text)
    )


def language_code(text: str) -> str | None:
    return CODES.get(language_of(text))


def resolve_intl(text: str, day: date) -> str:
    """`text` with each relative date of its language followed by the date it names, in brackets."""
    code = language_code(text)
    if code is None:
        return text
    out, at = [], 0
    for _start, end, named in _mentions(text, lexicon(code), day):
        if _dated_already(text, end):
            continue
        out += [text[at:end], f" ({named})"]
        at = end
    return "".join(out) + text[at:]


def unresolved_intl(text: str) -> str | None:
    """The first relative date of the text's language left without its date, or a weekday alone
    that nothing says is every week's (see the module's docstring); None for English text."""
    code = language_code(text)
    if code is None:
        return None
    lex = lexicon(code)
    for start, end, _ in _mentions(text, lex, date(2000, 1, 3)):
        if not _dated_already(text, end):
            return text[start:end]
    days = list(lex.weekdays.finditer(text))
    for m in days:
        if _recurring(text, m, days, lex):
            continue
        return m.group(0)
    return None


def _recurring(text: str, m: re.Match[str], days: list[re.Match[str]], lex: Lexicon) -> bool:
    if m["tail"] and m["tail"].lower() == "s" and lex.code in ("de", "fr"):
        return True  # "montags", "les lundis"
    plural = _PLURAL_BEFORE.get(lex.code)
    if plural and re.search(r"(?<![\w])(?:" + plural + r")\s+$", text[: m.start()], re.IGNORECASE):
        return True  # "los lunes", "aos sábados"
    near = [d for d in days if d is not m and min(abs(d.start() - m.end()), abs(m.start() - d.end())) <= 16]
    for other in near:
        between = text[min(m.end(), other.end()) : max(m.start(), other.start())]
        if re.fullmatch(_JOIN, between, re.IGNORECASE):
            return True  # a list or a range of weekdays
    if re.match(r"\W{0,3}\d{1,2}[./ ]", text[m.end() :]):
        return True  # its date beside it: "Montag, 9. März", "lunes 9 de marzo"
    sentence_start = max(text.rfind(".", 0, m.start()), text.rfind(";", 0, m.start()), text.rfind("!", 0, m.start()))
    sentence = text[sentence_start + 1 :]
    end = re.search(r"[.;!?]", sentence)
    sentence = sentence[: end.start()] if end else sentence
    if lex.every.search(sentence):
        return True
    # A weekday opening its sentence names that day of every week ("Montag zu", "Lunes: cerrado").
    return not text[sentence_start + 1 : m.start()].strip(" -*:\t")
