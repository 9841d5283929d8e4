"""Secrets known by their shape, their checksum and the words around them (lint S106-S113; pure).

People paste into notes what no token prefix marks: a bank account, a card with its expiry, the
code read out over the phone, the recovery codes of an account, the door or alarm code, an
insurance or passport number, the Wi-Fi key from a text message, a key named in prose ("the
deploy token is …") or alone on a line, a database connection string. Each detector here pairs
a shape with what makes it a secret rather than a look-alike:

* S106 IBAN: the country's length and format and the mod-97 check (python-stdnum's registry);
* S107 payment card: the Luhn check and an issuer prefix, plus card words, an expiry or the card's
  own grouping;
* S108 one-time, recovery and access codes: a code shape right after a word for such a code;
* S109 member, policy, passport and account numbers: an identifier right after its name;
* S110 a password or key inside a quoted message ("wifi is …" in quotes or a `>` quote);
* S111 a random-looking token right after a key word, with or without `:`/`=`;
* S112 a bare random-looking key alone on a line (an AWS secret key pasted without its label);
* S113 a connection string (`Server=…;Password=…`) with a real password.

`may_match` is what S106-S110 need on a line (S111-S113 need a long token or a password word,
which the token rules' own search finds), so a caller may skip the lines it rejects
(`memgit.lint.redact` does).
Values that contain EXAMPLE, or are documentation placeholders (`<token>`, `password`, `xxxx`),
are never secrets. Messages never echo a value beyond its first four characters.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import AnyStr

from memgit.lint.bank_numbers import iban, payment_card
from memgit.lint.keyed_codes import GATE_STEMS, keyed_code
from memgit.lint.trie import alternation
from memgit.lint.years import year_dated

# --- what a line needs before any detector runs ----------------------------------------------------

# Every word any detector below starts from (as a substring, case-blind), a card's run of digits,
# an IBAN's country and check digits, a long token. A test holds each detector to it.
_GATE_WORDS = (
    r"(?:code|pin|pass|otp|totp|2fa|mfa|tfa|combination|combo|keypad|key ?pad|key|tan|mtan|puk|safe|door|gate|alarm|garage|padlock|lock ?box"
    r"|(?:login|verification|security|sms|2fa|mfa|transaction)[ \t-]*number"
    r"|(?:disarm|unlock|open)(?:s|ed)?[ \t]+(?:it[ \t]+)?(?:with|using|by)|(?:press|type|punch|dial)[ \t]+in\b"
    r"|member|policy|passport|insurance|health card|subscriber|patient|account|acct|social security"
    r"|national insurance|tax|driver|licen|id card|identity card|versicherten|mitglieds|ausweis|reisepass|nhs"
    r"|medicare|medicaid|sozialversicherungs|credential|nin|bvn|sss|philhealth|umid|ehic|ghic|bhyt|nhif|nssf|nida"
    r"|ghana card|kra pin|nimc|cnps|ssnit|bpjs|polisnummer|rijbewijsnummer|vakuutusnumero|üye|иин|жсн"
    r"|wifi|wi-fi|wlan|wireless|network|router|hotspot|ssid|login|pw|kennwort|mot de passe|contraseña|senha"
    # what `keyed_codes` starts from: an entering verb or a thing a keyed code opens
    r"|" + alternation(set(GATE_STEMS)) + ")"
)
#: What S106-S110 need besides: a digit, a quote, or a `>` quote line (their values hold digits,
#: or stand in a quoted message); S111-S113 need a 16-character token or a password word, which
#: the token rules' own cheap search already finds.
HINT = re.compile(r"[\d\"“„«'>]")
# Matched on the case-folded line (ten times faster than a case-blind pattern); "ı" folds to
# itself but a case-blind pattern takes it for "i", so it is mapped by hand.
_GATE_WORDS_FOLDED = re.compile(_GATE_WORDS)
_GATE_WORDS_BOUNDED = re.compile(r"\b" + _GATE_WORDS)
_GATE_NUMBERS = re.compile(r"\d(?:[ \t-]?\d){12}|[A-Za-z]{2}\d{2}")


# A literal stem of every word above (`comb` for combination and combo, `card` for the ID cards,
# `pass` for passport, passcode and "mot de passe"): `candidate_lines` finds them with str.find.
_STEMS = (
    "code pin pass otp 2fa mfa tfa comb key disarm unlock open press type punch dial member policy insurance"
    " card subscriber patient account acct social tax tan puk safe door gate alarm garage padlock lock verification confirmation security sms transaction driver licen versicherten mitglieds ausweis nhs medicare"
    " medicaid sozialversicherungs credential wifi wi-fi nin bvn sss philhealth umid ehic ghic bhyt nhif nssf nida"
    " ghana kra nimc cnps ssnit bpjs polisnummer rijbewijsnummer vakuutusnumero üye иин жсн"
    " wlan wireless network router hotspot ssid login pw kennwort contrase senha"
).split()
_STEMS = list(dict.fromkeys([*_STEMS, *GATE_STEMS]))  # a stem once: each is a pass over the text
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_")  # ASCII only: a superset is safe
_STEM_BYTES = tuple(stem.encode() for stem in _STEMS)
_CARD_RUN = re.compile(r"\d(?:[ \t-]?\d){12}")
# Bytes of ASCII letters read as "a", digits as "d": an IBAN's start shows as b"aadd".
_LETTER_DIGIT = (
    bytes(ord("a") if chr(i).isalpha() else ord("d") if chr(i).isdigit() else ord(" ") for i in range(128)) + b" " * 128
)


def candidate_lines(text: str) -> set[int]:
    """0-based numbers of the lines of `text` (split on \\n) where `may_match` may hold: a superset,
    found with whole-text searches (str.find over the case-folded text, one pass for card digits
    and one over bytes for an IBAN's start) so that prose costs no per-line work."""
    at: list[int] = []
    # Folding keeps every newline where it was; as UTF-8 bytes, find runs at memchr speed.
    folded = text.casefold().replace("\u0131", "i").encode("utf-8", "surrogatepass")
    for stem in _STEM_BYTES:
        i = folded.find(stem)
        while i >= 0:
            if i == 0 or folded[i - 1] not in _WORD_BYTES:  # a word's start: "pin", not "shipping"
                at.append(i)
            i = folded.find(stem, i + 1)
    lines = _line_numbers(folded, b"\n", at) | _line_numbers(text, "\n", [m.start() for m in _CARD_RUN.finditer(text)])
    data = text.encode("utf-8", "surrogatepass")
    shape = data.translate(_LETTER_DIGIT)
    ibans: list[int] = []
    i = shape.find(b"aadd")
    while i >= 0:
        ibans.append(i)
        i = shape.find(b"aadd", i + 1)
    return lines | _line_numbers(data, b"\n", ibans)


def _line_numbers(text: AnyStr, newline: AnyStr, positions: list[int]) -> set[int]:
    """The 0-based line number of each of `positions`."""
    out: set[int] = set()
    line = previous = 0
    for position in sorted(positions):
        line += text.count(newline, previous, position)
        previous = position
        out.add(line)
    return out


def gate(line: str) -> bool:
    """Whether any word or number shape a detector starts from is on `line`."""
    if _GATE_NUMBERS.search(line) is not None:
        return True
    folded = line.casefold().replace("\u0131", "i")
    # Each word must start a word ("pin", not "shipping"): checked only where a word is at all,
    # since a leading \b costs the pattern its fast first-character search.
    return _GATE_WORDS_FOLDED.search(folded) is not None and _GATE_WORDS_BOUNDED.search(folded) is not None


# --- shared value tests --------------------------------------------------------------------------

#: What a documentation look-alike holds: "example", "xxxx", "<token>", "changeme", a bare "password".
PLACEHOLDER_TEXT = re.compile(
    r"(?i)example|x{4,}|\*{3,}|placeholder|changeme|your[_-]|redacted|dummy|[<>{}]|\$\{|\.\.\."
    r"|^(?:pass(?:word|wort|wd)?|secret|pwd|pw|token|key|user(?:name)?|login|admin|test|none|null|empty)$"
)


def _entropy(value: str) -> float:
    counts: dict[str, int] = {}
    for char in value:
        counts[char] = counts.get(char, 0) + 1
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def _classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


def _is_hex(value: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in value)


def _hint(value: str) -> str:
    return value[:4] + "…" if len(value) > 8 else "…"


# --- S108 one-time, recovery and access codes ----------------------------------------------------

# Words for a code that is a secret; a few nouns (door, alarm, backup) count only with a code word
# or an opening verb after them ("the alarm is disarmed with", "backup codes").
_STRONG = (
    r"\b(?:(?:one[- ]time|login|sign[- ]?in|verification|security|sms|auth(?:entication|enticator)?|2fa|mfa|tfa"
    r"|two[- ]factor|2[- ]step|two[- ]step|recovery|backup|scratch|door|gate|entry|entrance|alarm|garage|safe"
    r"|key ?safe|lock ?box|locker|padlock|intercom|buzzer|access|unlock|phone|voicemail|sim|card|bank)[ \t-]*)?"
    r"(?:codes?|pins?|passcodes?|otps?|combination|combo)\b"
    r"|\b(?:otp|totp|2fa|mfa|pin|passcode|keypad|key ?pad|tan|mtan|puk)\b"
    r"|\b(?:login|verification|security|sms|2fa|mfa|transaction)[ \t-]*number\b"
    r"|\b(?:safe|door|gate|alarm|keypad|key ?pad|lock ?box|key ?safe|padlock|garage)[ \t]*[:=]"
    r"|\b(?:disarm(?:ed|s)?|unlock(?:ed|s)?|opens?|open(?:ed)?)[ \t]+(?:it[ \t]+)?(?:with|using|by)"
    r"|\b(?:press|type|punch|key|dial)[ \t]+in\b"
)
_NOT_SECRET_CODE = re.compile(
    r"(?i)\b(?:zip|postal|post|area|country|dialling|dialing|status|error|exit|return|response|http|promo"
    r"|discount|voucher|coupon|gift|product|source|qr|bar|tax|sort|iso|airport|currency|colou?r|hex|color"
    r"|swift|bic|routing|branch|reference|ref|invoice|order|booking|confirmation|tracking|flight|class|course"
    r"|in|of|the new|review|freeze|style|golf|dress|morse|machine|generated|op|en|de|uni|short|geo|key|hash|byte"
    r"|lines? of|native|legacy|test|sample|pin ?code)[ \t-]*codes?\b"
    # The Romance languages name the kind after the word: "code erreur", "código postal".
    r"|\b(?:codes?|c[óo]digos?|codice|codici)[ \t]+(?:d'|d’|de[ \t]+|di[ \t]+|del[ \t]+|da[ \t]+|do[ \t]+)?"
    r"(?:erreur|error|errore|erro|postal|postale|promo|promocional|promozionale|barres|barras|retour|retorno"
    r"|statut|estado|stato|pays|pa[íi]s|paese|source|fuente|sorgente|r[ée]duction|descuento|sconto|desconto"
    r"|r[ée]servation|reserva|prenotazione|suivi|seguimiento|rastreamento|rastreio|produit|producto|prodotto"
    r"|produto|article|art[íi]culo|articolo|cadeau|regalo)\b"
    # Arabic names the kind after the word too: "الرمز البريدي" (the postcode), "رمز الخطأ" (an error's).
    r"|(?:ال)?رمز[ \t]+(?:ال)?(?:بريدي|خطأ|الاستجابة|الدولة|المنتج|الخصم|الترويجي)"
)
_NUMERIC_CODE = r"\*?\d{2,4}(?:[ \t-]?\d{2,4}){0,2}#?|\d{1,2}(?:[-–]\d{1,2}){3,5}"
_ALNUM_CODE = r"(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]{4,6}(?:-[A-Za-z0-9]{3,6}){1,3}"
_CODE_VALUE = r"(?<![\w#$€£+./:,-])(" + _NUMERIC_CODE + "|" + _ALNUM_CODE + r"|(?=[A-Za-z]*\d)[A-Za-z0-9]{8,12})"
# Where any `_CODE_VALUE` can start: two digits, an alphanumeric group before a dash, eight alphanumerics.
_CODE_START = re.compile(r"(?<![\w#$€£+./:,-])(?:\*?\d\d|\d[-–]\d|[A-Za-z0-9]{4,6}-|(?=[A-Za-z]{0,7}\d)[A-Za-z0-9]{8})")
# After a code: no more of the number, and no unit ("4000 files", "20 GB", "12 s").
# A disk-encryption recovery key: eight groups of six digits (BitLocker's shape), known by itself.
_RECOVERY_KEY = re.compile(r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])")
_CODE_END = (
    r"(?![\w.,/:%€$£'-]?\d|\w|[ \t]*(?:%|€|\$|(?:gb|mb|kb|tb|ms|s|files?|items?|people|users?|km|kg|eur|usd|x|times"
    r"|rows|lines|words|years?|days?|hours?|minutes?|am|pm|h|uhr|mm|cm|m|ft|sq)\b))"
)
_CODE_AFTER = re.compile(r"(?i)(?P<word>" + _STRONG + r")(?P<gap>[^.;!?\d\n]{0,40}?)" + _CODE_VALUE + _CODE_END)
_CODE_BEFORE = re.compile(
    r"(?i)" + _CODE_VALUE + _CODE_END + r"[ \t]*(?:is|was|=|:|-|–|—|\()?[ \t]*(?:the|my|our|his|her|their|your)?"
    r"[ \t]*(?:as|for|into|on|at)?[ \t]*(?:the|my|our|his|her|their|your)?[ \t]*(?:[\w-]+[ \t]+)?"
    r"\b(?:codes?|pin|passcode|otp|combination|keypad|key ?pad|lock ?box)\b"
)
_DATE_OR_TIME = re.compile(r"^(?:19|20)\d{2}$|^\d{1,2}-\d{2}-(?:19|20)?\d{2}$|^\d{4}-\d{2}$")
_DAY, _MONTH = r"(?:0?[1-9]|[12]\d|3[01])", r"(?:0?[1-9]|1[0-2])"
_DATE = re.compile(rf"^(?:19|20)\d{{2}}-\d{{1,2}}-\d{{1,2}}$|^(?:{_DAY}-{_MONTH}|{_MONTH}-{_DAY})-(?:19|20)\d{{2}}$")
_YEAR_PREP = re.compile(
    r"(?i)\b(?:in|since|from|until|till|by|of|on|at|year|the|around|before|after|circa|ca|q[1-4])[ \t]*$"
)


