"""Generated repositories shaped like the two public ones issue 47 was tried on, built in the test:
an Obsidian-style vault (notes in topic folders with YAML front matter, aliases and tags,
`[[wikilinks]]`, `#tags`, callouts, `![[embeds]]`, a few language folders that translate the same
notes) and a GitHub-docs-style repository (the same pages under several product versions, front
matter with `title`/`ms.date`, reference-style links and their definitions).

Written from a seed through plain files and one commit (plus a few more that amend pages, so a
checkout back changes files), so every session builds the same repository. Each note or page
carries a made-up codename found in no other one (in a docs repository: the same codename in each
version's copy of a page), so a search for it has one right answer (or one per version).
"""

from __future__ import annotations

import random
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

_TOPICS = "Editing|Linking|Plugins|Sync|Publish|Canvas|Graph|Search|Themes|Hotkeys|Templates|Attachments".split("|")
_WORDS = (
    "vault note folder link heading block alias property backlink outline tag callout embed pane tab "
    "command palette setting plugin community core sync publish canvas graph filter query template "
    "snippet theme hotkey attachment image audio video pdf markdown preview source mode editor"
).split()


def _codename(rng: random.Random, taken: set[str]) -> str:
    while True:
        word = "".join(rng.choice("bdfgklmnprstvz") + rng.choice("aeiou") for _ in range(3)) + rng.choice("nrsx")
        if word not in taken:
            taken.add(word)
            return word


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 16))]
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(3, 6)))


@dataclass
class GeneratedRepo:
    root: Path
    codenames: list[str]  # codename of page i
    paths: list[str]  # path of page i (a docs repository: the first version's copy)
    copies: dict[str, list[str]] = field(default_factory=dict)  # codename -> every path that holds it


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def _commit(root: Path, message: str) -> None:
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=gen", "-c", "user.email=gen@example.invalid", "commit", "-qm", message)


def build_vault(
    root: Path, notes: int = 120, seed: int = 47, languages: tuple[str, ...] = ("en", "fr")
) -> GeneratedRepo:
    """An Obsidian help-style vault: `LANG/Topic/Note N.md`, each language a vault of its own."""
    rng = random.Random(seed)
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    taken: set[str] = set()
    titles = [f"{rng.choice(_TOPICS)} note {i}" for i in range(notes)]
    repo = GeneratedRepo(root, [], [])
    for lang in languages:
        for title in titles:
            topic = title.split()[0]
            codename = _codename(rng, taken)
            path = f"{lang}/{topic}/{title}.md"
            other = titles[rng.randrange(notes)]
            body = [
                "---",
                f"aliases: [{title.lower()}]",
                f"tags: [{topic.lower()}, help]",
                "---",
                f"{_paragraph(rng)} See [[{other}]] and [[{other}#Details|its details]].",
                "",
                "## Details",
                "",
                f"{_paragraph(rng)} The codename of this note is {codename}. #{topic.lower()}",
                "",
                "> [!tip] Good to know",
                f"> {_sentence(rng)}",
                "",
                f"![[{topic} diagram.png]]",
                "",
                "## Steps",
                "",
                *(f"{n}. {_sentence(rng)}" for n in range(1, rng.randint(3, 7))),
                "",
            ]
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text("\n".join(body), encoding="utf-8")
            repo.codenames.append(codename)
            repo.paths.append(path)
    _commit(root, "the vault")
    for round_ in range(3):  # later edits, so an older commit differs in many files
        for path in repo.paths[round_::5]:
            with (root / path).open("a", encoding="utf-8") as fh:
                fh.write(f"\n## Update {round_}\n\n{_paragraph(rng)}\n")
        _commit(root, f"edits {round_}")
    return repo


def build_docs(
    root: Path, pages: int = 60, seed: int = 48, versions: tuple[str, ...] = ("7.4", "7.5", "7.6")
) -> GeneratedRepo:
    """A GitHub docs-style repository: `reference/VERSION/Module/Page-N.md`, each page in every
    version with the same sections (a sentence or two differ), front matter and reference links."""
    rng = random.Random(seed)
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    (root / "README.md").write_text("# Docs\n\nThe reference, one folder a version.\n", encoding="utf-8")
    taken: set[str] = set()
    repo = GeneratedRepo(root, [], [])
    for i in range(pages):
        codename = _codename(rng, taken)
        module = rng.choice(["Management", "Utility", "Core", "Security"])
        sections = [(_paragraph(rng), _paragraph(rng)) for _ in range(3)]
        repo.codenames.append(codename)
        repo.copies[codename] = []
        for n, version in enumerate(versions):
            path = f"reference/{version}/Microsoft.{module}/Get-Item{i}.md"
            body = [
                "---",
                f"title: Get-Item{i}",
                f"ms.date: 2024-0{n + 1}-1{i % 9}",
                "schema: 2.0.0",
                "---",
                f"# Get-Item{i}",
                "",
                "## SYNOPSIS",
                "",
                f"Gets the {codename} items of a location, as [the guide][01] says.",
                "",
                *(
                    line
                    for head, (a, b) in zip(("DESCRIPTION", "EXAMPLES", "NOTES"), sections, strict=True)
                    for line in (f"## {head}", "", a, "", b, "")
                ),
                f"Since {version}: {_sentence(rng)}" if n else "",
                "",
                "<!-- link references -->",
                "[01]: ../../about/about_Items.md",
                "",
            ]
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text("\n".join(body), encoding="utf-8")
            repo.copies[codename].append(path)
            if n == 0:
                repo.paths.append(path)
    _commit(root, "the reference")
    return repo
