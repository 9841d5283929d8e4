"""Every secret rule over a whole text, each hit with the value it found (pure).

The lint (`rules.lint_file`) and every output (`redact.py`) ask this module, so a secret the lint
names is exactly what redaction hides. Three kinds of rule run here:

* the per-line rules (`rules.scan_secret_values`: token shapes, assignments, spelled-out
  passwords, detect-secrets' detectors, the shape and checksum rules, labels in many languages),
  on the lines a few whole-text searches say they could flag (`candidates.py`);
* the rules that read more than a line (`multiline.py`): a label on one line and its value on the
  next, a table column under a secret-sounding header, a code under its heading, codes listed
  under a recovery heading; and wallet seed phrases (`seeds.py`), numbered one a line or not;
* the field's token scanner, betterleaks (`providers.py`), once over the whole text.

Each hit names the value as written on its line when it can (so an output replaces the value and
keeps the sentence), or None when the rule cannot bound it (a private key block).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import lru_cache

from memgit.lint.hits import Hit
from memgit.lint.line_rules import scan_secret_values
from memgit.lint.placeholders import is_documented_example
from memgit.lint.severity import OFF, is_allowed

_KEY_END = "-----END "


def find_secrets(
    lines: list[str],
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
    only: Collection[int] | None = None,
    candidates: list[int] | None = None,
    known: Mapping[str, str] | None = None,
) -> list[Hit]:
    """Every secret on `lines` (split on \\n, without line ends), ordered by line.

    `only` (0-based indexes) limits the lines a hit may be on (the pre-commit hook judges the lines
    a commit changes; the rules that read around a line still read the lines beside it);
    `candidates`, when the caller found them already, the lines the per-line rules scan; `known`,
    the values (with their rule) a rule found elsewhere in the workspace (`memgit.lint.known`):
    each is a secret wherever it stands here too, whatever the words around it.
    """
    from memgit.lint import candidates as candidate_search
    from memgit.lint import conversation, formats, multiline, providers, seeds

    text = "\n".join(lines)
    if candidates is None:
        candidates = candidate_search.text_candidates(text)
    named = candidate_search.named_lines(text)
    wanted = None if only is None else set(only)
    hits: list[Hit] = []
    for index in candidates:
        if wanted is not None and index not in wanted:
            continue
        for code, message, value in scan_secret_values(lines[index], entropy_threshold):
            hits.append(Hit(index, code, message, value))
    hits = [hit for hit in hits if not (hit.code == "S112" and _in_blob(lines, hit.index))]
    bodies = _key_bodies(lines, hits)
    hits.extend(multiline.find(lines, wanted, named))
    hits.extend(seeds.find(lines, wanted))
    hits.extend(conversation.find(lines, wanted))
    hits.extend(providers.find(lines, wanted))
    found = {(hit.index, hit.value) for hit in hits}  # a format's value beside another rule's on its line
    hits.extend(hit for hit in formats.find(lines, wanted) if (hit.index, hit.value) not in found)
    hits.extend(_linked_names(lines, wanted))
    if bodies:  # a key's body lines are the key's (S101), not bare keys or split values of their own
        inside = {hit.index for hit in bodies}
        hits = [hit for hit in hits if hit.index not in inside or hit.code == "S101"] + bodies
    kept = [
        hit
        for hit in hits
        if (severities is None or severities.get(hit.code) != OFF)
        and not is_allowed(lines[hit.index], hit.code)
        and not (hit.value and is_documented_example(hit.value))
        and not (hit.value and _in_template(lines[hit.index], hit.value))
    ]
    kept = [_with_siblings(lines[hit.index], hit) for hit in kept]
    kept.extend(_card_details(lines, kept))
    kept.extend(
        hit
        for hit in _security_codes(text, lines, kept)
        if (wanted is None or hit.index in wanted)
        and (severities is None or severities.get(hit.code) != OFF)
        and not is_allowed(lines[hit.index], hit.code)
    )
    kept.extend(_same_shape(lines, kept))
    kept.extend(_other_passwords(lines, kept))
    kept.extend(_after_a_slash(lines, kept))
    kept.extend(_other_identifiers(lines, kept))
    kept.extend(hit for hit in _identifiers_below(lines, kept) if wanted is None or hit.index in wanted)
    kept.extend(hit for hit in _network_pairs(lines, kept) if wanted is None or hit.index in wanted)
    kept.extend(_repeated(lines, kept, wanted, _present(text, known)))
    kept.sort(key=lambda hit: (hit.index, not hit.reported))
    return kept


# A local file a line links to or shows: a Markdown link's or image's target, an HTML `src` or
# `href`, a wiki link ("![[…]]"). Whatever shows the note shows the target's path too.
_LINK_TARGET = re.compile(
    r"\]\(\s*+<?([^()\s<>]{6,300})>?(?:\s++\"[^\"\n]*\")?\s*+\)"
    r"|\b(?:src|href)\s*+=\s*+[\"']([^\"'\s]{6,300})[\"']"
    r"|\[\[([^\[\]|#\n]{6,300})"
)


def _linked_names(lines: list[str], wanted: Collection[int] | None) -> list[Hit]:
    """A secret in the name of a local file a line links to ("![sticker](img/modem_admin-hT4…png)"):
    a file's name is read as `name_secret` reads a note's own, wherever the name stands. Web
    addresses are left to the line's own rules."""
    hits = []
    for index, line in enumerate(lines):
        if wanted is not None and index not in wanted or ("](" not in line and "=" not in line and "[[" not in line):
            continue
        for match in _LINK_TARGET.finditer(line):
            target = next(group for group in match.groups() if group)
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith(("#", "//")):
                continue
            hit = name_secret(target.split("#", 1)[0].split("?", 1)[0])
            if hit is not None and hit.value and hit.value in line:
                what = hit.message.replace("in a file name; rename the file", "in a linked file's name; rename it")
                hits.append(Hit(index, hit.code, what, hit.value))
    return hits


