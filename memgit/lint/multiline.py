"""Secrets whose meaning comes from the lines around them (pure).

A value alone on its line says nothing; the line above, the table's header or the section's
heading says what it is:

* a label ending its line ("WLAN-Passwort:", "**Door code**", "## PIN") and the value alone on the
  next line (S117, or S116 for an identifier's name);
* a table whose header names a column as a password, code, key or identifier: that column's
  cells (S117 / S116);
* a heading naming a code (door, alarm, safe, PIN…) and, in its section, a line holding little
  but a code (S117);
* codes listed one a line under a recovery, backup or one-time code heading (S108,
  `code_lists.py`);
* a token split over two lines: the end of one line and the start of the next, joined (with the
  line above when the label is there), are what a per-line rule flags (that rule's code);
* a sentence wrapped between a label and its value: the two lines read as one by the per-line
  rules, the value within `WRAP_CHARS` of its label across the break (that rule's code);
* a word that can be nothing but a password, alone under a line ending in ":" (S117).

Each finds its anchors (labels, headers, headings) with whole-text searches first, so a text
without one costs a few searches.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Collection

from memgit.lint import candidates, code_lists, identifiers, labelled, shapes
from memgit.lint.hits import Hit

#: How many lines below its heading a code may be.
SECTION_LINES = 15
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$|^\s*\*\*([^*]{1,60})\*\*:?\s*$")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
# A line holding little but a value: list marks, quotes, code marks around one token.
_ALONE = re.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)?[`\"'“„«]*(?P<value>\d{1,4}(?: \d{1,4}){1,7}|[^\s`\"'“”„«»]{4,512})[`\"'”»]*\s*$"
)
_CODE_NEAR = re.compile(r"(?<![\w#$€£+./:,-])(\*?\d{1,4}(?:[- ]?\d{1,4}){0,3}#?)(?![\w.,/:%€$£-]?\d|\w)")
_TAIL = re.compile(r"(?P<tail>[A-Za-z0-9+/=_-]{8,})\s*$")
_HEAD = re.compile(r"^\s*(?P<head>[A-Za-z0-9+/=_-][^\s`\"'“”„«»]+)")


def find(lines: list[str], wanted: Collection[int] | None, named: Collection[int] | None = None) -> list[Hit]:
    """Every hit of the rules above on `lines` (only on lines in `wanted`, when given). `named`: the
    lines that may hold a label or an identifier's name (`candidates.named_lines`), when known."""
    hits = [*_code_lists(lines), *_next_line(lines, named), *_tables(lines), *_sections(lines), *_split(lines)]
    hits += _wrapped(lines, None if named is None else candidates.stem_lines("\n".join(lines)))
    hits += _lone_passwords(lines)
    hits += _split_iban(lines)
    return [hit for hit in hits if wanted is None or hit.index in wanted]


def _hit(index: int, code: str, what: str, value: str | None) -> Hit:
    return Hit(index, code, f"{what} ({_hint(value or '')}); remove it from memory", value)


def _hint(value: str) -> str:
    return value[:4] + "…" if len(value) > 8 else "…"


def _next_value(lines: list[str], index: int) -> int | None:
    """The index of the next non-blank line after `index` (within two lines), or None."""
    for following in range(index + 1, min(len(lines), index + 3)):
        if lines[following].strip():
            return following
    return None


