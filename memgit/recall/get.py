"""Reading memory files by line range, for people (`memgit get`) and agents (`memory_get`)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from memgit.core.chunking import split_lines
from memgit.core.paths import path_from_key, path_key
from memgit.core.provenance import strip_markers
from memgit.core.text import NotText, decode_memory_text
from memgit.errors import MemgitError
from memgit.workspace import Workspace

SPEC_RE = re.compile(r"^(?P<path>.+?)(?::(?P<start>\d+)(?:-(?P<end>\d+))?)?$")


@dataclass
class ReadResult:
    path: str
    start_line: int
    end_line: int
    total_lines: int
    text: str
    truncated: bool
    next_start: int | None
    hint: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_spec(spec: str) -> tuple[str, int | None, int | None]:
    """`PATH[:START[-END]]` -> (path, start, end); pure. PATH may be in git's quoting, as
    `memgit search` prints a name that is not UTF-8 (`"memory/caf\\351.md":3-4`)."""
    match = SPEC_RE.match(spec.strip())
    if not match:
        raise MemgitError(f"cannot read {spec!r}: use PATH, PATH:START or PATH:START-END")
    start = int(match["start"]) if match["start"] else None
    end = int(match["end"]) if match["end"] else None
    return path_from_key(match["path"]), start, end


def read_memory(
    ws: Workspace,
    path: str,
    start: int | None = None,
    end: int | None = None,
    *,
    max_lines: int = 120,
    max_chars: int = 12_000,
    record: bool = True,
) -> ReadResult:
    """Lines `start`..`end` of a memory file, at most `max_lines` of them and about `max_chars`
    characters (the hint says where to go on). A read of MEMORY.md is a use of the entries it
    showed, recorded here (forgetting reads it) unless `record` is off (a read-only MCP session)."""
    rel = ws.safe_memory_path(path_from_key(path))  # search's quoted form is accepted too
    full = ws.root / rel
    shown = path_key(rel)  # git's quoting for a name that is not UTF-8, as search shows it
    if not full.is_file():
        raise MemgitError(f"no memory file {shown} in {path_key(str(ws.root))}")
    data = full.read_bytes()
    try:
        text = decode_memory_text(data)
        if rel == "MEMORY.md":
            text = strip_markers(text)  # an agent reads facts, not memgit's entry keys (lines stay put)
        lines = split_lines(text)
    except NotText as exc:
        raise MemgitError(f"{shown}: {exc.reason}; memgit reads UTF-8 text only") from None
    first = 1 if start is None else start
    if first < 1 or (end is not None and end < first):
        asked = f"{first}" if end is None else f"{first}-{end}"
        raise MemgitError(f"invalid line range {asked}: lines count from 1 and END >= START")
    total = len(lines)
    if first > max(total, 1):
        raise MemgitError(f"{shown} has {total} lines; line {first} is past the end")
    last = min(end or total, total, first + max_lines - 1)
    taken: list[str] = []
    size = 0
    for number in range(first, last + 1):
        line = lines[number - 1]
        if taken and size + len(line) + 1 > max_chars:
            last = number - 1
            break
        taken.append(line[:max_chars] if not taken else line)
        size += len(line) + 1
    wanted_end = min(end or total, total)
    truncated = last < wanted_end
    next_start = last + 1 if truncated else None
    hint = None
    if truncated:
        hint = f"more lines follow: {shown}:{next_start}-{wanted_end} ({wanted_end - last} lines left)"
    if record and shown == "MEMORY.md":
        from memgit.ledger.uses import read_text, record_use

        record_use(ws, "get", shown, first, last, text=read_text(ws, shown))
    return ReadResult(shown, first, last, total, "\n".join(taken), truncated, next_start, hint)