#: How a value found in another file is named where it stands again.
_ELSEWHERE = (
    "a secret found elsewhere in this workspace (another file or a commit message), again here; remove it from memory"
)


def _present(text: str, known: Mapping[str, str] | None) -> dict[str, Hit]:
    """The workspace's known values that `text` holds, each as the hit that names it."""
    if not known:
        return {}
    return {value: Hit(-1, code, _ELSEWHERE, value) for value, code in known.items() if value in text}


def known_hits(lines: list[str], known: Mapping[str, str]) -> list[Hit]:
    """Only the lines of `lines` holding a value `known` names, as whole tokens (the one check a
    file needs once every rule has run on it without the workspace's values)."""
    present = _present("\n".join(lines), known)
    return _repeated(lines, [], None, present) if present else []


def _repeated(
    lines: list[str], hits: list[Hit], wanted: Collection[int] | None, known: Mapping[str, Hit] | None = None
) -> list[Hit]:
    """A value found once, wherever else it stands in the same text, as a whole token: an assistant's
    turn that repeats the code the person gave ("Saved: locker 3317"), a password quoted again lower
    down. What a rule found is a secret on every line, whatever words surround it there; so is a
    value `known` from another file of the workspace."""
    values = dict(known or {})
    values |= {hit.value: hit for hit in hits if hit.value and len(hit.value) >= 4 and "\n" not in hit.value}
    if not values:
        return []
    taken = {(hit.index, hit.value) for hit in hits}
    out: list[Hit] = []
    for value, hit in values.items():
        # A whole token; also glued to a short option before it ("-pWisla_root_2019") or to a
        # suffix after a dash ("1357-e", a Persian ezafe; "-nya"), but not inside a longer number.
        pattern = re.compile(r"(?:(?<![\w-])|(?<=\s-[A-Za-z])|(?<=^-[A-Za-z]))" + re.escape(value) + r"(?!\w|-\d)")
        for index, line in enumerate(lines):
            if (index, value) in taken or (wanted is not None and index not in wanted) or value not in line:
                continue
            if pattern.search(line) and not is_allowed(line, hit.code):
                message = hit.message if hit.index < 0 else f"{hit.message.split(';')[0]}, again; remove it from memory"
                out.append(Hit(index, hit.code, message, value))
    return out


