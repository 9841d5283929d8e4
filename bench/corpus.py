"""Loading the LoCoMo dev corpus (``../shared/corpora/locomo-dev``): workspaces and gold queries."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.scoring_retrieval import Line, evidence_lines

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpora" / "locomo-dev"
WORK_DIR = Path(__file__).resolve().parent / ".work"


class CorpusMissing(SystemExit):
    """Raised (exit status 1, with the message) when the corpus folder is absent or incomplete."""


@dataclass(frozen=True)
class Query:
    id: str
    question: str
    category: int
    evidence: frozenset[Line]


@dataclass(frozen=True)
class Conversation:
    name: str  # "locomo-c0"
    workspace: Path  # the finished workspace folder
    commits: Path  # locomo-cN.commits.json
    queries: tuple[Query, ...]


def check_corpus(corpus: Path) -> Path:
    corpus = corpus.expanduser().resolve()
    if not (corpus / "replay.py").is_file() or not list(corpus.glob("locomo-c*.queries.jsonl")):
        raise CorpusMissing(
            f"bench: corpus not found at {corpus} (expected replay.py and locomo-cN.queries.jsonl).\n"
            "Pass --corpus PATH pointing at the locomo-dev folder (see its README.md)."
        )
    return corpus


def parse_query(line: str) -> Query:
    data = json.loads(line)
    return Query(
        id=str(data["id"]),
        question=" ".join(str(data["question"]).split()),  # one line per query in batch files
        category=int(data["category"]),
        evidence=evidence_lines(data["evidence"]),
    )


def load_conversations(corpus: Path, only: list[str] | None = None) -> list[Conversation]:
    corpus = check_corpus(corpus)
    found = []
    for qfile in sorted(corpus.glob("locomo-c*.queries.jsonl"), key=_conv_number):
        name = qfile.name.removesuffix(".queries.jsonl")
        if only and name not in only and name.removeprefix("locomo-") not in only:
            continue
        queries = tuple(parse_query(line) for line in qfile.read_text().splitlines() if line.strip())
        found.append(Conversation(name, corpus / name, corpus / f"{name}.commits.json", queries))
    return found


def _conv_number(path: Path) -> int:
    match = re.search(r"locomo-c(\d+)", path.name)
    return int(match.group(1)) if match else -1


def memory_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(relative posix path, absolute path) of MEMORY.md and memory/**/*.md, sorted."""
    if (root / "MEMORY.md").is_file():
        yield "MEMORY.md", root / "MEMORY.md"
    for path in sorted((root / "memory").rglob("*.md")):
        yield path.relative_to(root).as_posix(), path
