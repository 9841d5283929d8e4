"""Run a labelled dreaming case for real: a git workspace day by day, searches, four dream nights.

Each day's log is committed (the day of the secret past the hooks with `--no-verify`, as from a
clone without them), indexed by the hooks, searched with `memgit search --batch --now`, and the
recall spool published; on a dream night `memgit dream` writes its branch and the branch is merged
as it is. Then every proposal is scored by the label of the line it came from.

Used by tests/dream/test_dream_quality_case.py and bench/dream_quality.py (`--case`).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from memgit.core.paths import ENTRIES_PATH
from memgit.core.provenance import parse_reference
from memgit.dream import memory_doc
from memgit.dream.entries import parse_store
from memgit.dream.reltime import unresolved
from tests.helpers import LAUNCHER

LABELS = {"D": "durable", "T": "transient", "C": "chatter", "S": "secret", "N": "needs context", "H": "structure"}
_VERSION = re.compile(r"\s*\{(?P<group>[\w-]+):(?P<version>\d+)\}\s*$")
#: A bare pronoun opening an entry (after a "Name said:" speaker): no one can tell who it means.
BARE_PRONOUN = re.compile(
    r"^(?:[^:]{1,40} said:\s*)?(?:he|she|it|they|his|her|its|their|him|them)\b"
    r"|^(?:[^:]{1,40} said:\s*)?(?:this|that|these|those)\s+(?:is|was|are|were|will|should|has|had)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Line:
    path: str
    number: int
    label: str
    text: str
    group: str | None = None
    version: int = 0


@dataclass
class Case:
    name: str
    days: dict[str, str]  # day -> file text
    lines: dict[tuple[str, int], Line]
    queries: dict[str, list[str]]
    nights: tuple[str, ...]
    secret: str

    @property
    def changing(self) -> dict[str, list[Line]]:
        groups: dict[str, list[Line]] = {}
        for line in self.lines.values():
            if line.group:
                groups.setdefault(line.group, []).append(line)
        return {g: sorted(v, key=lambda x: x.version) for g, v in groups.items()}


def load(module: ModuleType) -> Case:
    days: dict[str, str] = {}
    lines: dict[tuple[str, int], Line] = {}
    for day, block in module.DAYS.items():
        path = f"memory/{day}.md"
        out = []
        for raw in block.strip("\n").splitlines():
            label, _, text = raw.partition(" |")
            text = text[1:] if text.startswith(" ") else text
            version = _VERSION.search(text)
            if version:
                text = text[: version.start()]
            out.append(text)
            lines[(path, len(out))] = Line(
                path,
                len(out),
                LABELS[label.strip()],
                text,
                version["group"] if version else None,
                int(version["version"]) if version else 0,
            )
        days[day] = "\n".join(out) + "\n"
    return Case(module.__name__.rsplit(".", 1)[-1], days, lines, module.QUERIES, tuple(module.NIGHTS), module.SECRET)


@dataclass
class Outcome:
    proposals: list[dict[str, Any]] = field(default_factory=list)  # every promote/supersede, with its night
    branch_texts: list[str] = field(default_factory=list)  # each dream branch: diff, messages, report
    memory: str = ""
    store: str = ""  # memory/.dreams/entries.jsonl: where each entry came from
    gates: list[dict[str, int]] = field(default_factory=list)
    explained: list[str] = field(default_factory=list)  # `dream --dry-run --explain` text of each night


def _run(cmd: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None) -> str:
    if cmd[1:3] == ["-m", "memgit"]:
        proc = LAUNCHER.run(cmd, cwd, env, stdin, timeout=600)
    else:
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, input=stdin, check=False)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}{proc.stdout}")
    return proc.stdout


def run_case(case: Case, root: Path, env: dict[str, str]) -> Outcome:
    """Live the case's days in a new workspace at `root`; `env` chooses the model (MEMGIT_MODEL)."""
    env = {**os.environ, **env, "MEMGIT_NO_RECALL": "0"}
    memgit = [sys.executable, "-m", "memgit"]
    root.mkdir(parents=True)
    _run(["git", "init", "-q", "-b", "main"], root, env)
    _run([*memgit, "init", "--hooks"], root, env)
    _run(["git", "add", "-A"], root, env)
    _run(["git", "commit", "-q", "-m", "memgit workspace"], root, env)
    outcome = Outcome()
    for day in sorted(set(case.days) | set(case.queries) | set(case.nights)):
        dated = {**env, "GIT_AUTHOR_DATE": f"{day}T09:00:00+00:00", "GIT_COMMITTER_DATE": f"{day}T09:00:00+00:00"}
        if day in case.days:
            (root / "memory").mkdir(exist_ok=True)
            (root / f"memory/{day}.md").write_text(case.days[day], encoding="utf-8")
            _run(["git", "add", f"memory/{day}.md"], root, dated)
            hooks = ["--no-verify"] if case.secret in case.days[day] else []
            _run(["git", "commit", "-q", *hooks, "-m", f"log {day}"], root, dated)
            _run([*memgit, "index", "-q"], root, env)
        if case.queries.get(day):
            _run(
                [*memgit, "search", "--batch", "-", "--now", f"{day}T17:00:00+00:00", "--json"],
                root,
                env,
                stdin="\n".join(case.queries[day]) + "\n",
            )
            _run(
                [*memgit, "recalls", "publish"],
                root,
                {**dated, "GIT_AUTHOR_DATE": f"{day}T17:30:00+00:00", "GIT_COMMITTER_DATE": f"{day}T17:30:00+00:00"},
            )
        if day in case.nights:
            now = f"{day}T22:00:00+00:00"
            outcome.explained.append(_run([*memgit, "dream", "--now", now, "--dry-run", "--explain"], root, env))
            out = json.loads(_run([*memgit, "dream", "--now", now, "--json"], root, env))
            outcome.gates.append(out.get("gates", {}))
            for action in out.get("actions", []):
                if action["action"] in ("promote", "supersede"):
                    outcome.proposals.append({**action, "night": day})
            if out.get("branch"):
                branch = out["branch"]
                outcome.branch_texts.append(_run(["git", "log", "-p", "--format=%B", f"HEAD..{branch}"], root, env))
                _run(["git", "merge", "-q", "--no-edit", branch], root, dated)
    outcome.memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    store = root / ENTRIES_PATH
    outcome.store = store.read_text(encoding="utf-8") if store.exists() else ""
    return outcome


