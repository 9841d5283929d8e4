"""Updates of what MEMORY.md holds (pure): every entry, memgit's or a person's, gets its newest version.

`deep._compare_with_memory` makes a passing candidate the update of an entry memgit wrote. This
adds what the subject timeline requires beyond it (timeline.py):

* a line a person wrote by hand is an entry too: a passing candidate that is a newer version of it
  is its update (the line replaced in place, the old text beside the new in the pull request), and
  one that may be (the judge is not sure) carries a "may conflict with" line naming it;
* an entry nobody updated this run, whose subject a newer line of the window speaks of in another
  version, gets that line as its update: a candidate held back only by its evidence (the entry's
  presence shows the subject is long-term), or a line nobody searched for (`timeline`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from memgit.core.provenance import MemoryEntry, SourceRef
from memgit.dream.concepts import entry_key, plain
from memgit.dream.model import Candidate, Review, ShortTerm
from memgit.dream.scoring import Components
from memgit.dream.timeline import Judge, Unit, newest_versions
from memgit.ledger.lines import Recall, text_hash

Compare = Callable[[list[str], list[str]], list[list[float]]]
_ZERO = Components(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class UpdateContext:
    compare: Compare
    relate: Judge
    review: Review
    base_commit: str
    #: When an entry memgit wrote was true: (its source's day, path, line).
    entry_order: Callable[[MemoryEntry], tuple[str, str, int]]
    #: The judge for a line a person wrote (`relate`, and the key the line names: versions.key_update).
    relate_hand: Judge | None = None
    #: Whether one search found a candidate and a person's line together, and the judge for such a
    #: pair (version_model.together: a conflict line where the evidence is not clear).
    found_together: Callable[[ShortTerm, Unit], bool] | None = None
    relate_together: Judge | None = None


def conflict_advice(key: str, other: str, entries: Collection[str], proposals: Collection[str]) -> str:
    """What a reviewer can do when proposal `key` may be a newer version of `other`: an entry
    memgit wrote becomes its update by one command; another proposal of the run is dropped; a line
    a person wrote is theirs to edit (`memgit dream supersede` never rewrites it)."""
    if other in entries:
        return f"run `memgit dream supersede {key} {other}`"
    if other in proposals:
        return f"drop one of the two (`memgit dream drop {other}`)"
    return "edit that line of MEMORY.md yourself (it is yours)"


def searched_with(recalls: Sequence[Recall], memory_path: str = "MEMORY.md") -> Callable[[ShortTerm, Unit], bool]:
    """Whether one search found a candidate and a line of MEMORY.md together: the searches whose
    hit in MEMORY.md focused on that line (by its text's hash, so a line moved by later edits keeps
    its searches) against the candidate's own."""
    found: dict[str, set[tuple[str, str, str]]] = {}
    for r in recalls:
        if r.path == memory_path:
            found.setdefault(r.text_hash, set()).add((r.time, r.query_hash, r.day))

    def together(candidate: ShortTerm, unit: Unit) -> bool:
        return unit.raw is not None and not found.get(text_hash(unit.raw), set()).isdisjoint(candidate.evidence)

    return together


def _versus_hand_written(candidates: Sequence[Candidate], human: Sequence[Unit], ctx: UpdateContext) -> set[str]:
    """Passing new promotions against the lines a person wrote: the newest version of each such line
    becomes its update; a candidate the judge is unsure of carries a conflict line. Returns the keys
    of the lines updated."""
    passing = [c for c in candidates if c.gate is None and c.action == "promote"]
    if not passing or not human:
        return set()
    sims = ctx.compare([plain(c.entry.fact) for c in passing], [u.text for u in human])
    relate = ctx.relate_hand or ctx.relate
    updated: set[str] = set()
    order = sorted(range(len(passing)), key=lambda i: (passing[i].entry.path, passing[i].entry.start), reverse=True)
    for i in order:
        c, row = passing[i], sims[i]
        verdicts = [(relate(plain(c.entry.fact), u.text, sim), sim, u) for u, sim in zip(human, row, strict=True)]
        updates = [(sim, u) for verdict, sim, u in verdicts if verdict == "update" and u.key not in updated]
        if updates:
            _, unit = max(updates, key=lambda pair: pair[0])
            c.action, c.target, c.target_text, c.target_raw = "supersede", unit.key, unit.text, unit.raw
            updated.add(unit.key)
            continue
        c.conflicts += [(u.key, u.text) for verdict, _, u in verdicts if verdict == "conflict"]
        c.conflicts += _found_together(c, [(sim, u) for verdict, sim, u in verdicts if verdict is None], ctx)
    return updated


