"""Dreaming's rules on the case generator's output (tests/dream/cases/generator.py), fast and pure:
every copy a rewrite makes names no word that is not in its source line, its heading or the
resolved date (a property over domains and seeds); a recall lands on the line that answers; dates
in common forms are dates; versions of a fact are told from different facts. The slow test lives
one generated month through the CLI and scores it like a reviewer."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.dream.concepts import jaccard
from memgit.dream.credit import credit
from memgit.dream.events import dates_in, passed_plan
from memgit.dream.reltime import resolve, unresolved
from memgit.dream.standalone import is_transient, standalone
from memgit.dream.versions import CONFLICT, UPDATE, VersionThresholds, judge, slots_of
from memgit.ledger.lines import Recall, text_hash
from tests.dream.cases import generator, measure, runner
from tests.dream.cases.domains import DOMAINS, HELD_OUT, TUNING
from tests.recall.test_search import real_model  # noqa: F401 - the fixture: the MiniLM model in the test cache


@settings(max_examples=25, deadline=None)
@given(domain=st.sampled_from(sorted(DOMAINS)), seed=st.integers(0, 10_000))
def test_no_rewrite_names_a_word_its_source_does_not(domain: str, seed: int) -> None:
    gen = generator.build(domain, seed)
    checked = 0
    for (path, number), line in gen.case.lines.items():
        if line.label not in ("durable", "transient", "needs context"):
            continue
        day = date.fromisoformat(path.rsplit("/", 1)[-1].removesuffix(".md"))
        lines = gen.case.days[day.isoformat()].splitlines()
        verdict = standalone(line.text, lines=lines, start=number, day=day, today=date(2027, 1, 1))
        if not verdict.changes:
            continue
        checked += 1
        why = measure.mangled(
            verdict.text, line.text, gen.headings[(path, number)], day.isoformat(), (path, number) in gen.past
        )
        assert why is None, (verdict.text, line.text, why)
        assert unresolved(verdict.text) is None or verdict.reason == "needs context", verdict
    assert checked  # pronouns under headings and relative dates are in every month


@settings(max_examples=25, deadline=None)
@given(domain=st.sampled_from(TUNING), seed=st.integers(0, 10_000))
def test_a_durable_line_stands_alone_on_every_night_of_its_month(domain: str, seed: int) -> None:
    # Standing rules, recurring events, a person's standing requirement under their heading and
    # every version of a changing fact: none is a one-off, a passed plan or unreadable on a night
    # of the month it was written in (their dated deadlines all lie after the month).
    gen = generator.build(domain, seed)
    nights = [date.fromisoformat(night) for night in gen.case.nights]
    for (path, number), line in gen.case.lines.items():
        if line.label != "durable":
            continue
        day = date.fromisoformat(path.rsplit("/", 1)[-1].removesuffix(".md"))
        lines = gen.case.days[day.isoformat()].splitlines()
        for night in (n for n in nights if n >= day):
            verdict = standalone(line.text, lines=lines, start=number, day=day, today=night)
            assert verdict.reason is None, (line.text, night, verdict)


def test_the_mangle_check_catches_what_a_reviewer_would() -> None:
    assert (
        measure.mangled(
            "Prof expects drafts.", "- She expects drafts.", "Office hours with Prof. Okafor", "2026-03-02", False
        )
        is None
    )
    assert measure.mangled("Ana's's plan is fine.", "- Her plan is fine.", "Ana's review", "2026-03-02", False)
    assert measure.mangled("Tom will call around noon.", "- Tom will call soon.", "notes", "2026-03-02", False)
    assert measure.mangled(
        "Tom fixed it on Saturday 2026-03-07.", "- Tom fixed it on Saturday.", "notes", "2026-03-02", True
    )


def test_tense_standing_rules_and_relative_spans() -> None:
    monday = date(2026, 3, 2)
    assert resolve("Ola repaired the gate on Saturday.", monday) == "Ola repaired the gate on Saturday 2026-02-28."
    assert resolve("The quiz is on Saturday.", monday) == "The quiz is on Saturday 2026-03-07."
    for standing in (
        "Choir practice is every second Thursday at 19:00.",
        "No deliveries on Monday mornings, under any circumstances.",
        "Grandad likes calls on Sunday afternoons.",
        "The shutters stay closed on Friday, always.",
    ):
        assert resolve(standing, monday) == standing and unresolved(standing) is None, standing
    for habitual in (  # a bare plural due by a weekday: each week's, not one date
        "Ines wants timesheets signed by Friday noon.",
        "The auditor expects receipts scanned and filed by Monday morning.",
    ):
        assert resolve(habitual, monday) == habitual and unresolved(habitual) is None, habitual
    assert (
        resolve("Ines wants the signed lease by Friday.", monday) == "Ines wants the signed lease by Friday 2026-03-06."
    )
    assert resolve("The audit starts in two days' time.", monday) == "The audit starts on 2026-03-04."
    assert resolve("Harvest is in three weeks.", monday) == "Harvest is in the week of 2026-03-23."
    assert resolve("Exam on Wednesday 9 March.", monday) == "Exam on Wednesday 9 March."
    assert resolve("We moved here about a year ago.", monday) == "We moved here in about 2025."
    assert is_transient("Physio booked Thursday 2026-03-05 at 17:30.", monday)  # an appointment of the week
    assert not is_transient("The physio is every Thursday at 17:30.", monday)
    assert not is_transient("The grant report is due on 2026-03-12.", monday)  # a deadline, no clock time


def test_dates_in_common_forms_are_dates() -> None:
    near = date(2026, 5, 10)
    assert dates_in("Review on Thu 5/14 at 10:00", near) == [date(2026, 5, 14)]
    assert dates_in("Kick-off on 9 March", near) == [date(2026, 3, 9)]
    assert dates_in("Dentist Mon 3/9, 08:00", near) == [date(2026, 3, 9)]
    assert dates_in("The tank is 3/4 full", near) == []
    assert dates_in("Fri 5/14", near) == []  # 14 May 2026 is a Thursday: not month/day
    assert passed_plan("Site visit booked for Thu 5/14 at 10:00.", date(2026, 5, 20), near)
    assert not passed_plan("Site visit booked for Thu 5/14 at 10:00.", date(2026, 5, 12), near)


def test_versions_by_slot_names_and_change_words() -> None:
    limits = VersionThresholds()
    assert slots_of("Tariq handles the payroll run.") == {"owner"}
    assert judge("Payroll duty passed to Mirela.", "Tariq handles the payroll run.", 0.45, limits) == UPDATE
    assert judge("The payroll sheet lives on the shared drive.", "Tariq handles the payroll.", 0.55, limits) is None
    assert judge("Dana Ito prefers tea.", "Sam Ruiz prefers coffee.", 0.8, limits) is None  # two people's tastes
    assert judge("Yoga is on Thursdays at 18:00.", "Yoga is on Tuesdays at 18:00.", 0.9, limits) == UPDATE
    assert judge("Yoga is on Tuesdays at 18:00.", "Yoga is on Tuesdays at 18:00.", 0.99, limits) is None  # a repeat
    assert judge("Watering happens each Thursday.", "Plants get watered on Mondays.", 0.6, limits) == CONFLICT
    # One person, two facts: taking on a chore does not update what they like.
    assert (
        judge("Aunt Rosa Blum is taking over the school run.", "Aunt Rosa Blum likes tea at four.", 0.5, limits)
        != UPDATE
    )
    assert judge("Standup moves to 09:30 from Monday.", "The daily standup is at 09:00.", 0.45, limits) == UPDATE


def _recall(query: str, start: int, end: int, focus: int, line: str) -> Recall:
    return Recall(
        "2026-03-02T10:00:00+00:00",
        "2026-03-02",
        "q1",
        query,
        "memory/2026-03-02.md",
        start,
        end,
        focus,
        focus,
        text_hash(line),
        0.9,
    )


def test_a_recall_counts_for_the_line_that_answers() -> None:
    text = "# 2026-03-02\n\n## 1:1 with Ana Ruiz\n\n- Ana Ruiz joined in 2019.\n- The boiler service is every March.\n"
    lines = text.splitlines()
    files = {"memory/2026-03-02.md": text}

    def terms(a: list[str], b: list[str]) -> list[list[float]]:
        return [[jaccard(x, y) for y in b] for x in a]

    on_heading = _recall("boiler service month", 1, 6, 1, lines[0])
    on_name = _recall("when is the boiler service, ana", 1, 6, 5, lines[4])
    [moved, better] = credit([on_heading, on_name], files, terms)
    assert (moved.focus_start, moved.text_hash) == (6, text_hash(lines[5]))
    assert better.focus_start == 6
    unknown = _recall("zzz", 1, 6, 5, lines[4])
    assert credit([unknown], files, terms) == [unknown]  # a tie keeps the ledger's line
    stale = _recall("boiler service month", 1, 6, 1, "# another day")
    assert credit([stale], files, terms) == [stale]  # the file changed since: left to rehydration


@pytest.mark.slow
@pytest.mark.model
def test_a_generated_month_lived_through_the_cli(tmp_path: Path, real_model: Path) -> None:  # noqa: F811
    gen = generator.build(HELD_OUT[0], 0)
    outcome = runner.run_case(gen.case, tmp_path / "ws", {"MEMGIT_MODEL": str(real_model)})
    found = measure.measure(gen, outcome)
    assert found.mangled == [] and found.not_standalone == [], (found.mangled, found.not_standalone)
    assert found.stale == [], found.stale
    assert found.precision >= 0.85, found.wrong
    assert found.updates_made + found.flagged >= 0.8 * found.updates_due