_SYMBOL = re.compile(r"[^\w\s]")
# A card's expiry (MM/YY, MM/YYYY) and its security code after the word that names it.
_EXPIRY = re.compile(r"(?<![\d/.-])(?:0[1-9]|1[0-2])[ \t]?/[ \t]?(?:\d{2}|20\d{2})(?![\d/.-])")
_SECURITY_CODE = re.compile(
    r"(?i)(?:\bcvv2?|\bcvc2?|\bcsc|\bcid\b|security code|card code|c[óo]digo de seguran[çc]a|c[óo]digo de seguridad"
    r"|cryptogramme|pr[üu]fnummer|pr[üu]fziffer|sicherheitscode|codice di sicurezza|beveiligingscode|kod cvv"
    r"|安全码|安全碼|セキュリティコード|보안코드|код безопасности)(?:[^\d\n]{0,6}?|[ \t]*[:=|][ \t]*)(?P<code>\d{3,4})(?!\d)"
)


_TOKEN = re.compile(r"(?<![\w-])[A-Za-z0-9]+(?:[-./][A-Za-z0-9]+)*(?![\w-])")
# Beside a four-character code, a word of its shape that is more likely a year or a sequence.
_NOT_A_SHORT_CODE = re.compile(r"(?:19|20)\d\d$|0123|1234|2345|3456|4567|5678|6789|0000|1111")


def _same_shape(lines: list[str], hits: list[Hit]) -> list[Hit]:
    """On a line where a code or an identifier was found after its label, the other words of the
    very same shape: the old code beside the new one ("novo código 482913 (o antigo 739158 …)"),
    the second lock's combination ("7-3-3-1, van de rode 0-4-9-8")."""
    out: list[Hit] = []
    for hit in hits:
        value = hit.value
        if (
            not hit.reported
            or hit.code not in ("S108", "S109", "S116", "S117")
            or not value
            or len(value.strip("#*")) < 4
            or not any(c.isdigit() for c in value)
        ):
            continue
        if " " in value:
            out.extend(_same_groups(lines[hit.index], hit))
            continue
        skeleton = _ALNUM.sub("x", value.strip("#*"))
        for token in _TOKEN.finditer(lines[hit.index]):
            other = token.group(0)
            if (
                other != value.strip("#*")
                and _ALNUM.sub("x", other) == skeleton
                and any(c.isdigit() for c in other)
                and not (
                    len(skeleton) < 5
                    and (other.isdigit() != value.strip("#*").isdigit() or _NOT_A_SHORT_CODE.match(other))
                )
            ):
                out.append(
                    Hit(hit.index, hit.code, f"{hit.message.split(';')[0]}, and one of its shape beside it", other)
                )
    return out


def _same_groups(line: str, hit: Hit) -> list[Hit]:
    """Beside a value of digits in groups ("3079 3196"), the other values grouped the same way
    ("… và 6421 3670"): a second backup code, the second card's number."""
    value = hit.value or ""
    if not re.fullmatch(r"\d{3,6}(?: \d{3,6})+", value):
        return []
    widths = {len(part) for part in value.split(" ")}
    if len(widths) == 1:  # codes of one width: the whole run they stand in ("… 5858 9864 3912)")
        width = widths.pop()
        run = rf"(?<![\w.,/+-])\d{{{width}}}(?: \d{{{width}}})+(?![\w/-]|[.,]\d)"
        return [
            Hit(hit.index, hit.code, f"{hit.message.split(';')[0]}, and one of its shape beside it", match.group(0))
            for match in re.finditer(run, line)
            if match.group(0) != value  # the run around the value, or another run of its codes
        ]
    groups = r" ".join(rf"\d{{{len(part)}}}" for part in value.split(" "))
    return [
        Hit(hit.index, hit.code, f"{hit.message.split(';')[0]}, and one of its shape beside it", match.group(0))
        for match in re.finditer(rf"(?<![\w.,/+-]){groups}(?![\w/-]|[.,]\d| \d)", line)
        if match.group(0) != value
    ]


_WORD_TOKEN = re.compile(r"[^\s,;()\[\]{}<>\"'`“”«»]{8,64}")


