"""The shape rules (S106-S113), each on its own cases: held-out secrets it must flag with its own
rule, look-alikes it must leave alone (`tests/lint/held_out.py`), the corpus kinds with their rule,
and the documentation placeholders that issue 34's lint treats as look-alikes."""

from __future__ import annotations

import random
from datetime import date

import pytest

from bench.secrets_corpus_shapes import LOOK_ALIKES, RULE_OF, SECRETS
from memgit.lint import shapes
from memgit.lint.redact import redact_text
from memgit.lint.rules import RULES_BY_CODE, SECRET_CODES, LintInput, LintSettings, lint_file, scan_secrets
from tests.lint.held_out import LOOK_ALIKE_CASES, SECRET_CASES

ALSO_FLAGGED_BY = {"S110": {"S104"}}  # a quoted "password: …" is the password rule's first


@pytest.mark.parametrize("code", sorted(SECRET_CASES))
def test_each_rule_flags_its_held_out_secrets(code: str) -> None:
    assert code in SECRET_CODES and RULES_BY_CODE[code].severity == "error"
    for line in SECRET_CASES[code]:
        found = [c for c, _m in scan_secrets(line)]
        assert found and found[0] in {code} | ALSO_FLAGGED_BY.get(code, set()), (line, found)


@pytest.mark.parametrize("code", sorted(LOOK_ALIKE_CASES))
def test_each_rule_leaves_its_look_alikes_alone(code: str) -> None:
    for line in LOOK_ALIKE_CASES[code]:
        assert scan_secrets(line) == [], line


@pytest.mark.parametrize("kind", sorted(RULE_OF))
def test_each_corpus_kind_is_flagged_with_its_rule(kind: str) -> None:
    for seed in range(25):
        text = SECRETS[kind](random.Random(seed))
        assert RULE_OF[kind] in {c for line in text.split("\n") for c, _m in scan_secrets(line)}, text


def test_the_look_alike_corpus_is_large_and_clean() -> None:
    samples = [make(random.Random(seed)) for make in LOOK_ALIKES.values() for seed in range(12)]
    assert len(samples) >= 200
    assert [line for line in samples if scan_secrets(line)] == []


@pytest.mark.parametrize(
    "line",
    [
        "- password: password",
        "- Passwort: passwort",
        "- token: <token>",
        "- export API_TOKEN=<token>",
        "- git clone https://user:pass@host/repo.git",
        "- postgres://user:password@localhost/db",
        "- Set the door code to 1234 as the manual shows, then pick your own",
        "- AWS secret key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "- IBAN DE00 0000 0000 0000 0000 00 (example)",
        "- card XXXX XXXX XXXX 4242",
    ],
)
def test_documentation_placeholders_are_look_alikes(line: str) -> None:
    assert scan_secrets(line) == [], line


def test_codes_listed_under_their_heading_are_flagged_and_redacted() -> None:
    text = "## Google backup codes\n\n- 4817 2290\n- 5521 0873\n\n- Lunch with Ana at 12:30\n"
    item = LintInput("memory/2026-01-05.md", text.encode(), None, True)
    findings = [(f.line, f.code) for f in lint_file(item, LintSettings(), date(2026, 1, 5))]
    assert findings == [(3, "S108"), (4, "S108")]
    assert (
        redact_text(text)[0]
        == "## Google backup codes\n\n- [redacted: S108]\n- [redacted: S108]\n\n- Lunch with Ana at 12:30\n"
    )
    # Off, S108 leaves the codes to S117 (a code under a heading naming codes); both off, nothing.
    assert {r.code for r in redact_text(text, severities={"S108": "off"})[1]} == {"S117"}
    assert redact_text(text, severities={"S108": "off", "S117": "off"})[1] == []
    calm = "## Backup codes are in the safe\n\n- 3 copies printed\n- Tuesday\n- stored in 1Password\n"
    assert (
        redact_text(calm)[1] == []
        and lint_file(LintInput("memory/a.md", calm.encode()), LintSettings(), date(2026, 1, 5)) == []
    )


def test_messages_never_echo_a_shape_value() -> None:
    line = '- Tom texted: "wifi is Harbor#7312Q" and the IBAN NL91 ABNA 0417 1643 00'
    for _code, message in scan_secrets(line) + shapes.scan(line):
        assert "Harbor#7312Q"[4:] not in message and "0417 1643" not in message
