"""Generate an Obsidian-style vault: notes in nested folders (some names repeated in several
folders), front matter with aliases, wikilinks of every form Obsidian resolves (name, path,
partial path, other case, `.md`, `#heading`, `#^block`, `|label`, aliases, missing notes),
embeds of notes, sections, blocks and pictures, callouts, tags, comments and highlights, and a
table holding a wikilink (`\\|`), committed over a few commits.

    .venv/bin/python bench/gen_vault.py DEST [--notes 60] [--seed 3]

Deterministic (seeded, fixed identity and dates); written for memgit's tests and benchmarks, from
no real vault's text. `make_vault` returns what was written: every note's headings and block ids
and every wikilink as written (source note, the text between the brackets, embedded or not).
"""

from __future__ import annotations

import argparse
import os
import random
import struct
import subprocess
import zlib
from dataclasses import dataclass, field
from pathlib import Path

_ENV = {
    "GIT_AUTHOR_NAME": "Bench Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Bench Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
FOLDERS = ["", "Projects", "Projects/Alpha", "Projects/Beta", "Areas/Health", "Areas/Home", "Archive/2025", "People"]
#: Names that several folders hold a note of: the links to them need Obsidian's tie-break.
SHARED_NAMES = ["Overview", "Meeting notes", "Ideas", "Checklist"]
_TOPICS = [
    "Garden irrigation",
    "Sourdough starter",
    "Quarterly planning",
    "Bike maintenance",
    "Reading list",
    "Tax paperwork",
    "Sleep tracking",
    "Kitchen renovation",
    "Team rituals",
    "Photo archive",
    "Running plan",
    "Language study",
    "Server backups",
    "Holiday packing",
    "Board game night",
    "Podcast ideas",
    "Budget review",
    "Plant care",
    "Home network",
    "Writing habits",
    "Birthday gifts",
    "Car service",
    "Recipe box",
    "Learning Rust",
    "Morning routine",
    "Book club",
    "Coffee brewing",
    "Tool library",
    "Volunteer shifts",
    "Travel log",
]
_WORDS = (
    "water schedule notes weekly check fix order plan review draft list idea budget goal "
    "habit track note link keep share clean build test move sort"
).split()
_CALLOUTS = [("note", ""), ("tip", "-"), ("warning", ""), ("faq", "+"), ("info", ""), ("example", "-")]


@dataclass
class Vault:
    root: Path
    notes: dict[str, list[str]] = field(default_factory=dict)  # path -> its headings
    blocks: dict[str, list[str]] = field(default_factory=dict)  # path -> its block ids
    aliases: dict[str, list[str]] = field(default_factory=dict)
    images: list[str] = field(default_factory=list)
    #: (source note, the text between `[[` and `]]` with `\\|` as written, embedded)
    links: list[tuple[str, str, bool]] = field(default_factory=list)
    callouts: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)  # path -> (type, fold, title)
    tags: dict[str, list[str]] = field(default_factory=dict)


def git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        **_ENV,
        "GIT_AUTHOR_DATE": "2026-03-01T10:00:00Z",
        "GIT_COMMITTER_DATE": "2026-03-01T10:00:00Z",
    }
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True).stdout


def png(width: int, height: int, shade: int) -> bytes:
    """A real PNG of one grey: enough for a browser to decode and a build to recognise."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes([shade]) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def _note_paths(rng: random.Random, count: int) -> list[str]:
    paths = []
    for i, topic in enumerate(_TOPICS * (1 + count // len(_TOPICS))):
        if len(paths) >= count - len(SHARED_NAMES) * 2:
            break
        folder = FOLDERS[i % len(FOLDERS)]
        name = topic if i < len(_TOPICS) else f"{topic} {i // len(_TOPICS)}"
        paths.append(f"{folder}/{name}.md".lstrip("/"))
    for name in SHARED_NAMES:
        for folder in rng.sample(FOLDERS[1:], 2):
            paths.append(f"{folder}/{name}.md")
    return sorted(set(paths))


def _link_text(rng: random.Random, vault: Vault, source: str, targets: list[str]) -> str:
    """One wikilink's inner text, of a form picked at random."""
    target = rng.choice(targets)
    name = target.rsplit("/", 1)[-1][:-3]
    form = rng.randrange(12)
    if form == 0:
        inner = target[:-3]  # the full path
    elif form == 1 and "/" in target:
        inner = "/".join(target[:-3].split("/")[-2:])  # a partial path
    elif form == 2:
        inner = name.lower()  # another case
    elif form == 3:
        inner = name + ".md"
    elif form == 4 and vault.notes[target]:
        inner = f"{name}#{rng.choice(vault.notes[target])}"
    elif form == 5 and vault.blocks[target]:
        inner = f"{name}#^{rng.choice(vault.blocks[target])}"
    elif form == 6:
        inner = f"{name}|{rng.choice(_WORDS)} {rng.choice(_WORDS)}"
    elif form == 7 and vault.aliases.get(target):
        inner = rng.choice(vault.aliases[target])
    elif form == 8:
        inner = f"Missing {rng.choice(_WORDS)} page"
    elif form == 9 and vault.notes[source]:
        inner = f"#{rng.choice(vault.notes[source])}"  # a heading of this note
    else:
        inner = name
    return inner