def _other_passwords(lines: list[str], hits: list[Hit]) -> list[Hit]:
    """On a line where a password was found, every other word that can be nothing but a password
    (`labelled.only_a_password`): the new one beside the old ("Ο παλιός ήταν Eleni_1972 και ο νέος
    θα είναι Vlachou-E1-Kyklades!"), the second account's. The first rule to find one stops at it."""
    from memgit.lint import labelled

    out: list[Hit] = []
    done: set[int] = set()
    for hit in hits:
        if hit.index in done or not hit.reported or not hit.value or "password" not in hit.message:
            continue
        done.add(hit.index)
        taken = {other.value for other in hits if other.index == hit.index and other.value}
        for token in _WORD_TOKEN.finditer(lines[hit.index]):
            value = labelled.password_word(token.group(0))
            if value is not None and not any(value in other or other in value for other in taken):
                taken.add(value)
                out.append(Hit(hit.index, hit.code, f"{hit.message.split(';')[0]}, and another beside it", value))
    return out


# A network's name and its key written as a pair ("MangwonNest_5G / mangwon-bada-7741",
# "CnocBan-Staff // Luachair!Bog77"): after the value a label took, a slash, then the key.
_SLASH_PAIR = re.compile(r"[ \t]*/{1,2}[ \t]*[\"'`]?(?P<value>[^\s\"'`,;|()]{6,64})")


def _after_a_slash(lines: list[str], hits: list[Hit]) -> list[Hit]:
    """On a line where a key or password was found after its label, the word after a slash right
    behind it: people write a network or a login and its secret as "name / secret", and the label
    took the first of the two."""
    from memgit.lint import labelled

    out: list[Hit] = []
    for hit in hits:
        if not hit.reported or hit.code != "S117" or not hit.value or "code" in hit.message:
            continue
        line = lines[hit.index]
        at = line.find(hit.value)
        pair = _SLASH_PAIR.match(line, at + len(hit.value)) if at >= 0 else None
        if pair is None:
            continue
        value = labelled.trim_value(pair.group("value").rstrip(".!?:)"))
        if value != hit.value and labelled.password_shaped(value) and "://" not in value:
            out.append(Hit(hit.index, hit.code, f"{hit.message.split(';')[0]}, and the secret after it", value))
    return out


def _other_identifiers(lines: list[str], hits: list[Hit]) -> list[Hit]:
    """On a line where an identifier was found after its name, the others named there too; and
    where any personal number was found (an identifier, a member's or a card's number), every other
    run of eight digits or more: "ID 27839104, KRA PIN A009384712K", "adóazonosító jelem
    8441375135, TAJ szám 037815460". A person's numbers travel together; what the line loses to
    this is at most a phone number beside them, and the line is reported already."""
    from memgit.lint import identifiers

    out: list[Hit] = []
    numbered = {hit.index for hit in hits if hit.code in _NUMBER_RULES and hit.reported and hit.value}
    for index in sorted(numbered):
        taken = {hit.value for hit in hits if hit.index == index and hit.value}
        values = (
            identifiers.personal_ids(lines[index])
            if any(hit.index == index and hit.code == identifiers.CODE for hit in hits)
            else []
        )
        values += [
            match.group(0)
            for match in _LONG_NUMBER.finditer(lines[index])
            if not _DATE_DIGITS.fullmatch(match.group(0))
        ]
        for value in values:
            if not any(value in other or other in value for other in taken):
                taken.add(value)
                out.append(Hit(index, identifiers.CODE, "an identifier after its name, beside another", value))
    return out


#: The rules whose values are a person's numbers (a code list's, a member's, an identifier).
_NUMBER_RULES = frozenset({"S108", "S109", "S116"})
# Eight digits or more on their own: not a phone's ("+49 …"), a decimal's, a path's or a word's part.
_LONG_NUMBER = re.compile(r"(?<![\w+.,/:#@-])\d{8,14}(?![\w/@-]|[.,:]\d)")
_DATE_DIGITS = re.compile(r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])")


#: How far below an identifier a number of its kind is read as another one (a list's next items).
_BELOW = 3


