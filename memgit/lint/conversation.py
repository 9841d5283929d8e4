"""Secrets whose meaning comes from the conversation around them (pure).

A transcript (`sessions/*.jsonl`) keeps one turn a line, as JSON: read line by line, the rules that
read across lines see a JSON record beside another, never a question beside its answer. So the
turns are read here as the conversation they were: each turn's text, its lines in order, every
line knowing the record it came from. The rules that read more than a line (`multiline.py`,
`seeds.py`, `formats.py`) run over that view, and one more that only a conversation has:

* a turn that asks for a secret ("Qual vai ser o próximo código?", "what's the wifi password?")
  and the next turn, short, that answers it: the answer's code- or password-shaped words are the
  secret ("5-1-8-2", "08/27 e 605").

Each hit is put back on its record's line, with the value as the line spells it (JSON may escape
it); a value the line does not spell is not bounded (the line goes whole).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection

from memgit.lint import formats, identifiers, labelled, multiline, seeds
from memgit.lint.hits import Hit

#: An answer longer than this is a turn of its own, not an answer to the question before it.
ANSWER_CHARS = 80
_RECORD = re.compile(r'^\s*\{.*"(?:content|text)"\s*:')
_WORD = re.compile(r"[^\s,;()]+")


def find(lines: list[str], wanted: Collection[int] | None) -> list[Hit]:
    """Every hit of the cross-line rules on the conversation `lines` hold (none unless two lines
    or more are turns of a transcript), on its record's line (only lines in `wanted`, when given)."""
    if sum(1 for line in lines[:50] if _RECORD.match(line)) < 2:
        return []
    turns = _turns(lines)
    if len(turns) < 2:
        return []
    view: list[str] = []
    origin: list[int] = []
    for index, text in turns:
        for part in text.split("\n"):
            view.append(part)
            origin.append(index)
    found = [*multiline.find(view, None), *seeds.find(view, None), *formats.find(view, None)]
    out: list[Hit] = []
    for hit in found:
        if hit.message.startswith(multiline.WRAPPED) and hit.index and origin[hit.index - 1] != origin[hit.index]:
            continue  # two turns, not a sentence wrapped (the answer to a question is `_answers`'s)
        out.append(_placed(lines, origin[hit.index], hit))
    out.extend(_answers(lines, turns))
    asked = {hit.index for hit in out}
    out.extend(hit for hit in _bare_answers(lines, turns) if hit.index not in asked)
    return [hit for hit in out if wanted is None or hit.index in wanted]


def _turns(lines: list[str]) -> list[tuple[int, str]]:
    out = []
    for index, line in enumerate(lines):
        if not _RECORD.match(line):
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(record, dict):
            continue
        text = record.get("content", record.get("text"))
        if isinstance(text, str) and text.strip():
            out.append((index, text))
    return out


def _placed(lines: list[str], index: int, hit: Hit) -> Hit:
    """`hit` (found in the view) on the record's line `index`, its value as that line spells it."""
    value = hit.value
    if value is not None and value not in lines[index]:
        escaped = json.dumps(value, ensure_ascii=False)[1:-1]
        value = escaped if escaped in lines[index] else None
    return Hit(index, hit.code, hit.message, value, hit.reported)


def _answers(lines: list[str], turns: list[tuple[int, str]]) -> list[Hit]:
    """A short turn right after a turn whose last sentence asks for a secret: its words that have
    the shape the asked label's value has (as a value on the line under that label would)."""
    out: list[Hit] = []
    for (_, asked), (index, answer) in zip(turns, turns[1:], strict=False):
        last = asked.strip().split("\n")[-1]
        question = _question(last)
        if question is None:
            continue
        short = len(answer.strip()) <= ANSWER_CHARS  # a long answer: only a word that can be nothing else
        kinds = [kind for kind, pattern in labelled.label_patterns().items() if pattern.search(question)]
        # "She needs a temporary password. Which one do you want?": the label in the sentence before
        # the question; then only a word that can be nothing but a password answers it.
        before = not kinds and labelled.label_patterns()["password"].search(last[: len(last) - len(question)])
        name = identifiers._NAMES.search(question)
        if not kinds and name is None and not before:
            continue
        bank = name is not None and identifiers._BANK_NAMES.search(name.group(0)) is not None
        for word in _WORD.findall(answer):
            bare = word.strip("\"'`“”«»")
            value = labelled.trim_value(bare)
            whole = labelled.password_word(bare) if before and short else None
            if whole is not None and whole in lines[index]:
                value, what = whole, "password"  # with the "!" or "@" that belongs to it
            elif value not in lines[index]:
                continue
            elif any(_shaped(kind, value, question, short) for kind in kinds):
                what = kinds[0]
            elif name is not None and short and identifiers.id_value(value, bank=bank) == value:
                what = "identifier"
            else:
                continue
            message = f"a {what} given as the answer to a question for it ({value[:4]}…); remove it from memory"
            out.append(Hit(index, labelled.CODE if what != "identifier" else identifiers.CODE, message, value))
    return out


