"""Redaction: the lint's secret rules applied to text that memgit publishes or copies.

A secret that reached a memory file (committed without hooks, or with `--no-verify`) must not
travel further: into the site, its search index, a dream proposal, a captured transcript or the
context an agent loads. Every such writer asks this module, so "what counts as a secret" has one
answer, the lint's (`scan_secrets`), and one placeholder a reader can see and search for.

A flagged line is replaced whole, never trimmed: the value's edges are guesses, the line is not.
Line counts never change (line anchors and provenance keep pointing at the right lines), and a
private key's body lines, which hold no marker of their own, go with their BEGIN line up to END.
A line carrying `memgit: allow` (for that rule) is the person's word that it is no secret.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import AnyStr

from memgit.lint.normalize import TRIGGERS, reader_view
from memgit.lint.rules import OFF, is_allowed, scan_secrets
from memgit.lint.shapes import candidate_lines, code_list_lines, may_list_codes, may_match

PLACEHOLDER = "[redacted: {code}]"
_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = re.compile(r"-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----")


@dataclass(frozen=True)
class Redaction:
    """One redacted line: 1-based line number in the text it was found in, and the rule."""

    line: int
    code: str


def placeholder(code: str) -> str:
    return PLACEHOLDER.format(code=code)


def secret_code(
    line: str,
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
) -> str | None:
    """The first secret rule that flags `line` (honouring `memgit: allow` and rules turned off)."""
    if len(line) < 6:
        return None
    for code, _message in scan_secrets(line, entropy_threshold):
        if severities is not None and severities.get(code) == OFF:
            continue
        if is_allowed(line, code):
            continue
        return code
    return None


def redact_line(
    line: str,
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
) -> tuple[str, str | None]:
    """(`line` or its placeholder, the rule that fired or None)."""
    code = secret_code(line, entropy_threshold=entropy_threshold, severities=severities)
    if code is None:
        return line, None
    return _keep_indent(line, placeholder(code)), code


def redact_lines(
    lines: list[str],
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
) -> tuple[list[str], list[Redaction]]:
    """Each flagged line replaced; a private key block replaced from BEGIN through END.

    Returns a new list of the same length and the redactions, one per flagged line (a key block
    reports its BEGIN line once: one finding a person fixes, as the lint reports it).
    """
    candidates = [index for index, line in enumerate(lines) if _may_hold_secret(line)]
    out, found = _redact_candidates(lines, candidates, entropy_threshold, severities)
    return _redact_code_lists(lines, out, found, severities)


def _redact_code_lists(
    lines: list[str], out: list[str], found: list[Redaction], severities: Mapping[str, str] | None
) -> tuple[list[str], list[Redaction]]:
    """Codes listed one a line under their heading (`shapes.code_list_lines`), as S108."""
    if (severities is not None and severities.get("S108") == OFF) or not may_list_codes("\n".join(lines)):
        return out, found
    done = {r.line for r in found}
    for index in code_list_lines(lines):
        if index + 1 in done or is_allowed(lines[index], "S108"):
            continue
        out[index] = _keep_indent(lines[index], placeholder("S108"))
        found.append(Redaction(index + 1, "S108"))
    found.sort(key=lambda r: r.line)
    return out, found


def _redact_candidates(
    lines: list[str], candidates: list[int], entropy_threshold: float, severities: Mapping[str, str] | None
) -> tuple[list[str], list[Redaction]]:
    """Only the lines at `candidates` (ascending indexes; every line a rule could flag) are scanned;
    a key block's body, which no rule flags, goes with its BEGIN line up to END."""
    out = list(lines)
    found: list[Redaction] = []
    covered = -1  # the last line of a key block already replaced
    for index in candidates:
        if index <= covered:
            continue
        line = lines[index]
        text, code = redact_line(line, entropy_threshold=entropy_threshold, severities=severities)
        if code is None:
            continue
        out[index] = text
        found.append(Redaction(index + 1, code))
        if code == "S101" and _KEY_BEGIN.search(line) and not _KEY_END.search(line):
            covered = index + 1
            while covered < len(lines):
                out[covered] = _keep_indent(lines[covered], placeholder(code))
                if _KEY_END.search(lines[covered]):
                    break
                covered += 1
    return out, found


def redact_text(
    text: str,
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
) -> tuple[str, list[Redaction]]:
    """`redact_lines` over a whole text, keeping its line endings (CRLF stays CRLF).

    A few byte-level searches over the whole text find the lines any rule could flag; only those
    are scanned rule by rule, so a note without such a line never reaches the rules.
    """
    candidates = _candidate_lines(text)
    lists = may_list_codes(text)
    if not candidates and not lists:
        return text, []
    parts = text.split("\n")
    bare = [p[:-1] if p.endswith("\r") else p for p in parts]
    redacted, found = _redact_candidates(bare, candidates, entropy_threshold, severities)
    if lists:
        redacted, found = _redact_code_lists(bare, redacted, found, severities)
    if not found:
        return text, []
    out = [new + ("\r" if old.endswith("\r") else "") for old, new in zip(parts, redacted, strict=True)]
    return "\n".join(out), found


_PLACEHOLDER_LINE = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)?\[redacted: S1\d\d\]\s*$")


