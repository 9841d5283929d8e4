"""What a line is about, read from how it is written (pure): the words before its value.

People who keep notes write a standing fact as a key and a value: "Treasurer: Linda Marsh",
"Öffnungszeiten (Winter): Di–Fr 10–18 Uhr", "Seminario de grupo: **martes 10:00**", "bins THURS -
black + brown …", "Full wedding gallery within 6 weeks". When the fact changes, the newer line names
the same key with another value, often in a summary written to bring the list up to date:
"Treasurer: **Anthony Reyes** (elected 10/6)", "Öffnungszeiten ab Mo 13.04.: Mo 13–18:30 …",
"Seminario → miércoles 9:30", "bins TUESDAY now (not thurs)". The key is the same few words in
every language, so reading it needs no word list of ours: the words before a separator (":", "=",
"→", " - "), or, without one, the first content words before the first value (a number, a time, an
amount, a weekday or a month in the line's language, CLDR's names through Babel). Stop words are
the line's own language's (languages.py); parentheses are asides, never the key.

Two lines share a key when the shorter key's words are (mostly) in the longer one, a word matching
another when one starts the other ("babysits" / "babysitter": the first five letters). The subject
judge (versions.py) reads it as one more sign that a newer line is another version of an older one.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

#: Most words a key holds: a longer run before a separator is a sentence, not a key.
MAX_KEY_WORDS = 4
_MARKUP = re.compile(r"^\s*(?:[-*+>]\s+|\d+[.)]\s+)*(?:\[[ xX]\]\s*)?")
_TIMESTAMP = re.compile(r"^(?:\d{1,2}:\d{2}\s*(?:[ap]m)?\s*(?:[-–—:|]\s*)?)", re.IGNORECASE)
#: The speaker a promoted turn is copied with ("Jess said: …", "The user said: …"): no key of the fact.
_SAID = re.compile(r"^[^:]{1,40}? said:\s+")
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`")
#: A separator between a key and its value: a colon that is no clock ("10:00"), an arrow, "=", a dash
#: between spaces.
_SEPARATOR = re.compile(r":(?=\s|$)|(?<!\d):(?!\d)|→|->|⇒|=>|(?<!\S)=(?!\S)|\s[-–—]\s")
_TOKEN = re.compile(r"[^\s,;.!?]+")
_WORD = re.compile(r"[^\W\d_][^\W_]*(?:['’-][^\W\d_]+)*", re.UNICODE)
_VALUE = re.compile(r"[-+~≈≤≥<>]?[\d$€£¥%]")


@dataclass(frozen=True)
class Key:
    """The words a line's subject is named by, and whether it was written as "key: value"."""

    words: tuple[str, ...]
    explicit: bool


@cache
def _calendar_words() -> frozenset[str]:
    """Weekday and month names, wide and abbreviated, in every language dreaming reads dates in."""
    from babel import Locale

    from memgit.dream.reltime_intl import CODES

    out: set[str] = set()
    for code in ("en", *CODES.values()):
        locale = Locale(code)
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                out.update(n.lower().rstrip(".") for n in dict(locale.days[context][width]).values())
                out.update(n.lower().rstrip(".") for n in dict(locale.months[context][width]).values())
    return frozenset(w for w in out if len(w) >= 3)


@cache
def _short_days() -> frozenset[str]:
    """Two-letter weekday abbreviations ("Di", "Do", "Sa"): read as one only when capitalised."""
    from babel import Locale

    from memgit.dream.reltime_intl import CODES

    out: set[str] = set()
    for code in CODES.values():
        for context in ("format", "stand-alone"):
            for width in ("abbreviated", "short"):
                out.update(
                    n.rstrip(".") for n in dict(Locale(code).days[context][width]).values() if len(n.rstrip(".")) == 2
                )
    return frozenset(out)


def _calendar(part: str, raw: str) -> bool:
    """A weekday or month name, abbreviated ("THURS", "tue", "Di") or plural ("montags")."""
    calendar = _calendar_words()
    if part in calendar or part.rstrip("s") in calendar:
        return True
    if len(part) == 2:
        return raw in _short_days()
    return 3 <= len(part) <= 5 and any(word.startswith(part) for word in calendar if len(word) > 5)


def _is_value(token: str) -> bool:
    """A value a key is given: a number, an amount, a weekday or month, alone or in a list
    ("tue+thu", "Di–Fr"). A word with digits inside ("v1.0", "R6") names something, it is no value."""
    bare = token.strip("*_`()[]\"'“”„«»").rstrip(".:,")
    if not bare or _VALUE.match(bare):
        return True
    parts = [p for p in re.split(r"[+/&–—-]", bare) if p]
    return bool(parts) and all(_calendar(p.lower(), p) for p in parts)


