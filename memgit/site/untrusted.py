"""What a repository's own files make a build leave out or rename, each with one report line.

A memory repository is written by agents, teammates and pull requests, so the build reads it as
untrusted input: any name git allows, a `[site] private_paths` pattern that says nothing, a
provenance marker naming a file that is no memory. These checks decide, from gathered data only,
what the site shows instead, and say so (`{kind, path, why}` rows of the build's report).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from memgit.core import paths
from memgit.core.provenance import SourceRef
from memgit.site import models, urls


def row(kind: str, path: str, why: str) -> dict:
    return {"kind": kind, "path": path, "why": why}


def private_pattern_rows(patterns: Iterable[str], memory: Iterable[str]) -> list[dict]:
    """One warning a `[site] private_paths` pattern that matches no memory file of the tree (a
    typo, or a folder written as a glob of nothing: its notes would be published)."""
    return [
        row("config", f"[site] private_paths {pattern!r}", "matches no memory file of the tree")
        for pattern in models.unmatched_patterns(patterns, memory)
    ]


def name_rows(files: Iterable[str]) -> tuple[dict[str, str], list[dict]]:
    """Page names for every file, whatever git allows in a name: one that is not UTF-8, longer
    than a file system takes, or that differs from another only by case gets a safe, unique page
    name with a hash (`urls.assign_names`); the page still shows the real name."""
    renamed = urls.assign_names(files)
    rows = [
        row("name", paths.display_path(path), f"{why}: its pages are named {urls.note_url(path)}")
        for path, why in sorted(renamed.items())
    ]
    return renamed, rows


def shown_references(
    refs: list[SourceRef], is_memory: Callable[[str], bool], hidden: Callable[[str], bool] | None
) -> tuple[list[SourceRef], list[dict]]:
    """The provenance references whose lines a page may show as they were: only a memory file's
    (and, on a public site, a public one's). A marker anyone can type naming another file, or one
    deleted since, must not publish its old bytes."""
    shown = [r for r in refs if is_memory(r.path) and not (hidden is not None and hidden(r.path))]
    left = sorted({r.path for r in refs} - {r.path for r in shown})
    return shown, [
        row("reference", paths.display_path(p), "a provenance reference to a file that is no memory file: not shown")
        for p in left
    ]
