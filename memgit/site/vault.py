"""Pure: `[[wikilinks]]` as an Obsidian vault resolves them, so a vault's notes link as they do there.

Obsidian matches a link's target by the file's name anywhere in the vault, not by a path beside
the note: `[[Internal links]]` finds `en/Linking notes and files/Internal links.md`. The rules,
in the order they are tried (a target is compared without regard to case, `.md` implied when
the target names no other file type):

1. the note itself, for `[[#Heading]]` and `[[^block]]`-only links;
2. the target as a path from the vault's top, then as a path from the note's folder;
3. the files whose path ends with the target (its name, or a partial path `folder/name`):
   the one sharing the most folders with the note first (its own folder before any other), then
   the shortest path, then the first in path order;
4. a front matter alias (`aliases:`) of exactly that name.

A link resolves to nothing when none of these finds a file; the build lists it as unresolved.
The parts after the target are kept as they were written: `#Heading` (the last heading of a
`#A#B` chain), `#^block` and `|label` (for an embedded picture, a size such as `300` or `300x200`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

#: `[[target#fragment|label]]` or `![[...]]`; inside a table cell the `|` is written `\|`.
WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]*?)\]\]")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")

#: File types Obsidian shows inline when embedded.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".avif")


@dataclass(frozen=True)
class WikiLink:
    """One `[[...]]` as written: target, `#fragment` (without the `#`), label, embedded or not."""

    target: str
    fragment: str
    label: str
    embed: bool

    @property
    def text(self) -> str:
        """What the link shows: its label, else the target and fragment as written."""
        if self.label:
            return self.label
        if not self.target:
            return self.fragment.lstrip("^")
        return self.target + (f" › {self.fragment.replace('#', ' › ')}" if self.fragment else "")


def parse(inner: str, embed: bool = False) -> WikiLink:
    """The parts of the text between `[[` and `]]`."""
    body, bar, label = inner.replace("\\|", "|").partition("|")
    target, hash_, fragment = body.partition("#")
    return WikiLink(target.strip(), fragment.strip() if hash_ else "", label.strip() if bar else "", embed)


def heading_of(fragment: str) -> str:
    """The heading a `#A#B` fragment lands on (the last one of the chain), or '' for a block id."""
    if fragment.startswith("^"):
        return ""
    return fragment.rsplit("#", 1)[-1].strip()


def wikilinks(text: str) -> Iterator[WikiLink]:
    """Every `[[...]]` of a Markdown text outside code blocks and code spans, in order."""
    if "[[" not in text:
        return
    fence = ""
    for line in text.split("\n"):
        opened = _FENCE.match(line)
        if fence:
            if (
                opened
                and opened[1][0] == fence[0]
                and len(opened[1]) >= len(fence)
                and not line.strip()[len(opened[1]) :]
            ):
                fence = ""
            continue
        if opened:
            fence = opened[1]
            continue
        if "[[" not in line:
            continue
        line = _CODE_SPAN.sub(lambda m: " " * len(m[0]), line)
        for match in WIKILINK.finditer(line):
            yield parse(match[2], bool(match[1]))


def targets(text: str) -> list[str]:
    """The distinct targets a text's wikilinks name (what a build resolves against the vault)."""
    return sorted({link.target for link in wikilinks(text) if link.target})


def _with_suffix(name: str) -> list[str]:
    """The file names a target may mean: itself when it names a file type, and `name.md`."""
    base = posixpath.basename(name)
    if "." in base.lstrip(".") and not base.lower().endswith(".md"):
        return [name, name + ".md"]
    return [name] if base.lower().endswith(".md") else [name + ".md"]


class Resolver:
    """The vault's files by lower-cased path and name, and its aliases: built once a build."""

    def __init__(self, files: Iterable[str], aliases: Mapping[str, Iterable[str]] = {}) -> None:
        self.by_path: dict[str, str] = {}
        self.by_name: dict[str, list[str]] = {}
        for path in sorted(files):
            self.by_path.setdefault(path.lower(), path)
            self.by_name.setdefault(posixpath.basename(path).lower(), []).append(path)
        self.aliases: dict[str, str] = {}
        for path in sorted(aliases):
            for alias in aliases[path]:
                self.aliases.setdefault(alias.strip().lower(), path)

    def resolve(self, target: str, source: str) -> str | None:
        """The file `[[target]]` in the note at `source` opens, or None."""
        target = target.strip().replace("\\", "/")
        if not target:
            return source
        here = posixpath.dirname(source)
        for name in _with_suffix(target):
            lowered = name.lower().lstrip("/")
            exact = self.by_path.get(posixpath.normpath(lowered)) if not lowered.startswith(".") else None
            if exact is None:
                joined = posixpath.normpath(posixpath.join(here.lower(), lowered))
                exact = self.by_path.get(joined) if not joined.startswith("..") else None
            if exact is not None:
                return exact
        for name in _with_suffix(target):
            found = self._by_suffix(name.lower().lstrip("/"), here)
            if found is not None:
                return found
        return self.aliases.get(target.lower())

    def _by_suffix(self, name: str, here: str) -> str | None:
        """The file whose path ends with `name` (a file name or a partial path), among several the
        nearest: the one sharing the most folders with the note (its own folder first: a
        repository of several vaults, one per language, links within each), then the shortest
        path, then path order."""
        candidates = [
            p
            for p in self.by_name.get(posixpath.basename(name), [])
            if p.lower() == name or p.lower().endswith("/" + name)
        ]
        if not candidates:
            return None
        return min(candidates, key=lambda p: (-_shared_folders(p, here), p.count("/"), len(p), p))


def resolve_links(
    records: Mapping[str, Mapping], files: Iterable[str]
) -> tuple[dict[str, dict[str, str]], dict[str, list[str]], dict[str, list[str]]]:
    """Every shown file's links as paths, from its summary record (`links`: what it links by path;
    `wiki`: its wikilink targets; `aliases`): (note -> {target: the file it opens}, note -> every
    path it links, note -> the targets no file matches, for the build report)."""
    aliases = {p: r["aliases"] for p, r in records.items() if r.get("aliases")}
    resolver = Resolver(files, aliases)
    wiki: dict[str, dict[str, str]] = {}
    links: dict[str, list[str]] = {}
    unresolved: dict[str, list[str]] = {}
    for path, record in records.items():
        found = set(record.get("links", []))
        for target in record.get("wiki", []):
            hit = resolver.resolve(target, path)
            if hit is None:
                unresolved.setdefault(path, []).append(target)
                continue
            wiki.setdefault(path, {})[target] = hit
            found.add(hit)
        links[path] = sorted(found - {path})
    return wiki, links, unresolved


def _shared_folders(path: str, here: str) -> int:
    """How many leading folders `path` shares with the folder `here`."""
    count = 0
    for a, b in zip(posixpath.dirname(path).split("/"), here.split("/"), strict=False):
        if a != b or not a:
            break
        count += 1
    return count


def aliases_of(fields: Iterable[tuple[str, str]]) -> list[str]:
    """A note's front matter `aliases` (or `alias`), written inline (`[a, b]`, `a, b`) or as a YAML
    list (which `titles.front_matter` joins with commas)."""
    found: list[str] = []
    for name, value in fields:
        if name.lower() not in ("aliases", "alias"):
            continue
        value = value.strip()
        if value.startswith("[") and value.endswith("]"):
            value = value[1:-1]
        found += [v for v in (_unquote(p) for p in value.split(",")) if v]
    return list(dict.fromkeys(found))


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return value.strip()