def _note_text(rng: random.Random, vault: Vault, path: str, targets: list[str]) -> str:
    name = path.rsplit("/", 1)[-1][:-3]
    out = []
    if vault.aliases.get(path):
        out += ["---", "aliases:", *(f"  - {a}" for a in vault.aliases[path]), "tags: [vault]", "---", ""]
    out += [f"Notes about {name.lower()}, kept since last year.", ""]
    tags = vault.tags.setdefault(path, [])
    for h, heading in enumerate(vault.notes[path]):
        out += [f"## {heading}", ""]
        words = " ".join(rng.choice(_WORDS) for _ in range(12))
        links = []
        for _ in range(rng.randrange(1, 4)):
            inner = _link_text(rng, vault, path, targets)
            vault.links.append((path, inner, False))
            links.append(f"[[{inner}]]")
        tag = rng.choice(_WORDS) + "_" + rng.choice(_WORDS)
        tags.append(tag)
        block = vault.blocks[path][h] if h < len(vault.blocks[path]) else None
        line = f"The {words} relates to {' and '.join(links)}, see #{tag}."
        out += [line + (f" ^{block}" if block else ""), ""]
        if h == 0:
            out += [f"- ==keep== the {rng.choice(_WORDS)} %%private aside%% list", "- second item", ""]
        if h == 1 and path in vault.callouts:
            for kind, fold, title in vault.callouts[path]:
                out += [f"> [!{kind}]{fold} {title}".rstrip(), f"> The {' '.join(rng.sample(_WORDS, 6))}.", ""]
        if h == 1 and rng.random() < 0.5:
            inner = rng.choice(targets).rsplit("/", 1)[-1][:-3]
            vault.links.append((path, inner + "\\|" + "shown", False))
            out += ["| what | where |", "| --- | --- |", f"| {rng.choice(_WORDS)} | [[{inner}\\|shown]] |", ""]
    if rng.random() < 0.6:
        target = rng.choice([t for t in targets if t != path])
        part = rng.choice(
            ["", *(f"#{h}" for h in vault.notes[target][:1]), *(f"#^{b}" for b in vault.blocks[target][:1])]
        )
        inner = target.rsplit("/", 1)[-1][:-3] + part
        vault.links.append((path, inner, True))
        out += ["Embedded here:", "", f"![[{inner}]]", ""]
    if vault.images and rng.random() < 0.5:
        image = rng.choice(vault.images).rsplit("/", 1)[-1]
        vault.links.append((path, image + "|120", True))
        out += [f"A picture: ![[{image}|120]]", ""]
    out += ["```", "[[Not a link]] #not-a-tag", "```", ""]
    return "\n".join(out)


def make_vault(root: Path, seed: int = 3, notes: int = 60) -> Vault:
    """A vault of about `notes` notes and a few pictures, committed in three commits."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    vault = Vault(root)
    (root / "memgit.toml").write_text('[memory]\nextra_paths = ["**/*.md"]\n', encoding="utf-8")
    for i in range(3):
        rel = f"Attachments/diagram {i}.png"
        (root / "Attachments").mkdir(exist_ok=True)
        (root / rel).write_bytes(png(4 + i, 3, 60 + 40 * i))
        vault.images.append(rel)
    paths = _note_paths(rng, notes)
    for path in paths:
        vault.notes[path] = [f"{w.capitalize()} {rng.choice(_WORDS)}" for w in rng.sample(_WORDS, rng.randrange(2, 5))]
        vault.blocks[path] = [f"b{rng.randrange(16**5):05x}" for _ in range(rng.randrange(0, 3))]
        if rng.random() < 0.3:
            vault.aliases[path] = [f"{rng.choice(_WORDS).capitalize()} {rng.choice(_WORDS)} alias {len(vault.aliases)}"]
        if rng.random() < 0.4:
            vault.callouts[path] = [rng.choice(_CALLOUTS) + (rng.choice(["", "Heads up", "Why it matters"]),)]
    for n, batch in enumerate((paths[: len(paths) // 2], paths[len(paths) // 2 :])):
        for path in batch:
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(_note_text(rng, vault, path, paths), encoding="utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"Vault, part {n + 1}")
    return vault


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--notes", type=int, default=60)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    vault = make_vault(args.dest, args.seed, args.notes)
    print(f"{len(vault.notes)} notes, {len(vault.links)} wikilinks, {len(vault.images)} pictures in {vault.root}")


if __name__ == "__main__":
    main()