def _identifiers_below(lines: list[str], hits: list[Hit]) -> list[Hit]:
    """Below an identifier found after its name, in the same list (no blank line or heading
    between), a number the same validator takes, with as many digits: the next person's
    ("- Fødselsnummer (meg) 2311…" / "- Erik:" / "  1406…"). Its name is the first line's."""
    from memgit.lint import identifiers

    taken = {(hit.index, hit.value) for hit in hits}
    out: list[Hit] = []
    for hit in hits:
        if hit.code != identifiers.CODE or not hit.reported or not hit.value:
            continue
        if lines[hit.index].lstrip().startswith("|"):
            continue  # a table's rows: its column rules judge each row's number by its own country
        for index in range(hit.index + 1, min(len(lines), hit.index + 1 + _BELOW)):
            if not lines[index].strip() or lines[index].lstrip().startswith(("#", "|")):
                break
            for value in identifiers.same_kind(hit.value, lines[index]):
                if (index, value) not in taken:
                    taken.add((index, value))
                    out.append(Hit(index, identifiers.CODE, "an identifier of the kind found just above it", value))
    return out


# A network's name and its key as a pair on a line that names a network, whatever the label:
# "wifi_ofis: "Lacivert-Ofis / Gumruk.Kapisi.2026"", "vanha verkko: Drumso-Koti-OLD / kanelbulle2019".
_NETWORK_WORD = re.compile(
    r"(?i)wi-?fi|wlan|ssid|network|netzwerk|réseau|reseau|rede\b|red\b|rete\b|verkko|nätet|nätverk|netværk|nettverk"
    r"|sieć|siec|мереж|сеть|сети|\bağ|jaringan|เครือข่าย|ネットワーク|网络|網路|와이파이|hotspot"
)
_NAME_SLASH_KEY = re.compile(
    r"(?<![\w/.-])[\"'`“]?(?P<name>[\w][\w.-]{2,40})[ \t]+/{1,2}[ \t]+[\"'`“]?(?P<value>[^\s\"'`”,;|()/]{8,64}+)(?![ \t]*/)"  # not a menu's path
)


def _network_pairs(lines: list[str], hits: list[Hit]) -> list[Hit]:
    """A network's key after its name and a slash, on a line that names a network."""
    from memgit.lint import labelled

    taken = {(hit.index, hit.value) for hit in hits}
    out: list[Hit] = []
    for index, line in enumerate(lines):
        if " / " not in line and " // " not in line or _NETWORK_WORD.search(line) is None:
            continue
        for match in _NAME_SLASH_KEY.finditer(line):
            value = labelled.trim_value(match.group("value").rstrip(".!?:"))
            if (
                (index, value) not in taken
                and any(c.isdigit() for c in value)
                and any(c.isalpha() for c in value)
                and labelled.password_shaped(value)
                and not is_documented_example(value)
                and not is_allowed(line, "S117")
            ):
                out.append(
                    Hit(index, "S117", "a network's key after its name and a slash; remove it from memory", value)
                )
    return out


#: How far below a card number its expiry and security code may stand (a card's block: "Card
#: number", "Expiry", "CVC" on lines of their own, in a code block, a list or a table).
_CARD_BLOCK_LINES = 3


def _card_details(lines: list[str], hits: list[Hit]) -> list[Hit]:
    """On a line where a card number was found (S107), and on the next few lines of its block (up
    to a blank line), its expiry and its security code: the three travel together, and with the
    number hidden the other two still pay with it. Below the number's line only a line that
    holds nothing but them counts (a label and the value), not a sentence that mentions a date."""
    out: list[Hit] = []
    for index in sorted({hit.index for hit in hits if hit.code == "S107" and hit.value}):
        for below in range(index, min(len(lines), index + _CARD_BLOCK_LINES + 1)):
            line = lines[below]
            if below > index and (not line.strip() or not _CARD_DETAIL_LINE.match(line)):
                break
            values = [m.group(0) for m in _EXPIRY.finditer(line)]
            values += [m.group("code") for m in _SECURITY_CODE.finditer(line)]
            for value in dict.fromkeys(values):
                out.append(Hit(below, "S107", "a payment card's expiry or security code beside its number", value))
    return out


