"""Adopting a repository of Markdown memgit did not create: which Markdown is there, how much of it
the memory paths miss, and the globs that would cover it (pure: paths in, counts and globs out).

By default memgit indexes MEMORY.md, USER.md and memory/**; a repository of manuals or RFCs keeps
its Markdown elsewhere, and a search there quietly answers from one file. The globs are written
for the Markdown that is present, folder by folder, leaving out what other tools put in a
repository (installed packages, build and site output, virtual environments, dot-folders): a
folder that holds such a subfolder anywhere is covered by its own files and its other subfolders
instead of one `**` glob, since memgit.toml has no exclusions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

MARKDOWN_SUFFIXES = (".md", ".markdown")
#: Folders whose Markdown is someone else's (packages, vendored code) or generated (builds, sites).
VENDORED = frozenset(
    """
    node_modules bower_components jspm_packages vendor vendors third_party third-party external externals
    dist build out target _build _site site public .next .nuxt .docusaurus .vuepress site-packages
    venv .venv env .env __pycache__ .tox .nox .mypy_cache .pytest_cache coverage htmlcov
    """.split()
)
#: "Most" Markdown outside the memory paths, for the notice: over this share, and at least
#: `MIN_OUTSIDE` files (a README beside the memory files is not a repository to adopt).
OUTSIDE_SHARE = 0.5
MIN_OUTSIDE = 3


@dataclass(frozen=True)
class Coverage:
    """The Markdown of a tree against the memory paths."""

    markdown: int  # Markdown files outside vendored and generated folders
    indexed: int  # of those, the ones the memory paths cover
    outside: tuple[str, ...]  # the ones they miss

    @property
    def mostly_outside(self) -> bool:
        return len(self.outside) >= MIN_OUTSIDE and len(self.outside) > OUTSIDE_SHARE * self.markdown


def is_markdown(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_SUFFIXES)


def is_vendored(path: str) -> bool:
    """In a folder of packages, build or site output, or a dot-folder."""
    folders = path.split("/")[:-1]
    return any(part in VENDORED or part.startswith(".") for part in folders)


def coverage(paths: Iterable[str], is_memory: Callable[[str], bool]) -> Coverage:
    markdown = [p for p in paths if is_markdown(p) and not is_vendored(p)]
    outside = tuple(p for p in markdown if not is_memory(p))
    return Coverage(markdown=len(markdown), indexed=len(markdown) - len(outside), outside=outside)


def adopt_globs(paths: Iterable[str]) -> list[str]:
    """memgit.toml globs covering the Markdown in `paths` outside vendored and generated folders,
    and none inside them; one `**` glob per suffix where a whole folder can be taken."""
    markdown = [p for p in paths if is_markdown(p)]
    keep = [p for p in markdown if not is_vendored(p)]
    drop = [p for p in markdown if is_vendored(p)]
    return sorted(_globs("", keep, drop))


def _globs(prefix: str, keep: Sequence[str], drop: Sequence[str]) -> list[str]:
    """Globs for `keep` (paths under `prefix`) matching none of `drop`."""
    if not keep:
        return []
    if not drop:
        return [f"{prefix}**/*{suffix}" for suffix in _suffixes(keep)]
    here = [p for p in keep if "/" not in p[len(prefix) :]]
    out = [f"{prefix}*{suffix}" for suffix in _suffixes(here)]
    folders = sorted({p[len(prefix) :].split("/", 1)[0] for p in keep if p not in here})
    for folder in folders:
        inner = f"{prefix}{folder}/"
        out += _globs(inner, [p for p in keep if p.startswith(inner)], [p for p in drop if p.startswith(inner)])
    return out


def _suffixes(paths: Iterable[str]) -> list[str]:
    """The Markdown suffixes present, as written in the globs (lower case: git's globs are case
    sensitive, so an upper-case `.MD` gets its own)."""
    found = set()
    for path in paths:
        name = path.rsplit("/", 1)[-1]
        found.add(name[name.rfind(".") :])
    return sorted(found)
