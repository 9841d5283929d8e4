"""What a reviewer would measure on a generated case (generator.py) lived by runner.py: precision,
updates made against updates due, stale versions left in MEMORY.md, and mangled copies.

* precision: share of proposals (promote or supersede) whose source line is labelled durable;
* an update is due when an older version of a changing fact was merged into MEMORY.md and a newer
  version of it was proposed later (so the run knew both); it is made when that proposal replaced
  the old entry (a supersede naming it) or flagged when the proposal names it as a possible conflict;
* a stale entry: at the end, MEMORY.md holds an older version of a fact beside a newer one where an
  update of it was proposed (or where nothing flagged the two as a possible conflict), or an older
  version alone although an update was proposed; `older` counts every fact whose entry at the end
  is not its latest version, for any reason (the newer one not recalled enough, say);
* a mangled copy: a proposal's words that are in neither its source line, nor the line's heading,
  nor a date (numbers, weekday and month names, "log of", "the week of"), nor the "said" of a
  speaker's turn, or a doubled possessive, or a past
  event dated after its own log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from memgit.core.provenance import parse_reference
from tests.dream.cases.generator import Generated
from tests.dream.cases.runner import Outcome, score

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)
_DATE_WORDS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun "
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec log of on in the week said".split()
)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _words(text: str) -> set[str]:
    out = set()
    for word in _WORD.findall(text.lower().replace("’", "'")):
        out.add(word)
        out.add(word.removesuffix("'s"))
    return out


def mangled(copy: str, source: str, heading: str, log_day: str, past: bool) -> str | None:
    """Why `copy` is not a faithful copy of `source` (under `heading`, in the log of `log_day`), or
    None. `past`: the line tells of something already done (its date cannot follow the log's)."""
    if re.search(r"['’]s['’]s\b", copy):
        return "doubled possessive"
    allowed = _words(source) | _words(heading) | _DATE_WORDS
    extra = sorted(w for w in _WORD.findall(copy.lower().replace("’", "'")) if w not in allowed)
    extra = [w for w in extra if w.removesuffix("'s") not in allowed]
    if extra:
        return "words not in the source: " + ", ".join(extra)
    if past:
        log = date.fromisoformat(log_day)
        for match in _ISO.finditer(copy.replace(f"log of {log_day}", "")):
            if date(int(match[1]), int(match[2]), int(match[3])) > log:
                return f"a past event dated {match[0]}, after its log of {log_day}"
    return None


@dataclass
class Measures:
    name: str
    proposals: int
    precision: float
    updates_due: int
    updates_made: int
    flagged: int
    stale: list[str] = field(default_factory=list)
    older: list[str] = field(default_factory=list)  # an older version held at the end, for any reason
    mangled: list[str] = field(default_factory=list)
    wrong: list[tuple[str, str]] = field(default_factory=list)  # (label, text) of proposals not kept
    not_standalone: list[str] = field(default_factory=list)

    def row(self) -> dict[str, object]:
        return {
            "case": self.name,
            "proposals": self.proposals,
            "precision": round(self.precision, 3),
            "updates": f"{self.updates_made + self.flagged}/{self.updates_due}",
            "made": self.updates_made,
            "flagged": self.flagged,
            "stale": len(self.stale),
            "older version held": len(self.older),
            "mangled": len(self.mangled),
            "not standalone": len(self.not_standalone),
        }


def _version_of(gen: Generated, source: str | None) -> tuple[str, int] | None:
    if not source:
        return None
    ref = parse_reference(source)
    for n in range(ref.start, ref.end + 1):
        line = gen.case.lines.get((ref.path, n))
        if line is not None and line.group:
            return line.group, line.version
    return None


def _mangles(gen: Generated, outcome: Outcome) -> list[str]:
    found = []
    for proposal in outcome.proposals:
        ref = parse_reference(proposal["source"])
        lines = [
            gen.case.lines[(ref.path, n)] for n in range(ref.start, ref.end + 1) if (ref.path, n) in gen.case.lines
        ]
        source = " ".join(line.text for line in lines)
        heading = " ".join(gen.headings.get((ref.path, n), "") for n in range(ref.start, ref.end + 1))
        log_day = ref.path.rsplit("/", 1)[-1].removesuffix(".md")
        past = any((ref.path, n) in gen.past for n in range(ref.start, ref.end + 1))
        why = mangled(proposal["text"], source, heading, log_day, past)
        if why:
            found.append(f"{proposal['text']!r} <- {source!r}: {why}")
    return found


def _updates(gen: Generated, outcome: Outcome) -> tuple[int, int, int]:
    """(due, made, flagged) over the proposals of every night, in order."""
    merged: dict[str, dict[str, int]] = {}  # group -> key -> version, of entries proposed (and merged)
    due = made = flagged = 0
    review = "\n".join(outcome.branch_texts)
    for proposal in outcome.proposals:
        found = _version_of(gen, proposal["source"])
        if found is None:
            continue
        group, version = found
        older = {k: v for k, v in merged.get(group, {}).items() if v < version}
        if older:
            due += 1
            if proposal["action"] == "supersede" and proposal.get("target") in older:
                made += 1
            elif any(_flags(review, proposal["key"], key) for key in older):
                flagged += 1
        merged.setdefault(group, {})[proposal["key"]] = version
        if proposal["action"] == "supersede" and proposal.get("target"):
            merged[group].pop(proposal["target"], None)
    return due, made, flagged


def _flags(review: str, key: str, old: str) -> bool:
    return any(key in line and old in line and "conflict" in line for line in review.splitlines())


def _stale(gen: Generated, outcome: Outcome) -> list[str]:
    versions = score(gen.case, outcome)
    proposed: dict[str, int] = {}
    for proposal in outcome.proposals:
        found = _version_of(gen, proposal["source"])
        if found is not None:
            proposed[found[0]] = max(proposed.get(found[0], 0), found[1])
    updated = {
        found[0] for p in outcome.proposals if p["action"] == "supersede" if (found := _version_of(gen, p["source"]))
    }
    out = []
    for group, held in versions.changing.items():
        # Stale where an update was proposed (an update that left the old entry), or where a newer
        # version was proposed with nothing telling the reviewer it meets an older one.
        beside = len(held) > 1 and (group in updated or not _flagged_group(gen, outcome, group))
        if beside or (held and not versions.latest_ok[group] and group in updated):
            out.append(f"{group}: {held}")
    return out


def _flagged_group(gen: Generated, outcome: Outcome, group: str) -> bool:
    keys = [p["key"] for p in outcome.proposals if (found := _version_of(gen, p["source"])) and found[0] == group]
    review = "\n".join(outcome.branch_texts)
    return any(_flags(review, new, old) for new in keys for old in keys if new != old)


def older_left(gen: Generated, outcome: Outcome) -> list[str]:
    """Changing facts whose entry in MEMORY.md at the end is not their latest version (whatever
    was proposed): the strict count, beside `stale`."""
    versions = score(gen.case, outcome)
    return [f"{g}: {held}" for g, held in versions.changing.items() if held and not versions.latest_ok[g]]


def measure(gen: Generated, outcome: Outcome) -> Measures:
    scored = score(gen.case, outcome)
    due, made, flagged = _updates(gen, outcome)
    return Measures(
        gen.case.name,
        scored.proposals,
        scored.precision,
        due,
        made,
        flagged,
        _stale(gen, outcome),
        older_left(gen, outcome),
        _mangles(gen, outcome),
        [(label, text) for label, text in scored.labels if label != "durable"],
        scored.not_standalone,
    )