def not_a_secret_code(text: str) -> bool:
    """Whether `text` names a code that is no secret (a zip, promo, status or error code)."""
    return _NOT_SECRET_CODE.search(text) is not None


# A scheme is short and starts a word: bounded, so a long run of letters costs linear time.
_URL = re.compile(r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}://\S+|\]\([^)\s]+\)")
_COLUMNS = re.compile(r"\S {2,}\S+ {2,}\S+ {2,}\S")
# "code" as part of a longer name: LICENSE-CODE, promo-code/…, code pages, code points, code review.
_CODE_COMPOUND = re.compile(
    r"(?i)[ \t-]*(?:pages?|points?|blocks?|snippets?|samples?|examples?|coverage|reviews?|base|style|quality|smells?"
    r"|editor|owners|signing|spaces?|units?|generation|completion|fences?|golf)\b"
)


def _inside(spans: list[tuple[int, int]], position: int) -> bool:
    return any(start <= position < end for start, end in spans)


def _joined_word(line: str, start: int, end: int) -> bool:
    """Whether the code word at `start:end` is part of a longer name (`LICENSE-CODE`, `code pages`)."""
    if start > 0 and line[start - 1] in "-_/.":
        return True
    return _CODE_COMPOUND.match(line, end) is not None


def access_code(line: str) -> str | None:
    """A code next to the words that make it one: login and 2FA codes, recovery codes, PINs,
    door, gate, alarm, keypad and safe codes; not a postcode, status code, year or quantity."""
    if _CODE_START.search(line) is None:
        return None  # no value could start here (the full patterns cost ten times more)
    recovery_key = _RECOVERY_KEY.search(line)
    if recovery_key is not None:
        return recovery_key.group(0)
    urls = [m.span() for m in _URL.finditer(line)]
    for match in _CODE_AFTER.finditer(line):
        value = match.group(3)
        if _NOT_SECRET_CODE.search(line[max(0, match.start() - 16) : match.start("gap")]) or _NOT_SECRET_CODE.search(
            line[match.start("word") : match.start(3)]  # "code erreur 4403": the kind after the word
        ):
            continue
        if _inside(urls, match.start()) or _joined_word(line, match.start("word"), match.end("word")):
            continue
        if year_dated(value, match.group("gap")):
            continue
        if _code_value_ok(value, line[: match.start(3)]):
            return value
    if _COLUMNS.search(line):
        return None  # a command's columned output ("35  552.19  6552  8 Code"), not a sentence
    for match in _CODE_BEFORE.finditer(line):
        value = match.group(1)
        tail = line[match.end(1) : match.end() + 12]
        if _NOT_SECRET_CODE.search(line[match.end(1) : match.end()]) or _NOT_SECRET_CODE.search(tail):
            continue
        if _inside(urls, match.start(1)):
            continue
        if _code_value_ok(value, line[: match.start(1)]):
            return value
    return keyed_code(line)


