"""A case generator: labelled four-week workspaces from the domains of domains.py, seeded.

`build(domain, seed)` gives a `runner.Case` (the daily logs, each line's label, the questions asked
on each day and the dream nights) plus what the measures need beyond it: each line's heading and the
slot kind of each changing fact. Every seed draws other people, other wordings, other days, so a
rule that fits one wording and fails its paraphrase shows up as a failure on another seed.

The layout of a month: logs on six days a week (none on Sundays), one or two sections a day, a
section of its own for a fact under a person's heading; a changing fact's versions in separate
weeks; questions about a version asked on several days after it was written (until the next
version appears); transient lines asked about a few times too, as people do; dream nights on each
Sunday evening.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from tests.dream.cases.domains import DOMAINS, Domain, Fact
from tests.dream.cases.runner import LABELS, Case, Line

DAYS = 28
NIGHTS = (6, 13, 20, 27)
#: Day windows for the versions of a fact that changes, by how many versions it has.
VERSION_WINDOWS = {1: ((0, 17),), 2: ((0, 4), (10, 16)), 3: ((0, 3), (8, 11), (15, 19))}
TIMES = ("08:30", "09:15", "10:00", "11:45", "13:30", "15:00", "16:20", "18:10")


class _Offset:
    """`{in:N:style}` / `{at:N:style}`: a date N days after a base, written in a common form."""

    def __init__(self, base: date) -> None:
        self.base = base

    def __format__(self, spec: str) -> str:
        days, _, style = spec.partition(":")
        when = self.base + timedelta(days=int(days))
        if style == "us":
            return f"{when:%a} {when.month}/{when.day}"
        if style == "long":
            return f"{when:%A} {when.day} {when:%B}"
        return f"{when.day} {when:%B}"


@dataclass(frozen=True)
class Generated:
    case: Case
    #: (path, line) -> the text of the `##` heading the line sits under ("" when none)
    headings: dict[tuple[str, int], str]
    #: changing fact group -> slot kind
    slots: dict[str, str]
    #: lines telling of a past event by a weekday ("… on Saturday" in a Monday log)
    past: frozenset[tuple[str, int]] = frozenset()


@dataclass(frozen=True)
class _Item:
    label: str  # one of runner.LABELS' keys
    text: str
    heading: str = ""
    group: str | None = None
    version: int = 0
    past: bool = False  # tells of something done, on a weekday relative to its log


def _cast(domain: Domain, rng: random.Random) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for role, choices in domain.cast.items():
        name, _, pronoun = rng.choice(choices).partition("|")
        fields[role] = name
        fields[f"{role}_f"] = name.split()[-2] if name.startswith(("Dr ", "Grand", "Nana")) else name.split()[0]
        fields[f"{role}_S"] = "She" if pronoun == "she" else "He"
        fields[f"{role}_p"] = "her" if pronoun == "she" else "his"
    return fields


def _fill(text: str, fields: dict[str, Any], start: date, day: date) -> str:
    return text.format(**fields, **{"in": _Offset(day), "at": _Offset(start)})


def _pick_day(rng: random.Random, low: int, high: int, weekday: int | None = None) -> int:
    days = [d for d in range(low, high + 1) if d % 7 != 6 and (weekday is None or d % 7 == weekday)]
    return rng.choice(days)


def _ask_days(rng: random.Random, low: int, high: int, count: int) -> list[int]:
    pool = list(range(max(low, 0), min(high, DAYS - 1) + 1))
    return sorted(rng.sample(pool, min(count, len(pool))))


def _place_fact(
    number: int, fact: Fact, rng: random.Random, fields: dict[str, Any], start: date
) -> tuple[list[tuple[int, _Item]], dict[int, list[str]]]:
    """The fact's lines (day index, item) and its questions (day index -> queries)."""
    windows = VERSION_WINDOWS[len(fact.versions)] if fact.kind == "D" else ((1, 22),)
    group = f"{fact.slot or 'fact'}-{number}" if len(fact.versions) > 1 else None
    placed: list[tuple[int, _Item]] = []
    asks: dict[int, list[str]] = {}
    days = [_pick_day(rng, lo, hi, fact.weekday) for lo, hi in windows]
    for version, (wordings, day) in enumerate(zip(fact.versions, days, strict=True), 1):
        when = start + timedelta(days=day)
        text = _fill(rng.choice(wordings), fields, start, when)
        heading = _fill(fact.heading, fields, start, when) if fact.heading else ""
        placed.append((day, _Item(fact.kind, text, heading, group, version if group else 0, fact.weekday is not None)))
        questions = fact.asks[min(version - 1, len(fact.asks) - 1)] if fact.asks else ()
        if not questions:
            continue
        last = (days[version] - 1) if version < len(days) else DAYS - 1
        low, high = (day + 1, last) if fact.kind == "D" else (day, day + 5)
        for i, ask_day in enumerate(_ask_days(rng, low, high, fact.ask_days)):
            asks.setdefault(ask_day, []).append(_fill(questions[i % len(questions)], fields, start, when))
    return placed, asks