# A card's security code by the name only it has (CVV, CVC, CSC), with no card number near: the
# three or four digits on the back that pay with the card ("geldig tot 11/27, CVC 208").
_SECURITY_CODE_ALONE = re.compile(
    r"(?i)(?<![^\W_])(?:cvv2?|cvc2?|csc|security code|card code|c[óo]digo de seguridad|c[óo]digo de seguran[çc]a"
    r"|kartenprüfnummer|cryptogramme)(?![^\W_])"
    # then its words ("(CVC) es", "on the back:"), no digit, a few of them
    r"[^\d\n]{0,18}?(?<![\w-])(?P<code>\d{3,4})(?![\d.,/:-]|[ \t]?(?:%|€|\$|px|ms|kb|mb))"
)


def _security_codes(text: str, lines: list[str], hits: list[Hit]) -> list[Hit]:
    """A security code after its name wherever it stands (the number may be on another page)."""
    if _SECURITY_CODE_ALONE.search(text) is None:
        return []
    taken = {(hit.index, hit.value) for hit in hits}
    out: list[Hit] = []
    for index, line in enumerate(lines):
        for match in _SECURITY_CODE_ALONE.finditer(line):
            code = match.group("code")
            if (
                (index, code) not in taken
                and len(set(code)) > 1
                and code not in ("123", "1234")
                and not re.fullmatch(r"(?:19|20)\d\d", code)  # "security code review 2024"
            ):
                out.append(Hit(index, "S107", "a payment card's security code after its name", code))
    return out


# A line of a card's block below its number: a short label (a list mark, a table's pipes and
# bold allowed), a separator and a short value, nothing else ("Expiry : 03/29", "| CVC | 882 |").
_CARD_DETAIL_LINE = re.compile(
    r"^[\s>*+|-]*[^\W\d][^:=|\n]{0,30}(?:[:=|]|\s[-–—]\s|\s{2,})\s*[\w/ .*-]{1,12}\s*\|?\s*$"
)


_DIGITS_DASHED = re.compile(r"\d(?:-\d){3,}")


# A short code of digits that is hidden wherever it stands in what memgit publishes or copies,
# and which `memgit lint --all` reports wherever it is repeated unless masked
# (`rules.known_findings`): not a year, a round number or a sequence.
_ROUND_OR_YEAR = re.compile(r"(?:19|20)\d\d|\d*00")


def output_value(value: str) -> bool:
    """Whether a found value too short for `workspace_value` is still hidden in every output
    wherever it stands: a code of four to eight digits, or of capitals and digits, or digits in
    groups (a door code told once with its label,
    then "punched 7314, all quiet" in another day's log). A reader of the site or an agent's
    context loses a number that happens to be the same; a lint report about it would be noise."""
    bare = value.strip().strip("*#")
    if _SHORT_CODE.fullmatch(bare) is not None:
        return len(set(re.sub(r"\W", "", bare))) >= 3  # "4B7219", a safe's "36-12-48"
    return (
        bare.isdigit()
        and 4 <= len(bare) <= 8
        and len(set(bare)) >= 3
        and _ROUND_OR_YEAR.fullmatch(bare) is None
        and bare not in "0123456789"
        and bare not in "9876543210"
    )


#: A short code that is not digits alone: capitals and digits, three digits at least ("4B7219"),
#: or two-digit groups as a combination is written ("36-12-48").
_SHORT_CODE = re.compile(
    r"(?=[A-Z]*\d[A-Z]*\d[A-Z]*\d)(?=\d*[A-Z])[0-9A-Z]{4,8}|\d{2,3}(?:[-–.]\d{2,3}){1,3}"
    r"|\d{1,4}[*#]\d{2,6}"  # an intercom's flat and code: "48*2719"
)


def kept_value(value: str) -> bool:
    """Whether the workspace's scan keeps a found value (`memgit.lint.known`): hidden across files
    in outputs, and reported across files by the lint when `workspace_value` holds too."""
    return workspace_value(value) or output_value(value)


