"""One subject, one entry (pure): what a fact is about, and whether two facts are about the same thing.

A fact's subject is its names (people, projects, `#tags`, a speaker) and its key words (stemmed
content words: "owns", "owner" and "owned" are one), never its first word: "Dana wants a written
go/no-go checklist" and "Dana confirmed the go/no-go meeting is on 2026-03-19" share a first word
and a name but not a subject; "Priya owns the Kestrel ledger migration" and "Jonas Weber joins as
the new ledger owner" share no name but are one subject (who owns the ledger). Values (times,
dates, numbers) are what changes between versions of a fact, so they are never part of it.

Two facts share a subject when their heads (the key words before the first verb) meet and they
give the same kind of value (a time, a weekday, a date, a frequency …: "weekly planning is on
Tuesdays at 11:00" / "planning goes back to Tuesdays, now at 14:00"), or when half or more of the key words of the one with fewer are in the
other and, when both name someone, they name someone in common or one of them says that something
changed hands ("joins as the new owner"); a name one side uses as a plain word ("standup" /
"Standup") counts as a name on both.
Whether a shared subject makes an update is then a question of meaning (deep.py: cosine with a
model, term overlap without).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memgit.core.text import STOP_WORDS
from memgit.dream.concepts import FILLER, NOT_CONCEPTS, plain
from memgit.dream.reltime import MONTHS, WEEKDAYS

_SPEAKER_SAID = re.compile(r"^(?P<name>[^:]{1,40}?) said:\s*")
_TOKEN = re.compile(r"#[\w-]+|\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|[\w'’/-]+", re.UNICODE)
_VALUE = re.compile(r"^(?:\d[\d.,:%/-]*|\d{4}-\d{2}-\d{2})$")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\s[-–—]\s+)$")
_SUFFIXES = ("ings", "ing", "ers", "er", "ies", "ied", "es", "ed", "s")
COVER = 0.5
_CALENDAR = frozenset(WEEKDAYS) | {m.lower() for m in MONTHS}
#: Words that say something changed hands or value ("joins as the new owner", "takes over"): only
#: then is a fact naming other people than an older one about the same thing a newer version of it.
#: Without one, "Marco owns the billing migration" is another fact beside "Priya owns the ledger
#: migration", not its update.
_CHANGE = re.compile(
    r"\b(?:new|now|no longer|anymore|instead|joins? as|joined as|takes? over|took over|hand(?:s|ed)? over|"
    r"handover|replac(?:es|ed|ing)|successor|switch(?:es|ed)|chang(?:es|ed)|mov(?:es|ed) to|from now on|as of)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Subject:
    names: frozenset[str]
    topics: frozenset[str]
    change: bool = False  # the fact says that something changed (hands, value)
    head: frozenset[str] = frozenset()  # key words before the first verb: what the sentence is about
    values: frozenset[str] = frozenset()  # the kinds of value it gives: time, weekday, date, frequency …

    @property
    def empty(self) -> bool:
        return not self.names and not self.topics


def stem(word: str) -> str:
    """A crude English stem, enough to make "owns", "owner", "owned" one key word."""
    word = word.lower().strip("'’")
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                word += "y"
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


@lru_cache(maxsize=8192)
def subject_of(text: str) -> Subject:
    """The names and key words of a fact (its values left out). Cached: the version and subject
    judges ask of every pair of a night's lines, so of each line many times."""
    body = plain(text)
    names: set[str] = set()
    said = _SPEAKER_SAID.match(body)
    if said:
        names.add(said["name"].strip().lower())
        body = body[said.end() :]
    topics: set[str] = set()
    for match in _TOKEN.finditer(body):
        token = match.group(0).strip("'’/-")
        if not token:
            continue
        lowered = token.lower()
        if token.startswith("#"):
            names.add(lowered)
            continue
        if _VALUE.match(token) or lowered in _CALENDAR:
            continue
        for part in lowered.replace("’", "'").split("/"):
            part = part.split("'")[0]
            if len(part) < 3 or part in STOP_WORDS or part in NOT_CONCEPTS or part.isdigit():
                continue
            initial = _SENTENCE_START.search(body[: match.start()]) is not None
            capital = token[:1].isupper() and not token.isupper()
            if capital and (not initial or part not in _COMMON_STARTS):
                names.add(part)
            else:
                topics.add(stem(part))
    return Subject(
        frozenset(names),
        frozenset(topics - {stem(n) for n in names}),
        _CHANGE.search(body) is not None,
        _head(body),
        value_kinds(body),
    )


