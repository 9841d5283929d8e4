"""Same subject, measured (pure): how likely a newer line is another version of an older one.

`versions.judge` decides an update by rules (the slot a fact fills, the people it names, change
words, cosine thresholds). Measured on notes other hands wrote (`bench/dream_subjects.py`, the
tuning half of the folder cases, each workspace scored by a model fitted on the others), a
logistic regression over the same evidence (the cosine, the names, words and numbers two lines
share or do not, the rules' own verdict, the slot, a change word, a shared "Key:" before a colon,
the lengths) ranks version pairs above other pairs better than the cosine alone, but makes no
more right updates than the rules at the same rate of wrong ones. So the rules keep deciding
updates, and this probability decides only what a reviewer is shown when the rules are unsure:

* the rules say `conflict` but the model finds another version unlikely (below
  `version_weights.DROP`): no conflict line (the issue's "may conflict with" lines joining
  unrelated entries);
* the rules say nothing but the model finds it likely (at least `version_weights.CONFLICT`): a
  conflict line, so a reviewer sees the possible older version instead of a silent guess.

One search that found both lines is evidence of its own: a person's question answered by the old
line and the new one. Measured on the fourteen tuning workspaces' recall ledgers (both lines near
the top of one search), a line a person wrote in MEMORY.md and a later line of the same subject
are found together 31 times as often as a line of another subject (17 % of true pairs, 0.56 % of
others). `together` turns such a pair into a conflict line when this probability reaches
`TOGETHER` (there: 13 more of 93 hand-written lines with a newer version shown, 11 wrong).

`judge` has the shape of `versions.judge` (newer text, older text, cosine -> verdict) and is what
the deep phase asks everywhere (`timeline.Judge`), so a better model can replace it later. With
the thresholds `bench/dream_subjects.py` chose on the tuning half (CONFLICT 1.0: no band; DROP 0.0:
no drop) it returns what the rules return: measured, neither use of the probability helped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from memgit.dream import version_weights
from memgit.dream.versions import CHANGE, CONFLICT, UPDATE, VersionThresholds, slots_of
from memgit.dream.versions import judge as rule_judge

FEATURES = (
    "cosine",
    "names_shared",
    "names_jaccard",
    "words_jaccard",
    "words_shared",
    "numbers_shared",
    "numbers_new",
    "numbers_disjoint",
    "rule_update",
    "rule_conflict",
    "slots_shared",
    "change_word",
    "same_key",
    "newer_words",
    "older_words",
)

#: A capitalised word that does not open a sentence: a name, in any language that capitalises them.
_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-ZÀ-Þ][\w-]+", re.UNICODE)
_WORD = re.compile(r"[^\W_]{3,}", re.UNICODE)
_NUMBER = re.compile(r"\d[\d:.,/]*\d|\d")
_KEY = re.compile(r"^([^:]{1,30}):\s")
#: A pair one search found together is a conflict line from this probability on (see above).
TOGETHER = 0.15


def _names(text: str) -> set[str]:
    return {w.lower() for w in _NAME.findall(text)}


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if not w.isdigit()}


def _key(text: str) -> str | None:
    match = _KEY.match(text)
    return match.group(1).lower() if match else None


def _share(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def features(newer: str, older: str, cosine: float, thresholds: VersionThresholds | None = None) -> list[float]:
    """The evidence, in the order of `FEATURES` (texts as dreaming compares them: `plain`)."""
    verdict = rule_judge(newer, older, cosine, thresholds or VersionThresholds())
    names_a, names_b = _names(newer), _names(older)
    words_a, words_b = _words(newer), _words(older)
    nums_a, nums_b = set(_NUMBER.findall(newer)), set(_NUMBER.findall(older))
    key = _key(newer)
    return [
        cosine,
        float(len(names_a & names_b)),
        _share(names_a, names_b),
        _share(words_a, words_b),
        float(len(words_a & words_b)),
        float(len(nums_a & nums_b)),
        float(bool(nums_a - nums_b)),
        float(bool(nums_a) and bool(nums_b) and not nums_a & nums_b),
        float(verdict == UPDATE),
        float(verdict == CONFLICT),
        float(len(slots_of(newer) & slots_of(older))),
        float(CHANGE.search(newer) is not None),
        float(key is not None and key == _key(older)),
        math.log1p(len(words_a)),
        math.log1p(len(words_b)),
    ]


def probability(signs: Sequence[float]) -> float:
    """P(the newer line is another version of the older one's subject)."""
    z = version_weights.BIAS + sum(version_weights.WEIGHTS[name] * s for name, s in zip(FEATURES, signs, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def judge(newer: str, older: str, cosine: float, thresholds: VersionThresholds) -> str | None:
    """`update` when the rules say so; `conflict` when the rules are unsure and the model finds a
    version likely enough to show (see the module's docstring); else None."""
    verdict = rule_judge(newer, older, cosine, thresholds)
    if thresholds != VersionThresholds():
        return verdict  # term overlap, no model: the weights were fitted on MiniLM cosines
    if verdict == UPDATE or (verdict == CONFLICT and version_weights.DROP <= 0.0):
        return verdict
    if verdict is None and version_weights.CONFLICT > 1.0 - 1e-9:
        return None  # the band is closed (measured: it would add no conflict worth a reviewer's look)
    p = probability(features(newer, older, cosine, thresholds))
    if verdict == CONFLICT:
        return CONFLICT if p >= version_weights.DROP else None
    return CONFLICT if p >= version_weights.CONFLICT else None


def together(newer: str, older: str, cosine: float, thresholds: VersionThresholds) -> str | None:
    """For a pair one search found together (see the module's docstring): `judge`'s verdict, or
    `conflict` when it has none and the model finds another version likely enough."""
    verdict = judge(newer, older, cosine, thresholds)
    if verdict is not None or thresholds != VersionThresholds():
        return verdict
    return CONFLICT if probability(features(newer, older, cosine, thresholds)) >= TOGETHER else None