def workspace_value(value: str) -> bool:
    """Whether a found value is distinctive enough to be hidden wherever it stands in the whole
    workspace, not only in its own file: eight characters or more with two kinds of character
    (letters and digits, or a symbol), eight digits or more (an account or a national number),
    three words or more (a passphrase, a seed phrase), or single digits joined by dashes
    ("2-9-0-4": a dictated code, nothing else is written so). A short PIN or a plain word stays a
    secret in its own file only: "2024" or "sunflower" elsewhere is a year or a flower."""
    value = value.strip()
    if "\n" in value:
        return False
    if _DIGITS_DASHED.fullmatch(value):
        return True
    if len(value) < 8:
        return False
    letters = any(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    if len(value.split()) >= 3 and len(value) >= 16:
        return True
    if " " in value:
        return letters and digits >= 4 or digits >= 8
    return (letters and (digits > 0 or _SYMBOL.search(value) is not None)) or (not letters and digits >= 8)


def _in_template(line: str, value: str) -> bool:
    """Whether `value` stands inside a template's `{{ … }}` on `line` (a command's documented
    argument: `--db "{{mysql://user:password@host/db}}"`), where it is a placeholder."""
    at = line.find(value)
    if at < 0:
        return False
    opened, closed = line.rfind("{{", 0, at), line.rfind("}}", 0, at)
    return opened > closed and line.find("}}", at + len(value)) >= 0


# Between the codes of a list on one line: spaces, a comma, a semicolon, a slash or a bar.
_LIST_GAP = re.compile(r"[ \t]*[,;/|·][ \t]*|[ \t]+")
_ALNUM = re.compile(r"[A-Za-z0-9]")


def _with_siblings(line: str, hit: Hit) -> Hit:
    """`hit` with its value widened over the tokens of the same shape that follow it on the line:
    "backup codes pk2y-u28j gs2h-it8p 6v0v-ex5a" names one code, but the list is the secret.

    Same shape: the same length, the same separators at the same places, and a digit where the
    value has one. A value without a digit (a passphrase) is never widened: words follow words."""
    value = hit.value
    if not value or not any(c.isdigit() for c in value) or len(value) < 4:
        return hit
    start = line.find(value)
    if start < 0:
        return hit
    skeleton = _ALNUM.sub("x", value)
    end = start + len(value)
    while True:
        gap = _LIST_GAP.match(line, end)
        if gap is None:
            break
        token = line[gap.end() : gap.end() + len(value)]
        after = line[gap.end() + len(value) : gap.end() + len(value) + 1]
        if (
            len(token) != len(value)
            or _ALNUM.sub("x", token) != skeleton
            or not any(c.isdigit() for c in token)
            or (value.isdigit() and not token.isdigit())  # "PIN1 5832, PIN2 …": a label, not the next code
            or (after and (after.isalnum() or after in "-_"))
        ):
            break
        end = gap.end() + len(value)
    if end == start + len(value):
        return hit
    return Hit(hit.index, hit.code, hit.message, line[start:end], hit.reported)


_WIFI_NAME = re.compile(r"(?i)(?<![a-z])(?:wi-?fi|wlan|ssid|hotspot|psk|wpa2?)(?![a-z])")
_NAME_TOKEN = re.compile(r"[^\s]{8,}")
_WIFI_EDGE = re.compile(r"(?i)^(?:wi-?fi|wlan|ssid|hotspot|psk|wpa2?)[-.]|[-.](?:wi-?fi|wlan|ssid|hotspot|psk|wpa2?)$")
#: A name no rule can flag without a label in it: one word of ASCII letters shorter than a token
#: ("memory", "sessions", "people") or a day's date ("2026-11-23", a daily log's name). Every other
#: name goes through the rules: these are most names, and the rules' tables cost a hook ~0.1 s.
_PLAIN_NAME = re.compile(r"[A-Za-z]{1,15}|\d{4}-\d{2}-\d{2}")


@lru_cache(maxsize=4096)  # dreaming and the site ask of the same paths again and again
def name_secret(path: str) -> Hit | None:
    """A secret in a part of `path` (a folder's name, or the file's without its extension), or None;
    the hit's value is as written in the path.

    A file name is published wherever the file is (the site's pages, listings and links, a
    context's section headers), so a secret in it is one in every output: the secret rules read
    each name as a line (also with `_` read as a space), and a Wi-Fi word beside a
    password-shaped word counts too ("wlan Gartenhaus Kirschbaum-4471.md").
    """
    from memgit.lint import identifiers
    from memgit.lint.labelled import password_shaped
    from memgit.lint.name_labels import has_label_stem, value_in_name

    parts = path.split("/")
    names = [*parts[:-1], parts[-1].rsplit(".", 1)[0] if "." in parts[-1].lstrip(".") else parts[-1]]
    for name in names:
        if len(name) < 6 or _PLAIN_NAME.fullmatch(name) and not has_label_stem(name):
            continue
        named = value_in_name(name)
        if named is not None:
            return Hit(0, "S117", f"a {named[0]} after its label in a file name; rename the file", named[1])
        for form in dict.fromkeys((name, name.replace("_", " "))):
            for hit in find_secrets([form]):
                if hit.value and hit.value in name:
                    return Hit(0, hit.code, f"{hit.message.split(';')[0]} in a file name; rename the file", hit.value)
                return Hit(0, hit.code, f"{hit.message.split(';')[0]} in a file name; rename the file", name)
        numbers = [t for t in _NAME_TOKEN.findall(name.replace("_", " ")) if sum(c.isdigit() for c in t) >= 6]
        # a document's name read only beside such a number: the names' patterns cost a hook ~0.1 s
        if numbers and identifiers.names_an_identifier(name.replace("_", " "), accounts=False):  # "ho-chieu-bo_C5…"
            for token in numbers:
                if identifiers.id_value(token, document=True) == token:
                    return Hit(
                        0,
                        identifiers.CODE,
                        "a personal identifier beside its name in a file name; rename the file",
                        token,
                    )
        if _WIFI_NAME.search(name):
            for word in _NAME_TOKEN.findall(name.replace("_", " ")):
                token = _WIFI_EDGE.sub("", word)  # "wpa-KopiTubruk2019": the key after its network's word
                if password_shaped(token) and not _WIFI_NAME.search(token) and not is_documented_example(token):
                    return Hit(0, "S117", "a Wi-Fi key beside its word in a file name; rename the file", token)
    return None


_BASE64_LINE = re.compile(r"^[ \t]*[A-Za-z0-9+/]{40,}={0,2}[ \t]*$")
_ARMOR = re.compile(r"-----(BEGIN|END) ([A-Z0-9 ]+)-----")


def _in_blob(lines: list[str], index: int) -> bool:
    """Whether a bare key line (S112) is one line of a wrapped base64 blob: a certificate, a signed
    message or an image between armor lines that do not name a private key (that is S101's), or
    one of several equal-length base64 lines."""
    for above in range(index - 1, max(-1, index - 200), -1):
        armor = _ARMOR.search(lines[above])
        if armor is not None:
            return armor.group(1) == "BEGIN" and "PRIVATE" not in armor.group(2)
        if not _BASE64_LINE.match(lines[above]):
            break
    width = len(lines[index].strip())
    near = [lines[i] for i in (index - 1, index + 1) if 0 <= i < len(lines)]
    if index > 0 and _BASE64_LINE.match(lines[index - 1]) and len(lines[index - 1].strip()) >= max(60, width):
        return True  # the blob's last, shorter line
    return any(_BASE64_LINE.match(line) and len(line.strip()) == width for line in near)


def _key_bodies(lines: list[str], hits: list[Hit]) -> list[Hit]:
    """A private key's body lines go with their BEGIN line up to END (alone, a base64 line flags
    nothing). A key cut short ("the start of the old key, for comparison") has no END: its body
    ends at the first line no key body holds (a code fence, "… (cut)", prose), so the rest of the
    note is judged on its own lines rather than hidden as the key's."""
    out: list[Hit] = []
    for hit in hits:
        if hit.code != "S101" or _KEY_END in lines[hit.index]:
            continue
        index = hit.index + 1
        while index < len(lines):
            if _KEY_END not in lines[index] and not _KEY_BODY_LINE.match(lines[index]):
                break
            out.append(Hit(index, "S101", hit.message, None, reported=False))
            if _KEY_END in lines[index]:
                break
            index += 1
    return out


# A line of a PEM or OpenSSH key's body: base64, a header ("Proc-Type: 4,ENCRYPTED"), or blank,
# as it stands in a note (indented, quoted, in a list item or a table cell).
_KEY_BODY_LINE = re.compile(r"^[\s>|*-]*(?:[A-Za-z0-9+/=]+|[A-Za-z][A-Za-z-]*:[^\n]*)?[\s|]*$")
