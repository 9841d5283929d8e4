"""How redaction finds the lines to scan, fast and without missing one the lint flags.

The site redacts every memory file it shows on every full build, so `redact_text` first finds the
lines any secret rule could flag with a few whole-text searches and scans only those. These tests
hold that shortcut to the rules themselves (`scan_secrets`), hold the assignment rule's bounded
search to the unbounded pattern it replaced, the detect-secrets gate to the library's own patterns,
and a 5 MB one-token line to linear time.
"""

from __future__ import annotations

import re
import time

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.secrets_corpus import corpus
from memgit.lint import detectors, line_rules
from memgit.lint.candidates import may_hold_secret as _may_hold_secret
from memgit.lint.candidates import text_candidates as _candidate_lines
from memgit.lint.redact import is_placeholder, redact_line, redact_text
from memgit.lint.rules import scan_secrets

# Pieces that make the rules' edge cases likely: secret words, option flags, URL credentials, PEM
# headers, the non-ASCII letters case-blind patterns take for ASCII ones, Unicode spaces.
PIECES = [
    "password",
    "Passwd",
    "PASSPHRASE",
    "pwd",
    "-p",
    " -p'",
    "--password=",
    "://u:pw@h",
    "-----BEGIN",
    "RSA PRIVATE KEY-----",
    "token=",
    "api_key: ",
    "AKIA",
    "ghp_",
    "\u017f",
    "\u212a",
    "\u0131",
    "\u00a0",
    "\u2003",
    "\r",
    "\n",
    "é",
    " is ",
    "= ",
    "x" * 14,
    "Ab3" * 6,
    "AccountKey=",
    "SG.",
    ":",
]
TEXTS = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=30).map("".join)

# The assignment rule as it was: searched from every position, unbounded name parts.
UNBOUNDED = re.compile(
    r"(?i)([A-Za-z0-9_.-]*" + line_rules._SECRET_NAME + r"[A-Za-z0-9_.-]*)[\"']?\s*(?::|=|:=|=>)\s*[\"'`]?"
    r"([A-Za-z0-9+/_\-.~=]{16,})(?![A-Za-z0-9+/_\-.~=])(?!\s*(?::|=))"
)


def per_line(text: str) -> list[int]:
    return [n for n, line in enumerate(text.split("\n")) if _may_hold_secret(line)]


@settings(max_examples=400)
@given(TEXTS)
def test_candidate_lines_are_the_lines_the_filter_takes_and_hold_every_flagged_line(text: str) -> None:
    candidates = _candidate_lines(text)
    assert set(per_line(text)) <= set(candidates)
    flagged = [n for n, line in enumerate(text.split("\n")) if scan_secrets(line.removesuffix("\r"))]
    assert set(flagged) <= set(candidates)


def test_candidate_lines_on_the_corpus_and_across_line_kinds() -> None:
    samples = corpus(0) + corpus(1)
    text = "\r\n".join(f"plain line {n}\n{s.text}" for n, s in enumerate(samples))
    lines = text.split("\n")
    flagged = {n for n, line in enumerate(lines) if scan_secrets(line.removesuffix("\r"))}
    assert flagged and flagged <= set(_candidate_lines(text))
    assert _candidate_lines(text) == per_line(text)  # ASCII text: exactly the lines the filter takes
    # Prose and hyphenated words are no candidates; a URL with credentials is.
    assert _candidate_lines("A co-pilot re-published the notes\nsee it at http://a.b/c\n") == []
    assert _candidate_lines("ok\nat http://u:x@a.b/c\n") == [1]


@settings(max_examples=300)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["token", "api_key", "secret", "Password", "=", ": ", "'", "x" * 20, "Zq9" * 6, " ", "."]),
            st.text(max_size=6),
        ),
        max_size=12,
    ).map("".join)
)
def test_bounded_assignment_search_finds_what_the_unbounded_pattern_found(line: str) -> None:
    old = [(m.start(2), m.group(2)) for m in UNBOUNDED.finditer(line)]
    new = [(m.start(2), m.group(2)) for m in line_rules._assignments(line)]
    assert new == old


def test_a_long_token_line_is_scanned_in_linear_time() -> None:
    # The unbounded assignment pattern took minutes on 20 kB of one token and hours on these.
    for line in ("- " + "x" * 1_000_000, "- api_token " + "x" * 1_000_000, "- " + "x" * 1_000_000 + " token=abc"):
        started = time.process_time()  # CPU seconds: the scan's own work, whatever else loads the machine
        assert redact_text(line + "\n")[1] == []
        assert time.process_time() - started < 30


def gate_passes(pattern: re.Pattern[str]):  # noqa: ANN201 - a hypothesis test
    @settings(max_examples=200)
    @given(st.from_regex(pattern))
    def check(value: str) -> None:
        assert detectors.is_candidate(value), (pattern.pattern, value)

    return check


