"""IBANs and payment card numbers: the secret shapes a checksum proves (lint S106, S107; pure).

An IBAN passes its country's format and mod 97; a card number passes Luhn and starts with an
issuer's digits. Either is an account's number whatever words stand around it, so these detectors
need no label (`shapes.DETECTORS` runs them with the others).
"""

from __future__ import annotations

import re

# --- S106 IBAN -----------------------------------------------------------------------------------

_IBAN = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{2}\d{2}(?:[ \t]?[A-Za-z0-9]){11,32})(?![A-Za-z0-9])")


def iban(line: str) -> str | None:
    """An IBAN (with or without spaces) that passes its country's format and mod 97."""
    for match in _IBAN.finditer(line):
        groups = list(re.finditer(r"\S+", match.group(1)))
        # Words after the number may have joined the match ("DE89 3704 … 00 EUR"): try shorter.
        for end in range(len(groups), 0, -1):
            value = "".join(g.group(0) for g in groups[:end]).upper()
            written = match.group(1)[: groups[end - 1].end()]
            if len(value) >= 15 and _valid_iban(value):
                return written  # as written
    return None


def _valid_iban(value: str) -> bool:
    """The country's length and format and the mod-97 check digits. The national check digits
    inside some countries' account numbers (Spain's, France's) are not asked: a number copied with
    one digit wrong inside is still someone's account to a reader, and mod 97 already leaves a
    random string one chance in 97."""
    from stdnum import iban as stdnum_iban
    from stdnum.exceptions import ValidationError

    try:
        stdnum_iban.validate(value, check_country=False)
    except ValidationError:
        return False
    return True


# --- S107 payment card ---------------------------------------------------------------------------

_CARD = re.compile(r"(?<![\d.,/:#-])(\d(?:[ \t-]?\d){12,18})(?![\d]|[.,/:-]\d)")
_CARD_WORDS = re.compile(
    r"(?i)\b(?:card|visa|master ?card|amex|american express|maestro|discover|diners|jcb|credit|debit|cc|"
    r"cvc|cvv|cv2|csc|security code|exp(?:iry|ires|iration)?|valid (?:thru|through|until)|kreditkarte|karte"
    r"|karta|karty|kartę|tarjeta|carte|cartão|cartao|carta|kaart|kart|kartı|карта|карту|картка|картку)\b"
    r"|カード|카드|信用卡|银行卡|銀行卡"
)
_EXPIRY = re.compile(r"(?<![\d/.-])(?:0[1-9]|1[0-2])\s?/\s?(?:\d{2}|20\d{2})(?![\d/])")
_GROUPED = re.compile(r"^\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?$|^\d{4}([ -])\d{6}\2\d{4,5}$")
# Issuers' first digits: Visa, Mastercard, Amex, Diners, Discover, UnionPay, Maestro, Mir, and the
# national schemes people carry too (Troy 9792, RuPay 81/82, UzCard 8600, Humo 9860).
_ISSUER = re.compile(r"^(?:4|5[1-5]|2[2-7]|3[47]|3[0689]|6(?:011|5|4[4-9]|2)|5[06-9]|6\d|9792|8[12]|8600|9860)")


_CODE_LIST = re.compile(r"(?i)recovery|backup|scratch|\bcodes\b")


def _luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        n = int(char)
        if index % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def payment_card(line: str) -> str | None:
    """A card number: Luhn-valid, an issuer's prefix, and card words, an expiry or card grouping."""
    context = _CARD_WORDS.search(line) is not None or _EXPIRY.search(line) is not None
    for match in _CARD.finditer(line):
        raw = match.group(1).strip()
        digits = re.sub(r"\D", "", raw)
        if not 13 <= len(digits) <= 19 or not _ISSUER.match(digits) or not _luhn(digits):
            continue
        if len(set(digits)) < 4:
            continue  # 4444 4444 4444 4448-like fillers
        if context or _GROUPED.match(raw) and _CODE_LIST.search(line) is None:
            return raw
    return None
