"""Pure page models: what each page of the site shows, as plain data, from gathered inputs.

No I/O here: every function takes decoded text, commit records and file lists, and returns the
dicts the templates render. That keeps the rules (what counts as an entry's provenance, when a
source "changed since", which files a public site may show) testable without git or a browser.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from memgit.core import paths
from memgit.core.chunking import char_token_counter, chunk_lines, split_lines
from memgit.core.provenance import (
    TRAILER_ACTION,
    TRAILER_KEY,
    TRAILER_SCORE,
    TRAILER_SOURCE,
    BadReference,
    SourceRef,
    is_marker_line,
    parse_reference,
    parse_trailers,
)
from memgit.core.redact import is_placeholder
from memgit.core.text import NotText, decode_memory_text
from memgit.core.transcripts import transcript_lines
from memgit.site import urls

PRIVATE_ALWAYS = ("MEMORY.md", "USER.md", "sessions/**", "memory/dreams/**")
DREAMS_DIR = "memory/dreams/"
_TAG = re.compile(r"(?<![\w&#/])#([A-Za-z][\w-]{1,40})\b")
_FIRST_CHARS = 160


@dataclass(frozen=True)
class Summary:
    """What listings need of one file version (cached by blob id between builds)."""

    lines: int = 0
    title: str = ""
    first: str = ""
    concepts: dict[str, list[int]] = field(default_factory=dict)
    problem: str | None = None

    def to_json(self) -> dict:
        return {"lines": self.lines, "title": self.title, "first": self.first, "concepts": self.concepts,
                "problem": self.problem}

    @classmethod
    def from_json(cls, data: Mapping) -> Summary:
        return cls(data["lines"], data["title"], data["first"], dict(data["concepts"]), data["problem"])


def is_private(path: str, private_paths: Iterable[str] = ()) -> bool:
    """Memory a `--scope public` site leaves out: MEMORY.md, USER.md, sessions, dream reports, config."""
    return any(paths.glob_match(pattern, path) for pattern in (*PRIVATE_ALWAYS, *private_paths))


def decode(data: bytes, max_bytes: int) -> tuple[str | None, str | None]:
    """(text, None) or (None, why the file cannot be shown)."""
    if len(data) > max_bytes:
        return None, f"larger than {max_bytes} bytes ({len(data)}); raise [memory] max_file_bytes to show it"
    try:
        return decode_memory_text(data), None
    except NotText as exc:
        return None, exc.reason


def source_lines(text: str) -> list[str]:
    return split_lines(text)


def summarise(path: str, data: bytes, max_bytes: int) -> Summary:
    text, problem = decode(data, max_bytes)
    if text is None:
        return Summary(problem=problem)
    return summarise_text(text)


def summarise_text(text: str) -> Summary:
    """Title, first line and `#tags` of a text as the site shows it: a redacted line is never the
    first line a listing quotes (the placeholder says nothing about the note)."""
    lines = split_lines(text)
    title = first = ""
    for line in lines:
        stripped = line.strip()
        if not stripped or is_marker_line(stripped) or is_placeholder(stripped):
            continue
        if re.match(r"^#{1,6}\s", stripped):
            title = title or stripped.lstrip("#").strip()[:_FIRST_CHARS]
        elif not first:
            first = stripped.lstrip("-*+ ").strip()[:_FIRST_CHARS]
        if title and first:
            break
    return Summary(lines=len(lines), title=title, first=first, concepts=concept_lines(text))


def concept_lines(text: str) -> dict[str, list[int]]:
    """`#tag` -> the 1-based lines it appears on (one scan of the whole text, not one per line)."""
    concepts: dict[str, list[int]] = {}
    line, offset = 1, 0
    start = 1 if text.startswith("\ufeff") else 0
    for match in _TAG.finditer(text, start):
        line += text.count("\n", offset, match.start())
        offset = match.start()
        lines = concepts.setdefault(match.group(1).lower(), [])
        if not lines or lines[-1] != line:
            lines.append(line)
    return concepts


# ------------------------------------------------------------------------------------ notes


def note_context(path: str, text: str | None, problem: str | None, history: Sequence[Mapping],
                 page: str, current_url: str | None = None) -> dict:
    """A note (or a snapshot of one): numbered lines, its recent commits, or why it is not shown."""
    lines = source_lines(text) if text is not None else []
    return {
        "path": path,
        "lines": lines,
        "problem": problem,
        "history": list(history),
        "current_url": urls.relative(page, current_url) if current_url else None,
    }


def history_rows(page: str, path: str, commits: Sequence[Mapping], snapshot_urls: Mapping[str, str]) -> list[dict]:
    rows = []
    for commit in commits:
        url = snapshot_urls.get(commit["id"])
        rows.append({**commit, "short": commit["id"][:10], "url": urls.relative(page, url) if url else None})
    return rows


# ------------------------------------------------------------------------------------ timeline


def months_of(daily: Mapping[str, Summary]) -> dict[str, list[tuple[str, str, Summary]]]:
    """Daily logs grouped by month, newest month and day first: {"2026-02": [(day, path, summary)]}."""
    months: dict[str, list[tuple[str, str, Summary]]] = {}
    for path in sorted(daily, reverse=True):
        day = paths.daily_log_day(path)
        if day is not None:
            months.setdefault(day.strftime("%Y-%m"), []).append((day.isoformat(), path, daily[path]))
    return months


def month_context(month: str, days: Sequence[tuple[str, str, Summary]], page: str, with_days: bool) -> dict:
    """One month: its calendar (days with a log are links), count and, on its own page, each day's
    first line and size. The overview leaves those out so an append to a log does not change it."""
    import calendar
    import datetime

    year, number = (int(x) for x in month.split("-"))
    by_day = {day: urls.relative(page, urls.note_url(path)) for day, path, _ in days}
    weeks = [
        [{"day": d.day, "url": by_day.get(d.isoformat())} if d.month == number else None for d in week]
        for week in calendar.Calendar(firstweekday=0).monthdatescalendar(year, number)
    ]
    out = {"month": month, "label": datetime.date(year, number, 1).strftime("%B %Y"), "count": len(days),
           "weeks": weeks, "url": urls.relative(page, urls.month_url(month)), "days": []}
    if with_days:
        out["days"] = [{
            "day": day, "weekday": datetime.date.fromisoformat(day).strftime("%a"), "path": path,
            "url": by_day[day], "lines": summary.lines, "first": summary.first or summary.title,
            "problem": summary.problem} for day, path, summary in days]
        out["lines"] = sum(summary.lines for _, _, summary in days)
    return out


def timeline_context(daily: Mapping[str, Summary], page: str = urls.TIMELINE) -> dict:
    """The overview: every month's calendar and count, newest first."""
    months = [month_context(month, days, page, with_days=False) for month, days in months_of(daily).items()]
    return {"months": months, "total": sum(m["count"] for m in months)}