def _found_together(c: Candidate, undecided: Sequence[tuple[float, Unit]], ctx: UpdateContext) -> list[tuple[str, str]]:
    """Conflict lines for a person's lines one search found together with the candidate, where the
    judge of such pairs finds another version likely (version_model.together)."""
    if ctx.found_together is None or ctx.relate_together is None:
        return []
    fact = plain(c.entry.fact)
    return [
        (u.key, u.text)
        for sim, u in undecided
        if ctx.found_together(c.entry, u) and ctx.relate_together(fact, u.text, sim) == "conflict"
    ]


def update_entries(
    candidates: list[Candidate],
    existing: Sequence[MemoryEntry],
    human: Sequence[Unit],
    silent: Sequence[ShortTerm],
    superseded: set[str],
    ctx: UpdateContext,
) -> list[Candidate]:
    """Make every entry's newest version its update (see the module's docstring). Changes the
    candidates in place; returns the new ones (lines nobody searched for)."""
    done = superseded | _versus_hand_written(candidates, human, ctx)
    units = [
        (Unit(e.key, plain(e.body), ctx.entry_order(e)[0]), ctx.entry_order(e))
        for e in existing
        if e.owned and e.key not in done
    ]
    hand = [(u, ("", "", 0)) for u in human if u.key not in done]
    gated = [c for c in candidates if c.gate in ("recalls", "queries", "score") and not c.entry.rejected]
    proposed = {c.key for c in candidates if c.gate is None} | {e.key for e in existing}
    newer = [c.entry for c in gated] + list(silent)
    found = newest_versions([(u.text, at) for u, at in units], newer, ctx.compare, ctx.relate)
    found += newest_versions([(u.text, at) for u, at in hand], newer, ctx.compare, ctx.relate_hand or ctx.relate)
    units += hand
    new: list[Candidate] = []
    for (unit, _), j in zip(units, found, strict=True):
        if j is None:
            continue
        if j < len(gated):
            c = gated[j]
            if c.key in proposed:
                continue
            c.gate = None
        else:
            line = silent[j - len(gated)]
            key = entry_key(line.text)
            review = ctx.review
            if key in proposed or key in review.rejected or (review.only is not None and key not in review.only):
                continue
            c = Candidate(key, line, _ZERO, 0.0, timeline=True)
            c.source = SourceRef(line.path, line.start, line.end, ctx.base_commit)
            new.append(c)
        c.action, c.target, c.target_text, c.target_raw = "supersede", unit.key, unit.text, unit.raw
        proposed.add(c.key)
    return new


def one_version_a_run(
    candidates: Sequence[Candidate], ctx: UpdateContext, when: Callable[[Candidate], tuple[str, str, int]]
) -> None:
    """Never two versions of one subject in one run, whatever step proposed them (a search's
    candidate, a stand-in, a timeline update): of two passing new promotions the judge calls
    versions, the older is `outdated`. An update of an entry stays: it was matched to that entry on
    its own, and on the tuning cases a newer promotion the rules called its version (sharing
    "partner agreement" and "dry-goods pallet") was another fact, which would have taken the
    update's place."""
    passing = sorted((c for c in candidates if c.gate is None), key=when, reverse=True)
    if len(passing) < 2:
        return
    texts = [plain(c.entry.fact) for c in passing]
    sims = ctx.compare(texts, texts)
    for j, older in enumerate(passing):
        for i in range(j):
            newer = passing[i]
            if newer.gate is not None or when(newer) == when(older) or older.action == "supersede":
                continue
            if ctx.relate(texts[i], texts[j], sims[i][j]) != "update":
                continue
            older.gate = "outdated"
            newer.replaced.append(texts[j])
            break
