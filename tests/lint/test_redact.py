"""Redaction (`memgit.lint.redact`): the lint's secret rules applied to what memgit copies or publishes.

Every writer that quotes memory (site, dream report, transcript capture, context) relies on these
guarantees: each secret of the lint's corpus is replaced, no look-alike is, line counts and line
endings hold, and a private key's body goes with its header.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.secrets_corpus import corpus
from memgit.lint.candidates import may_hold_secret as _may_hold_secret
from memgit.lint.redact import placeholder, redact_lines, redact_text
from memgit.lint.rules import scan_secrets


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_corpus_secret_is_redacted_and_no_look_alike_is(seed: int) -> None:
    for sample in corpus(seed):
        text = sample.text + "\n"
        out, found = redact_text(text)
        if sample.secret:
            assert found, sample.kind
            assert "[redacted: S1" in out
            # The value is gone: no line that still flags survives.
            assert not any(scan_secrets(line) for line in out.split("\n")), sample.kind
        else:
            assert (out, found) == (text, []), sample.kind


def test_line_count_indent_and_crlf_are_kept() -> None:
    text = "# Ops\r\n- The staging VPN passphrase is orchid-lantern-42 for now\r\n- plain line\r\n"
    out, found = redact_text(text)
    # The value goes, the sentence stays (issue 45).
    assert out == "# Ops\r\n- The staging VPN passphrase is [redacted: S104] for now\r\n- plain line\r\n"
    assert [(r.line, r.code) for r in found] == [(2, "S104")]


def test_private_key_body_goes_with_its_header() -> None:
    lines = [
        "note",
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
        "AAAA",
        "-----END OPENSSH PRIVATE KEY-----",
        "after",
    ]
    out, found = redact_lines(lines)
    assert out[0] == "note" and out[-1] == "after"
    assert out[1:5] == [placeholder("S101")] * 4
    assert [(r.line, r.code) for r in found] == [(2, "S101")]


def test_allow_comment_and_rules_turned_off_are_respected() -> None:
    line = "- The wifi password is Maple!2231falcon <!-- memgit: allow S104 -->"
    assert redact_text(line)[1] == []
    plain = "- The wifi password is Maple!2231falcon"
    assert redact_text(plain, severities={"S104": "off"})[1] == []
    assert redact_text(plain)[1][0].code == "S104"


@given(st.text(max_size=200))
def test_prefilter_never_hides_a_flagged_line(line: str) -> None:
    line = line.replace("\n", " ")
    if scan_secrets(line):
        assert _may_hold_secret(line)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_prefilter_passes_every_corpus_secret(seed: int) -> None:
    for sample in corpus(seed):
        for line in sample.text.split("\n"):
            if scan_secrets(line):
                assert _may_hold_secret(line), sample.kind


def test_a_commit_message_with_a_body_is_read_as_its_lines() -> None:
    """A commit's message (a subject, a blank line, a body) passed as one "line" to the one-line
    redaction: the secret in the body goes, the lines stay, and nothing breaks (it raised an
    IndexError: the engine split the text it was given at the break, the caller had not)."""
    from memgit.lint.redact import redact_line, secret_code

    token = "ghp_" + "R8kLm2Qv9Xw4Tz7Yb1Nc5Hd3Jf6Gs0Pa2Ue8"
    message = f"ci: nightly job\n\ntoken={token}\nremove before merge"
    out, code = redact_line(message)
    assert code is not None and token not in out
    assert out.split("\n")[0] == "ci: nightly job" and out.count("\n") == 3
    assert secret_code(message) == code
    assert redact_line("docs: fix a typo\n\nno secret here") == ("docs: fix a typo\n\nno secret here", None)