def _code_value_ok(value: str, before: str) -> bool:
    bare = value.strip("*#")
    if sum(c.isdigit() for c in bare) < 4 and not re.search(r"[A-Za-z]", bare):
        return False  # "code 42", "exit 137": too short for a code anyone guards
    if PLACEHOLDER_TEXT.search(bare) or len(set(bare.replace("-", "").replace(" ", ""))) < 2 and len(bare) < 6:
        return False  # "0000", "xxxx": a placeholder, not a code
    digits = re.sub(r"\D", "", bare)
    if digits == bare and digits in "01234567890" + "09876543210":
        return False  # 1234, 123456, 4321: the placeholder every manual uses
    if re.fullmatch(r"\d{1,2}-\d{1,2}", bare):
        return False  # a range ("load 11-13"), not a code
    if _DATE.match(bare) or _DATE_OR_TIME.match(bare) and _YEAR_PREP.search(before):
        return False
    return not re.match(r"(?i)^(?:v\d|\d+(?:st|nd|rd|th)$)", bare)


# --- S109 member, policy, passport and account numbers ------------------------------------------

_ID_NUMBER = re.compile(
    r"(?i)\b(?P<name>(?:insurance|member(?:ship)?|policy|passport|subscriber|patient|account|acct|bank account"
    r"|social security|national insurance|tax|driver'?s licen[cs]e|licen[cs]e|id card|identity card|health card"
    r"|versicherten|mitglieds|ausweis|reisepass|nhs|medicare|medicaid|sozialversicherungs"
    # national numbers python-stdnum has no validator for, known by the names their countries use
    r"|philhealth|ghana card|kra pin|bpjs|polisnummer|rijbewijsnummer|vakuutusnumero|sotu|üye|uye"
    r"|(?-i:NIN|BVN|SSS|UMID|EHIC|GHIC|BHYT|NHIF|NSSF|NIDA|NIMC|CNPS|SSNIT|IIN|ИИН|ЖСН))"
    r"(?:[ \t-]*(?:number|nummer|no\.?|nr\.?|num|#|id|card|ref|số))?)s?(?![A-Za-z])"
    r"[^.;!?\n\d]{0,25}?(?<![\w#$€£+./:,-])(?P<value>[A-Za-z]{0,4}[ \t/-]?\d[\dA-Za-z]*(?:[ \t/-][\dA-Za-z]+){0,4})"
)
_NOT_ID = re.compile(
    r"(?i)€|\$|£|eur\b|usd\b|\bper\b|premium|costs?|fee|price|year|hotline|phone|tel\b|call|fax|mobile|office"
    r"|e-?mail|address|support|desk|\bline\b|room|floor|street|zip|post ?code|valid|expir|renew|since|until|from"
)
_ID_NAME_STRONG = re.compile(
    r"(?i)number|nummer|\bno\b|\bnr\b|\bnum\b|#|\bid\b|passport|ssn|social security|national insurance"
    r"|philhealth|bpjs|polisnummer|rijbewijsnummer|vakuutusnumero|\büye no|\buye no"
    r"|\b(?-i:NIN|BVN|SSS|UMID|EHIC|GHIC|BHYT|NHIF|NSSF|NIDA|NIMC|CNPS|SSNIT|IIN)\b|(?-i:ИИН|ЖСН)"
)


