"""Where each page of the memory site lives, as pure functions of paths, commits and tags.

Output names are plain ASCII whatever the note is called (spaces, `#`, `?`, quotes, unicode), so
they work the same over `file://`, on any static host and in `memgit site serve`. A name that had
to be changed carries a short hash of the original path, so two notes never share a page.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
#: The longest part of a page's path kept as it is (a file system takes 255 bytes a name; the
#: hash and `.html` need room) and the longest whole page path.
_PART_MAX = 100
_PATH_MAX = 400
#: Names Windows keeps for devices, whatever their extension: a page so named cannot be copied there.
_DEVICES = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(10)), *(f"lpt{n}" for n in range(10))})

HOME = "index.html"
TIMELINE = "timeline.html"
SEARCH = "search.html"
DREAMS = "dreams.html"
CONCEPTS = "concepts.html"
NOTES = "notes.html"

#: Page names of paths whose own name is safe but taken: they share a page name with another file
#: but for case (`Notes.md`, `notes.md`), which macOS and Windows see as one file, or another
#: file is named like their hashed page. Set for each build by `assign_names`.
_NAMED: dict[str, str] = {}


def _short_hash(text: str, size: int = 8) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:size]


def _safe_part(part: str, last: bool) -> str:
    safe = _UNSAFE.sub("-", part).strip("-").rstrip(".") or "x"
    if safe.startswith("."):
        safe = "_" + safe[1:]
    if safe.split(".", 1)[0].lower() in _DEVICES:
        safe = "_" + safe
    if not last and safe.lower().endswith(".html"):
        safe = safe[:-5] + "_html"  # a folder must never share a name with a page beside it
    return safe[:_PART_MAX]


def _safe_stem(path: str) -> tuple[str, str]:
    """(the path without `.md`, its safe form before any hash)."""
    stem = path[:-3] if path.endswith(".md") else path
    pieces = stem.split("/")
    out = "/".join(_safe_part(part, i == len(pieces) - 1) for i, part in enumerate(pieces))
    if len(out) > _PATH_MAX:
        out = out[: _PATH_MAX - 10].rstrip("/.-") or "x"
    return stem, out


@functools.lru_cache(maxsize=65536)
def slug(path: str) -> str:
    """`memory/2026-01-05.md` -> `memory/2026-01-05`; odd names get a safe form plus a hash: any
    character outside `[A-Za-z0-9._-]`, a name not in UTF-8, one too long for a file system, a
    device name of Windows; and a name another file's page would share (`assign_names`)."""
    named = _NAMED.get(path)
    if named is not None:
        return named
    stem, out = _safe_stem(path)
    return out if out == stem else out + "-" + _short_hash(path)


def assign_names(paths: Iterable[str]) -> dict[str, str]:
    """Set the page names of one build's files; return the files whose page name is not their
    own name, and why.

    Page names that would be equal but for case (or equal: a file may be named like another's
    hashed page) all get a hash of their path, a longer one if short hashes still meet, so no
    file system folds two pages into one. The names are part of the build's key.
    """
    names = sorted(paths)
    _NAMED.clear()
    slug.cache_clear()
    groups: dict[str, list[str]] = {}
    for path in names:
        groups.setdefault(slug(path).casefold(), []).append(path)
    colliding = sorted(p for group in groups.values() if len(group) > 1 for p in group)
    if colliding:
        taken = {name for name, group in groups.items() if len(group) == 1}
        attempt = 0
        while True:  # ends: each attempt makes new names, and a tree holds finitely many files
            salt = f"\0{attempt}" if attempt > 1 else ""
            chosen = {p: _safe_stem(p)[1] + "-" + _short_hash(p + salt, 8 if attempt == 0 else 40) for p in colliding}
            folded = [n.casefold() for n in chosen.values()]
            if len(set(folded)) == len(folded) and not taken & set(folded):
                break
            attempt += 1
        _NAMED.update(chosen)
        slug.cache_clear()
    changed = {}
    for path in names:
        stem, safe = _safe_stem(path)
        if path in _NAMED:
            changed[path] = "its page name would be another file's (they differ only by case)"
        elif not _is_utf8(path):
            changed[path] = "a name that is not UTF-8"
        elif safe != stem and (len(stem) > _PATH_MAX or any(len(p) > _PART_MAX for p in stem.split("/"))):
            changed[path] = "a name too long for a page"
    return changed


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
