"""Where a key sits in a TOML text: the line numbers memgit.toml's messages name (pure).

`tomllib` parses without positions; a message that names the line a person must edit finds it
again in the text: the key under its `[section]` header, a dotted `section.key =`, or the header.
"""

from __future__ import annotations

import re


def key_line(lines: list[str], section: str, key: str | None = None) -> int | None:
    """The 1-based line of `section.key` (or of the section's header) in a TOML text, for a message
    to point at: the key under its `[section]` header, a dotted `section.key =`, or the header or
    `section =` line itself. None when the text says it some other way."""
    table: str | None = None
    header: int | None = None
    for number, raw_line in enumerate(lines, 1):
        line = raw_line.strip()
        found = re.fullmatch(r"\[\s*([^\[\]]+?)\s*\]\s*(#.*)?", line)
        if found:
            table = found.group(1).replace('"', "").replace(" ", "")
            if table == section and key is None:
                return number
            if table == section and header is None:
                header = number
            continue
        if line.startswith("[["):
            table = None
            continue
        assigned = re.match(r'([A-Za-z0-9_."\- ]+?)\s*=', line)
        if not assigned:
            continue
        name = assigned.group(1).replace('"', "").replace(" ", "")
        full = f"{table}.{name}" if table else name
        if key is None and (full == section or full.startswith(section + ".")):
            return number
        if key is not None and (full == f"{section}.{key}" or full.startswith(f"{section}.{key}.")):
            return number
    return header


def toml_error_line(exc: ValueError) -> str:
    """The line a `tomllib.TOMLDecodeError` names, as text ("?" when it names none)."""
    match = re.search(r"\(at line (\d+), column \d+\)", str(exc))
    return match.group(1) if match else "?"


def digits_line(text: str) -> str:
    """The line of an integer too long for Python to read (over 4,300 digits), which tomllib
    reports without a line."""
    for number, line in enumerate(text.split("\n"), 1):
        if re.search(r"\d{4301}", line):
            return str(number)
    return "?"