def id_number(line: str) -> str | None:
    """An identifier named as a member, policy, passport, insurance, account or tax number."""
    for match in _ID_NUMBER.finditer(line):
        value = _trim_id(match.group("value"))
        digits = sum(c.isdigit() for c in value)
        # A passport number may hold only three digits among its letters (C7H2K9L1X).
        least = 3 if "passport" in match.group("name").lower() and len(value) >= 7 else 5
        if digits < least or len(value) > 24 or PLACEHOLDER_TEXT.search(value):
            continue
        if re.search(r"\d[.,]\d|\d{4}-\d{2}-\d{2}|\d:\d", value) or re.match(r"(?i)^v?\d+(?:\.\d+)+$", value):
            continue  # amounts, dates, times, versions
        if re.fullmatch(r"(?:[A-Za-z]+[ \t])?\d{1,2}/\d{1,2}(?:/\d{2,4})?", value):
            continue  # a day and month ("in the 03/04 log")
        if re.match(r"[a-z]{2,}-", value):
            continue  # a name in lower case before a dash: a project or allocation code (hdr-2026-017)
        name = match.group("name")
        between = line[match.end("name") : match.start("value")]
        structured = re.fullmatch(r"[A-Z]{1,4}-\d{3,}(?:-\d{2,})*", value) is not None  # HX-2291-883
        if not (
            structured or _ID_NAME_STRONG.search(name + between) or re.search(r"(?i)\b(?:is|was)\b|[:=#]", between)
        ):
            continue
        if _NOT_ID.search(between):
            continue
        return value
    return None


