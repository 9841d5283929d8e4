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
    strip_marker,
)
from memgit.core.text import NotText, decode_memory_text
from memgit.core.transcripts import transcript_lines
from memgit.lint.redact import is_placeholder
from memgit.site import urls
from memgit.site.note_refs import concept_lines, link_targets

PRIVATE_ALWAYS = ("MEMORY.md", "USER.md", "sessions/**", "memory/dreams/**")
DREAMS_DIR = "memory/dreams/"
_FIRST_CHARS = 160
_MARKUP = re.compile(r"[*_`\[\]#>~|=]|^(?:[-+]|\d{1,9}[.)])(?:\s|$)|^-{3,}")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s")
_PLAIN_MAX_CHARS = 4096


@dataclass(frozen=True)
class Summary:
    """What listings need of one file version (cached by blob id between builds)."""

    lines: int = 0
    title: str = ""
    first: str = ""
    concepts: dict[str, list[int]] = field(default_factory=dict)
    problem: str | None = None
    links: list[str] = field(default_factory=list)  # memory paths it links to (back-links)
    title_from: str = ""  # "front" (front matter), "h1", "file" (the site's choice: titles.site_title)
    heads: list[str] = field(default_factory=list)  # its headings, for titles.template_headings
    wiki: list[str] = field(default_factory=list)  # its `[[wikilink]]` targets, resolved per build (vault.py)
    embeds: list[str] = field(default_factory=list)  # the targets it embeds (`![[…]]`), pictures left out
    aliases: list[str] = field(default_factory=list)  # its front matter `aliases`

    def to_json(self) -> dict:
        return {
            "lines": self.lines,
            "title": self.title,
            "first": self.first,
            "concepts": self.concepts,
            "problem": self.problem,
            "links": self.links,
            "title_from": self.title_from,
            "heads": self.heads,
            "wiki": self.wiki,
            "embeds": self.embeds,
            "aliases": self.aliases,
        }

    @classmethod
    def from_json(cls, data: Mapping) -> Summary:
        return cls(
            data["lines"],
            data["title"],
            data["first"],
            dict(data["concepts"]),
            data["problem"],
            list(data.get("links", [])),
            data.get("title_from", ""),
            list(data.get("heads", [])),
            list(data.get("wiki", [])),
            list(data.get("embeds", [])),
            list(data.get("aliases", [])),
        )


def is_private(path: str, private_paths: Iterable[str] = (), defaults: bool = True) -> bool:
    """Memory a `--scope public` site leaves out: MEMORY.md, USER.md, sessions, dream reports, and
    what `[site] private_paths` names. A pattern names files or a folder: `memory/people` (or
    `memory/people/`) covers everything below that folder, as a person writing it means."""
    patterns = (*PRIVATE_ALWAYS, *private_paths) if defaults else tuple(private_paths)
    for pattern in patterns:
        folder = pattern.rstrip("/")
        if paths.glob_match(pattern, path) or (folder and paths.glob_match(folder + "/**", path)):
            return True
    return False


def unmatched_patterns(patterns: Iterable[str], memory: Iterable[str]) -> list[str]:
    """The patterns (as `is_private` reads them) that match none of the `memory` paths."""
    files = list(memory)
    return [p for p in patterns if not any(is_private(path, (p,), defaults=False) for path in files)]


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


def plain_text(line: str) -> str:
    """One Markdown line as a reader would read it: list bullets, heading marks, emphasis,
    code ticks and link syntax removed (summaries and search snippets show this)."""
    # Every caller shows a few hundred characters at most (summaries, entry words, search rows of
    # chunk-sized pieces), and emphasis patterns backtrack over the whole line: a line of
    # hostile nesting could cost minutes. Only its beginning is read.
    text = line.strip()[:_PLAIN_MAX_CHARS]
    if not _MARKUP.search(text):
        return text
    if re.fullmatch(r"[-*_=|: ]{3,}|`{3,}.*|~{3,}.*", text):
        return ""
    text = re.sub(r"^(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)", "", text)
    # link text without brackets and a target with at most one level of parentheses: linear on
    # any input (`[^\]]*` rescanned the rest of the line from every `[` of a nested run)
    text = re.sub(r"!?\[([^\[\]]*)\]\((?:[^()]|\([^()]*\))*\)", r"\1", text)
    text = re.sub(r"(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])", r"\2", text)
    text = re.sub(r"`([^`]*)`", r"\1", text)
    if re.fullmatch(r"[-*_=|: ]{3,}|`{3,}.*|~{3,}.*", text):
        return ""
    return text