def key_of(text: str) -> Key | None:
    """The key of a line (see the module's docstring), or None when it names none."""
    body = _SAID.sub("", _MARKUP.sub("", text.strip()))
    body = _TIMESTAMP.sub("", body)
    body = _EMPHASIS.sub("", body)
    body = _ASIDE.sub(" ", body)
    stop = _stop_words()
    separator = _SEPARATOR.search(body)
    if separator is not None:
        before = body[: separator.start()]
        tokens = _TOKEN.findall(before)
        # the words before a value the key is given a qualifier in ("Öffnungszeiten ab Mo 13.04.:")
        named = list(itertools.takewhile(lambda t: not _is_value(t), before.split()))
        if len(named) < len(before.split()) and len(named) >= 2 and named[-1].isalpha() and named[-1].islower():
            named.pop()  # the word that leads to the value: "ab", "from", "desde"
        words = [w.lower() for t in named for w in _WORD.findall(t) if w.lower() not in stop]
        if words and len(tokens) <= MAX_KEY_WORDS + 2:
            return Key(tuple(words[:MAX_KEY_WORDS]), True)
    words = []
    for token in _TOKEN.findall(re.split(r"[.;!?]\s", body, maxsplit=1)[0]):
        if _is_value(token):
            break
        words += [w.lower() for w in _WORD.findall(token) if w.lower() not in stop]
        if len(words) >= MAX_KEY_WORDS:
            break
    return Key(tuple(words[:MAX_KEY_WORDS]), False) if words else None


@cache
def _stop_words() -> frozenset[str]:
    """Function words of every language dates are read in (a key is too short to tell its language);
    for English memgit's short list (the package's long English list holds "half", "full", "keys")."""
    from memgit.core.text import STOP_WORDS
    from memgit.dream.languages import stop_list
    from memgit.dream.reltime_intl import CODES

    return STOP_WORDS.union(*(stop_list(name) for name in CODES))


def _match(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return (len(short) >= 4 and long.startswith(short)) or (len(short) >= 5 and long[:5] == short[:5])


def shared_words(a: Key, b: Key) -> int:
    """How many of the shorter key's words the other key holds."""
    short, long = sorted((a.words, b.words), key=len)
    return sum(1 for w in short if any(_match(w, v) for v in long))


def same_key(a: Key | None, b: Key | None) -> bool:
    """Two lines name one key: at least half the shorter key's words, and its first, are in the
    other; and both are written as "key: value", or two words of the key are shared ("Sneak peek
    within 48 hrs" / "**Sneak peek: within 72 hrs**"). One word shared by two sentences ("Priya tags
    (signed)" / "Priya merged #244 …") is a name they share, not a key."""
    if a is None or b is None:
        return False
    short, long = sorted((a.words, b.words), key=len)
    found = shared_words(a, b)
    if not (found >= 1 and 2 * found >= len(short) and any(_match(short[0], v) for v in long)):
        return False
    return (a.explicit and b.explicit) or found >= 2


def same_label(a: Key | None, b: Key | None) -> bool:
    """Two lines written as "key: value" under one label, word for word ("Treasurer: Linda Marsh" /
    "Treasurer: **Anthony Reyes** (elected 10/6)", "Leon (Azubi): Berufsschule montags" / "Leon:
    Berufsschule ab 23.03. …"): the only key strong enough to replace a line a person wrote. A label
    that only begins the other's ("Seahorse XFe96: calendario" / "Seahorse XFe96 FluxPak (…) →
    pedido"), or a key read from a sentence ("meter readings 1st of month" / "meter readings in the
    octopus app: elec 41872"), named a one-off about the same thing on the tuning half more often
    than a new version (7 of 11 such updates)."""
    if a is None or b is None or not (a.explicit and b.explicit) or len(a.words) != len(b.words):
        return False
    return shared_words(a, b) == len(a.words)


#: A capitalised word that does not open a sentence: a name, in any language that capitalises them.
_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)(?<![\w-])[A-ZÀ-Þ][\w-]+", re.UNICODE)


def names_in(text: str) -> frozenset[str]:
    """The names a line gives (capitalised words inside its sentences, markup aside)."""
    body = _EMPHASIS.sub("", _MARKUP.sub("", text.strip()))
    return frozenset(w.lower() for w in _NAME.findall(body))


def one_subject(newer: str, older: str) -> bool:
    """Two lines may be versions of one fact by how they are written: they name one key, share a
    word of their keys, or a name in common. A "may conflict" line between two lines that share neither joins unrelated facts
    (a seminar's weekday and a loan of an instrument on a Tuesday)."""
    a, b = key_of(newer), key_of(older)
    shared = a is not None and b is not None and shared_words(a, b) >= 1  # "watering" / "watered"
    return same_key(a, b) or shared or bool(names_in(newer) & names_in(older))
