"""A code a few words after its label (pure): the words say what it is for and the code ends its
clause ("pincode werktelefoon 846120,", "digicode portail 4B7219, puis …", "رمز الإنذار (alarm)
7734 —"). Asked by the line rules when `labelled` found no value right after a label. Codes
only: a password's label followed by words and a word with a digit is too often prose about a
user name or a standard ("Password for user Server01\\PowerUser", "scope'lu OAuth2").
"""

from __future__ import annotations

import re

from memgit.lint.labelled import (
    GENERIC_CODES,
    any_label,
    kinds_of_label,
    trim_value,
    value_kind_ok,
)
from memgit.lint.shapes import not_a_secret_code

_DIGIT = re.compile(r"\d")

# A label, one to three words saying what it is for, then the value ending its clause. The words
# are no number; the value is what a code's label takes alone, and a clause (or a quote) ends
# right after it.
_WHAT_FOR = re.compile(
    r"(?:[ \t]++(?:\([^()\d\n]{1,24}\)|[^\W\d_][^\W\d]{0,23}+)){1,3}?(?:[ \t]*+[:：])?[ \t]++"
    r"(?P<value>[^\s,;()«»“”\"']{4,40}?)[.!]?(?=[ \t]*+(?:$|[,;)(—–»”\"]|-[ \t]|[ \t]\())"
)


# A code word and what it is for, by the preposition that says so ("код от него 5517", "kód na
# zadní vchod … 7514", "пароль від кухонного планшета тепер 140322", "the code for the shed 4471"):
# a code *for* a thing opens it. Then up to five words before the value.
_OPENS = re.compile(
    r"(?i)[ \t]+(?:for|to|für|fürs|zum|zur|vom|von|pour|du|para|pro|per|voor|van|do|od|na|від|до|для|от|к|för|til|till)[ \t]"
)
_WHAT_FOR_LONGER = re.compile(_WHAT_FOR.pattern.replace("{1,3}?", "{1,5}?", 1))


def after_what_for(line: str, label: re.Match[str], kind: str) -> str | None:
    """The value after `label` (an `any_label` match) and the words saying what it is for, when it
    ends its clause; never after a bare "code", which opens nothing."""
    start = label.end()
    if kind == "place":
        return None  # a thing a code opens is a label only before ":" or "is" ("porta predefinita 8765")
    generic = kind == "code" and label.group("label").casefold() in GENERIC_CODES
    if generic and _OPENS.match(line, start) is None:
        return None  # "code review on friday 2026", "the code sample 4021": a code that opens nothing
    match = (_WHAT_FOR_LONGER if _OPENS.match(line, start) else _WHAT_FOR).match(line, start)
    if match is None:
        return None
    value = trim_value(match.group("value"))
    if value.isdigit() and re.fullmatch(r"(?:19|20)\d\d|\d*00", value):
        return None  # a year, a round number
    if kind == "code" or kind == "password" and value.isdigit():  # a PIN is a code
        ok = value_kind_ok("code", value, strong=True, alone=True) and sum(c.isdigit() for c in value) >= 4
    else:
        ok = False
    return value if ok and not not_a_secret_code(line[max(0, start - 16) : match.end()]) else None


def value_after_what_for(line: str) -> tuple[str, str] | None:
    """(kind, value) of the first label on `line` whose value follows the words saying what it is
    for, or None."""
    if _DIGIT.search(line) is None:
        return None  # every code this takes holds four digits
    for label in any_label().finditer(line):
        for kind in kinds_of_label(label.group("label")):
            value = after_what_for(line, label, kind)
            if value is not None:
                return kind, value
    return None


# A code changed or new, told as a story: "ny kode fra i dag 7150#", "jeg har skiftet koden, nu
# 6218", "changed PIN at the ATM …, new one 9067". A code word may name a public code ("code
# review", "والرمز البريدي 11564": a postcode), so a change or "new" word must stand beside it;
# a PIN needs none. The value is the first number of four to eight digits later in the same
# sentence, within a few words.
_CHANGED = re.compile(
    r"(?i)(?<![^\W_])(?:new|changed?|reset|ny|nye|nytt|skiftet|byttet|endret|ändrade?|bytte|ændret|skiftede"
    r"|nowy|nowa|nowe|zmienił[aoy]?|zmieniony|neue[nrs]?|neu|geändert|nouveau|nouvelle|changé|nuevo|nueva"
    r"|cambiad[oa]|cambió|novo|nova|mudou|mudei|nuovo|nuova|cambiato|nieuwe|veranderd|gewijzigd|yeni|değişti"
    r"|нов(?:ый|ая|ое|ий|а)|смени[лв]\w*|змін\w*|uusi|vaihdettu|vaihdoin"
    r"|ال?جديد[ةه]?|غي[ّ]?رت|تغيير)(?![^\W_])"
)
_LATER_CODE = re.compile(r"(?<![\w#$€£+./:,-])(\*?\d{4,8}#?)(?![\w.,/:%€$£-]?\d|\w)")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[。！？\n]")
_LATER_WINDOW = 60


def _names_a_pin(label: str) -> bool:
    """A PIN's name: "PIN" in any script, or a label that names a password and a code at once
    ("暗証番号", "PIN-kode")."""
    folded = label.casefold()
    return "pin" in folded or "пин" in folded or "пін" in folded or set(kinds_of_label(label)) >= {"password", "code"}


def code_later_in_sentence(line: str) -> str | None:
    """A code a change word or a code's own name leads to, later in its sentence (see above)."""
    if _DIGIT.search(line) is None:
        return None
    for label in any_label().finditer(line):
        if "code" not in kinds_of_label(label.group("label")):
            continue
        if not _names_a_pin(label.group("label")):  # any other code word may name a public code
            around = line[max(0, label.start() - 24) : label.end() + 24]
            if _CHANGED.search(around) is None:
                continue
        start = label.end()
        if re.match(r"[ \t]*#?\d{1,3}(?!\d)", line[start:]):
            continue  # "GPIO pin 13", "code 3 of 5": a numbered thing, not a code's value
        end = _SENTENCE_END.search(line, start)
        window = line[start : min(end.start() if end else len(line), start + _LATER_WINDOW)]
        for match in _LATER_CODE.finditer(window):
            value = trim_value(match.group(1))
            if re.fullmatch(r"(?:19|20)\d\d|\d*00", value.strip("*#")):
                continue  # a year, a round number
            before = line[: start + match.start()]
            if value_kind_ok("code", value, strong=True, alone=True, before=before) and not not_a_secret_code(
                line[max(0, label.start() - 16) : start + match.end()]
            ):
                return value
    return None
