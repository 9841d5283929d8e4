"""Credentials in formats that others define, whatever words stand around them (pure).

No label is needed where the format itself says what a value is:

* a Wi-Fi network's QR payload (`WIFI:T:WPA;S:name;P:key;;`, the format phone cameras read,
  ZXing's "barcode contents" convention): its `P:` field is the network key (S110);
* an authenticator app's setup key as the apps display it: eight or more groups of four base32
  characters (`zk3q lqcv 34bi …`), one case, digits among them (S108). Base32 has no 0, 1, 8 or 9,
  so a hex fingerprint or a grouped account number in the same layout never matches;
* a product licence key: four to eight groups of one length (four to six characters) joined by
  hyphens, capitals and digits both present in most groups (`Q0UWI-4GB02-904F8-HHYQN-9NOPX`)
  (S102). A group of letters only or digits only ("ORDER-2026-…") is the shape of a reference;
  all-hex groups are a hash or a fingerprint;
* a password in a command's own syntax: `smbclient -U user%password` and `rpcclient`'s, the
  password after `%` (S104); a token after `--auth`, `--token`, `--api-key`, `--access-token` or
  `--secret` when it looks random (S104).

Each is checked only on the line it is on, found by a search of the whole text (lines that
cannot hold one cost nothing), and a documented placeholder is never a value.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from memgit.lint.hits import Hit
from memgit.lint.placeholders import is_placeholder

_WIFI_QR = re.compile(r"(?<![A-Za-z])WIFI:(?:[^\n]*?)(?<=[:;])P:(?P<value>(?:\\.|[^;\\\n])+)")
_SETUP_KEY = re.compile(
    r"(?<![A-Za-z0-9])(?P<value>(?:[a-z2-7]{4}[ \u00a0]){7,15}[a-z2-7]{4}|(?:[A-Z2-7]{4}[ \u00a0]){7,15}[A-Z2-7]{4})"
    r"(?![A-Za-z0-9])"
)
_LICENCE = re.compile(r"(?<![A-Za-z0-9-])(?P<value>[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,7})(?![A-Za-z0-9-])")
_SMB_USER = re.compile(
    r"(?i)\b(?:smbclient|rpcclient|smbmap|smbget|mount\.cifs)\b[^\n|;&]*?[ \t](?:-U|--user)[ =]?[\"']?[^\s%\"']+%(?P<value>[^\s\"']{4,})"
)
_TOKEN_OPTION = re.compile(
    r"(?:^|[ \t`])--(?:auth|auth-token|token|api-key|apikey|access-token|secret|client-secret)[ =]+[\"']?"
    r"(?P<value>[A-Za-z0-9_\-.+/=~]{16,})"
)
_HEX = re.compile(r"[0-9A-F-]+")


def find(lines: list[str], wanted: Collection[int] | None) -> list[Hit]:
    """The hits of every format above on `lines` (only those in `wanted`, when given)."""
    hits: list[Hit] = []
    for index, line in enumerate(lines):
        if wanted is not None and index not in wanted:
            continue
        hit = _on_line(index, line)
        if hit is not None:
            hits.append(hit)
    return hits


def _on_line(index: int, line: str) -> Hit | None:
    if "WIFI:" in line:
        for match in _WIFI_QR.finditer(line):
            value = match.group("value")
            if not is_placeholder(value):
                return Hit(index, "S110", "a Wi-Fi key in a network's QR payload; remove it from memory", value)
    if line.count(" ") >= 7 or "\u00a0" in line:
        for match in _SETUP_KEY.finditer(line):
            value = match.group("value")
            if sum(c.isdigit() for c in value) >= 2 and sum(c.isalpha() for c in value) >= 8:
                return Hit(index, "S108", "an authenticator setup key (2FA secret); remove it from memory", value)
    if line.count("-") >= 3:
        for match in _LICENCE.finditer(line):
            value = match.group("value")
            if _licence_shaped(value):
                return Hit(index, "S102", "a product licence key; keep it in a password manager", value)
    if "%" in line:
        for match in _SMB_USER.finditer(line):
            value = match.group("value")
            if not is_placeholder(value):
                return Hit(index, "S104", "a password in a command's user%password; remove it from memory", value)
    if "--" in line:
        for match in _TOKEN_OPTION.finditer(line):
            value = match.group("value")
            if _random(value) and not is_placeholder(value):
                return Hit(
                    index, "S104", "a token after a command's option; remove it and rotate the credential", value
                )
    return None


def _licence_shaped(value: str) -> bool:
    """Groups of one length, most of them mixing capitals and digits, not all hex."""
    groups = value.split("-")
    if len({len(g) for g in groups}) != 1 or _HEX.fullmatch(value):
        return False
    mixed = sum(1 for g in groups if any(c.isdigit() for c in g) and any(c.isalpha() for c in g))
    return mixed * 2 > len(groups) and not is_placeholder(value)


def _random(value: str) -> bool:
    """Letters and digits both, and both cases or three digits or more: not a word nor a path."""
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    mixed_case = any(c.islower() for c in value) and any(c.isupper() for c in value)
    return letters > 0 and (digits >= 3 or (digits > 0 and mixed_case)) and "/" not in value.strip("/")