def _trim_id(value: str) -> str:
    """The identifier without trailing words that joined it (`12345 678 for` -> `12345 678`)."""
    parts = re.split(r"([ \t/-])", value)
    kept: list[str] = []
    for part in parts:
        if part.strip(" \t/-") and not any(c.isdigit() for c in part) and kept:
            break
        kept.append(part)
    return "".join(kept).strip(" \t/-")


# --- S110 credentials inside a quoted message ----------------------------------------------------

_QUOTED = re.compile(
    r"\"([^\"]{4,300})\"|“([^”]{4,300})”|„([^“”]{4,300})[“”]|«([^»]{4,300})»|(?<![\w])'([^']{4,300})'(?!\w)"
)
_IN_QUOTE = re.compile(
    r"(?i)\b(?P<word>wifi|wi-fi|wlan|wireless|network|router|hotspot|ssid|login|pw|pwd|pass|passwort|password"
    r"|passcode|key|code|pin|kennwort|mot de passe|contraseña|senha)\b"
    r"(?:[^\n]{0,30}?(?:\b(?:is|was|ist|est|es|now)\b(?:[ \t]+(?:now|still|just))?|[:=–—→]|->)|[^\w\n]{0,3})[ \t]*"
    r"[\"'`]?(?P<value>[^\s\"'`“”«»,;]{6,64})"
)