def entry_words(lines: Sequence[str], start: int, end: int, limit: int) -> str:
    """A MEMORY.md entry's words as plain text, markers and blank lines left out, shortened."""
    return shorten(
        " ".join(
            plain_text(strip_marker(line))
            for line in lines[start - 1 : end]
            if line.strip() and not is_marker_line(line)
        ),
        limit,
    )


def shorten(text: str, limit: int = _FIRST_CHARS) -> str:
    """Text cut at a word boundary, ending in an ellipsis when something was left out."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—") + "…"


def summarise_text(path: str, text: str) -> Summary:
    """Title (front matter `title`, else the first H1: `titles.own_title`), first line and `#tags`
    of a text as the site shows it: front matter and a redacted line are never the first line a
    listing quotes (the placeholder says nothing about the note)."""
    from memgit.site import vault
    from memgit.site.titles import front_matter, own_title

    lines = split_lines(text)
    title, title_from, heads, skip = own_title(lines)
    first = ""
    for line in lines[skip:]:
        stripped = strip_marker(line).strip()
        if not stripped or is_marker_line(stripped) or is_placeholder(stripped) or _HEADING.match(stripped):
            continue
        if plain := plain_text(stripped):
            first = shorten(plain)
            break
    return Summary(
        lines=len(lines),
        title=shorten(title),
        first=first,
        concepts=concept_lines(text),
        links=link_targets(path, text),
        title_from=title_from,
        heads=heads,
        wiki=vault.targets(text),
        embeds=sorted({w.target for w in vault.wikilinks(text) if w.embed and w.target} - {""}),
        aliases=vault.aliases_of(front[1]) if (front := front_matter(lines)) else [],
    )


IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}


# ------------------------------------------------------------------------------------ notes


def note_context(
    path: str,
    text: str | None,
    problem: str | None,
    history: Sequence[Mapping],
    page: str,
    current_url: str | None = None,
) -> dict:
    """A note (or a snapshot of one): numbered lines, its recent commits, or why it is not shown."""
    # Shown without memgit's entry markers (numbering kept).
    lines = [strip_marker(line) for line in source_lines(text)] if text is not None else []
    return {
        "path": path,
        "lines": lines,
        "problem": problem,
        "history": list(history),
        "current_url": urls.relative(page, current_url) if current_url else None,
        "days": [],
        "linked": [],
        "promoted": [],
        "heat": None,
        "hot": [],
        "recalls": 0,
    }


def note_title(path: str, summary: Summary) -> str:
    """A page's title: the note's first heading, else its path."""
    return summary.title or path


def note_extras(page: str, path: str, extra: Mapping, lines: int) -> dict:
    """What a note's page shows beyond its file (see pages.Planner._note_extras): previous/next day,
    back-links, lines promoted into MEMORY.md, recall heat as a picture."""
    from memgit.site.svg import heat_strip

    out: dict = {"days": [], "linked": [], "promoted": [], "heat": None, "hot": [], "recalls": 0}
    before, after = extra.get("days") or (None, None)
    for other, rel, word in ((before, "prev", "Previous day"), (after, "next", "Next day")):
        if other:
            out["days"].append(
                {"rel": rel, "word": word, "label": other[7:17], "url": urls.relative(page, urls.note_url(other))}
            )
    out["linked"] = [{"path": p, "url": urls.relative(page, urls.note_url(p))} for p in extra.get("linked", [])]
    out["promoted"] = [
        {
            "lines": f"line {a}" if b <= a else f"lines {a}-{b}",
            "url": urls.relative(page, urls.note_url(path) + urls.lines_anchor(a, b)),
            "entry": urls.relative(page, urls.HOME) + f"#L{start}",
            "text": text,
        }
        for a, b, start, text in extra.get("promoted", [])
    ]
    heat = dict(extra.get("heat", []))
    if heat:
        out["recalls"] = max(heat.values())
        out["hot"] = [
            {"line": n, "count": c, "url": urls.relative(page, urls.note_url(path) + f"#L{n}")}
            for n, c in sorted(heat.items(), key=lambda item: (-item[1], item[0]))[:3]
        ]
        out["heat"] = heat_strip(
            heat,
            lines,
            f"Recall heat of {path}: lines searches surfaced, "
            f"most recalled line {out['hot'][0]['line']} ({out['recalls']} times)",
        )
    return out


def fold_credits(items: Sequence[tuple[object, dict]], headings: Sequence[int] = ()) -> dict[int, dict]:
    """Entry start line -> the credit to show under it. Consecutive entries a person wrote in the
    same commit, with no heading (line numbers in `headings`) between them, share one credit,
    shown under the last of them and counting them, instead of the same line under each."""
    import bisect

    out: dict[int, dict] = {}
    run: list[tuple[int, dict]] = []

    def flush() -> None:
        if run:
            start, data = run[-1]
            out[start] = {**data, "count": len(run)}
            run.clear()

    marks = sorted(headings)
    for entry, data in items:
        start = getattr(entry, "start", 0)
        blame = data.get("blame")
        if data.get("marker") is None and blame:
            crossed = bool(run) and bisect.bisect(marks, start) != bisect.bisect(marks, run[-1][0])
            if run and (crossed or run[-1][1]["blame"]["id"] != blame["id"]):
                flush()
            run.append((start, data))
            continue
        flush()
        if data.get("marker") is not None:
            out[start] = data
    flush()
    return out


def month_label(month: str) -> str:
    import datetime

    year, number = (int(x) for x in month.split("-"))
    return datetime.date(year, number, 1).strftime("%B %Y")


def note_groups(rows: Sequence[Mapping]) -> list[dict]:
    """The notes list: MEMORY.md and top-level files, then each folder, daily logs by month
    (newest first), other notes by name."""
    groups: dict[str, list] = {}
    for row in rows:
        path = row["path"]
        day = paths.daily_log_day(path)
        if day is not None:
            name = "Daily logs, " + day.strftime("%B %Y")
            key = "2" + "".join(chr(0x10FFFF - ord(c)) for c in day.strftime("%Y-%m"))
        else:
            folder = path.rsplit("/", 1)[0] if "/" in path else ""
            name = folder + "/" if folder else "Top level"
            key = ("0" if not folder else "1") + folder
        groups.setdefault(key, [name, []])[1].append(row)
    return [
        {
            "name": name,
            "id": "g" + str(i),
            "notes": sorted(items, key=lambda r: r["path"], reverse=name.startswith("Daily")),
        }
        for i, (name, items) in enumerate(v for _, v in sorted(groups.items()))
    ]


def history_rows(page: str, path: str, commits: Sequence[Mapping], snapshot_urls: Mapping[str, str]) -> list[dict]:
    rows = []
    for commit in commits:
        if not valid_commit_row(commit):
            continue
        url = snapshot_urls.get(commit["id"])
        rows.append({**commit, "short": commit["id"][:7], "url": urls.relative(page, url) if url else None})
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
    out = {
        "month": month,
        "label": datetime.date(year, number, 1).strftime("%B %Y"),
        "count": len(days),
        "weeks": weeks,
        "url": urls.relative(page, urls.month_url(month)),
        "days": [],
    }
    if with_days:
        out["days"] = [
            {
                "day": day,
                "weekday": datetime.date.fromisoformat(day).strftime("%a"),
                "path": path,
                "url": by_day[day],
                "lines": summary.lines,
                "first": summary.first or summary.title,
                "problem": summary.problem,
            }
            for day, path, summary in days
        ]
        out["lines"] = sum(summary.lines for _, _, summary in days)
        from memgit.site.svg import day_bars

        per_day = {day: summary.lines for day, _, summary in days}
        span = [
            d.isoformat()
            for week in calendar.Calendar().monthdatescalendar(year, number)
            for d in week
            if d.month == number
        ]
        busiest = max(per_day, key=lambda d: (per_day[d], d))
        out["chart"] = day_bars(
            [(d, per_day.get(d, 0)) for d in span],
            f"Lines written per day in {out['label']}; the busiest day, {busiest}, has {per_day[busiest]} lines",
        )
    return out


def timeline_context(daily: Mapping[str, Summary], page: str = urls.TIMELINE) -> dict:
    """The overview: lines written per day as a picture, every month's calendar and count."""
    from memgit.site.svg import day_bars

    months = [month_context(month, days, page, with_days=False) for month, days in months_of(daily).items()]
    per_day = {d.isoformat(): daily[p].lines for p in daily if (d := paths.daily_log_day(p))}
    chart = None
    if per_day:
        import datetime

        first, last = datetime.date.fromisoformat(min(per_day)), datetime.date.fromisoformat(max(per_day))
        span = [(first + datetime.timedelta(days=i)).isoformat() for i in range(min((last - first).days + 1, 400))]
        span = (
            span
            if (last - first).days < 400
            else [(last - datetime.timedelta(days=i)).isoformat() for i in range(399, -1, -1)]
        )
        busiest = max(per_day, key=lambda d: (per_day[d], d))
        chart = {
            "svg": day_bars(
                [(d, per_day.get(d, 0)) for d in span],
                f"Lines written per day from {span[0]} to {span[-1]}; the busiest day, {busiest}, "
                f"has {per_day[busiest]} lines",
            ),
            "first": span[0],
            "last": span[-1],
            "busiest": busiest,
            "most": per_day[busiest],
            "total": sum(per_day.values()),
        }
    return {"months": months, "total": sum(m["count"] for m in months), "chart": chart}