def _next_line(lines: list[str], named: Collection[int] | None) -> list[Hit]:
    hits = []
    for index in sorted(named) if named is not None else range(len(lines)):
        line = lines[index]
        if not line.strip() or len(line) > (200 if line.rstrip().endswith((":", "：")) else 80):
            continue
        kind = labelled.label_at_end(line)
        bank = document = False
        local = None
        if kind is None:
            name = identifiers._NAMES.search(line)
            ends = line.rstrip().endswith((":", "："))
            if name is None or not ends and (line[name.end() :].strip(" \t:：*_`#-=") or len(line) > 60):
                local = identifiers.local_name_ending(line)
                if local is None:
                    continue
                kind = "local id"
            else:
                kind, bank = "id", identifiers._BANK_NAMES.search(name.group(0)) is not None
                document = identifiers._DOCUMENTS.search(name.group(0)) is not None
        following = _next_value(lines, index)
        if following is None:
            continue
        alone = _ALONE.match(lines[following])
        if (
            alone is None
            or lines[following].lstrip().startswith(("```", "~~~", "#"))
            or lines[following].rstrip().endswith(":")
        ):
            continue
        value = alone.group("value")
        if len(_squeezed(value)) >= 4 and _squeezed(value) in _squeezed(line):
            continue  # a name the line mentions ("… starts KeePass 2 …:" then `keepass2`), no secret
        if kind == "id":
            found = identifiers.id_value(value, bank=bank, document=document)
            if found is not None:
                hits.append(_hit(following, identifiers.CODE, "an identifier under its name", found))
        elif kind == "local id":
            taken = identifiers.local_ids(f"{local} {value}")
            if taken and taken[0] in lines[following]:
                hits.append(_hit(following, identifiers.CODE, "an identifier under its name", taken[0]))
        elif labelled.value_kind_ok(kind, value, strong=True, alone=True) and (
            kind not in ("password", "key") or labelled.password_shaped(labelled.trim_value(value))
        ):
            hits.append(_hit(following, labelled.CODE, f"a {kind} under its label", labelled.trim_value(value)))
    return hits


