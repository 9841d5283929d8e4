"""Credentials in formats that others define, whatever words stand around them (pure).

No label is needed where the format itself says what a value is:

* a Wi-Fi network's QR payload (`WIFI:T:WPA;S:name;P:key;;`, the format phone cameras read,
  ZXing's "barcode contents" convention): its `P:` field is the network key (S110);
* an authenticator app's setup key as the apps display it: eight or more groups of four base32
  characters (`zk3q lqcv 34bi …`), one case, digits among them (S108). Base32 has no 0, 1, 8 or 9,
  so a hex fingerprint or a grouped account number in the same layout never matches;
* a product licence key: four to eight groups of one length (four to six characters) joined by
  hyphens, capitals and digits both present in most groups (`Q0UWI-4GB02-904F8-HHYQN-9NOPX`)
  (S102); three groups when a licence, serial or activation word is on the line. A group of
  letters only or digits only ("ORDER-2026-…") is the shape of a reference; all-hex groups are a
  hash or a fingerprint;
* a passphrase after its label and a colon: the rest of the line, when it is four words or more
  with a capital inside or a digit ("passphrase : lanterne Verte sous la Pluie 1987") (S117);
* a Django `SECRET_KEY` as Django makes one: fifty characters of its alphabet (lower-case letters,
  digits and `!@#$%^&*(-_=+)`), symbols and digits among them (S103);
* a signed URL's signature: AWS's `X-Amz-Signature` (64 hex) and Google's `X-Goog-Signature`
  (S102): whoever holds the URL reads or writes the object until it expires;
* a travel document's machine-readable zone (ICAO 9303: a passport's second line, an ID card's
  lines), whose check digits (weights 7, 3, 1) hold for the document number, the birth date and
  the expiry (S116);
* a password in a command's own syntax: `smbclient -U user%password` and `rpcclient`'s, the
  password after `%` (S104); a token after `--auth`, `--token`, `--api-key`, `--access-token` or
  `--secret` when it looks random (S104);
* a value handed to a secret store on the command line: `gh secret set NAME --body VALUE` (or
  `-b`), `vercel env add … VALUE`, `fly secrets set NAME=VALUE`, `kubectl create secret …
  --from-literal=NAME=VALUE`: whatever the store keeps is a secret by the command's own word (S104);
* a word that can be nothing but a password, with no label at all: a capital, a small letter, a
  digit and a mark identifiers never carry, in a word of its own (`Kamera#Cisowa-2291`,
  `Wp#db-2291xQ`), that no path, address, option, template or expression has (S117);
* WireGuard's `PrivateKey` and `PresharedKey` in its configuration (S101);
* a private key written as base64 (an environment variable or a CI secret holding a whole PEM or
  OpenSSH key): base64 of "-----BEGIN " starts `LS0tLS1CRUdJTi`, and the decoded text names a
  PRIVATE KEY (S101). A certificate's or a public key's base64 is no secret.

Each is checked only on the line it is on, found by a search of the whole text (lines that
cannot hold one cost nothing), and a documented placeholder is never a value.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from memgit.lint.hits import Hit
from memgit.lint.placeholders import is_documented_example, is_placeholder

_WIFI_QR = re.compile(r"(?<![A-Za-z])WIFI:(?:[^\n]*?)(?<=[:;])P:(?P<value>(?:\\.|[^;\\\n])+)")
_SETUP_KEY = re.compile(
    r"(?<![A-Za-z0-9])(?P<value>(?:[a-z2-7]{4}[ \u00a0]){7,15}[a-z2-7]{4}|(?:[A-Z2-7]{4}[ \u00a0]){7,15}[A-Z2-7]{4})"
    r"(?![A-Za-z0-9])"
)
# A setup key shorter than the apps' usual one, after the words that name it ("the setup key
# JK3V 7QWZ 5RMX L2AT", "2FA secret: P4TQ 7XKZ 2MVH 3LRA 5WNC 6YJD"): four to seven groups.
_NAMED_SETUP_KEY = re.compile(
    r"(?i:setup[ \t-]*key|secret[ \t-]*key|2fa[ \t-]*(?:key|secret|seed)|totp[ \t-]*(?:key|secret|seed)"
    r"|mfa[ \t-]*(?:key|secret)|authenticator[ \t-]*(?:key|secret)|clé secrète|geheimer schlüssel)"
    r"[^\n\d]{0,25}?(?<![A-Za-z0-9])(?P<value>(?:[A-Z2-7]{4} ){3,6}[A-Z2-7]{4}|(?:[a-z2-7]{4} ){3,6}[a-z2-7]{4})"
    r"(?![A-Za-z0-9])"
)
_SETUP_KEY_WORD = re.compile(r"(?i)key|secret|2fa|totp|mfa|authenticator|clé|schlüssel")
_LICENCE = re.compile(
    r"(?<![A-Za-z0-9-])(?P<value>(?:[A-Z]{2,3}-)?[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){2,7})(?![A-Za-z0-9-])"
)
_LICENCE_WORD = re.compile(
    r"(?i)licen[cs]|lizenz|licencia|licença|licenza|serial|seriennummer|num[ée]ro de s[ée]rie|product key"
    r"|produktschl[üu]ssel|cl[ée] de produit|activation|aktivierung|activaci[óo]n|ativa[çc][ãa]o|attivazione"
)
_DJANGO_KEY = re.compile(
    r"(?<![A-Za-z0-9!@#$%^&*(\-_=+)])(?P<value>[a-z0-9!@#$%^&*(\-_=+)]{50})(?![A-Za-z0-9!@#$%^&*(\-_=+)])"
)
_SMB_USER = re.compile(
    r"(?i)\b(?:smbclient|rpcclient|smbmap|smbget|mount\.cifs)\b[^\n|;&]*?[ \t](?:-U|--user)[ =]?[\"']?[^\s%\"']+%(?P<value>[^\s\"']{4,})"
)
_TOKEN_OPTION = re.compile(
    r"(?:^|[ \t`])--(?:auth|auth-token|token|api-key|apikey|access-token|secret|client-secret)[ =]+[\"']?"
    r"(?P<value>[A-Za-z0-9_\-.+/=~]{16,})"
)
_HEX = re.compile(r"[0-9A-F-]+")
# A secret store's command and the value it is given: `--body`/`-b`/`--value` after `secret set`,
# a `NAME=VALUE` after `secrets set` or `--from-literal=`, the value after `env add NAME ENV`.
_SECRET_STORE = re.compile(
    r"(?i)\b(?:gh|glab)[ \t]+(?:secret|variable)[ \t]+set\b[^\n|;&]*?[ \t](?:--body|-b|--value|-v)[ =]+[\"']?"
    r"(?P<body>[^\s\"']{12,})"
    r"|\b(?:fly|flyctl|heroku|dokku)[ \t]+(?:secrets[ \t]+set|config:set)\b[^\n|;&]*?[ \t][A-Za-z_][A-Za-z0-9_]*=[\"']?"
    r"(?P<pair>[^\s\"']{12,})"
    r"|--from-literal=[A-Za-z_.-][A-Za-z0-9_.-]*=[\"']?(?P<literal>[^\s\"']{8,})"
)
# WireGuard's keys in its configuration: a private key and a pre-shared key (a peer's public key
# is public), 32 bytes of base64.
_WIREGUARD = re.compile(r"(?i)^\s*(?:PrivateKey|PresharedKey)\s*=\s*(?P<value>[A-Za-z0-9+/]{42,43}=)\s*$")
# Base64 of "-----BEGIN " (three encodings, by where the text starts in a 3-byte group).
_PEM_BASE64 = re.compile(r"(?P<value>LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2})")
_SIGNED_URL = re.compile(r"[?&]X-(?:Amz|Goog)-Signature=(?P<value>[0-9a-f]{64,512})(?![0-9a-f])")
_MRZ = re.compile(r"(?<![A-Z0-9<])(?P<value>[A-Z0-9<]{30}|[A-Z0-9<]{36}|[A-Z0-9<]{44})(?![A-Z0-9<])")
_PASSPHRASE = re.compile(
    r"(?i)(?<![\w-])(?:pass[ -]?phrase|phrase secr[èe]te|phrase de passe|frase de contrase[ñn]a|frase secreta"
    r"|frase-senha|wachtzin|passsatz|kennsatz|парольная фраза)[ \t]*(?:\*\*|__)?[ \t]*[:=：][ \t]*(?:\*\*|__)?[ \t]*"
    r"[\"'`“«]?(?P<value>[^\"'`”»\n]{15,120}?)[\"'`”»]?[ \t]*$"
)


def find(lines: list[str], wanted: Collection[int] | None) -> list[Hit]:
    """The hits of every format above on `lines` (only those in `wanted`, when given), and a
    password beside its login after a sign-in verb (`sign_in.login_pair`, S117)."""
    from memgit.lint import labelled, sign_in

    signing_in = sign_in.sign_in_lines("\n".join(lines))
    hits: list[Hit] = []
    for index, line in enumerate(lines):
        if wanted is not None and index not in wanted:
            continue
        hit = _on_line(index, line)
        if hit is None and index in signing_in and (value := sign_in.login_pair(line)) is not None:
            hit = Hit(
                index, labelled.CODE, "a password beside its login after a sign-in word; remove it from memory", value
            )
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
    if line.count(" ") >= 4 and _SETUP_KEY_WORD.search(line) is not None:
        for match in _NAMED_SETUP_KEY.finditer(line):
            value = match.group("value")
            if any(c.isdigit() for c in value) and sum(c.isalpha() for c in value) >= 6:
                return Hit(index, "S108", "an authenticator setup key after its name; remove it from memory", value)
    if line.count("-") >= 2:
        for match in _LICENCE.finditer(line):
            value = match.group("value")
            if _licence_shaped(value) and (value.count("-") >= 3 or _LICENCE_WORD.search(line)):
                return Hit(index, "S102", "a product licence key; keep it in a password manager", value)
    if ":" in line or "=" in line or "：" in line:
        for match in _PASSPHRASE.finditer(line):
            value = match.group("value").strip(" *_")
            words = value.split()
            inner = any(c.isupper() for word in words[1:] for c in word) or any(c.isdigit() for c in value)
            if (
                len(words) >= 4
                and inner
                and not is_placeholder(value)
                and "://" not in value
                and value[0] not in "<[{$"
            ):
                return Hit(index, "S117", "a passphrase after its label; remove it from memory", value)
    if len(line) >= 50:
        for match in _DJANGO_KEY.finditer(line):
            value = match.group("value")
            symbols = sum(not c.isalnum() for c in value)
            marks = set(value) & set("!@#$%^&*(=+)")  # a slug's "-" and "_" alone are no key
            if (
                symbols >= 4
                and len(marks) >= 2
                and sum(c.isdigit() for c in value) >= 4
                and sum(c.isalpha() for c in value) >= 20
            ):
                return Hit(index, "S103", "a Django secret key; remove it and make a new one", value)
    if "Signature=" in line:
        for match in _SIGNED_URL.finditer(line):
            return Hit(
                index, "S102", "a signed URL's signature; anyone with the link has the object", match.group("value")
            )
    if "<<" in line:
        for match in _MRZ.finditer(line):
            if _mrz_checks(match.group("value")) and not is_documented_example(match.group("value")):
                value = match.group("value")
                return Hit(index, "S116", "a travel document's machine-readable zone; remove it from memory", value)
    if "%" in line:
        for match in _SMB_USER.finditer(line):
            value = match.group("value")
            if not is_placeholder(value):
                return Hit(index, "S104", "a password in a command's user%password; remove it from memory", value)
    found = _keys_and_stores(index, line)
    if found is not None:
        return found
    if "--" in line:
        for match in _TOKEN_OPTION.finditer(line):
            value = match.group("value")
            if _random(value) and not is_placeholder(value):
                return Hit(
                    index, "S104", "a token after a command's option; remove it and rotate the credential", value
                )
    return None


def _keys_and_stores(index: int, line: str) -> Hit | None:
    """WireGuard's keys, a private key as base64, a secret store's value, a word that can be
    nothing but a password (outside a wiki link and a link's target, where `Note 1#Heading`-like
    words are names)."""
    from memgit.lint import labelled

    if "Key" in line or "key" in line:
        wireguard = _WIREGUARD.match(line)
        if wireguard is not None and not is_placeholder(wireguard.group("value")):
            return Hit(index, "S101", "a WireGuard private or pre-shared key; make a new one", wireguard.group("value"))
    if "LS0tLS1CRUdJTi" in line:
        for match in _PEM_BASE64.finditer(line):
            if _private_key(match.group("value")):
                return Hit(
                    index, "S101", "a private key written as base64; remove it and make a new one", match.group("value")
                )
    if "set" in line or "literal" in line:
        for match in _SECRET_STORE.finditer(line):
            value = match.group("body") or match.group("pair") or match.group("literal") or ""
            if _random(value) and not is_placeholder(value) and not value.startswith(("$", "<", "{", "@")):
                return Hit(index, "S104", "a value given to a secret store; remove it and rotate the credential", value)
    if _MARKED.search(line):
        for match in _BARE_WORD.finditer(line):
            value = labelled.password_word(match.group(0))
            if value is not None and labelled.nothing_but_a_password(value) and not _in_link(line, match.start()):
                return Hit(index, "S117", "a word that can be nothing but a password; remove it from memory", value)
    return None


_LINKS = re.compile(r"\[\[[^\]\n]*\]\]|\]\([^)\n]*\)")


def _in_link(line: str, at: int) -> bool:
    """Whether position `at` of `line` is inside a wiki link or a Markdown link's target."""
    return (
        any(link.start() <= at < link.end() for link in _LINKS.finditer(line)) if "[" in line or "](" in line else False
    )