# ------------------------------------------------------------------------------------ provenance


def provenance_link(
    ref: SourceRef,
    current_lines: Mapping[str, list[str] | None],
    lines_at: Mapping[tuple[str, str], list[str] | None],
    page: str,
    full_ids: Mapping[str, str] | None = None,
) -> dict:
    """Where an entry's source reference should land.

    The current note when the referenced lines still read the same at HEAD; a snapshot of the file at
    the referenced commit ("changed since") when they do not; the current note, flagged, when the
    commit is unknown here. A snapshot's address is made from the commit's full id (`full_ids`
    expands an abbreviated one; a reference written with the full id needs none).
    """
    anchor = urls.lines_anchor(ref.start, ref.end)
    current = current_lines.get(ref.path)
    full = (full_ids or {}).get(ref.commit or "", ref.commit or "")
    old = lines_at.get((ref.commit, ref.path)) if ref.commit and urls.is_object_id(full) else None
    label = ref.format()
    if old is None:
        if current is None:
            return {"label": label, "url": None, "state": "missing"}
        return {
            "label": label,
            "url": urls.relative(page, urls.note_url(ref.path) + anchor),
            "state": "no-commit" if ref.commit else "current",
        }
    same = current is not None and current[ref.start - 1 : ref.end] == old[ref.start - 1 : ref.end]
    if same:
        return {"label": label, "url": urls.relative(page, urls.note_url(ref.path) + anchor), "state": "current"}
    return {
        "label": label,
        "url": urls.relative(page, urls.snapshot_url(full, ref.path) + anchor),
        "state": "changed",
        "current_url": urls.relative(page, urls.note_url(ref.path)) if current else None,
    }