# "login is ops / Kx93!vb2": a user name, a slash, the password.
_USER_SLASH_PASSWORD = re.compile(
    r"(?i)\b(?:login|log-in|credentials?|account|wi-?fi|wlan|ssid|hotspot)\b[^\n/]{0,30}?[^\s/]+[ \t]*/[ \t]*"
    r"(?P<value>[^\s\"'`“”«»,;/]{6,64})"
)


_WIFI = re.compile(r"(?i)\b(?:wi-?fi|wlan|ssid|hotspot)\b")
# A script written without spaces (kana, CJK, Hangul, Thai): a run of it is words, not a password.
UNSPACED_SCRIPT = re.compile("[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]")


def quoted_credential(line: str) -> str | None:
    """A password or key inside a quoted message (in quotes, or on a `>` quote line), or after a key
    word on a Wi-Fi line."""
    spans = [(next(g for g in match.groups() if g is not None), True) for match in _QUOTED.finditer(line)]
    if line.lstrip().startswith(">"):
        spans.append((line.lstrip()[1:], True))
    elif _WIFI.search(line):  # a Wi-Fi note outside quotes: only a key word's value, not the network's name
        spans.append((line, False))
    for span, quoted in spans:
        for match in [*_IN_QUOTE.finditer(span), *_USER_SLASH_PASSWORD.finditer(span)]:
            word = match.groupdict().get("word")
            if word is not None and (
                match.start("word") > 0
                and span[match.start("word") - 1] in "-_/.:"
                or span[match.end("word") : match.end("word") + 1] in ("@", "/")
                or re.match(r"[-_][^\W_]", span[match.end("word") : match.end("word") + 2]) is not None
            ):
                continue  # part of a path, a slug, a name (`pw-cat`) or `user:pass@host`
            slash = match.re is _USER_SLASH_PASSWORD  # "WLAN Gäste: network / password"
            if not quoted and not slash and (word is None or word.lower() not in _KEY_NAMES):
                continue
            value = match.group("value").rstrip(".!?)")
            if _password_like(value):
                return value
            if word is not None and word.lower() in _KEY_NAMES:  # "key Sanjo-1187-koto, check-out 10:00"
                direct = _DIRECT_VALUE.match(span, match.end("word"))
                shown = direct.group("value").rstrip(".!?):") if direct is not None else ""
                if any(c.isdigit() for c in shown) and _password_like(shown):
                    return shown
    return None


_DIRECT_VALUE = re.compile(r"[^\w\n]{0,3}[ \t]*[\"'`]?(?P<value>[^\s\"'`“”«»,;]{6,64})")
_KEY_NAMES = frozenset(("pw", "pwd", "pass", "passwort", "password", "passcode", "key", "code", "pin", "kennwort"))


def _password_like(value: str) -> bool:
    """Letters with digits, or mixed-case letters with a symbol: not a word, a name, a number, a date,
    a file or a link."""
    from memgit.lint.placeholders import is_placeholder

    if (
        len(value) < 6
        or PLACEHOLDER_TEXT.search(value)
        or "://" in value
        or value.startswith(("/", "~", "$", "%", "@"))
    ):
        return False
    if is_placeholder(value) or re.search(
        r"(?i)\.(?:png|jpe?g|gif|svg|html?|md|js|css|json|pdf)\b|[/?#&]\w+[.=]\w", value
    ):
        return False
    if not any(c.isdigit() for c in value) and not re.search(r"[^\w\s-]", value):
        return False  # "Mozilla-Entwicklernetzwerk": hyphenated words
    if re.search(r"&#x?[0-9a-fA-F]+;?|&[a-zA-Z]+;", value):
        return False  # an escape ("WOR&#68"): the reader sees a name, and the reader's view is judged too
    if sum(c.isascii() for c in value) * 2 < len(value) or UNSPACED_SCRIPT.search(value):
        return False  # words of a script without spaces
    letters = any(c.isalpha() for c in value)
    if letters and any(c.isdigit() for c in value):
        return not re.fullmatch(r"(?i)v?\d+(?:\.\d+)+\w*|\d+(?:st|nd|rd|th|am|pm|h|min|gb|mb)", value)
    return letters and _classes(value) >= 3


