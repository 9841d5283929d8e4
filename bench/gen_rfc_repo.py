"""Generate a repository of the kind memgit adopts but did not write: design documents ("RFCs")
from one template, with YAML front matter, template headings in every file, tables with `<br>`
and aligned columns, renames and a revert, committed over a few dozen commits (more with --files
and --rounds).

    .venv/bin/python bench/gen_rfc_repo.py DEST [--files 36] [--rounds 3] [--seed 7]

Deterministic (seeded, fixed identity and dates), so a failure is reproducible; written for
memgit's tests and benchmarks, from no real repository's text. Three kinds of file, as such
repositories mix them:

- "preamble": `- Feature Name: …` lines then the template's `# Summary` as the first H1 (the file
  name is the only title it has);
- "front": YAML front matter with `title:`, then the template sections as H2s;
- "titled": its own `# Title`, then the sections as H2s.
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

SECTIONS = [
    "Summary",
    "Motivation",
    "Guide-level explanation",
    "Reference-level explanation",
    "Drawbacks",
    "Rationale and alternatives",
    "Unresolved questions",
]
_SUBJECTS = [
    "const evaluation in traits",
    "scoped thread pools",
    "async closures",
    "labelled block breaks",
    "cargo workspace inheritance",
    "generic associated types",
    "stable inline assembly",
    "never type fallback",
    "raw string escapes",
    "default field values",
    "trait upcasting coercion",
    "let chains in conditions",
    "lint reasons attribute",
    "unsafe extern blocks",
    "precise capturing syntax",
    "cfg boolean literals",
    "derive smart pointers",
    "return position impl traits",
    "pattern types for integers",
    "frontmatter in cargo scripts",
    "deref patterns",
    "gen blocks for iterators",
    "packed struct alignment",
    "macro fragment specifiers",
    "edition lint migration",
    "tuple struct field access",
    "coroutine resume arguments",
    "explicit tail calls",
    "string interpolation formats",
    "checked integer overflow",
    "module visibility paths",
    "try blocks in expressions",
    "variadic generic tuples",
    "type alias bounds",
    "closure lifetime binders",
    "associated const defaults",
]
_WORDS = (
    "borrow checker lifetime region trait bound compiler monomorphisation codegen crate module "
    "parser macro expansion hygiene inference coherence orphan rule vtable layout niche enum "
    "allocator iterator closure capture future poll waker executor pinning"
).split()


@dataclass
class RfcRepo:
    root: Path
    kinds: dict[str, str] = field(default_factory=dict)  # path -> preamble | front | titled
    titles: dict[str, str] = field(default_factory=dict)  # path -> the title it should get
    renamed: dict[str, str] = field(default_factory=dict)  # new path -> old path
    reverted: str = ""  # a file whose history returns to an earlier version
    tables: str = ""  # a file with a <br> table and aligned columns


class _Clock:
    """Commit dates one hour apart from a fixed start: the same repository, hashes included."""

    def __init__(self) -> None:
        self.tick = 0

    def env(self) -> dict[str, str]:
        self.tick += 1
        stamp = f"{1_700_000_000 + self.tick * 3600} +0000"
        return {**os.environ, **_ENV, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}


_CLOCK = _Clock()


def git(root: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, env=_CLOCK.env(), check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def commit_all(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def _subjects(count: int) -> list[str]:
    """`count` distinct subjects: the list, then the list again with a part number."""
    return [
        _SUBJECTS[i % len(_SUBJECTS)] + (f" part {i // len(_SUBJECTS) + 1}" if i >= len(_SUBJECTS) else "")
        for i in range(count)
    ]


def _slug(subject: str) -> str:
    return subject.replace(" ", "-")


def _section(rng: random.Random, name: str, level: int, tag: bool) -> str:
    anchor = name.lower().replace(" ", "-")
    words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(25, 45)))
    extra = " The #borrowck work depends on it." if tag else ""
    return f"{'#' * level} {name}\n[{anchor}]: #{anchor}\n\n{words.capitalize()}.{extra}\n"


def _table() -> str:
    return (
        "| option | default | effect |\n"
        "|:-------|:-------:|-------:|\n"
        "| `fallback` | off | first line<br>second line<BR/>third line |\n"
        "| `strict` | on | one<br />two |\n"
    )


def rfc_text(rng: random.Random, number: int, subject: str, kind: str, table: bool = False) -> str:
    level = 1 if kind == "preamble" else 2
    body = "\n".join(_section(rng, name, level, tag=(number % 7 == 0 and name == "Motivation")) for name in SECTIONS)
    if table:
        body += "\n## Options\n\n" + _table()
    title = subject.capitalize()
    if kind == "preamble":
        head = f"- Feature Name: `{subject.replace(' ', '_')}`\n- Start Date: 2024-{number % 12 + 1:02d}-01\n\n"
    elif kind == "front":
        head = f'---\ntitle: "{title}"\nrfc: {number}\nauthors:\n  - Ada\n  - Lin\nstatus: accepted\n---\n'
    else:
        head = f"# {title}\n\n"
    return head + body


def move(root: Path, old: str, new: str) -> None:
    (root / new).parent.mkdir(parents=True, exist_ok=True)
    git(root, "mv", old, new)


def make_rfc_repo(root: Path, seed: int = 7, files: int = 36, rounds: int = 3) -> RfcRepo:
    """`files` files over a few dozen commits (`rounds` of revisions to a few of them), with three
    renames (one file moved twice) and a revert."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    repo = RfcRepo(root)
    write(root / "memgit.toml", '[memory]\nextra_paths = ["**/*.md"]\n\n[site]\nhistory = 50\n')
    write(root / "README.md", "# Design documents\n\nOne file a proposal, under `text/`, from `0000-template.md`.\n")
    kinds = ("preamble", "front", "titled")
    texts: dict[str, str] = {}
    for number, subject in enumerate(_subjects(files), start=1):
        kind = kinds[number % 3]
        path = f"text/{number:04d}-{_slug(subject)}.md"
        texts[path] = rfc_text(rng, number, subject, kind, table=number == 5)
        repo.kinds[path] = kind
        repo.titles[path] = path.rsplit("/", 1)[1][:-3] if kind == "preamble" else subject.capitalize()
    paths = sorted(texts)
    for batch in range(0, len(paths), 6):  # six commits adding the files
        for path in paths[batch : batch + 6]:
            write(root / path, texts[path])
        commit_all(root, f"Add RFCs {batch + 1}-{batch + 6}")
    repo.tables = paths[4]
    moved = {paths[1]: "text/accepted/" + paths[1][5:], paths[2]: "text/accepted/" + paths[2][5:]}
    for step in range(rounds):  # edits before the renames
        for path in (*moved, paths[3], *paths[8 + step % 5 :: 23]):
            write(root / path, (root / path).read_text() + f"\nRevision {step}: {rng.choice(_WORDS)}.\n")
        commit_all(root, f"Revise drafts, round {step}")
    for old, new in moved.items():
        move(root, old, new)
    commit_all(root, "Move accepted RFCs")
    for new in moved.values():
        write(root / new, (root / new).read_text() + "\nAccepted after the final comment period.\n")
        commit_all(root, f"Note acceptance of {new}")
    twice = moved[paths[1]]
    final = twice.replace("accepted/", "accepted/stable-")
    move(root, twice, final)
    commit_all(root, "Rename a stabilised RFC")
    write(root / final, (root / final).read_text() + "\nStabilised.\n")
    commit_all(root, "Stabilise")
    repo.renamed = {final: paths[1], moved[paths[2]]: paths[2]}
    for new, old in repo.renamed.items():
        repo.kinds[new], repo.titles[new] = repo.kinds.pop(old), repo.titles.pop(old)
        if repo.kinds[new] == "preamble":
            repo.titles[new] = new.rsplit("/", 1)[1][:-3]
    reverted = repo.reverted = paths[6]
    original = (root / reverted).read_text()
    write(root / reverted, original + "\nA mistaken paragraph.\n")
    commit_all(root, "Edit by mistake")
    write(root / reverted, original)
    commit_all(root, "Revert the mistaken edit")
    write(root / reverted, original + "\nThe intended paragraph.\n")
    commit_all(root, "Edit as intended")
    return repo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--files", type=int, default=36)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.files < 10:
        parser.error("--files must be at least 10")
    repo = make_rfc_repo(args.dest, args.seed, args.files, args.rounds)
    print(
        f"{len(repo.kinds)} documents, {git(repo.root, 'rev-list', '--count', 'HEAD').strip()} commits in {repo.root}"
    )


if __name__ == "__main__":
    main()