def parse_score(text: str) -> tuple[float | None, list[tuple[str, str]]]:
    """`0.812 (frequency=0.50 relevance=0.81)` -> (0.812, [("frequency", "0.50"), ...])."""
    head, _, rest = text.partition("(")
    try:
        score = float(head.strip())
    except ValueError:
        score = None
    parts = re.findall(r"([A-Za-z_]+)=([-0-9.]+)", rest)
    return score, parts


_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[+-]\d{2}:\d{2}|Z)")


def valid_commit_row(commit: Mapping) -> bool:
    """A commit row a page may show: a full object id and an ISO date (anything else was not
    written by git's own fields and is left out, whatever its text says)."""
    return bool(_OBJECT_ID.fullmatch(str(commit.get("id", "")))) and bool(
        _ISO_DATE.fullmatch(str(commit.get("date", "")))
    )


def dream_actions(commits: Sequence[Mapping]) -> list[dict]:
    """Each promotion, supersede and forget commit with its key, source, score and components."""
    out = []
    for commit in commits:
        if not valid_commit_row(commit):
            continue
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
        out.append(
            {
                "id": commit["id"],
                "short": commit["id"][:10],
                "date": commit["date"][:10],
                "author": commit["author"],
                "subject": commit["subject"],
                "action": trailers.get(TRAILER_ACTION, "promote"),
                "key": trailers.get(TRAILER_KEY, ""),
                "source": source,
                "score": score,
                "components": components,
                "supersedes": trailers.get("Memgit-Supersedes", ""),
            }
        )
    return out