# ------------------------------------------------------------------------------------ provenance


def provenance_link(ref: SourceRef, current_lines: Mapping[str, list[str] | None],
                    lines_at: Mapping[tuple[str, str], list[str] | None], page: str) -> dict:
    """Where an entry's source reference should land.

    The current note when the referenced lines still read the same at HEAD; a snapshot of the file at
    the referenced commit ("changed since") when they do not; the current note, flagged, when the
    commit is unknown here.
    """
    anchor = urls.lines_anchor(ref.start, ref.end)
    current = current_lines.get(ref.path)
    old = lines_at.get((ref.commit, ref.path)) if ref.commit else None
    label = ref.format()
    if old is None:
        if current is None:
            return {"label": label, "url": None, "state": "missing"}
        return {"label": label, "url": urls.relative(page, urls.note_url(ref.path) + anchor),
                "state": "no-commit" if ref.commit else "current"}
    same = current is not None and current[ref.start - 1 : ref.end] == old[ref.start - 1 : ref.end]
    if same:
        return {"label": label, "url": urls.relative(page, urls.note_url(ref.path) + anchor), "state": "current"}
    return {"label": label, "url": urls.relative(page, urls.snapshot_url(ref.commit or "", ref.path) + anchor),
            "state": "changed", "current_url": urls.relative(page, urls.note_url(ref.path)) if current else None}


