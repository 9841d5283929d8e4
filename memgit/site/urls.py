"""Where each page of the memory site lives, as pure functions of paths, commits and tags.

Output names are plain ASCII whatever the note is called (spaces, `#`, `?`, quotes, unicode), so
they work the same over `file://`, on any static host and in `memgit site serve`. A name that had
to be changed carries a short hash of the original path, so two notes never share a page.
"""

from __future__ import annotations

import functools
import hashlib
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")

HOME = "index.html"
TIMELINE = "timeline.html"
SEARCH = "search.html"
DREAMS = "dreams.html"
CONCEPTS = "concepts.html"
NOTES = "notes.html"


def _short_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:8]


@functools.lru_cache(maxsize=65536)
def slug(path: str) -> str:
    """`memory/2026-01-05.md` -> `memory/2026-01-05`; odd names get a safe form plus a hash."""
    stem = path[:-3] if path.endswith(".md") else path
    parts = []
    for part in stem.split("/"):
        safe = _UNSAFE.sub("-", part).strip("-") or "x"
        if safe.startswith("."):
            safe = "_" + safe[1:]
        parts.append(safe)
    out = "/".join(parts)
    if out != stem:
        out += "-" + _short_hash(path)
    return out


def note_url(path: str) -> str:
    return f"notes/{slug(path)}.html"


def source_url(path: str) -> str:
    """The numbered-lines view of a note (its own folder: no note's page can share the name)."""
    return f"source/{slug(path)}.html"


_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def is_object_id(text: str) -> bool:
    return bool(_OBJECT_ID.fullmatch(text))


class UnsafeId(ValueError):
    """Something other than a full object id where a page's path is made from one."""


def snapshot_url(commit: str, path: str) -> str:
    """A note at a commit. Made only from a full object id: nothing a commit message or a manifest
    could hold reaches a path of the site."""
    if not _OBJECT_ID.fullmatch(commit):
        raise UnsafeId(f"not a full commit id: {commit[:80]!r}")
    return f"snap/{commit[:12]}/{slug(path)}.html"


def image_url(blob: str, suffix: str) -> str:
    """A copied image, named by its blob id (one copy however many notes show it)."""
    if not _OBJECT_ID.fullmatch(blob) or suffix not in (".png", ".jpg", ".jpeg", ".gif", ".webp"):
        raise UnsafeId(f"not an image blob: {blob[:80]!r}{suffix[:10]!r}")
    return f"assets/img/{blob[:20]}{suffix}"


def concept_url(tag: str) -> str:
    safe = _UNSAFE.sub("-", tag.lower()).strip("-") or "x"
    if safe != tag:
        safe += "-" + _short_hash(tag)
    return f"concepts/{safe}.html"


def month_url(month: str) -> str:
    return f"timeline/{month}.html"


def lines_anchor(start: int, end: int) -> str:
    return f"#L{start}" if end <= start else f"#L{start}-L{end}"


def relative(from_page: str, to_url: str) -> str:
    """A link from one page to another, relative, so the site works from any folder or host path.

    Both are site-root-relative POSIX paths without `..`; this is `posixpath.relpath` without its
    trips through the current directory (it runs for every link of every page).
    """
    target, hash_, anchor = to_url.partition("#")
    if not target:
        return from_page.rsplit("/", 1)[-1] + hash_ + anchor
    source_dirs = from_page.split("/")[:-1]
    target_parts = target.split("/")
    common = 0
    while common < len(source_dirs) and common < len(target_parts) - 1 and source_dirs[common] == target_parts[common]:
        common += 1
    rel = "../" * (len(source_dirs) - common) + "/".join(target_parts[common:])
    return rel + hash_ + anchor


def section(page: str) -> str:
    """The header link a page belongs under (its `aria-current`)."""
    head = page.split("/", 1)[0]
    if page == HOME:
        return "home"
    if page == TIMELINE or head == "timeline":
        return "timeline"
    if page in (CONCEPTS,) or head == "concepts":
        return "concepts"
    if page == DREAMS or page.startswith("notes/memory/dreams/"):
        return "dreams"
    if page == SEARCH:
        return "search"
    return "notes"