# --- S111 a random token right after a key word --------------------------------------------------

_KEY_TOKEN = re.compile(
    r"(?i)\b(?:api[ _-]?key|access[ _-]?key|secret(?:[ _-]?(?:access[ _-]?)?key)?|key|token|password|passwort"
    r"|passphrase|passwd|credentials?|bearer|signing[ _-]?key|license[ _-]?key|licence[ _-]?key)s?\b"
    r"[^\n]{0,30}?(?<![\w+/=.~${%-])([A-Za-z0-9+/_\-.~=]{16,256})(?![\w+/=~-])"
)
_HASH_WORDS = re.compile(
    r"(?i)commit|sha|hash|digest|checksum|fingerprint|md5|\brev|build|image|etag|uuid|request id|ssh-|public ?key|pubkey"
)
_UUID = re.compile(r"(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_NOT_TOKEN = re.compile(r"^(?:/|\./|~/)|://|@|\.(?:md|py|js|ts|json|ya?ml|toml|txt|sh|env|pem|key|log|html|csv)$")


def keyword_token(line: str) -> str | None:
    """A random-looking token right after key, secret, token, password, passphrase or credential,
    whether or not a `:` or `=` stands between them (not a word inside a link)."""
    urls = [m.span() for m in _URL.finditer(line)]
    for match in _KEY_TOKEN.finditer(line):
        if _inside(urls, match.start()):
            continue
        value = match.group(1).rstrip(".")
        if _random_token(value, line):
            return value
    return None


def _random_token(value: str, line: str) -> bool:
    if len(value) < 16 or PLACEHOLDER_TEXT.search(value) or _NOT_TOKEN.search(value) or _UUID.match(value):
        return False
    if _HASH_WORDS.search(line) is not None or value.startswith("AAAA"):
        return False  # a checksum, a fingerprint, an SSH public key
    if _is_hex(value):
        return len(value) >= 24 and _entropy(value) >= 3.0
    if not any(c.isdigit() for c in value) or not any(c.isalpha() for c in value):
        return False
    if re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", value):
        return False  # an environment variable's name
    if re.fullmatch(r"[a-z0-9]+(?:[_.-][a-z0-9]+)*", value) and len(re.findall(r"[a-z]{3,}", value)) >= 2:
        return False  # a slug or a name: `deploy-token-rotation-2026`, `billing_v2_export`
    return _entropy(value) >= 3.5 and _classes(value) >= 2 and not _word_made(value)


def generated_code(value: str) -> bool:
    """Sixteen or more letters and digits with digits scattered through them, not hex, as random as a
    generated code ("zml7ixszt…", a password manager's recovery code): after a code's label that is
    the code, whatever the mix of letters and digits (a hash after "code" is hex; a name's digits
    stand together)."""
    return (
        len(value) >= 16
        and value.isascii()
        and value.isalnum()
        and not _is_hex(value)
        and len(re.findall(r"\d+", value)) >= 3
        and _entropy(value) >= 3.5
    )


# --- S112 a bare key alone on a line -------------------------------------------------------------

_BARE = re.compile(r"^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+|>[ \t]*)?`?([A-Za-z0-9+/=_-]{30,128})`?[ \t]*$")


_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.){30,})"')


# A 2FA setup key alone on a line: base32 (capitals and the digits 2-7), whole or in the groups of
# four an authenticator's setup page shows ("LHHB OK3S OB7W …", "lhhb ok3s ob7w …").
_BASE32_ALONE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+|>[ \t]*)?`?"
    r"([A-Z2-7]{16,64}|[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,15}|[a-z2-7]{4}(?: [a-z2-7]{4}){3,15})`?[ \t]*$"
)


