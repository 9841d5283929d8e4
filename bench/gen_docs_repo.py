"""Generate a documentation repository written for GitHub: the same reference pages under several
product versions (`docs/7.4/…`, `docs/7.5/…`, sections repeated word for word), YAML front
matter, reference-style links whose definitions sit after an HTML comment at the end of the file
(`[text][07]` … `[07]: ../about/about_x.md`), footnotes, bare URLs, GitHub alerts
(`> [!NOTE]`), tables with `<br>`, and links between pages, committed over a few commits.

    .venv/bin/python bench/gen_docs_repo.py DEST [--pages 12] [--versions 3] [--seed 5]

Deterministic (seeded, fixed identity and dates); written for memgit's tests and benchmarks from
no real repository's text. `make_docs_repo` returns what was written: each page's reference
links (label, text, target) and footnotes.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
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
_COMMANDS = [
    "Get-Widget",
    "Set-Widget",
    "New-Gadget",
    "Remove-Gadget",
    "Start-Sprocket",
    "Stop-Sprocket",
    "Test-Gizmo",
    "Export-Gizmo",
    "Import-Doohickey",
    "Invoke-Doohickey",
    "Clear-Thingamajig",
    "Find-Thingamajig",
]
_ABOUT = ["about_Widgets", "about_Pipelines", "about_Profiles", "about_Quoting"]


@dataclass
class DocsRepo:
    root: Path
    versions: list[str] = field(default_factory=list)
    #: page path -> [(label, link text, target as written)]
    references: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    footnotes: dict[str, list[str]] = field(default_factory=dict)  # page -> footnote texts
    #: the sections every version repeats word for word: (heading, a sentence of it)
    repeated: list[tuple[str, str]] = field(default_factory=list)


def git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        **_ENV,
        "GIT_AUTHOR_DATE": "2026-02-01T10:00:00Z",
        "GIT_COMMITTER_DATE": "2026-02-01T10:00:00Z",
    }
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True).stdout


def _page(rng: random.Random, repo: DocsRepo, version: str, command: str, others: list[str]) -> tuple[str, str]:
    path = f"docs/{version}/Module/{command}.md"
    noun = command.split("-", 1)[1].lower()
    refs = []
    body_links = []
    for n, other in enumerate(rng.sample(others, 3), start=1):
        label = f"{n:02d}"
        refs.append((label, other, f"{other}.md"))
        body_links.append(f"[{other}][{label}]")
    about = rng.choice(_ABOUT)
    refs.append(("04", about, f"../About/{about}.md"))
    refs.append(("05", "the online guide", f"https://docs.example.com/{noun}?view={version}#syntax"))
    repo.references[path] = refs
    note = f"The {noun} cache is kept for {rng.randrange(2, 9)} minutes"
    repo.footnotes[path] = [note]
    synopsis = f"The {command} cmdlet works on {noun} objects in the current session."
    if version == repo.versions[0]:
        repo.repeated.append((f"{command} description", synopsis))
    text = f"""---
title: {command}
ms.date: 02/0{1 + len(repo.versions)}/2026
---

# {command}

## Synopsis

{synopsis}

## Description

Use {body_links[0]} with this command, or pipe to {body_links[1]}.[^1] See
[{about}][04] for the concepts and [the online guide][05] for more; the source is at
https://github.com/example/widgets and www.example.com/{noun} hosts samples.

> [!NOTE]
> {command} needs version {version} or later. Compare {body_links[2]}.

| Parameter | Meaning |
| --- | --- |
| -Name | The {noun} name.<br>Wildcards are allowed. |
| -Force | Skips the prompt. |

[^1]: {note}.

<!-- link references -->
""" + "".join(f"[{label}]: {target}\n" for label, _, target in refs)
    return path, text


def make_docs_repo(root: Path, seed: int = 5, pages: int = 12, versions: int = 3) -> DocsRepo:
    """`pages` reference pages under each of `versions` product versions, plus the about pages."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    repo = DocsRepo(root, [f"7.{3 + v}" for v in range(versions)])
    (root / "memgit.toml").write_text('[memory]\nextra_paths = ["docs/**/*.md"]\n', encoding="utf-8")
    commands = _COMMANDS[:pages]
    for version in repo.versions:
        about_dir = root / "docs" / version / "About"
        about_dir.mkdir(parents=True, exist_ok=True)
        for about in _ABOUT:
            (about_dir / f"{about}.md").write_text(
                f"# {about}\n\n## Short description\n\nHow {about[6:].lower()} behave in version {version}.\n",
                encoding="utf-8",
            )
        for command in commands:
            path, text = _page(rng, repo, version, command, [c for c in commands if c != command])
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"Docs for version {version}")
    return repo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--pages", type=int, default=12)
    parser.add_argument("--versions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    if args.pages < 4:  # each page links three others
        parser.error("--pages must be at least 4")
    repo = make_docs_repo(args.dest, args.seed, args.pages, args.versions)
    print(f"{len(repo.references)} pages in {len(repo.versions)} versions in {repo.root}")


if __name__ == "__main__":
    main()