def _head(body: str) -> frozenset[str]:
    """The key words before the sentence's first verb, preposition or value (its grammatical
    subject, near enough): "Osprey cutover date" in "Osprey cutover date is fixed for …"."""
    return frozenset(stem(token.lower().strip("'’")) for token in _head_tokens(body))


def _head_tokens(body: str) -> list[str]:
    """The head's words as the text spells them."""
    out: list[str] = []
    stems: set[str] = set()
    for token in _TOKEN.findall(body):
        lowered = token.lower().strip("'’")
        if (
            lowered in _HEAD_STOPS
            or _VALUE.match(token)
            or lowered in _CALENDAR
            or (stems and len(lowered) > 4 and lowered.endswith("ed"))
        ):
            if stems:
                break
            continue
        if lowered in STOP_WORDS or lowered in NOT_CONCEPTS:
            continue
        out.append(token.strip("'’"))
        stems.add(stem(lowered))
        if len(stems) >= 4:
            break
    return out


def speaker_of(text: str) -> str | None:
    """The speaker of a promoted transcript turn ("Jon said: …"), or None."""
    said = _SPEAKER_SAID.match(plain(text))
    return said["name"].strip() if said else None


def title_of(text: str) -> str | None:
    """What a reader would head a group of facts like this one with: a transcript's speaker ("Jon
    said: …" goes under Jon); else the name the sentence's subject starts with ("Osprey" for "The
    Osprey cluster runs …", "Ana Ruiz"); else the subject as the text spells it ("ETL job" for "The
    ETL job failed again at 02:13", "Platform standup", "Claire" for "Claire maintains the …"); else
    the first name it gives. None when it names nothing a heading could hold."""
    body = plain(text)
    speaker = speaker_of(body)
    if speaker:
        return speaker
    label = re.match(r"^(\w+)\s*:\s+(?=\S)", body)
    if label and label.group(1).lower() in _COMMON_STARTS | FILLER:
        body = body[label.end() :]  # "Decision: we keep Postgres": the label is no subject
    words = _title_words(body)
    run = _name_run(body, words)
    if run:
        return run
    if words:
        title = " ".join(words[:3])
        return title[:1].upper() + title[1:]
    for match in _TOKEN.finditer(body):
        token = match.group(0).strip("'’/-")
        lowered = token.lower()
        if (
            token[:1].isupper()
            and not token.isupper()
            and lowered not in STOP_WORDS
            and lowered not in NOT_CONCEPTS
            and lowered not in _CALENDAR
            and lowered not in _COMMON_STARTS
            and lowered not in FILLER
        ):
            return token
    return None


_DETERMINER = re.compile(
    r"^\W*(?:the|a|an|every|each|all|our|their|his|her|its|this|that|these|those|no|some|any)\b", re.IGNORECASE
)


def _title_words(body: str) -> list[str]:
    """The head's words for a heading: filler out, and cut before a verb the head ran into (a
    lower-case word followed by a determiner: "maintains the", "wants every")."""
    out: list[str] = []
    at = 0
    for token in _head_tokens(body):
        found = body.find(token, at)
        at = found + len(token) if found >= 0 else at
        if token.islower() and out and found >= 0 and _DETERMINER.match(body[at:]):
            break
        if token.lower() not in FILLER and not token.startswith("#"):
            out.append(token)
    if len(out) == 1 and out[0].islower() and out[0].endswith("ed"):
        return []  # the verb, when the sentence starts elsewhere: "In 2024 we moved to Lisbon"
    return out


def _name_run(body: str, words: list[str]) -> str | None:
    """The first run of capitalised words of the head when it is surely a name: not just the
    sentence's first word ("Support hours"), but a word in the middle ("The Osprey cluster"), a
    mixed-case word ("ClickHouse") or two capitalised words ("Ana Ruiz")."""
    run: list[str] = []
    at = 0
    for word in words:
        found = body.find(word, at)
        adjacent = not run or (found >= 0 and not body[at:found].strip())
        at = found + len(word) if found >= 0 else at
        capital = word[:1].isupper() and not word.isupper() and word.lower() not in _COMMON_STARTS
        if capital and adjacent and not (run and any(ch.isupper() for ch in word[1:])):
            run.append(word)  # "Ana Ruiz"; "Osprey ClickHouse" stops at the product name
        elif run:
            break
    if not run:
        return None
    first = body.find(run[0])
    initial = _SENTENCE_START.search(body[:first]) is not None if first >= 0 else True
    camel = any(any(ch.isupper() for ch in word[1:]) for word in run)
    if not initial or camel or len(run) >= 2:
        return " ".join(run)
    return None


