"""What the gatherer reads for MEMORY.md's references: its entries that name a source, the lines
each source holds then and now, who wrote them, and the words each supersede replaced.

Part of the gathering (`inputs`), through its git reader; each is kept in the manifest, so a
rebuild that does not touch MEMORY.md parses no Markdown and runs no blame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from memgit.core.provenance import SourceRef, parse_reference
from memgit.site import models

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memgit.core.provenance import EntryMarker
    from memgit.site.markdown import Entry
    from memgit.site.reader import Entry as TreeEntry
    from memgit.site.reader import GitReads


class ShownTexts(Protocol):
    """The build's texts as its pages show them (`inputs.ShownTexts`): decoded and redacted."""

    max_bytes: int

    def shown(self, blob: str, data: bytes) -> tuple[str | None, str | None]: ...

    def redact(self, text: str) -> tuple[str, list[list]]: ...

    def subjects(self, commits: list[dict]) -> list[dict]: ...


#: What the reference lines are: (commit, path) -> lines then; path -> lines now (None: unreadable).
RefLines = tuple[dict[tuple[str, str], list[str] | None], dict[str, list[str] | None]]


def entry_source(entry: Entry) -> SourceRef | None:
    """Where a MEMORY.md entry came from: the one place that knows how an entry names its source
    (today the marker's `source=` field; a marker that only holds a key would be looked up here)."""
    return entry.marker.source if entry.marker is not None else None


def memory_entries(
    git: GitReads,
    texts: ShownTexts,
    memory: TreeEntry | None,
    store_blob: str,
    provenance: Mapping[str, EntryMarker],
    cached: dict,
) -> dict:
    """MEMORY.md's entries that name a source: start, end, reference, key, first words and the
    key they replaced, parsed once per version of the file and of the store (`cached` is what the
    manifest kept): {"blob", "store", "entries"}, or {} without a MEMORY.md."""
    if memory is None or not memory.is_regular:
        return {}
    if cached.get("blob") == memory.blob and cached.get("store", "") == store_blob and "entries" in cached:
        return cached
    from memgit.site.markdown import entries as parse_entries

    data = git.blobs([memory.blob])[memory.blob]
    text = texts.shown(memory.blob, data)[0]  # entry words are shown on note pages: redacted
    lines = models.source_lines(text) if text is not None else []
    found = []
    for e in parse_entries(text, provenance) if text is not None else []:
        source = entry_source(e)
        if source is None or e.marker is None:
            continue
        found.append(
            {
                "start": e.start,
                "end": e.end,
                "ref": source.format(),
                "key": e.marker.key,
                "text": models.entry_words(lines, e.start, e.end, 120),
                "supersedes": e.marker.extra.get("supersedes", ""),
            }
        )
    return {"blob": memory.blob, "store": store_blob, "entries": found}


def written(git: GitReads, texts: ShownTexts, refs: list[SourceRef], kept: dict) -> dict[str, dict]:
    """Who wrote each referenced source line and when: blame of the source file at the
    reference's commit, the newest commit among the range's non-blank lines (`kept` by reference
    in the manifest, so pygit2 is imported only for new references)."""
    cache = dict(kept)
    wanted = sorted({r.format() for r in refs if r.commit} - cache.keys())
    by_pair: dict[tuple[str, str], list[SourceRef]] = {}
    for text in wanted:
        ref = parse_reference(text)
        by_pair.setdefault((ref.commit or "", ref.path), []).append(ref)
    found: dict[str, list[str]] = {}
    if by_pair:
        blobs = git.blobs_at(list(by_pair))
        for (commit, path), group in by_pair.items():
            blame = git.blame_lines(commit, path)
            data = blobs.get((commit, path))
            content = models.decode(data, texts.max_bytes)[0] if data is not None else None
            lines = models.source_lines(content) if content is not None else []
            for ref in group:
                found[ref.format()] = models.writers(blame, lines, ref.start, ref.end)
    ids = {commit_id for writers in found.values() for commit_id in writers}
    infos = {c["id"]: c for c in texts.subjects(git.commits_info(ids))}
    for text, writers in found.items():
        known = [infos[c] for c in writers if c in infos]
        info = max(known, key=lambda i: (i["date"], i["id"])) if known else None
        cache[text] = (
            {
                "id": info["id"],
                "short": info["id"][:7],
                "day": info["date"][:10],
                "author": info["author"],
                "subject": info["subject"],
            }
            if info
            else {}
        )
    return {r.format(): cache.get(r.format(), {}) for r in refs if r.commit}


def superseded(git: GitReads, texts: ShownTexts, actions: list[dict], kept: dict) -> dict[str, str]:
    """The text each supersede replaced (action commit id -> the old entry's words), read from
    MEMORY.md before that commit; `kept` in the manifest."""
    cache = dict(kept)
    todo = [a for a in actions if a["action"] == "supersede" and a["supersedes"] and a["id"] not in cache]
    if todo:
        from memgit.site.markdown import entries as parse_entries

        olds = git.blobs_at([(a["id"] + "^", "MEMORY.md") for a in todo])
        for action in todo:
            data = olds.get((action["id"] + "^", "MEMORY.md"))
            text = models.decode(data, texts.max_bytes)[0] if data is not None else None
            text = texts.redact(text)[0] if text is not None else None  # the old words are quoted
            cache[action["id"]] = ""
            if text is None:
                continue
            lines = models.source_lines(text)
            for e in parse_entries(text):
                if e.marker is not None and e.marker.key == action["supersedes"]:
                    cache[action["id"]] = models.entry_words(lines, e.start, e.end, 200)
    return {a["id"]: cache.get(a["id"], "") for a in actions if a["action"] == "supersede"}


def ref_lines(
    git: GitReads,
    texts: ShownTexts,
    pairs: list[tuple[str, str]],
    current_blobs: dict[str, str],
    ref_redactions: dict[tuple[str, str], list[list]],
) -> RefLines:
    """The lines each referenced source holds at the reference's commit and now, as the site
    shows them; the lines redacted in the older versions go to `ref_redactions` (path, commit)."""
    raw_at = git.blobs_at(pairs)
    current_raw = git.blobs(sorted(set(current_blobs.values())))
    lines_at = {}
    for pair, data in raw_at.items():
        text = models.decode(data, texts.max_bytes)[0] if data is not None else None
        if text is not None:
            text, hits = texts.redact(text)
            if hits:
                ref_redactions[(pair[1], pair[0])] = hits
        lines_at[pair] = models.source_lines(text) if text is not None else None
    current = {}
    for path, blob in current_blobs.items():
        text = texts.shown(blob, current_raw[blob])[0]
        current[path] = models.source_lines(text) if text is not None else None
    return lines_at, current
