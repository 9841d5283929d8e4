"""The measured judgements of issues 43/44, pure: day-first dates in every language read, the
durable model's signs, the same-subject judge behind its one interface, and never two versions
of one subject in one run."""

from __future__ import annotations

from datetime import date

import pytest

from memgit.dream import version_weights
from memgit.dream.dates_intl import dates_intl
from memgit.dream.durable import FEATURES, Line, features, heading_above, probability
from memgit.dream.model import Candidate, Review, ShortTerm
from memgit.dream.scoring import Components
from memgit.dream.updates import UpdateContext, one_version_a_run
from memgit.dream.version_model import judge
from memgit.dream.versions import TERM_THRESHOLDS, VersionThresholds
from memgit.dream.versions import judge as rules

NEAR = date(2026, 3, 20)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Erinnerung Di 24.03.: Vorratsbestellung Reifen und Schläuche.", date(2026, 3, 24)),
        ("Zwischenprüfung Dienstag 28. April, ganztags", date(2026, 4, 28)),
        ("Pedido hueco en el citómetro para el jueves 22/01, de 10:00 a 12:00", date(2026, 1, 22)),
        ("reunión el 6 de marzo de 2026 con el grupo", date(2026, 3, 6)),
        ("le 6 mars on part tôt", date(2026, 3, 6)),
        ("Termin am 03.11.2025 verschoben", date(2025, 11, 3)),
    ],
)
def test_a_day_first_date_is_read_in_every_language(text: str, day: date) -> None:
    assert day in dates_intl(text, NEAR)


@pytest.mark.parametrize("text", ["Go 1.25 and 10.5 ms", "version 3.2 shipped", "ratio 3/4 of the budget"])
def test_versions_and_fractions_are_no_dates(text: str) -> None:
    assert dates_intl(text, NEAR) == []


def test_the_durable_signs_read_a_passed_day_and_a_question_in_any_language() -> None:
    passed = features(
        Line("Erinnerung Di 24.03.: Vorratsbestellung", "- Erinnerung Di 24.03.", "memory/2026-03-20.md"),
        date(2026, 3, 27),
    )
    ahead = features(
        Line("Erinnerung Di 24.03.: Vorratsbestellung", "- Erinnerung Di 24.03.", "memory/2026-03-20.md"),
        date(2026, 3, 21),
    )
    assert passed[FEATURES.index("date_past")] == 1.0 and passed[FEATURES.index("date_ahead")] == 0.0
    assert ahead[FEATURES.index("date_past")] == 0.0 and ahead[FEATURES.index("date_ahead")] == 1.0
    asked = features(
        Line("¿Quién tiene la llave del -80?", "user: ¿Quién tiene la llave del -80?", "sessions/2026-03-20-x.jsonl"),
        NEAR,
    )
    assert asked[FEATURES.index("question")] == 1.0 and asked[FEATURES.index("turn")] == 1.0
    assert heading_above(["# Day", "## 14:32 fixed flaky test", "", "- a line"], 4) == "14:32 fixed flaky test"


def test_the_durable_model_needs_the_embedding_it_was_fitted_on() -> None:
    signs = features(
        Line("The bins go out on Tuesdays.", "- The bins go out on Tuesdays.", "memory/2026-03-20.md"), NEAR
    )
    assert probability([0.0] * 7, signs) is None  # another model's vector: no judgement
    p = probability([0.0] * 384, signs)
    assert p is not None and 0.0 < p < 1.0


PAIRS = [
    ("Swimming moved to Fridays at 17:30 from now on.", "Swimming is on Thursdays at 17:00.", 0.72),
    ("Bins go out on Tuesday evenings now.", "Bins go out on Thursdays.", 0.66),
    ("The dentist is Dr Patel on King Street.", "Swimming is on Thursdays at 17:00.", 0.41),
    ("Budget capped at $41,500 for food.", "Food purchasing line $46,000.", 0.58),
]


@pytest.mark.parametrize(("newer", "older", "cos"), PAIRS)
def test_the_one_judge_returns_what_the_rules_do_with_the_bands_the_tuning_half_chose(
    newer: str, older: str, cos: float
) -> None:
    for limits in (VersionThresholds(), TERM_THRESHOLDS):
        assert judge(newer, older, cos, limits) == rules(newer, older, cos, limits)


def test_an_open_band_shows_a_likely_version_as_a_conflict(monkeypatch: pytest.MonkeyPatch) -> None:
    newer, older = "Bins go out on Tuesday evenings now.", "Bins go out on Thursdays."
    monkeypatch.setattr(version_weights, "CONFLICT", 0.0)
    monkeypatch.setattr(version_weights, "DROP", 1.0)
    verdicts = {judge(newer, older, cos, VersionThresholds()) for cos in (0.36, 0.4)}
    assert verdicts <= {"conflict", "update"} and verdicts


def _candidate(text: str, path: str, action: str = "promote", target: str | None = None) -> Candidate:
    entry = ShortTerm(path, 3, 3, text, "h", {("t", "q", "d"): 1.0}, [], sources=[(path, 3, 3)])
    c = Candidate(key=f"k{abs(hash(text)) % 10**8}", entry=entry, components=Components(0, 0, 0, 0, 0, 0), score=0.8)
    c.action, c.target, c.target_text = action, target, "old text" if target else None
    return c


def test_two_versions_of_one_subject_are_never_proposed_in_one_run() -> None:
    older = _candidate("Bins go out on Thursdays.", "memory/2026-03-01.md")
    newer = _candidate("Bins go out on Tuesday evenings now.", "memory/2026-03-08.md")
    other = _candidate("The dentist is Dr Patel on King Street.", "memory/2026-03-09.md")
    update = _candidate("Bins: the council says Tuesdays.", "memory/2026-03-02.md", "supersede", "kentry")

    def relate(a: str, b: str, sim: float) -> str | None:
        return "update" if "Bins" in a and "Bins" in b else None

    def compare(a: list[str], b: list[str]) -> list[list[float]]:
        return [[0.8 for _ in b] for _ in a]

    ctx = UpdateContext(compare, relate, Review(), "base", lambda e: ("", "", 0))
    one_version_a_run([older, newer, other, update], ctx, lambda c: (c.entry.path, "", 0))
    assert older.gate == "outdated" and newer.gate is None and other.gate is None
    assert "Bins go out on Thursdays." in newer.replaced
    # An entry's update stays an update: it was matched to its entry on its own.
    assert update.gate is None and update.action == "supersede" and update.target == "kentry"
