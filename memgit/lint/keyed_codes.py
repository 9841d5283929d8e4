"""Codes told by the act of keying them in at a door, a lock or an alarm (lint S108; pure).

People rarely write "door code" when they tell how to get in: "disarm 7720", "unlock is 208314",
"intercom, press 0 then 8812", "Punched 7720 at the panel", "the locker … I used 6112". No label
names the number; the verb of entering it and the thing it opens do. So a number of four to eight
digits counts when an entering verb stands right before it (a few small words and single keys may
come between) and the line names something a code opens, or the verb is one only a code takes
(disarm, unlock). "set" and "use" are too common to count alone: they need the thing named before
them in the same sentence; so does a verb after the number ("am Tor 5839 eingeben"). A year, a
sequence, a repeated digit, a number with a unit after it, a phone number's groups, a time or an
amount is never taken.
"""

from __future__ import annotations

import re

#: A literal start of the words a line needs for the patterns below (case-folded): a thing a code
#: opens, or a verb only a code takes (an entering verb needs the thing on its line anyway). The
#: shape rules' cheap line search (`shapes.candidate_lines`) takes a line holding one.
GATE_STEMS = (
    "disarm unlock intercom panel lock door gate alarm safe tür tor schloss tresor porte portail cadenas coffre"
    " puerta portón candado porta portão cadeado cofre cancello lucchetto cassaforte deur poort hek slot kluis"
    " interfone interphone citofono domofon kłódk sejf zamek armário armario casier spind schließfach entsperr"
    " déverrouill désarm desbloque desarm destrava rozbroj odblokow ontgrendel sblocc disattiv"
    " bram furtk drzwi wejści vchod brán dveř"
    # a combination turned on a lock's dials (`_DIALLED`)
    " molette combina zahlenschloss kombination"
).split()

# Something a keyed code opens, in the languages of the labels' place words.
_THING = (
    r"doors?|gates?|alarms?|alarmes?|safes?|locks?|lockers?|padlocks?|keypads?|key ?pads?|intercoms?|garages?|panels?"
    r"|lock ?box(?:es)?|key ?safes?|buzzers?|shutters?|tür|tor|schloss|tresor|alarmanlage|porte|portail|cadenas"
    r"|coffre|puerta|portón|candado|caja fuerte|porta|portão|cadeado|cofre|cancello|lucchetto|cassaforte"
    r"|deur|poort|hek|slot|kluis|interfone|interphone|citofono|gegensprechanlage|domofon|kłódk\w*|sejf\w*|zamek"
    r"|armário|armario|casier|spind|schließfach"
    r"|bram[aey]|furtk\w*|drzwi|wejści\w*|vchod\w*|brán[auěy]?|dveř\w*"
)
# A verb that says a code was keyed in; the first group takes a code only, the second needs the thing.
_ONLY_A_CODE = (
    r"disarm(?:s|ed|ing)?|unlock(?:s|ed|ing)?|entsperr\w*|(?:se[ \t]+)?déverrouill\w*|désarm\w*|desbloque\w*"
    r"|desarm\w*|destrava\w*|rozbroj\w*|odblokow\w*|ontgrendel\w*|sblocc\w*|disattiv\w*"
)
_KEYING = (
    r"punch(?:es|ed|ing)?(?:[ \t]+in)?|key(?:s|ed)?[ \t]+in|tap(?:s|ped)?(?:[ \t]+in)?|dial(?:s|led|ed)?"
    r"|press(?:es|ed)?|enter(?:s|ed)?|typ(?:e|es|ed)(?:[ \t]+in)?|eingeben|eingegeben|tippen|getippt|drücken"
    r"|taper|tapez|composer|compose[zr]?|marca[rs]?|marqué|teclea[rs]?|digita\w*|digite|intoets\w*"
    r"|apert\w*|aperte|wpis\w*|wciśnij|premi\w*|open(?:s|ed)?|ouvr\w*|abre|abrir|öffne\w*|apre|otwier\w*"
    r"|entr(?:y|ée|ada)"
)
# "opens with", "se déverrouille avec", "abre com": the verb, then the word for "with".
_WITH = r"(?:[ \t]++(?:with|using|avec|com|con|mit|met|z|by)(?![^\W_]))?"
_SETTING = r"set|sets|setting|used?|uses|using|chose|chosen|picked|changed it to|gesetzt|eingestellt|mis|puesto"
_UNIT = (
    r"%|€|\$|(?:gb|mb|kb|tb|ms|s|files?|items?|people|users?|km|kg|eur|usd|x|times|rows|lines|words|years?|days?"
    r"|hours?|minutes?|am|pm|h|uhr|mm|cm|m|ft|sq|bits?|bytes?|px|rpm|mah|w|v|hz|workers?|threads?|tabs?|newtons?|n)\b"
)
_VALUE = rf"(?P<value>\*?\d{{4,8}}#?)(?![\w.,/:%€$£'-]?\d|\w|[ \t]\d\d|[ \t]*(?:{_UNIT}))"  # not a phone number
# Between the verb and the number: "is", ":", "it", "in", "the code", a key or two and "then".
# Each run of spaces is taken once and never given back (possessive): a line of many spaces and
# single digits after a verb would otherwise be split every way before the match fails.
_BETWEEN = (
    r"[ \t]*+(?:(?:(?:is|was|it|in|to|with|code|pin|the|then|and|first|e|et|und|y|puis|depois|dann|luego"
    r"|potem)(?![^\W_])|[:=]|\d{1,2}(?!\d))[ \t]*+){0,5}+"
)
_ENTERED = re.compile(
    rf"(?i)(?<![^\W_])(?:(?P<only>{_ONLY_A_CODE})|(?P<keying>{_KEYING}))(?![^\W_]){_WITH}{_BETWEEN}{_VALUE}"
)
_SET = re.compile(
    rf"(?i)(?<![^\W_])(?:{_THING})(?![^\W_])[^.;!?\n]{{0,40}}?(?<![^\W_])(?:{_SETTING})(?![^\W_]){_BETWEEN}{_VALUE}"
)
# The thing, the number, then the verb, as German and Dutch put it ("am Tor 5839 eingeben").
_THEN_KEYED = re.compile(
    rf"(?i)(?<![^\W_])(?:{_THING})(?![^\W_])[^\d\n.;!?]{{0,12}}?{_VALUE}[ \t]+(?:\w+[ \t]+)?(?:{_KEYING}|eintippen|intikken)(?![^\W_])"
)
_THING_ON_LINE = re.compile(rf"(?i)(?<![^\W_])(?:{_THING})(?![^\W_])")
_NOT_A_CODE = re.compile(r"(?:19|20)\d\d|0123|1234|2345|3456|4567|5678|6789|9876|4321")


