"""The data dreaming passes between its phases (plain frozen values; no I/O)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memgit.config import DreamConfig
from memgit.core.provenance import SourceRef
from memgit.dream.decisions import Decision
from memgit.dream.entries import EntryRecord
from memgit.dream.scoring import Components
from memgit.ledger.lines import Recall
from memgit.lint.redact import shown_path
from memgit.lint.rules import LintSettings

#: (texts, other texts) -> similarity matrix as nested lists, values in [-1, 1].
SimilarityFn = Callable[[list[str], list[str]], list[list[float]]]


@dataclass(frozen=True)
class Similarity:
    """How two texts are compared: embeddings when a model is installed, term overlap otherwise."""

    kind: str  # "embedding" | "terms"
    compare: SimilarityFn
    #: Embedding only: texts this run embedded, and texts whose vectors the embedding cache held.
    counts: dict[str, int] = field(default_factory=dict, compare=False)
    #: Embedding only: texts -> their vectors (rows of an array), for the measured judgements (durable.py).
    vectors: Callable[[list[str]], Any] | None = field(default=None, compare=False)

    def duplicate_threshold(self, cfg: DreamConfig) -> float:
        return cfg.duplicate_similarity if self.kind == "embedding" else cfg.duplicate_overlap

    def supersede_threshold(self, cfg: DreamConfig) -> float:
        return cfg.supersede_similarity if self.kind == "embedding" else cfg.supersede_overlap


@dataclass(frozen=True)
class Review:
    """What the review so far tells a run (decisions.py, entries.py): which entries memgit wrote
    (their line's hash as written), which proposals people rejected, which entries they kept when a
    forget was proposed, which keys an update replaced; and, when a branch is regenerated after a
    drop, the only keys it may propose."""

    hashes: Mapping[str, str] = field(default_factory=dict)
    #: Key -> the store's latest record that wrote it (when, from where).
    records: Mapping[str, EntryRecord] = field(default_factory=dict)
    rejected: frozenset[str] = frozenset()
    kept: frozenset[str] = frozenset()
    replaced: frozenset[str] = frozenset()
    only: frozenset[str] | None = None
    #: A reviewer's `dream supersede KEY OLD`: proposal key -> the entry key it updates.
    updates: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DreamInputs:
    """Everything a run reads, gathered before any phase runs (so the phases are pure)."""

    now: datetime
    base_commit: str
    recalls: list[Recall]
    files: Mapping[str, str | None]  # current text (at the base) of every recalled file; None = gone
    recent_notes: Mapping[str, str]  # daily logs and transcripts inside the light window
    memory_text: str
    config: DreamConfig
    similarity: Similarity
    lint: LintSettings = field(default_factory=LintSettings)
    malformed: int = 0
    malformed_where: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    #: The provenance store (memory/.dreams/entries.jsonl) at the base, as text.
    store_text: str = ""
    #: Review decisions known to this run: at the base, on the dream branch it replaces, new ones.
    decisions: tuple[Decision, ...] = ()
    #: Of those, the ones this run's branch must carry (not at the base yet).
    carried: tuple[Decision, ...] = ()
    #: Regenerating a branch after a drop: the only keys it may propose (None: any).
    only: frozenset[str] | None = None
    #: The dated notes (daily logs, transcripts) of the evidence window at the base: the lines of the
    #: subject timeline (timeline.py).
    window_notes: Mapping[str, str] = field(default_factory=dict)


@dataclass
class ShortTerm:
    """One recalled fact (light phase): where it is now and the evidence for it."""

    path: str
    start: int
    end: int
    text: str
    text_hash: str
    #: (time, query hash, day) of each search that surfaced it -> its score relative to that
    #: search's best hit. Copies of one fact folded together count each search once.
    evidence: dict[tuple[str, str, str], float]
    tags: list[str]
    moved: bool = False
    sources: list[tuple[str, int, int]] = field(default_factory=list)
    #: The entry as it would be promoted: standalone (dates resolved, speaker and chatter out);
    #: empty until the light phase judged it.
    entry_text: str = ""
    #: Why it can never be promoted (`junk: S104`, `needs context`, `transient` …), or None.
    rejected: str | None = None
    #: The text as it may be shown (a flagged line redacted).
    shown: str = ""
    #: What standing alone changed: "date", "subject", "speaker", "chatter".
    changes: tuple[str, ...] = ()
    #: Searches that count for it because they found an older version of its fact (pooled), not it.
    pooled: frozenset[tuple[str, str, str]] = frozenset()
    #: P(durable) by the measured model (durable.py); None without an embedding model.
    durable: float | None = None

    @property
    def fact(self) -> str:
        """The text dreaming judges and writes: the standalone copy when there is one."""
        return self.entry_text or self.text

    @property
    def recalls(self) -> int:
        return len(self.evidence)

    @property
    def queries(self) -> set[str]:
        return {q for _, q, _ in self.evidence}

    @property
    def days(self) -> list[str]:
        return sorted(day for _, _, day in self.evidence)

    @property
    def relevance(self) -> float:
        return sum(self.evidence.values()) / len(self.evidence) if self.evidence else 0.0


@dataclass
class Candidate:
    """A short-term entry as the deep phase judges it."""

    key: str
    entry: ShortTerm
    components: Components
    score: float
    gate: str | None = None  # the first gate it failed; None = proposed
    action: str = "promote"  # promote | supersede
    target: str | None = None  # key of the entry a supersede edits
    target_text: str | None = None  # and its text
    replaced: list[str] = field(default_factory=list)  # older candidates of this run about the same subject
    source: SourceRef | None = None
    also: list[SourceRef] = field(default_factory=list)
    #: (key, text) of entries, or other proposals of this run, this may be a newer version of (versions.py)
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    #: An update of a line a person wrote in MEMORY.md: that line as written (it is replaced in place).
    target_raw: str | None = None
    #: Proposed as the newer version of an entry found on the subject timeline, not by searches.
    timeline: bool = False

    def explain(self) -> dict[str, Any]:
        e = self.entry
        return {
            "key": self.key,
            "source": f"{shown_path(e.path)}:{e.start}-{e.end}",  # a name never shows a secret it holds
            "text": e.shown or e.text,
            "entry": None if e.rejected and e.rejected.startswith("junk: ") else e.fact,
            "changes": list(e.changes),
            "score": round(self.score, 3),
            "components": self.components.as_dict(),
            "recalls": e.recalls,
            "queries": len(e.queries),
            "days": len(set(e.days)),
            "gate": self.gate,
            "durable": e.durable,
            "action": None if self.gate else self.action,
            "target": self.target,
        }


@dataclass(frozen=True)
class Action:
    """One commit of the dream branch."""

    kind: str  # promote | supersede | forget
    key: str
    text: str
    source: SourceRef | None
    score: float | None
    components: Components | None
    subject: str
    body: str
    target: str | None = None
    previous_source: SourceRef | None = None
    also: tuple[SourceRef, ...] = ()
    previous_text: str | None = None  # an update: the text it replaces
    #: An update of a line a person wrote (not an entry memgit wrote).
    previous_by_hand: bool = False
    #: Proposed from the subject timeline (a newer note on an entry's subject), not from searches.
    timeline: bool = False
    #: (key, text) of what it may conflict with: an entry, or another proposal of the run
    conflicts: tuple[tuple[str, str], ...] = ()


@dataclass
class DreamPlan:
    day: str
    actions: list[Action]
    candidates: list[Candidate]
    gate_counts: dict[str, int]
    memory_before: str
    memory_after: list[str]  # MEMORY.md after each action, in order
    report: str
    themes: list[tuple[str, float]]
    truths: list[tuple[str, float, str]]  # where, confidence, text
    light: dict[str, int]
    notices: list[str]
    #: memory/.dreams/concepts/<day>.json: themes and where each concept appears (concept_map).
    concepts: str = ""
    #: One provenance record per action (entries.py), in commit order.
    records: list[EntryRecord] = field(default_factory=list)
    #: MEMORY.md with its long-form markers rewritten short (the run's first commit), or None.
    migrated: str | None = None
    migrated_records: list[EntryRecord] = field(default_factory=list)
    #: Decisions this branch records (memory/.dreams/decisions/), new or carried.
    decisions: list[Decision] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.actions

    def action_records(self) -> list[EntryRecord | None]:
        """The record of each action, in order; None for each when the plan made no records."""
        return list(self.records) if self.records else [None] * len(self.actions)
