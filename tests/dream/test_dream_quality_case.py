"""The labelled cases end to end (tests/dream/cases): a month of a data team assistant's logs and a
fortnight of a support desk's, lived day by day on a real workspace with the real model (hooks,
index, searches, published recalls), dreamed on each night with every branch merged as it is, and
every proposal scored by the label of the line it came from."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

from memgit.lint.rules import scan_injection, scan_secrets
from tests.dream.cases import runner, support_desk, team_month
from tests.recall.test_search import real_model  # noqa: F401 - the fixture: the MiniLM model in the test cache

REASONS = ("junk: S1", "junk: chatter", "transient", "needs context", "outdated")


@pytest.mark.model
@pytest.mark.parametrize("module", [team_month, support_desk], ids=["team_month", "support_desk"])
def test_a_reviewer_keeps_what_dreaming_proposes(module: ModuleType, tmp_path: Path, real_model: Path) -> None:  # noqa: F811
    case = runner.load(module)
    outcome = runner.run_case(case, tmp_path / "ws", {"MEMGIT_MODEL": str(real_model)})
    score = runner.score(case, outcome)
    wrong = [(label, text) for label, text in score.labels if label != "durable"]
    assert score.precision >= 0.85, wrong
    assert score.proposals >= 8, score.labels
    # No secret on any dream branch: not the value, and nothing the lint's rules flag.
    assert score.secret_leaks == 0
    for text in outcome.branch_texts:
        for line in text.splitlines():
            assert not scan_secrets(line) and not scan_injection(line.lstrip("+- ")), line
    # Every entry reads alone: no unresolved relative date, no bare pronoun subject.
    assert score.not_standalone == []
    # One entry per changing fact, holding its latest value.
    assert all(score.latest_ok.values()), score.changing
    # Every rejection is explained (`dream --dry-run --explain`) and counted in the report.
    explained = "\n".join(outcome.explained)
    counted = " ".join(" ".join(gates) for gates in outcome.gates)
    for reason in REASONS:
        if reason in counted:
            assert f"failed gate: {reason}" in explained, reason
    assert re.search(r"junk: S10\d", counted), counted  # the secret was recalled, and refused
