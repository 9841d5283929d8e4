"""Facts that change (pure): is a newer fact another version of an older one?

Word lists cannot decide it (two wordings of one fact share few words; two facts share many), so
the decision weighs what the sentences mean, with four checks beside it:

* meaning: the cosine of the two texts' embeddings (the model memgit ships), or term overlap
  without a model;
* the slot the fact fills: an owner or role, a time or weekday, a date or deadline, a place, a
  preference, a count or amount. Two versions of one fact fill the same slot with another value;
  facts that fill no common slot are never versions of each other;
* the people named: facts about different people are different facts, except that an owner
  changing hands names a new person by its nature;
* change words in the newer text ("took over", "moved to", "pushed back", "raised to", "now",
  "instead", "no longer") and the order of the sources (only a later source updates).

The verdict is `update` (clear enough to replace the old entry), `conflict` (close enough that a
reviewer should look: the proposal says "may conflict with" and names the command that makes it an
update), or None. Thresholds are in `VersionThresholds`, calibrated on the tuning domains of
tests/dream/cases (docs/DREAMING.md gives the figures).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memgit.dream.keys import key_of, one_subject, same_label
from memgit.dream.subjects import stem, subject_of, values_of

UPDATE = "update"
CONFLICT = "conflict"

_SLOTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "owner",
        re.compile(
            r"\b(?:own(?:s|er|ership)?|lead(?:s|er)?|manag(?:es|er|ed)|in charge|responsible|handl(?:es|ed)|"
            r"coordinat(?:es|or|ed)|runs?|answers|belongs to|duty|job|role|contact|approv(?:es|er)|looks after|"
            r"ordered by|managed by|run by|taken on|taking on|picked up|inherited|passed to|took over|takes over)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "time",
        re.compile(
            r"\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|\bnoon\b|\bmidnight\b|"
            r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:morning|afternoon|evening|night)s?\b|"
            r"\bhourly\b|\bevery \d+ (?:minutes|hours|days|weeks)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "date",
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
            r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}\b|\b\d{1,2}/\d{1,2}\b|"
            r"\b(?:due|deadline|launch|renew(?:s|al)?|starts?|opens?|begins?)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "place",
        re.compile(
            r"\b(?:in|at|to)\s+(?:the\s+)?(?:[A-Z][\w'-]+\s+)*(?:room|hall|office|library|studio|gym|pool|centre|"
            r"center|warehouse|unit|street|road|lane|building|floor|site|rack|lab|clinic)\b|"
            r"\b(?:where|located|lives|sits|held in|moved to the|goes? to|shipped to|address)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "preference",
        re.compile(
            r"\b(?:prefer(?:s|red|ence)?|likes?|wants?|rather|favou?rite|suits?|hates?|dislikes?|"
            r"asked to be|would like)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "amount",
        re.compile(
            r"[$€£]\s?\d|\b\d[\d,.]*\s?(?:%|percent|euros?|dollars?|pounds?|usd|eur|gbp|grams?|g|kg|km|pages?|"
            r"requests?|bpm|hours?|minutes?|days?|items?|people)\b|\b(?:cap(?:ped)?|limit|budget|target|"
            r"threshold|allowance|quota|maximum|minimum|goal)\b",
            re.IGNORECASE,
        ),
    ),
)

#: Words a log uses when a fact changes: with one, a lower similarity is enough for an update.
CHANGE = re.compile(
    r"\b(?:now|instead|no longer|anymore|any more|again|new|switch(?:ed|es)?|chang(?:ed|es)|moved?|moves|"
    r"shift(?:ed|s)?|slipp(?:ed|s)|push(?:ed|es)|postponed|brought forward|delayed|extended|once more|"
    r"rais(?:ed|es)|lower(?:ed|s)|increas(?:ed|es)|decreas(?:ed|es)|cut|went (?:up|down)|reduced|"
    r"took over|takes? over|taken on|taking on|picked up|inherited|hand(?:ed|s)? (?:over|to)|passed to|"
    r"replac(?:ed|es)|reversed|going forward|from now on|starting|as of|effective|updated|revised)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class VersionThresholds:
    """Cosine thresholds (embeddings) for a newer fact against an older one in the same slot."""

    update: float = 0.70  # an update with no change word
    update_with_change: float = 0.52  # an update when the newer text says something changed
    owner_change: float = 0.40  # a change word, and a role handed on or the same sentence subject
    conflict: float = 0.45  # below an update, a "may conflict with" line


#: Term-overlap thresholds (no model): overlap scores run lower than cosines.
TERM_THRESHOLDS = VersionThresholds(update=0.6, update_with_change=0.35, owner_change=0.3, conflict=0.3)


@lru_cache(maxsize=8192)
def slots_of(text: str) -> frozenset[str]:
    """The kinds of value a fact gives (see the module's docstring); cached, as `subject_of` is."""
    return frozenset(kind for kind, pattern in _SLOTS if pattern.search(text))


_NAME = re.compile(
    r"^(?:(?:Dr|Prof|Mr|Mrs|Ms)\.?\s+)?(?P<name>[A-ZÀ-Þ][\w-]+(?:\s+[A-ZÀ-Þ][\w-]+)+|[A-ZÀ-Þ][\w-]+(?=['’]s\b))"
)


def subject_name(text: str) -> str | None:
    """The person or thing a fact opens with, when it is surely a name: two capitalised words
    ("Felix Moreau prefers …") or a possessive ("Mia's swimming …"); a capitalised first word
    alone ("Finance raised …", "Retros happen …") is not one."""
    bare = text.strip().lstrip("-*+> ").strip()
    quoted = _SAYS.match(bare)  # "> Carol: Jess love …", "Priya: no new deps": who said it
    if quoted:
        return quoted["name"]
    match = _NAME.match(bare)
    return match["name"] if match else None


_SAYS = re.compile(r"^(?P<name>[A-ZÀ-Þ][\w-]+(?:\s+[A-ZÀ-Þ][\w-]+)?)(?:\s+said)?\s*:\s")


_WEEKDAY_OR_MONTH = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.IGNORECASE
)