def _squeezed(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


#: A table: its header's cells, then each body row as (line index, cells).
Table = tuple[list[str], list[tuple[int, list[str]]]]


def _tables(lines: list[str]) -> list[Hit]:
    """A table's columns and rows read alike whatever wrote it: Markdown pipes, HTML rows, or
    delimited lines (CSV, semicolons, tabs) under a header, so a secret column is one invariant
    and not one rule per format."""
    hits = []
    for header, rows in [*_pipe_tables(lines), *_html_tables(lines), *_delimited_tables(lines)]:
        kinds: dict[int, tuple[str, bool]] = {}
        for column, cell in enumerate(header):
            kind = labelled.label_kind(cell)
            if kind is not None:
                kinds[column] = (kind, False)
            elif identifiers.names_id(cell) and len(cell) <= 40:
                kinds[column] = ("id", identifiers._BANK_NAMES.search(cell) is not None)
        # "| bank | what for | number |", "| rekening | IBAN / nomor | buat apa |"
        if any(_BANK_HEADER.match(cell) or identifiers.names_an_account(cell) for cell in header):
            for column, cell in enumerate(header):
                if column not in kinds and _NUMBER_HEADER.match(cell):
                    kinds[column] = ("id", True)
        # "| who | document | number | valid until |", whose rows name a passport or a licence (not an invoice)
        if any(
            _DOCUMENT_HEADER.match(cell)
            and any(column < len(cells) and identifiers.names_a_document(cells[column]) for _index, cells in rows)
            for column, cell in enumerate(header)
        ):
            for column, cell in enumerate(header):
                if column not in kinds and _NUMBER_HEADER.match(cell):
                    kinds[column] = ("document", False)
        country = _country_column([cells for _index, cells in rows])
        logins = any(_LOGIN_HEADER.search(cell) for cell in header) and len(header) >= 3
        for index, cells in rows:
            named = _named_pair(cells)
            if named is not None:
                hits.append(_hit(index, labelled.CODE, "a key beside its name in a table row", named))
            hits.extend(_row_hits(index, cells, country, logins, set(kinds)))
            for column, (kind, bank) in kinds.items():
                if column >= len(cells) or not cells[column]:
                    continue
                cell = cells[column].strip("`*_ ")
                if kind == "id":
                    found = identifiers.id_value(cell, bank=bank) or _as_prose(header[column], cell)
                    if found is not None:
                        hits.append(_hit(index, identifiers.CODE, "an identifier in its column", found))
                elif kind == "document":
                    if _DOCUMENT_VALUE.fullmatch(cell) and not identifiers.looks_like_a_date(cell):
                        hits.append(_hit(index, identifiers.CODE, "a document's number in its column", cell))
                elif " " not in cell and labelled.value_kind_ok(kind, cell, strong=True, alone=True):
                    hits.append(_hit(index, labelled.CODE, f"a {kind} in its column", labelled.trim_value(cell)))
    return hits


# A table of a person's banks, and its column of numbers: each row's number is an account's.
_BANK_HEADER = re.compile(
    r"(?i)^[\W_]*(?:bank|banks|bank name|banco|banque|banca|banka|bankas|pankki|банк|банка|은행|銀行|银行|ngân hàng)[\W_]*$"
)
# A table of a person's documents, and its column of numbers ("| Хто | Документ | Номер | Діє до |"):
# each row's number is a passport's, a licence's or an identity card's, with letters of any script.
_DOCUMENT_HEADER = re.compile(
    r"(?i)^[\W_]*(?:documents?|docs?|dokument[ey]?|documentos?|документ[иы]?|belge|doklady?|dokumentas|έγγραφ[οα]"
    r"|pièce|ausweis|identity documents?|id documents?|ids?|身份证件|証明書|신분증)[\W_]*$"
)
_DOCUMENT_VALUE = re.compile(r"(?=(?:\D*\d){6})[^\W_]{0,3}[ -]?[^\W_]{6,12}")
_NUMBER_WORD = r"(?:" + identifiers.number_marks() + r"|no|nr|iban)"
_NUMBER_HEADER = re.compile(r"(?i)^[\W_]*" + _NUMBER_WORD + r"(?:[ \t/&+,]+" + _NUMBER_WORD + r")*+[\W_]*$")


def _pipe_tables(lines: list[str]) -> list[Table]:
    out: list[Table] = []
    index = 0
    while index < len(lines) - 2:
        if not (_TABLE_ROW.match(lines[index]) and _TABLE_RULE.match(lines[index + 1])):
            index += 1
            continue
        header = _cells(lines[index])
        index += 2
        rows = []
        while index < len(lines) and _TABLE_ROW.match(lines[index]):
            rows.append((index, _cells(lines[index])))
            index += 1
        out.append((header, rows))
    return out


_HTML_ROW = re.compile(r"(?is)^\s*<tr\b[^>]*>(.*?)</tr>\s*$")
_HTML_CELL = re.compile(r"(?is)<t([hd])\b[^>]*>(.*?)</t[hd]>")
_HTML_BETWEEN = re.compile(r"(?i)^\s*</?(?:thead|tbody|tfoot)\b[^>]*>\s*$")
_TAGS = re.compile(r"<[^>]{0,200}>")


def _html_tables(lines: list[str]) -> list[Table]:
    """Tables of `<tr>` rows written one a line: the header is the row of `<th>` cells (or the
    first row), the rows under it its body."""
    if not any("<tr" in line.lower() for line in lines):
        return []
    out: list[Table] = []
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    for index, line in enumerate([*lines, ""]):
        match = _HTML_ROW.match(line)
        if match is None:
            if _HTML_BETWEEN.match(line):
                continue
            if header is not None and rows:
                out.append((header, rows))
            header, rows = None, []
            continue
        cells = [_TAGS.sub("", cell).strip() for _kind, cell in _HTML_CELL.findall(match.group(1))]
        if header is None:
            header = cells
        else:
            rows.append((index, cells))
    return out


_DELIMITERS = (";", "\t", ",")


def _delimited_tables(lines: list[str]) -> list[Table]:
    """Delimited lines (CSV, semicolons, tabs) under a header of short names: two or more lines in
    a row with as many fields of one delimiter, the first of them naming its columns. Fields are
    read by Python's `csv` module, so a quoted field may hold the delimiter ("Paris, FR")."""
    out: list[Table] = []
    index = 0
    while index < len(lines) - 1:
        header_line = lines[index]
        delimiter = next((d for d in _DELIMITERS if d in header_line), None)
        header = _fields(header_line, delimiter) if delimiter else []
        if (
            delimiter is None
            or len(header) < 2
            or header_line.lstrip().startswith(("|", "-", "*", "#", ">"))
            or not all(0 < len(cell) <= 30 and len(cell.split()) <= 3 for cell in header)
        ):
            index += 1
            continue
        rows: list[tuple[int, list[str]]] = []
        end = index + 1
        while end < len(lines) and lines[end].strip() and len(row := _fields(lines[end], delimiter)) == len(header):
            rows.append((end, row))
            end += 1
        if rows:
            out.append((header, rows))
        index = end
    return out


def _fields(line: str, delimiter: str) -> list[str]:
    try:
        return [cell.strip() for cell in next(csv.reader([line], delimiter=delimiter, skipinitialspace=True))]
    except (csv.Error, StopIteration):
        return []


#: A header cell naming a login (a user name, an account, an e-mail address), in the languages of
#: the labels: in a row beside one, a password-shaped cell is that login's password.
_LOGIN_HEADER = re.compile(
    r"(?i)^[ *_`]*(?:user(?:name)?|login|account|e-?mail|id|benutzer(?:name)?|konto|nutzer|utilisateur|identifiant"
    r"|compte|usuario|cuenta|utente|utilizador|gebruiker(?:snaam)?|użytkownik|uzytkownik|логин|пользователь"
    r"|користувач|kullanıcı|아이디|사용자|ユーザー(?:名|ID)?|ログイン|用户名|账号|賬號|帳號)[ *_`]*$"
)


#: A country cell: a two-letter code alone ("BG") or after a place ("Varna, BG", "Cluj (RO)").
_COUNTRY_CELL = re.compile(r"(?:[^,()|]{1,40}(?:,[ \t]*|[ \t]+\())?(?P<code>[A-Z]{2})\)?")


def country_of(cell: str) -> str | None:
    """The two-letter country code a table cell names, alone or after a place, else None."""
    match = _COUNTRY_CELL.fullmatch(cell.strip("`*_ "))
    return match.group("code") if match is not None else None


def _country_column(rows: list[list[str]]) -> int | None:
    """The column whose cells are two-letter country codes ("IL", "CA", "US"), or places with
    one ("Varna, BG"), if one is."""
    if not rows:
        return None
    width = min(len(row) for row in rows)
    for column in range(width):
        if sum(country_of(row[column]) is not None for row in rows) * 2 > len(rows):
            return column
    return None


def _row_hits(index: int, cells: list[str], country: int | None, logins: bool, labelled_columns: set[int]) -> list[Hit]:
    """What one table row says of itself: an identifier valid for the row's country, a value after a
    cell that labels it ("| Bank — código multicanal | 48213390 | 771204 |"), or a password beside
    a login column."""
    hits: list[Hit] = []
    if country is not None and country < len(cells):
        for column, cell in enumerate(cells):
            if column != country and column not in labelled_columns:
                found = identifiers.country_id(cell, country_of(cells[country]) or "")
                if found is not None:
                    hits.append(_hit(index, identifiers.CODE, "an identifier of the row's country", found))
    if cells and len(cells[0]) <= 40 and identifiers.names_id(cells[0]):
        for cell in cells[1:]:  # "| Passeport FR | 19CX… | 2029-06 |": the row's first cell names it
            found = _as_prose(cells[0], cell)
            if found is not None:
                hits.append(_hit(index, identifiers.CODE, "an identifier after its name in a table row", found))
                break
    else:  # "| Oksana | закордонний паспорт UA | FT024869 | 2027-09-02 |": a cell names the next one
        for column, cell in enumerate(cells[1:-1], start=1):
            if column in labelled_columns or len(cell) > 40 or not identifiers.names_id(cell):
                continue
            found = _as_prose(cell, cells[column + 1])
            if found is not None:
                hits.append(_hit(index, identifiers.CODE, "an identifier after its name in a table row", found))
                break
    label_at = next((c for c, cell in enumerate(cells[:-1]) if labelled.label_kind(cell.split("—")[-1])), None)
    if label_at is not None:
        kind = labelled.label_kind(cells[label_at].split("—")[-1]) or "password"
        for cell in cells[label_at + 1 :]:
            value = cell.strip("`*_ ")
            if re.search(r"\s", value) and not re.fullmatch(r"\d{1,4}(?: \d{1,4}){1,5}", value):
                continue  # words: a description, not a value
            if labelled.value_kind_ok(kind, value, strong=True, alone=True) and (
                kind not in ("password", "key") or labelled.password_shaped(labelled.trim_value(value))
            ):
                hits.append(
                    _hit(index, labelled.CODE, f"a {kind} after its label in a table row", labelled.trim_value(value))
                )
    if logins:
        for column, cell in enumerate(cells):
            value = cell.strip("`*_ ")
            if column in labelled_columns or " " in value or len(value) < 8 or not labelled.password_shaped(value):
                continue
            if "@" in value or re.search(r"[/\\]|\.\w{2,4}$", value):
                continue  # an address, a path or a file name
            if labelled.strong_password_shape(value) and labelled.value_kind_ok(
                "password", value, strong=True, alone=True
            ):
                hits.append(_hit(index, labelled.CODE, "a password beside a login in a table row", value))
    return hits


def _as_prose(name: str, cell: str) -> str | None:
    """An identifier in `cell` read as the prose rule reads "name: value" (a document's number
    has no checksum: its name before it is what says what it is)."""
    value = cell.strip("`*_ ")
    if not value or len(value) > 40:
        return None
    found = identifiers.personal_id(f"{name.strip('`*_ ')}: {value}")
    return found if found is not None and found in cell else None


_KEY_NAME = re.compile(r"(?i)api[_ -]?key|secret|token|passw|private[_ -]?key|access[_ -]?key|credential|auth")


def _named_pair(cells: list[str]) -> str | None:
    """A random-looking token in a row that names a key in another cell (| Datadog | DD_API_KEY |
    d2b4… |): the row reads as "name: value"."""
    if not any(_KEY_NAME.search(cell) for cell in cells):
        return None
    for cell in cells:
        value = cell.strip("`*_ ")
        if " " not in value and len(value) >= 16 and not _KEY_NAME.search(value) and shapes._random_token(value, ""):
            return value
    return None


def _sections(lines: list[str]) -> list[Hit]:
    """A code on a short line of a section whose heading names a code (door, alarm, PIN…)."""
    hits = []
    fenced = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced  # a "#" line inside a fence is a comment of the code, not a heading
            continue
        if fenced or ("#" not in line and "**" not in line):
            continue
        heading = _HEADING.match(line)
        if heading is None:
            continue
        title = heading.group(1) or heading.group(2) or ""
        # A thing a code opens (a safe, a door): its combination may be written as "22-07-61".
        kind = "place" if _names_code(title) else "code"
        if kind == "code" and not labelled.names_a_specific_code(title):
            continue
        for following in range(index + 1, min(len(lines), index + 1 + SECTION_LINES)):
            text = lines[following]
            if _HEADING.match(text):
                break
            if len(text) > 60 or shapes.not_a_secret_code(text):
                continue
            for match in _CODE_NEAR.finditer(text):
                value = match.group(1)
                before = text[: match.start()]
                if _OWN_NUMBER_LABEL.search(before) and not (
                    _names_code(before) or labelled.names_a_specific_code(before)
                ):
                    continue  # "Servicenr. Verisure 21 61 56 00": the number its own label names
                if labelled.value_kind_ok(kind, value, strong=True, alone=True, before=before):
                    hits.append(_hit(following, labelled.CODE, "a code under its heading", value))
                    break
    return hits


_CODE_TITLE = re.compile(
    r"(?i)(?<![^\W_])(?:door|gate|alarm|safe|keypad|lockbox|key ?safe|garage|intercom|entry|tür|tor|alarmanlage"
    r"|tresor|porte|portail|alarme|coffre|puerta|alarma|caja fuerte|portão|alarme|cofre|porta|allarme|cassaforte"
    r"|deur|kluis|drzwi|sejf|дверь|домофон|сигнализация|сейф|kapı|kasa|门禁|門禁|保险箱|玄関|金庫|현관|도어락|금고)"
    r"(?![^\W_])"
)


# A number's own label on its line: a number word, also as a compound's tail ("Servicenr.",
# "Kundennummer"), or a phone's word or prefix ("tel.", "+47"); never a bare "no", which is a
# word ("no change: 4821"). Under a code's heading, the number after it is what that label names.
_OWN_NUMBER_LABEL = re.compile(
    r"(?i)(?:nr|nummer|number|numer|numéro|número|numero|numara|номер)\b\.?|\bno\.|\+\d"
    r"|\b(?:tel|telefon|telephone|phone|puhelin|hotline|fax)\b"
)


def _names_code(title: str) -> bool:
    return _CODE_TITLE.search(title) is not None


def _code_lists(lines: list[str]) -> list[Hit]:
    if not code_lists.may_list_codes("\n".join(lines)):
        return []
    what = "a code listed under a recovery, backup or one-time code heading"
    return [
        _hit(index, "S108", what, lines[index].strip(" \t-*+`") or None) for index in code_lists.code_list_lines(lines)
    ]


def _split(lines: list[str]) -> list[Hit]:
    """A token broken over two lines: flagged joined, by a per-line rule, and by neither half. The
    line above joins in when the token's label is there ("the password is" / "Klidi-Rec-2026-" /
    "Xq7 (…)")."""
    from memgit.lint.line_rules import scan_secret_values

    hits = []
    for index in range(len(lines) - 1):
        end = lines[index].rstrip()
        tail = _TAIL.search(end, max(0, len(end) - 300))  # bounded: a long run costs linear time
        if tail is None:
            continue
        head = _HEAD.match(lines[index + 1])
        if head is None or not any(c.isdigit() for c in tail.group("tail") + head.group("head")):
            continue
        joined = end[: tail.end("tail")] + head.group("head") + lines[index + 1][head.end("head") :]
        seam = tail.end("tail")
        found = scan_secret_values(joined)
        above = lines[index - 1].strip() if index > 0 else ""
        if (
            not _across(found, joined, seam)
            and above
            and not end[: tail.start("tail")].strip()
            and not scan_secret_values(above)
        ):
            joined, seam = above + " " + joined, len(above) + 1 + seam
            found = scan_secret_values(joined)
        if not _across(found, joined, seam) or scan_secret_values(lines[index]) or scan_secret_values(lines[index + 1]):
            continue  # a half a rule finds alone is a whole token of its own, not a half
        code, _message, _value = found[0]
        hits.append(_hit(index, code, "a secret split over two lines", tail.group("tail")))
        hits.append(_hit(index + 1, code, "a secret split over two lines", head.group("head")))
    return hits


def _across(found: list[tuple[str, str, str | None]], joined: str, seam: int) -> bool:
    """Whether a value of `found` stands across `seam`, the place in `joined` where the lines met."""
    for _code, _message, value in found:
        if value is None:
            return True
        start = joined.find(value)
        if start < seam < start + len(value):
            return True
    return False


#: How far a wrapped label's value may stand from it: characters after the label on its line and
#: before the value on the next, together.
WRAP_CHARS = 30
# What a wrapped value's start holds: a digit, or a long word with a mark inside.
_WRAP_VALUE = re.compile(r"\d|(?=[^\s]{8})[^\s]*[^\w\s][^\s]*")
#: What `_wrapped` says of its hits (a conversation drops those whose two lines are two turns).
WRAPPED = "a secret after its label on the line above"
# Where a wrapped sentence cannot go on: the next line opens a list item, a quote, a heading, a
# table row or a fence, or the line ends its sentence.
_NEW_BLOCK = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|[>#|]|```|~~~|<!--)")


def _wrapped(lines: list[str], named: Collection[int] | None) -> list[Hit]:
    """A label at the end of a line and its value at the start of the next, in a sentence wrapped
    at a word ("… then * and the PIN" / "4070#. Eleni never …"): the two lines read as one by the
    per-line rules, and a value they find on the second line that neither line shows alone. A
    line break, like any wording, never hides what the same text on one line shows."""
    from memgit.lint.line_rules import scan_secret_values

    hits = []
    fenced: set[int] | None = None
    for index in sorted(named) if named is not None else range(len(lines)):
        if index + 1 >= len(lines):
            continue
        first, second = lines[index].rstrip(), lines[index + 1].strip()
        if not first or not second or first.endswith((".", "!", "?", ":", "|")) or _NEW_BLOCK.match(lines[index + 1]):
            continue
        if _WRAP_VALUE.search(second, 0, WRAP_CHARS) is None:
            continue  # no digit and no long word with a mark where the value would start
        label = _last_label(first[-WRAP_CHARS:])
        if label is None:
            continue  # the label must end the line, or nearly: its value is the next line's first words
        fenced = _fenced(lines) if fenced is None else fenced
        if index in fenced or index + 1 in fenced:
            continue
        start = len(first) + 1
        joined = first + " " + second
        alone = {value for _c, _m, value in scan_secret_values(second)}
        for code, _message, value in scan_secret_values(joined):
            if value is None or value in alone or joined.find(value, start) < 0 or value not in second:
                continue
            if joined.find(value) < start and value in first:
                continue  # the first line's own value
            before = second[: second.find(value)]
            if labelled.any_label().search(before) or identifiers._NAMES.search(before):
                continue  # a label on the second line is that line's, which it judged alone
            if len(first[-WRAP_CHARS:]) - label + len(before) > WRAP_CHARS:
                continue  # too far from the label across the break to be its value
            hits.append(_hit(index + 1, code, WRAPPED, value))
            break
    return hits


def _last_label(tail: str) -> int | None:
    """Where the last label or identifier's name in `tail` ends, or None."""
    folded = tail.replace("\u0130", "i").lower().replace("_", " ").replace("-", " ")
    if not any(stem in folded for stem in candidates.name_stems()):
        return None  # a tenth of the patterns' cost: most tails hold no stem
    end = None
    for pattern in (labelled.any_label(), identifiers._NAMES):
        for match in pattern.finditer(tail):
            end = max(end or 0, match.end())
    return end


def _lone_passwords(lines: list[str]) -> list[Hit]:
    """A word that can be nothing but a password (three kinds of character and a mark identifiers
    never carry: "Grafeio!Limn#7731"), alone on its line under a line that ends in ":" ("…, I
    noted it as:"): whatever words announced it, the line gives it and nothing else."""
    hits = []
    fenced: set[int] | None = None
    for index, line in enumerate(lines):
        if not line.rstrip().endswith((":", "：")):
            continue
        following = _next_value(lines, index)
        if following is None:
            continue
        alone = _ALONE.match(lines[following])
        if alone is None:
            continue
        value = alone.group("value")
        if len(value) > 64 or not labelled.only_a_password(value) or labelled._PASSWORD_MARK.search(value) is None:
            continue
        fenced = _fenced(lines) if fenced is None else fenced
        if following not in fenced:
            hits.append(_hit(following, labelled.CODE, "a password alone under the line that gives it", value))
    return hits


def _fenced(lines: list[str]) -> set[int]:
    """The lines inside fenced code blocks, fences included."""
    out: set[int] = set()
    inside = False
    for index, line in enumerate(lines):
        fence = line.lstrip().startswith(("```", "~~~"))
        if inside or fence:
            out.add(index)
        if fence:
            inside = not inside
    return out


_IBAN_START = re.compile(r"(?<![A-Za-z0-9])(?P<part>[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){1,7}) *$")
_IBAN_REST = re.compile(r"^[ \t>*-]*(?P<rest>[A-Z0-9]{1,4}(?: [A-Z0-9]{1,4}){0,7})(?![A-Za-z0-9])")


def _split_iban(lines: list[str]) -> list[Hit]:
    """An IBAN printed in groups and broken over two lines ("GB34 NWBK 6016" / "1373 5878 41"):
    its two parts, when joined they pass the IBAN check and the first alone does not."""
    from stdnum import iban

    hits = []
    for index in range(len(lines) - 1):
        start = _IBAN_START.search(lines[index].rstrip())
        if start is None:
            continue
        rest = _IBAN_REST.match(lines[index + 1])
        if rest is None:
            continue
        part, tail = start.group("part"), rest.group("rest")
        if iban.is_valid(part) or not iban.is_valid(part + tail):
            continue
        hits.append(_hit(index, "S116", "an IBAN split over two lines", part))
        hits.append(_hit(index + 1, "S116", "an IBAN split over two lines", tail))
    return hits