def writers(blame: Sequence[str], lines: Sequence[str], start: int, end: int) -> list[str]:
    """The commits that wrote lines start-end, blank and memgit marker lines ignored (a commit
    that only added the blank line after an entry, or moved a marker, did not write it)."""
    return sorted(
        {
            blame[n - 1]
            for n in range(start, min(end, len(blame)) + 1)
            if n - 1 < len(lines) and lines[n - 1].strip() and not is_marker_line(lines[n - 1])
        }
    )


def blame_summary(
    blame: Sequence[str], lines: Sequence[str], start: int, end: int, commits: Mapping[str, Mapping]
) -> dict | None:
    """Who wrote a person's entry: the newest commit among its own lines (blank and marker lines
    ignored)."""
    newest = None
    for n in range(start, min(end, len(blame)) + 1):
        if n - 1 >= len(lines) or not lines[n - 1].strip() or is_marker_line(lines[n - 1]):
            continue
        info = commits.get(blame[n - 1])
        if info is not None and (newest is None or info["date"] > newest["date"]):
            newest = info
    if newest is None:
        return None
    return {**newest, "short": newest["id"][:7], "day": newest["date"][:10]}


def source_label(ref: SourceRef) -> str:
    """`the 2026-10-08 log, line 9` / `notes/x.md, lines 3-5`: a reference as a person reads it."""
    day = paths.daily_log_day(ref.path)
    where = f"the {day.isoformat()} log" if day else ref.path
    lines = f"line {ref.start}" if ref.end <= ref.start else f"lines {ref.start}-{ref.end}"
    return f"{where}, {lines}"


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


def doc_kind(path: str) -> str:
    """What the search filter calls a file: a daily log, a dream report or any other note."""
    if path.startswith(DREAMS_DIR):
        return "dream"
    return "log" if paths.daily_log_day(path) else "note"


def search_docs(path: str, text: str, params: ChunkParams, date: str = "") -> list[list]:
    """The chunks the index would make of this file, as `[url, path, start, kind, date, heading,
    text]` rows: `text` is the chunk's lines from `start` on as plain text (Markdown marks and
    memgit's markers removed, one row a source line, so a match's line is known), `heading` the
    nearest heading above it, `date` the log's or report's day or the note's last commit day.

    Redacted lines are left out, like entry markers: nothing of the line is left to find, and a
    hit on the placeholder alone would only point readers at where the secrets were."""
    is_transcript = path.endswith(".jsonl")
    if is_transcript:
        numbered = transcript_lines(text)
    else:
        numbered = [
            (n, strip_marker(line))
            for n, line in enumerate(split_lines(text), start=1)
            if not is_marker_line(line) and not is_placeholder(line)
        ]
    chunks = chunk_lines(
        numbered,
        max_tokens=params.max_tokens,
        overlap_tokens=params.overlap_tokens,
        count_tokens=char_token_counter(params.chars_per_token),
    )
    by_line = dict(numbered)
    headings: list[tuple[int, str]] = (
        [] if is_transcript else [(n, plain_text(line)) for n, line in numbered if _HEADING.match(line)]
    )
    day = paths.daily_date(path)
    when = day or date[:10]
    url = urls.note_url(path)
    kind = doc_kind(path)
    rows = []
    for c in chunks:
        heading = next((h for n, h in reversed(headings) if n <= c.start_line), "")
        lines = [by_line.get(n, "") for n in range(c.start_line, c.end_line + 1)]
        if c.start_char is not None:  # a piece of a line too long for one chunk: that piece only
            lines = [c.text]
        plain = "\n".join(line if is_transcript else plain_text(line) for line in lines)
        rows.append([url, path, c.start_line, kind, when, heading, plain[: params.max_chars]])
    return rows


def shard_of(path: str, shards: int) -> int:
    import zlib

    return zlib.crc32(path.encode("utf-8", "surrogateescape")) % shards