_FOUR_DIGITS = re.compile(r"\d{4}")
# A combination lock's digits, one by one ("6-1-3-8"), after the verb of turning its dials or the
# lock itself: "girei 6-1-3-8 e abriu", "tournez les molettes sur 0-5-5-3", "am Zahlenschloss 4-0-7-1".
_DIALS = re.compile(r"(?<![\d-])\d(?:-\d){3,7}(?![\d-])")
_DIALLED = re.compile(
    rf"(?i)(?<![^\W_])(?:turn(?:s|ed|ing)?|gir\w+|tourn\w+|dreh\w*|draai\w*|obr[óo]\w+|kręc\w+|ruot\w+"
    rf"|molettes?|dials?|combinations?|combina[çc][ãa]o|combinaison|combinaci[óo]n|combinazione|zahlenschloss"
    rf"|kombination|{_THING})(?![^\W_])[^\n]{{0,40}}?(?P<value>{_DIALS.pattern})"
)


def keyed_code(line: str) -> str | None:
    """A code keyed in at a door, lock or alarm, told by the verb of entering it, else None."""
    dialled = _dialled(line)
    if dialled is not None:
        return dialled
    if _FOUR_DIGITS.search(line) is None:
        return None
    folded = line.casefold()
    if not any(stem in folded for stem in GATE_STEMS):
        return None  # neither a thing a code opens nor a verb only a code takes (the patterns cost more)
    for match in _ENTERED.finditer(line):
        if match.group("keying") and _THING_ON_LINE.search(line) is None:
            continue
        value = match.group("value")
        if _acceptable(value, line, match.start("value")):
            return value
    for match in (*_SET.finditer(line), *_THEN_KEYED.finditer(line)):
        value = match.group("value")
        if _acceptable(value, line, match.start("value")):
            return value
    return None


def _dialled(line: str) -> str | None:
    """A combination turned on a lock's dials (see `_DIALLED`), not a sequence or one digit repeated."""
    if _DIALS.search(line) is None:
        return None
    for match in _DIALLED.finditer(line):
        digits = match.group("value").replace("-", "")
        if len(set(digits)) > 1 and digits not in "0123456789" and digits not in "9876543210":
            return match.group("value")
    return None


def _acceptable(value: str, line: str, at: int) -> bool:
    digits = value.strip("*#")
    if _NOT_A_CODE.fullmatch(digits) or len(set(digits)) < 2:
        return False
    before = line[max(0, at - 2) : at]
    return not re.search(r"[$€£#./]\s?$", before)  # an amount, a decimal, an issue number, a path