# A line with a word holding a capital, a small letter, a digit and a password's mark.
_MARKED = re.compile(r"[!#$%&?^~€£§]")
_BARE_WORD = re.compile(r"(?<![^\s(\[\"'`“«>|,;])[^\s()\[\]\"'`“”«»<>|,;]{8,40}(?![^\s)\]\"'`”»<|,;.:!?])")


def _private_key(value: str) -> bool:
    """Whether base64 `value` decodes to a PEM or OpenSSH private key's header."""
    import base64
    import binascii

    head = value[: len(value) - len(value) % 4][:200]
    try:
        text = base64.b64decode(head, validate=False).decode("ascii", "replace")
    except (binascii.Error, ValueError):
        return False
    return "-----BEGIN" in text and "PRIVATE KEY" in text


def _mrz_digit(field: str) -> str:
    """ICAO 9303's check digit of `field`: weights 7, 3, 1 over digits, letters (A=10…) and `<` (0)."""
    total = 0
    for position, char in enumerate(field):
        number = int(char) if char.isdigit() else (ord(char) - 55 if char.isalpha() else 0)
        total += number * (7, 3, 1)[position % 3]
    return str(total % 10)


def _mrz_checks(line: str) -> bool:
    """Whether `line` is a machine-readable zone's line whose check digits hold: a passport's
    second line (44), a TD2 document's (36), or an ID card's first or second line (30). A
    document number of filler alone is no document."""
    fields: list[tuple[str, str]]
    if len(line) in (44, 36):
        fields = [(line[0:9], line[9]), (line[13:19], line[19]), (line[21:27], line[27])]
    elif len(line) == 30 and line[:6].replace("<", "").isdigit() and line[7] in "MF<":
        fields = [(line[0:6], line[6]), (line[8:14], line[14])]
    elif len(line) == 30 and line[0].isalpha():
        fields = [(line[5:14], line[14])]
    else:
        return False
    if any(not number.strip("<") or not digit.isdigit() for number, digit in fields):
        return False
    return all(_mrz_digit(number) == digit for number, digit in fields)


def _licence_shaped(value: str) -> bool:
    """Groups of one length (after a short prefix of capitals), most of them mixing capitals and
    digits, not all hex."""
    groups = value.split("-")
    if len(groups) >= 4 and len(groups[0]) <= 3 and groups[0].isalpha():
        groups = groups[1:]  # a product's prefix before the groups ("TW-9KQ2-7XLM-…")
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
