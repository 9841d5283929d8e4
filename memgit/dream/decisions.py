"""Review decisions (pure): what people said no to, so dreaming never proposes it again.

A decision is one JSON line in `memory/.dreams/decisions/YYYY-MM-DD.jsonl` (the day it was taken;
append-only, `merge=union`, never indexed):

    {"key":"k3b71873e72","verdict":"rejected","day":"2026-12-01","by":"drop","action":"promote",
     "text":"The staging VPN passphrase is …","reason":"a secret"}

`rejected` means the proposal (a promotion or an update) never comes back: its key is made from the
words of its source, so only a changed source text gives a new proposal. `kept` means an entry a
forget proposal named stays: it is never proposed for forgetting again. `updates` (with `target`)
means a reviewer said the proposal is a newer version of entry `target` (`memgit dream supersede`):
it is proposed as that entry's update from then on.

Decisions are recorded by `memgit dream drop` (on the dream branch, so merging the pull request
carries them), `memgit dream reject` (committed on the current branch), and the CI when a pull
request is closed without merging. Some are implied rather than written: a proposal the provenance
store lists (its report was merged) that is not in MEMORY.md was taken out by a person (with plain
git, say), so it counts as rejected; a forget proposal whose entry is still there was refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from memgit.core.paths import DECISIONS_DIR
from memgit.dream.entries import Store, json_object

VERDICTS = ("rejected", "kept", "updates")


@dataclass(frozen=True)
class Decision:
    key: str
    verdict: str  # rejected | kept
    day: str
    by: str  # drop | reject | closed | missing | refused-forget
    action: str = "promote"  # what was proposed: promote | supersede | forget
    text: str = ""
    reason: str | None = None
    target: str | None = None  # `updates`: the entry key it replaces

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "key": self.key,
            "verdict": self.verdict,
            "day": self.day,
            "by": self.by,
            "action": self.action,
        }
        if self.text:
            data["text"] = self.text
        if self.reason:
            data["reason"] = self.reason
        if self.target:
            data["target"] = self.target
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def decisions_path(day: str) -> str:
    return f"{DECISIONS_DIR}/{day}.jsonl"


def parse_decision(line: str) -> Decision | None:
    obj = json_object(line)
    if obj is None:
        return None
    key, verdict, day, by = obj.get("key"), obj.get("verdict"), obj.get("day"), obj.get("by")
    if not (isinstance(key, str) and key and verdict in VERDICTS and isinstance(day, str) and isinstance(by, str)):
        return None
    action = found if isinstance(found := obj.get("action"), str) else "promote"
    text = said if isinstance(said := obj.get("text"), str) else ""
    reason = why if isinstance(why := obj.get("reason"), str) else None
    target = old if isinstance(old := obj.get("target"), str) and old else None
    if verdict == "updates" and target is None:
        return None
    return Decision(key, verdict, day, by, action, text, reason, target)


def parse_decisions(files: Iterable[tuple[str, str]]) -> tuple[list[Decision], list[str]]:
    """Decisions of several files `(path, text)`, and where the malformed lines were (`path:line`)."""
    found: list[Decision] = []
    bad: list[str] = []
    for path, text in files:
        for number, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            decision = parse_decision(line.removesuffix("\r"))
            if decision is None:
                bad.append(f"{path}:{number}")
            else:
                found.append(decision)
    return found, bad


@dataclass(frozen=True)
class Verdicts:
    """What the review so far says about keys: never propose these again, never forget those."""

    rejected: frozenset[str]
    kept: frozenset[str]
    #: Rejections implied by MEMORY.md (listed in a merged report, not in the file), with the text.
    missing: tuple[tuple[str, str], ...] = ()
    #: A reviewer's `dream supersede`: proposal key -> the entry key it updates (the latest said).
    updates: tuple[tuple[str, str], ...] = ()


def verdicts(decisions: Iterable[Decision], store: Store, memory_keys: Iterable[str]) -> Verdicts:
    present = set(memory_keys)
    rejected = {d.key for d in decisions if d.verdict == "rejected"}
    kept = {d.key for d in decisions if d.verdict == "kept"}
    forgotten = store.forgotten()
    replaced = store.replaced()
    missing: list[tuple[str, str]] = []
    for key, record in sorted(store.written().items()):
        if key in present or key in rejected:
            continue
        if forgotten.get(key, "") >= record.day or replaced.get(key, "") >= record.day:
            continue  # taken out by memgit's own forget or update, as proposed
        missing.append((key, record.text))
    written = store.written()
    for key, day in forgotten.items():
        if key in present and day >= (written[key].day if key in written else ""):
            kept.add(key)  # the forget was proposed, and merged without it: the entry stays
    updates = {d.key: d.target for d in sorted(decisions, key=lambda d: d.day) if d.verdict == "updates" and d.target}
    return Verdicts(
        frozenset(rejected | {k for k, _ in missing}), frozenset(kept), tuple(missing), tuple(sorted(updates.items()))
    )