def _noise(domain: Domain, rng: random.Random, fields: dict[str, Any], start: date) -> list[tuple[int, _Item]]:
    """Chatter on most days, a few lines nobody can read alone, and one secret."""
    out: list[tuple[int, _Item]] = []
    for day in range(DAYS):
        if day % 7 != 6 and rng.random() < 0.8:
            out.append((day, _Item("C", rng.choice(domain.chatter))))
    for text in domain.unclear:
        out.append((_pick_day(rng, 1, 24), _Item("N", text)))
    if domain.secret:
        token = "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))
        text = rng.choice(domain.secret).format(secret=token)
        out.append((_pick_day(rng, 2, 9), _Item("S", text)))
    return out


def _day_text(day: date, items: list[_Item], rng: random.Random, sections: tuple[str, ...]) -> list[_Item]:
    """One log: its heading, then sections (a headed fact's section of its own)."""
    lines = [_Item("H", f"# {day.isoformat()}"), _Item("H", "")]
    plain = [i for i in items if not i.heading]
    headed = [i for i in items if i.heading]
    rng.shuffle(plain)
    cut = len(plain) // 2 if len(plain) > 4 else len(plain)
    blocks = [plain[:cut], plain[cut:]]
    times = sorted(rng.sample(TIMES, 3))
    for n, block in enumerate(blocks):
        if block:
            lines += [_Item("H", f"## {times[n]} {rng.choice(sections)}"), _Item("H", "")]
            lines += [_Item(i.label, "- " + i.text, i.heading, i.group, i.version, i.past) for i in block] + [
                _Item("H", "")
            ]
    for item in headed:
        lines += [_Item("H", f"## {times[2]} {item.heading}"), _Item("H", "")]
        lines += [
            _Item(item.label, "- " + item.text, item.heading, item.group, item.version, item.past),
            _Item("H", ""),
        ]
    return lines


def build(name: str, seed: int = 0) -> Generated:
    """The labelled month of domain `name` drawn with `seed` (deterministic)."""
    domain = DOMAINS[name]
    rng = random.Random(f"{name}:{seed}")
    start = date.fromisoformat(domain.start)
    fields = _cast(domain, rng)
    placed: list[tuple[int, _Item]] = []
    asks: dict[int, list[str]] = {}
    slots: dict[str, str] = {}
    for number, fact in enumerate(domain.facts):
        lines, questions = _place_fact(number, fact, rng, fields, start)
        placed += lines
        for day, qs in questions.items():
            asks.setdefault(day, []).extend(qs)
        if len(fact.versions) > 1:
            slots[f"{fact.slot or 'fact'}-{number}"] = fact.slot
    placed += _noise(domain, rng, fields, start)
    return _assemble(domain, rng, start, placed, asks, slots)


def _assemble(
    domain: Domain,
    rng: random.Random,
    start: date,
    placed: list[tuple[int, _Item]],
    asks: dict[int, list[str]],
    slots: dict[str, str],
) -> Generated:
    codes = {v: k for k, v in LABELS.items()}
    days: dict[str, str] = {}
    lines: dict[tuple[str, int], Line] = {}
    headings: dict[tuple[str, int], str] = {}
    past: set[tuple[str, int]] = set()
    for index in range(DAYS):
        items = [item for day, item in placed if day == index]
        if not items:
            continue
        day = start + timedelta(days=index)
        path = f"memory/{day.isoformat()}.md"
        heading = ""
        out = _day_text(day, items, rng, domain.sections)
        for number, item in enumerate(out, 1):
            if item.text.startswith("## "):
                heading = item.text[3:].split(" ", 1)[1]
            label = LABELS[item.label] if item.label in LABELS else LABELS[codes.get(item.label, "H")]
            lines[(path, number)] = Line(path, number, label, item.text, item.group, item.version)
            headings[(path, number)] = heading
            if item.past:
                past.add((path, number))
        days[day.isoformat()] = "\n".join(i.text for i in out) + "\n"
    queries = {(start + timedelta(days=d)).isoformat(): qs for d, qs in sorted(asks.items())}
    nights = tuple((start + timedelta(days=d)).isoformat() for d in NIGHTS)
    secret = next((t.text.rsplit(" ", 1)[-1] for _, t in placed if t.label == "S"), "\x00no secret\x00")
    return Generated(Case(domain.name, days, lines, queries, nights, secret), headings, slots, frozenset(past))