def test_detect_secrets_gate_lets_every_detector_pattern_through() -> None:
    patterns = [p for _, detector in detectors._detectors() for p in detector.denylist]
    assert len(patterns) >= len(detectors.DETECTORS)
    for pattern in patterns:
        gate_passes(re.compile(pattern.pattern, re.ASCII))()
    # A long URL or path is not a candidate (it no longer imports the library).
    assert not detectors.is_candidate("see https://grafana.kestrel.dev/d/abcdefghijklmnopqrstuvwxyz/latency")


def shape_hint_passes(pattern: re.Pattern[str]):  # noqa: ANN201 - a hypothesis test
    # Drawn as ASCII (the case-blind twins are the candidate pass's business), kept when the shape
    # as the lint compiles it matches.
    @settings(max_examples=100)
    @given(st.from_regex(re.compile(pattern.pattern, (pattern.flags & ~re.UNICODE) | re.ASCII)))
    def check(value: str) -> None:
        assume(pattern.search(value) is not None)
        assert line_rules._SHAPE_HINT.search(value), (pattern.pattern, value)

    return check


def test_the_token_shapes_hint_lets_every_shape_through() -> None:
    for _, pattern in line_rules._TOKEN_SHAPES:
        shape_hint_passes(pattern)()
    assert line_rules._SHAPE_HINT.search("see https://grafana.kestrel.dev/d/abc/latency") is None


def test_placeholder_lines_are_recognised_with_their_lead() -> None:
    # A value that cannot be bounded on the line as written (found only as a reader sees it) takes
    # the whole line, keeping a list item's or quote's lead: such a line is a placeholder line.
    for line, secret in (
        ("- Stripe: sk\\_live\\_" + "Zq81" * 6, "Zq81Zq81"),
        ("> from the bot: gh\u200bp_" + "c3D4" * 9, "c3D4c3D4"),
        ("  3. token=gh&#112;_" + "a1B2" * 9, "a1B2a1B2"),
    ):
        redacted, code = redact_line(line)
        assert code is not None and is_placeholder(redacted) and secret not in redacted, (line, redacted)
    # A bounded value is replaced inside the sentence: the line keeps its words, and is no placeholder line.
    redacted, code = redact_line("- The staging VPN passphrase is orchid-lantern-42")
    assert code == "S104" and redacted == "- The staging VPN passphrase is [redacted: S104]"
    assert not is_placeholder(redacted)
    assert not is_placeholder("We saw [redacted: S104] in the log yesterday")
    assert not is_placeholder("- a plain line")


def test_a_secret_in_a_transcript_line_is_found_through_its_json_escapes() -> None:
    import json

    for sample in (s for s in corpus(0) if s.secret and "\n" not in s.text):
        line = json.dumps({"role": "user", "content": sample.text})
        assert scan_secrets(line), sample.kind
        out = redact_text(line + "\n")[0]
        assert "[redacted: S1" in out and scan_secrets(out.rstrip("\n")) == [], sample.kind
        if out.startswith("{"):  # the value was replaced inside the turn: it still parses, without the secret
            content = json.loads(out)["content"]
            assert "[redacted: S1" in content and scan_secrets(content) == [], sample.kind
    assert scan_secrets(json.dumps({"role": "user", "content": 'the "quoted" word is fine'})) == []


def test_every_label_and_name_is_found_by_a_stem_read_as_the_text_is() -> None:
    """Each label and identifier name, written as its list writes it, is on a line the stems take:
    hyphenated ones too ("D-nr", read with its "-" as a space as the text is), and a phrase that
    holds another word whole ("one-time code") through that word's stem, not a stem of its own
    that would take every line with "one " in it."""
    from memgit.lint import candidates
    from memgit.lint.identifiers import name_words
    from memgit.lint.labelled import label_words

    words = [w for w in (*label_words(), *name_words()) if w]
    text = "\n".join(f"x {word} 4471" for word in words)
    assert candidates.stem_lines(text) == frozenset(range(len(words)))
    stems = candidates.name_stems()
    assert "d nr" in stems and "one " not in stems and not any("-" in stem for stem in stems)


def test_the_stems_are_found_in_one_pass_on_every_line_that_holds_one() -> None:
    """The stems of labels and identifiers' names are searched as one trie-shaped pattern (a `find`
    of each of a thousand stems took seconds on a 5 MB line): it takes exactly the lines that hold
    a stem, in every script."""
    from memgit.lint import candidates
    from tests.lint.test_id_names import test_a_number_right_after_its_word_is_a_secret_in_any_script as ids
    from tests.lint.test_labels import LINES

    lines = [s.text for s in corpus(0) + corpus(1)] + [line for pair in LINES.values() for line in pair]
    lines += [mark.args[1][n][0] for mark in ids.pytestmark if mark.name == "parametrize" for n in range(6)]
    text = "\n".join(f"plain line {n}\n{line}\nrek.\n" for n, line in enumerate(lines))
    stems = candidates.name_stems()
    holding = {
        n
        for n, line in enumerate(text.split("\n"))
        if any(stem in candidates._as_words(line.lower()) for stem in stems)
    }
    found = candidates.stem_lines(text)
    assert len(holding) > len(lines) and found == holding