def base32_seed(line: str) -> str | None:
    """A line that is only a base32 secret: sixteen characters or more, three digits at least and
    letters enough that it is no word, a date or a count in capitals."""
    match = _BASE32_ALONE.match(line)
    if match is None:
        return None
    value = match.group(1)
    squeezed = value.replace(" ", "")
    digits = sum(c.isdigit() for c in squeezed)
    if digits < 3 or len(squeezed) - digits < 8 or _entropy(squeezed) < 3.5:
        return None
    return value


def bare_key(line: str) -> str | None:
    """A key pasted alone on a line, such as a 40-character AWS secret access key: mixed case,
    digits and high entropy, not hex (a commit or checksum) and not a word-made identifier; or a
    2FA setup key in base32 (`base32_seed`)."""
    seed = base32_seed(line)
    if seed is not None:
        return seed
    match = _BARE.match(line)
    if match is None:
        if line.lstrip().startswith("{"):  # a transcript's JSON line: each line of each string
            for string in _JSON_STRING.finditer(line):
                for piece in string.group(1).split("\\n"):
                    if piece != line and (value := bare_key(piece)) is not None:
                        return value
        return None
    value = match.group(1)
    if _is_hex(value) or PLACEHOLDER_TEXT.search(value):
        return None
    if not (any(c.islower() for c in value) and any(c.isupper() for c in value) and any(c.isdigit() for c in value)):
        return None
    return value if _entropy(value) >= 4.2 and not _word_made(value) else None


def _word_made(value: str) -> bool:
    """Mostly words (`KestrelBillingExportJob2028Handler`): a name someone wrote, not a key."""
    return sum(len(word) for word in re.findall(r"[A-Z]?[a-z]{3,}", value)) >= 0.6 * len(value)


# --- S113 connection strings ---------------------------------------------------------------------

_CONNECTION = re.compile(
    r"(?i)(?:server|data source|host|hostname|address|addr|uid|user id|user|username|database|initial catalog)"
    r"[ \t]*=[^;\n]*;.*?\b(?:password|pwd)[ \t]*=[ \t]*[\"']?([^;\"'\s]{4,})"
)


def connection_string(line: str) -> str | None:
    """A `key=value;` connection string (ADO.NET, ODBC, JDBC properties) holding a password."""
    match = _CONNECTION.search(line)
    if match is None or PLACEHOLDER_TEXT.search(match.group(1)) or match.group(1).startswith(("$", "%")):
        return None
    return match.group(1)


# --- all of them ---------------------------------------------------------------------------------

DETECTORS: tuple[tuple[str, str, Callable[[str], str | None]], ...] = (
    ("S113", "a connection string with a password", connection_string),
    ("S106", "an IBAN (bank account number)", iban),
    ("S107", "a payment card number", payment_card),
    ("S108", "a one-time, recovery or access code", access_code),
    ("S109", "a member, policy, passport or account number", id_number),
    ("S110", "a password or key inside a quoted message", quoted_credential),
    ("S111", "a random-looking token named as a key, secret or token", keyword_token),
    ("S112", "a bare random-looking key on its own line", bare_key),
)


_HINTED = frozenset(("S106", "S107", "S108", "S109", "S110"))


def may_match(line: str) -> bool:
    """Whether `scan` could flag `line` beyond what the token rules' own search finds."""
    return HINT.search(line) is not None and gate(line)


_DIGIT = re.compile(r"\d")
_QUOTE = re.compile(r"[\"“„«']|^[ \t]*>")


def _skipped(line: str) -> frozenset[str]:
    """The detectors that cannot flag `line`: S106-S109 need a digit, S110 a quote or Wi-Fi, S113 `=` and
    `;` (cheap checks that spare their patterns most lines)."""
    if not may_match(line):
        return _HINTED if "=" in line and ";" in line else _HINTED | {"S113"}
    skip = set() if _DIGIT.search(line) else {"S106", "S107", "S108", "S109"}
    if _QUOTE.search(line) is None and _WIFI.search(line) is None:
        skip.add("S110")
    if "=" not in line or ";" not in line:
        skip.add("S113")
    return frozenset(skip)


def scan(line: str, only: str | None = None) -> list[tuple[str, str]]:
    """The first shape detector (or the `only` one) that flags `line`, as [(code, message)]."""
    return [(code, message) for code, message, _value in scan_values(line, only)]


def scan_values(line: str, only: str | None = None) -> list[tuple[str, str, str | None]]:
    """`scan` with the value each detector found, as written on `line`."""
    skip = _skipped(line)
    for code, label, detect in DETECTORS:
        if only is not None and code != only or code in skip:
            continue
        value = detect(line)
        if value is not None:
            return [(code, f"{label} ({_hint(value)}); remove it from memory", value)]
    return []