def values(text: str) -> frozenset[str]:
    """What differs between two versions of a fact: numbers, times, weekdays, months, names."""
    found = {v.lower()[:3] for v in _WEEKDAY_OR_MONTH.findall(text)}
    return frozenset(values_of(text) | found | subject_of(text).names)


@lru_cache(maxsize=8192)
def _head_topic(text: str) -> frozenset[str]:
    """The sentence subject's words that are no name: "planning" of "Weekly planning is …"; nothing
    of "Grandpa Walter is …" (a person is not what changed)."""
    name = subject_name(text) or ""
    people = {stem(w) for w in name.lower().split()} | set(name.lower().split())
    return frozenset(subject_of(text).head - people)


def judge(newer: str, older: str, similarity: float, thresholds: VersionThresholds) -> str | None:
    """`update`, `conflict` or None for a newer fact against an older one (the caller checks the
    order of their sources). None also for a plain repeat (the same values, no change word): the
    duplicate rules judge those."""
    new_slots, old_slots = slots_of(newer), slots_of(older)
    shared = new_slots & old_slots
    changed = CHANGE.search(newer) is not None
    if not shared:
        # A newer version may name no slot ("X reversed course: a call again"): only with a change
        # word and a meaning this close.
        return UPDATE if changed and similarity >= thresholds.update and new_slots.isdisjoint(old_slots) else None
    who_new, who_old = subject_name(newer), subject_name(older)
    if who_new and who_old and who_new != who_old and "owner" not in shared:
        return None  # another person's preference, time or place: another fact
    heads_meet = bool(_head_topic(newer) & _head_topic(older))
    if changed and ("owner" in shared or heads_meet) and similarity >= thresholds.owner_change:
        return UPDATE  # a role handed on, or the same subject said to have changed ("Planning moves to …")
    if changed and similarity >= thresholds.update_with_change:
        return UPDATE
    if similarity >= thresholds.update:
        return UPDATE if values(newer) != values(older) else None
    if similarity >= thresholds.conflict and one_subject(newer, older):
        return CONFLICT
    return None


#: The least cosine a newer line naming an entry's key needs to be read as its next version.
KEY_COSINE = 0.5


def key_update(newer: str, older: str, similarity: float) -> bool:
    """A newer line names the same key as an older one and gives it a value the older does not
    ("Treasurer: Linda Marsh" / "Treasurer: **Anthony Reyes** (elected 10/6)", "Öffnungszeiten
    (Winter): Di–Fr 10–18 Uhr" / "Öffnungszeiten ab Mo 13.04.: Mo 13–18:30 …"), meaning close
    enough (`KEY_COSINE`): how people bring a standing fact up to date in any language (keys.py).
    Read for the entries of MEMORY.md, where a newer version left unseen leaves a stale fact."""
    if similarity < KEY_COSINE or not same_label(key_of(newer), key_of(older)):
        return False
    return bool(values(newer) - values(older))
