"""Codes listed one a line under a line naming them (lint S108 across lines; pure).

Recovery, backup and one-time codes are printed as a list, one or a few a line, under "Backup
codes:", "## GitHub recovery codes" or "Códigos de backup": alone, each code says nothing, so no
line-by-line rule sees them; their heading does. An item without a digit counts when it has the
shape of the item above it (random codes lack a digit now and then).
"""

from __future__ import annotations

import re

from memgit.lint.shapes import PLACEHOLDER_TEXT

_CODE_LIST_HEAD = re.compile(
    r"(?i)\b(?:recovery|backup|scratch|emergency|2fa|mfa|two[- ]factor|one[- ]time|otp|verification)[ \t-]*"
    r"(?:codes?|keys?)\b"
    # "Códigos de backup", "codes de récupération", "kody zapasowe", "коди відновлення", "Notfallcodes"
    r"|\b(?:c[óo]digos?|codes?|codici|kody|коды|коди)[ \t]+(?:de[ \t]+|di[ \t]+)?"
    r"(?:backup|recupera[çc][ãa]o|recuperaci[óo]n|respaldo|secours|r[ée]cup[ée]ration|recupero|riserva|reserva"
    r"|zapasowe|odzyskiwania|восстановления|відновлення|резервні|резервные)"
    r"|wiederherstellungscodes?|notfallcodes?|backup-codes?|sicherungscodes?"
    # "Backup-koder", "reservekoder", "återställningskoder", "gendannelseskoder", "varakoodit"
    r"|\bbackup-?kod(?:er|erna|ene|it)\b|\breserv(?:e)?kod(?:er|erna|ene)\b|gjenopprettingskod(?:er|ene)"
    r"|återställningskod(?:er|erna)|gendannelseskod(?:er|erne)|\b(?:vara|palautus)koodit\b"
    # "códigos de cópia de segurança", "kurtarma kodları", "yedek kodlar", "herstelcodes",
    # "リカバリーコード", "バックアップコード", "恢复码", "备用码"
    r"|\bc[óo]pias?[ \t]+de[ \t]+seguran[çc]a|\b(?:kurtarma|yedek)[ \t]+kod|\bherstelcodes?|\bback-?upcodes?"
    r"|リカバリー\s*コード|バックアップ\s*コード|恢复码|备用码|恢復碼|備用碼"
)
# One code of a list: letters and digits, in up to four dash-joined groups; codes on one line
# stand apart by spaces, commas, semicolons, middle dots or bars (checked piece by piece: one
# pattern over the whole line backtracks exponentially on a long line that fails at its end).
_CODE_PIECE = re.compile(r"`?(?:[A-Za-z0-9]{4,10}|[A-Za-z0-9]{3}(?=-))(?:-[A-Za-z0-9]{3,10}){0,3}`?")  # "SYN-48QK-7TRM"
# Between codes: spaces and marks, a list's bullets (○ ● ◦ ▪ ☐) and, in columns, the next item's
# number ("1. 4829 1037    6. 7310 5582").
_CODE_SEPARATORS = re.compile(r"(?:[ \t,;·•|/○●◦▪□☐]+|(?<=[ \t])\d{1,2}[.)](?=[ \t]))+")
_LIST_LEAD = re.compile(r"^[ \t]*(?:[-*+○●◦•▪□☐][ \t]+|\d+[.)][ \t]+)?")


def code_list_lines(lines: list[str]) -> list[int]:
    """0-based indexes of the lines that hold only codes under a line naming recovery, backup or
    one-time codes ("## GitHub recovery codes", "Backup codes:"), which no line-by-line rule sees:
    each code alone on its line says nothing; its heading does."""
    out: list[int] = []
    index = 0
    while index < len(lines):
        if _CODE_LIST_HEAD.search(lines[index]) is None:
            index += 1
            continue
        index += 1
        while index < len(lines) and not lines[index].strip():
            index += 1
        # a line of prose between the name and its list ("[I printed them, the ones left are also
        # here …]"): the list is still the one the heading names, unless the line opens another ("…:")
        aside = lines[index] if index + 1 < len(lines) else ""
        if _ASIDE.match(aside) and not aside.rstrip().endswith((":", "：")) and not _is_code_item(aside, None):
            index += 1
            while index < len(lines) and not lines[index].strip():
                index += 1
        if index < len(lines) and lines[index].lstrip().startswith(("```", "~~~")):
            index += 1  # the codes as a code block under the line that names them
        shape = None
        while index < len(lines):
            if _USED_ITEM.match(lines[index]):
                index += 1  # "2. ~~first~~ (used)": a code struck off the list; the list goes on
                continue
            if not _is_code_item(lines[index], shape):
                break
            shape = _skeleton(lines[index])
            out.append(index)
            index += 1
    return out


# A line of prose: neither a list's item, nor a heading, nor a fence.
_ASIDE = re.compile(r"^[ \t]*(?![-*+•#>|]|\d+[.)]|```|~~~)\S")
# An item struck through or ticked off: a used code, or a note in its place ("~~first~~ (used)").
_USED_ITEM = re.compile(r"^[ \t]*(?:[-*+•]|\d+[.)])[ \t]+(?:~~[^~\n]+~~|\[[xX]\])")


def _skeleton(line: str) -> str:
    """A list item's shape: each letter or digit an x ("of174-404mm" -> "xxxxx-xxxxx")."""
    lead = _LIST_LEAD.match(line)
    return re.sub(r"[A-Za-z0-9]", "x", line[lead.end() if lead else 0 :].strip())


def _is_code_item(line: str, shape: str | None = None) -> bool:
    """A line of codes; one without a digit counts when it has the shape of the item above it
    (random codes have no digit now and then: "mihdk-uqnrt" under "of174-404mm")."""
    if len(line) > 400 or PLACEHOLDER_TEXT.search(line):
        return False
    if not any(c.isdigit() for c in line) and (shape is None or _skeleton(line) != shape or len(shape) < 6):
        return False
    pieces = [p for p in _CODE_SEPARATORS.split(line[_LIST_LEAD.match(line).end() :]) if p]  # type: ignore[union-attr]
    with_digits = sum(any(c.isdigit() for c in p) for p in pieces)
    same_shape = shape is not None and _skeleton(line) == shape
    return (
        bool(pieces)
        and all(_CODE_PIECE.fullmatch(p) for p in pieces)
        and (same_shape or 2 * with_digits >= len(pieces))
    )


def may_list_codes(text: str) -> bool:
    """Whether `text` may hold a code list at all (the cheap test before `code_list_lines`)."""
    folded = text.casefold()
    if not any(
        word in folded for word in ("code", "key", "códig", "codig", "codic", "kod", "код", "コード", "码", "碼")
    ):
        return False
    if not any(word in folded for word in _CODE_LIST_WORDS):
        return False
    return _CODE_LIST_HEAD.search(text) is not None


_CODE_LIST_WORDS = (
    "recovery",
    "backup",
    "scratch",
    "emergency",
    "2fa",
    "mfa",
    "factor",
    "one-time",
    "one time",
    "otp",
    "verification",
    "recupera",
    "respaldo",
    "secours",
    "cupération",
    "recupero",
    "riserva",
    "reserva",
    "zapasowe",
    "odzyskiwania",
    "восстановления",
    "відновлення",
    "резерв",
    "wiederherstellung",
    "notfall",
    "sicherung",
    "segurança",
    "seguranca",
    "kurtarma",
    "yedek",
    "herstel",
    "リカバリー",
    "バックアップ",
    "恢复",
    "备用",
    "恢復",
    "備用",
)