# A turn that is one word and nothing else ("kanne3815", "„610412“."): a value handed over.
_BARE = re.compile(r"^\s*[\"'`“„«]?(?P<value>[^\s\"'`“”„«»]{4,64}?)[\"'`”“»]?[.!]?\s*$")
#: How many turns back the thing a bare value answers may be named.
BARE_CONTEXT_TURNS = 3


def _bare_answers(lines: list[str], turns: list[tuple[int, str]]) -> list[Hit]:
    """A turn holding only one word with a digit, after turns that name a secret or a personal
    number (whoever named it, asked or not: "Das Router-Passwort steht nicht in deinen Notizen",
    "schreib mir die Nummer des Aufenthaltstitels hier rein"): that word is the value. Whatever the
    wording, nobody answers a conversation about a PIN with a word of digits that is something else;
    the word must still have the shape the named thing's value has."""
    out: list[Hit] = []
    for position, (index, answer) in enumerate(turns):
        bare = _BARE.match(answer)
        if position == 0 or bare is None or not any(c.isdigit() for c in bare.group("value")):
            continue
        value = labelled.trim_value(bare.group("value"))
        if value not in lines[index]:
            continue
        context = "\n".join(text for _, text in turns[max(0, position - BARE_CONTEXT_TURNS) : position])
        kinds = [kind for kind, pattern in labelled.label_patterns().items() if pattern.search(context)]
        what = next((kind for kind in kinds if _shaped(kind, value, context, True)), None)
        code = labelled.CODE
        if (
            what is None
            and identifiers.names_an_identifier(context)
            and identifiers.id_value(value, document=True) == value
        ):
            what, code = "identifier", identifiers.CODE
        if what is not None:
            message = f"a {what} given alone after the conversation named it ({value[:4]}…); remove it from memory"
            out.append(Hit(index, code, message, value))
    return out


# A question's mark in the scripts that write one of their own: Arabic "؟", Chinese and Japanese
# "？", Greek ";" (U+037E, which Unicode folds to the semicolon): a Greek line ending in ";" asks.
_ASKS = re.compile(r"[?؟？¿\u037e]")
_GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")


def _question(last: str) -> str | None:
    """The sentence of `last` (a turn's last line) that asks, up to its question mark, or None."""
    marks = list(_ASKS.finditer(last))
    end = marks[-1].end() if marks else None
    stripped = last.rstrip()
    if stripped.endswith(";") and _GREEK.search(stripped[-80:]) is not None:
        end = len(stripped)
    if end is None:
        return None
    return re.split(r"(?<=[.!])\s", last[:end])[-1]


def _shaped(kind: str, value: str, question: str, short: bool) -> bool:
    if not labelled.value_kind_ok(kind, value, strong=True, alone=True, before=question):
        return False
    if not short:
        return kind in ("password", "key") and labelled.password_near_label(f"password {value}") == value
    return kind not in ("password", "key") or labelled.password_shaped(value)


def values_by_turn(turns: list[tuple[str, str]]) -> list[dict[str, str]]:
    """For each of `turns` ((role, text), oldest first), the values the rules above find in it,
    each with its rule, as the turn's text spells them (a code given as the answer to a question
    two turns up, a value alone under a label that ended the turn before)."""
    lines = [json.dumps({"role": role, "content": text}, ensure_ascii=False) for role, text in turns]
    out: list[dict[str, str]] = [{} for _ in turns]
    for hit in find(lines, None):
        if hit.value is None:
            continue
        try:
            value = json.loads(f'"{hit.value}"')
        except ValueError:
            value = hit.value
        if isinstance(value, str) and value in turns[hit.index][1]:
            out[hit.index].setdefault(value, hit.code)
    return out
