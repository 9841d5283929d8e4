"""A generated repository shaped like a public RFC repository memgit did not create: a few hundred
Markdown documents under `text/` (one added a commit, some amended later), a README and a guide
under `docs/`, and the Markdown other tools leave in a repository (installed packages under
`node_modules/`, a built site under `site/`, templates under `.github/`).

Written through one `git fast-import` (a few hundred commits in well under a second), from a seed,
so every session builds the same repository. Each document carries a made-up codename found in no
other document, so a search for it has exactly one right answer.
"""

from __future__ import annotations

import random
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

_TOPICS = (
    "asynchronous functions|const generics|pattern binding|trait aliases|error propagation|module paths|"
    "closure capture|lifetime elision|slice patterns|integer overflow|unsafe blocks|macro hygiene|"
    "iterator adapters|string formatting|borrow splitting|default fields|enum variants|tuple structs|"
    "associated types|operator overloading|dependency resolution|workspace inheritance|build scripts|"
    "feature flags|documentation tests|panic handling|thread locals|atomic ordering|memory layout|"
    "inline assembly"
).split("|")
_VERBS = "adds|changes|removes|stabilises|extends|restricts|clarifies|deprecates".split("|")
_FILLER = (
    "The compiler accepts the new form and rejects the old one with a clear message. "
    "Existing code keeps compiling; an edition switch enables the stricter rules. "
    "Tooling shows the change in diagnostics and in the reference. "
    "Library authors can adopt it without a major version. "
    "The lint group warns before the behaviour changes. "
    "Teaching material needs one new section and two updated examples. "
).split(". ")


@dataclass
class RfcRepo:
    root: Path
    codenames: list[str]  # codename of document i (text/NNNN-*.md)
    paths: list[str]
    commits: int
    vendored: list[str] = field(default_factory=list)


def _codename(rng: random.Random, taken: set[str]) -> str:
    while True:
        word = "".join(rng.choice("bdfgklmnprstvz") + rng.choice("aeiou") for _ in range(3)) + rng.choice("nrsx")
        if word not in taken:
            taken.add(word)
            return word


def _document(number: int, topic: str, verb: str, codename: str, rng: random.Random) -> str:
    body = [rng.choice(_FILLER).strip() + "." for _ in range(rng.randint(6, 14))]
    return (
        f"- Feature Name: `{topic.replace(' ', '_')}_{number}`\n"
        f"- Start Date: 2019-{number % 12 + 1:02d}-{number % 27 + 1:02d}\n\n"
        f"# Summary\n\nThis RFC {verb} {topic} (codename {codename}).\n\n"
        f"# Motivation\n\n{' '.join(body[: len(body) // 2])}\n\n"
        f"# Guide-level explanation\n\nWith {topic}, a program says what it means. {' '.join(body[len(body) // 2 :])}\n\n"
        f"# Drawbacks\n\nMore to learn about {topic}.\n"
    )


def build_rfc_repo(root: Path, *, documents: int = 300, amendments: int = 60, seed: int = 7) -> RfcRepo:
    """Write the repository at `root` (created), HEAD on `main` checked out; one commit per document,
    then `amendments` commits that append to earlier documents, then the README, guide and the
    vendored and generated Markdown."""
    rng = random.Random(seed)
    taken: set[str] = set()
    codenames, paths, texts = [], [], {}
    stream: list[bytes] = []
    mark = 0

    def commit(message: str, files: dict[str, str]) -> None:
        nonlocal mark
        mark += 1
        when = 1_546_300_800 + mark * 86_400
        stream.append(f"commit refs/heads/main\nmark :{mark}\n".encode())
        stream.append(f"committer RFC Bot <bot@example.invalid> {when} +0000\n".encode())
        msg = message.encode()
        stream.append(b"data %d\n%s\n" % (len(msg), msg))
        if mark > 1:
            stream.append(f"from :{mark - 1}\n".encode())
        for path, text in files.items():
            data = text.encode()
            stream.append(f"M 100644 inline {path}\n".encode() + b"data %d\n%s\n" % (len(data), data))

    for i in range(documents):
        topic, verb = _TOPICS[i % len(_TOPICS)], rng.choice(_VERBS)
        name = _codename(rng, taken)
        path = f"text/{i + 1:04d}-{topic.replace(' ', '-')}-{i // len(_TOPICS)}.md"
        codenames.append(name)
        paths.append(path)
        texts[path] = _document(i + 1, topic, verb, name, rng)
        commit(f"RFC {i + 1}: {verb} {topic}", {path: texts[path]})
    for n in range(amendments):
        path = paths[rng.randrange(len(paths))]
        texts[path] += f"\n# Amendment {n + 1}\n\nClarified after review round {n + 1}.\n"
        commit(f"amend {path}", {path: texts[path]})
    vendored = [f"node_modules/pkg{i}/README.md" for i in range(6)] + ["site/index.md", "site/rfcs.md"]
    extra = {p: f"# Package readme {p}\n\nInstall with npm.\n" for p in vendored}
    extra |= {".github/PULL_REQUEST_TEMPLATE.md": "# Checklist\n\n- [ ] tests\n"}
    extra |= {"README.md": "# RFCs\n\nDesign documents for the language.\n"}
    extra |= {f"docs/guide/step-{i}.md": f"# Step {i}\n\nHow to write an RFC, part {i}.\n" for i in range(4)}
    commit("readme, guide, packages and the built site", extra)

    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(stream), check=True)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=root, check=True)
    return RfcRepo(root=root, codenames=codenames, paths=paths, commits=mark, vendored=vendored)