def is_placeholder(line: str) -> bool:
    """Whether `line` is what `redact_lines` left of a flagged line (lead kept), so a reader that
    lists or indexes text (summaries, search) can leave it out instead of showing the marker."""
    return "[redacted: " in line and _PLACEHOLDER_LINE.match(line) is not None


def _keep_indent(line: str, replacement: str) -> str:
    """Keep a list item's or quote's lead so the Markdown around the placeholder still parses."""
    match = re.match(r"^(\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)?)", line)
    return (match.group(1) if match else "") + replacement


# What every secret rule needs on its line (`scan_secrets`): a run of 15+ token characters (every
# token shape, an assigned value of 16+, detect-secrets' candidates of 24+), a PEM header, credentials
# in a URL, a password word or a `-p` option. No alternative matches across a line break, and each
# ends on the line it is about; a hypothesis test holds this to the rules.
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-.~")
_MAYBE = re.compile(
    r"[A-Za-z0-9+/=_\-.~]{15,}|-----BEGIN|://[^\s@]*@|(?i:p(?:ass(?:w|phrase)|wd))|(?:^|[^\S\n])-p",
    re.MULTILINE,
)


def _may_hold_secret(line: str) -> bool:
    """Whether any rule could flag `line`: as written, or as a reader sees it (`reader_view`)."""
    if _MAYBE.search(line) is not None or may_match(line):
        return True
    view = reader_view(line)
    return view != line and (_MAYBE.search(view) is not None or may_match(view))


# The fast path reads the text as UTF-8 bytes: a run of token characters shows as a run of b"a".
_RUN = b"a" * 15
_RUN_TABLE = bytes(ord("a") if chr(i) in _TOKEN_CHARS else ord(" ") for i in range(128)) + b" " * 128
_WORDS = (b"passw", b"passphrase", b"pwd")
# Before a `-p` option: whitespace (str.isspace's ASCII ones), or any byte of a character outside
# ASCII (some are spaces: taking them all only adds candidates).
_BEFORE_OPTION = frozenset(b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f") | frozenset(range(128, 256))
# The only characters outside ASCII that the rules' case-blind patterns take for ASCII letters
# (dotted and dotless i, long s, the Kelvin sign): a text holding one takes the slow path.
_CASE_TWINS = re.compile("[\u0130\u0131\u017f\u212a]")
_CREDENTIALS_URL = re.compile(rb"://[^\s@]*@")


def _candidate_lines(text: str) -> list[int]:
    """0-based numbers of the lines of `text` (split on \\n) that may hold a secret, ascending:
    every line `_may_hold_secret` takes. The shape rules' words and digit runs (`may_match`) and the
    lines whose reader's view may differ (escapes, entities, markup, invisible characters) are
    found with whole-text searches; the token rules' lines with byte-level ones."""
    found = set(_token_lines(text))
    lines = text.split("\n")
    for number in candidate_lines(text) - found:
        if may_match(lines[number]):
            found.add(number)
    for number in _lines_at(text, "\n", _first_per_line(TRIGGERS, text)):
        if number in found:
            continue
        # Not found as written (both searches above take every such line): only its view can be.
        view = reader_view(lines[number])
        if view != lines[number] and (_MAYBE.search(view) is not None or may_match(view)):
            found.add(number)
    return sorted(found)


def _first_per_line(pattern: re.Pattern[str], text: str) -> list[int]:
    """The position of `pattern`'s first match on each line that has one (ascending)."""
    out: list[int] = []
    match = pattern.search(text)
    while match is not None:
        out.append(match.start())
        end = text.find("\n", match.start())
        match = None if end < 0 else pattern.search(text, end + 1)
    return out


def _token_lines(text: str) -> list[int]:
    """The lines `_MAYBE` matches (and a few more), found with byte-level searches that skip whole
    stretches of prose (about ten times faster on notes than the regular expression)."""
    if not text.isascii() and _CASE_TWINS.search(text) is not None:
        return sorted(set(_lines_at(text, "\n", [match.end() - 1 for match in _MAYBE.finditer(text)])))
    data = text.encode("utf-8", "surrogatepass")
    at: list[int] = []
    for needle in (b"-----BEGIN", b"://", b"-p"):
        i = data.find(needle)
        while i >= 0:
            if needle == b"-p":
                keep = i == 0 or data[i - 1] in _BEFORE_OPTION  # an option, not a hyphenated word
            else:
                keep = needle != b"://" or _CREDENTIALS_URL.match(data, i) is not None
            if keep:
                at.append(i)
            i = data.find(needle, i + 1)
    lowered = data.lower()
    for word in _WORDS:
        i = lowered.find(word)
        while i >= 0:
            at.append(i)
            i = lowered.find(word, i + 1)
    runs = data.translate(_RUN_TABLE)
    i = runs.find(_RUN)
    while i >= 0:
        at.append(i)
        i = data.find(b"\n", i)  # one hit a line is enough: go on from the next line
        i = -1 if i < 0 else runs.find(_RUN, i)
    return sorted(set(_lines_at(data, b"\n", sorted(at))))


def _lines_at(text: AnyStr, newline: AnyStr, positions: list[int]) -> list[int]:
    """The 0-based line number of each of `positions` (ascending)."""
    out: list[int] = []
    line = previous = 0
    for position in positions:
        line += text.count(newline, previous, position)
        previous = position
        out.append(line)
    return out