@dataclass
class Score:
    proposals: int
    kept: int
    labels: list[tuple[str, str]]  # (label, text) of each proposal
    not_standalone: list[str]
    changing: dict[str, list[str]]  # group -> the texts MEMORY.md holds for it at the end
    latest_ok: dict[str, bool]
    secret_leaks: int

    @property
    def precision(self) -> float:
        return self.kept / self.proposals if self.proposals else 0.0


def label_of(case: Case, source: str) -> str:
    ref = parse_reference(source)
    labels = {case.lines[(ref.path, n)].label for n in range(ref.start, ref.end + 1) if (ref.path, n) in case.lines}
    if "durable" in labels:
        return "durable"
    return sorted(labels)[0] if labels else "unknown"


def score(case: Case, outcome: Outcome) -> Score:
    labels = [(label_of(case, p["source"]), p["text"]) for p in outcome.proposals]
    texts = [p["text"] for p in outcome.proposals]
    not_standalone = [t for t in texts if unresolved(t) or BARE_PRONOUN.search(t)]
    written = parse_store(outcome.store).written()
    entries = memory_doc.parse_entries(outcome.memory)
    changing: dict[str, list[str]] = {}
    latest_ok: dict[str, bool] = {}
    for group, versions in case.changing.items():
        places = {(v.path, v.number): v for v in versions}
        held = []
        newest = 0
        for entry in entries:
            record = written.get(entry.key)
            src = record.source if record is not None else entry.marker.source
            if src is None:
                continue
            hit = [places[(src.path, n)] for n in range(src.start, src.end + 1) if (src.path, n) in places]
            if hit:
                held.append(memory_doc_text(entry.body))
                newest = max(newest, hit[0].version)
        changing[group] = held
        latest_ok[group] = len(held) == 1 and newest == versions[-1].version
    leaks = sum(text.count(case.secret) for text in outcome.branch_texts)
    return Score(
        len(labels),
        sum(1 for label, _ in labels if label == "durable"),
        labels,
        not_standalone,
        changing,
        latest_ok,
        leaks,
    )


def memory_doc_text(body: str) -> str:
    return " ".join(line.lstrip("- ").strip() for line in body.splitlines())