def title_stems(title: str) -> frozenset[str]:
    """A group heading's words, stemmed (to match a fact's subject against an existing heading)."""
    return frozenset(stem(t.lower()) for t in _TOKEN.findall(title) if t.lower() not in STOP_WORDS)


_NUMBERS = re.compile(r"\d[\d:.,/%-]*\d|\d")


def values_of(text: str) -> frozenset[str]:
    """The numbers, times and dates a fact gives: two texts with the same words and other values are
    two versions of a fact (an update), not a duplicate."""
    return frozenset(_NUMBERS.findall(text))


def value_kinds(text: str) -> frozenset[str]:
    """Which kinds of value a fact gives (what changes between its versions)."""
    return frozenset(kind for kind, pattern in _VALUE_KINDS if pattern.search(text))


#: Where a sentence's subject ends: auxiliaries, common verbs, prepositions.
_HEAD_STOPS = frozenset(
    """is are was were be been will would shall should can could may might must has have had does did do goes go
    moves move runs run owns own leads lead takes take joins join wants want prefers prefer needs need requires
    require uses use lives live works work starts start stays stay keeps keep reads read writes write retries
    hands handed passes passed handles handled coordinates manages expects asks likes answers approves inherited
    picked took taken gets looks babysits swims reversed switched changed
    set sets gets get says said at on in to from for with by of every per after before since until than as into
    over under about during within without via stays happens happen becomes become""".split()
)
_VALUE_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("time", re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|\bnoon\b|\bmidnight\b", re.IGNORECASE)),
    ("weekday", re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.IGNORECASE)),
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b(?:" + "|".join(MONTHS) + r")\b")),
    (
        "frequency",
        re.compile(
            r"\b(?:hourly|daily|weekly|monthly|yearly|annually|nightly|every|per|once a|twice a)\b", re.IGNORECASE
        ),
    ),
    ("percent", re.compile(r"\d\s?%|\bpercent\b", re.IGNORECASE)),
    ("money", re.compile(r"[$€£]\s?\d|\b\d+(?:\.\d+)?\s?(?:usd|eur|gbp|dollars|euros)\b", re.IGNORECASE)),
)
#: Capitalised only because they open a sentence.
_COMMON_STARTS = frozenset(
    """decided decision agreed note notes todo reminder update status plan done fixed added removed moved
    deployed shipped released merged switched started finished today tomorrow yesterday""".split()
)


def same_subject(a: Subject, b: Subject) -> bool:
    """Whether two facts are about the same thing (see the module's docstring)."""
    if a.empty or b.empty:
        return False
    all_names = a.names | b.names
    names_a = a.names | {t for t in a.topics if t in all_names}
    names_b = b.names | {t for t in b.topics if t in all_names}
    topics_a = {t for t in a.topics if t not in all_names and t not in {stem(n) for n in all_names}}
    topics_b = {t for t in b.topics if t not in all_names and t not in {stem(n) for n in all_names}}
    shared_names = names_a & names_b
    if topics_a and topics_b:
        cover = len(topics_a & topics_b) / min(len(topics_a), len(topics_b))
    else:
        cover = 1.0 if shared_names and not (topics_a or topics_b) else 0.0
    if a.head & b.head and a.values & b.values and (shared_names or topics_a & topics_b):
        return True  # the same thing given the same kind of value: "planning is at 11:00" / "at 14:00"
    if shared_names:
        return cover >= COVER or not topics_a or not topics_b
    if names_a and names_b and not (a.change or b.change):
        return False  # different people doing the same thing: two facts
    if a.head and b.head and not a.head & b.head:
        # Different sentence subjects: what they share must be beyond them ("Redshift is switched off
        # after the cutover" is not about "the cutover date").
        heads = a.head | b.head
        topics_a, topics_b = topics_a - heads, topics_b - heads
        if not topics_a or not topics_b:
            return False
        cover = len(topics_a & topics_b) / min(len(topics_a), len(topics_b))
    return cover >= COVER and len(topics_a & topics_b) >= 1