def parse_score(text: str) -> tuple[float | None, list[tuple[str, str]]]:
    """`0.812 (frequency=0.50 relevance=0.81)` -> (0.812, [("frequency", "0.50"), ...])."""
    head, _, rest = text.partition("(")
    try:
        score = float(head.strip())
    except ValueError:
        score = None
    parts = re.findall(r"([A-Za-z_]+)=([-0-9.]+)", rest)
    return score, parts


def dream_actions(commits: Sequence[Mapping]) -> list[dict]:
    """Each promotion, supersede and forget commit with its key, source, score and components."""
    out = []
    for commit in commits:
        trailers = parse_trailers(commit.get("message", ""))
        if not any(name in trailers for name in (TRAILER_KEY, TRAILER_ACTION)):
            continue
        score, components = parse_score(trailers.get(TRAILER_SCORE, ""))
        source = None
        if TRAILER_SOURCE in trailers:
            try:
                source = parse_reference(trailers[TRAILER_SOURCE])
            except BadReference:
                source = None
        out.append({
            "id": commit["id"], "short": commit["id"][:10], "date": commit["date"][:10], "author": commit["author"],
            "subject": commit["subject"], "action": trailers.get(TRAILER_ACTION, "promote"),
            "key": trailers.get(TRAILER_KEY, ""), "source": source, "score": score, "components": components,
            "supersedes": trailers.get("Memgit-Supersedes", ""),
        })
    return out


def blame_summary(blame: Sequence[str], start: int, end: int, commits: Mapping[str, Mapping]) -> dict | None:
    """The newest commit among an entry's lines: who last touched what a person wrote."""
    newest = None
    for commit_id in blame[start - 1 : end]:
        info = commits.get(commit_id)
        if info is not None and (newest is None or info["date"] > newest["date"]):
            newest = info
    if newest is None:
        return None
    return {**newest, "short": newest["id"][:10], "day": newest["date"][:10]}


# ------------------------------------------------------------------------------------ concepts


def concept_index(summaries: Mapping[str, Summary]) -> dict[str, list[tuple[str, list[int]]]]:
    """tag -> [(path, lines)], tags sorted, paths sorted: where each concept appears."""
    out: dict[str, list[tuple[str, list[int]]]] = {}
    for path in sorted(summaries):
        for tag, lines in summaries[path].concepts.items():
            out.setdefault(tag, []).append((path, lines))
    return dict(sorted(out.items()))


# ------------------------------------------------------------------------------------ search


@dataclass(frozen=True)
class ChunkParams:
    max_tokens: int
    overlap_tokens: int
    chars_per_token: int
    max_chars: int


def search_docs(path: str, text: str, params: ChunkParams) -> list[list]:
    """The chunks the index would make of this file, as `[url, path, start, end, text]` rows.

    Redacted lines are left out, like entry markers: nothing of the line is left to find, and a
    hit on the placeholder alone would only point readers at where the secrets were."""
    if path.endswith(".jsonl"):
        numbered = transcript_lines(text)
    else:
        numbered = [(n, line) for n, line in enumerate(split_lines(text), start=1)
                    if not is_marker_line(line) and not is_placeholder(line)]
    chunks = chunk_lines(numbered, max_tokens=params.max_tokens, overlap_tokens=params.overlap_tokens,
                         count_tokens=char_token_counter(params.chars_per_token))
    url = urls.note_url(path)
    return [[url + urls.lines_anchor(c.start_line, c.end_line), path, c.start_line, c.end_line,
             c.text[: params.max_chars]] for c in chunks]


def shard_of(path: str, shards: int) -> int:
    import zlib

    return zlib.crc32(path.encode("utf-8", "surrogateescape")) % shards
