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

from memgit.core.lint import OFF, SECRET_CODES, is_allowed, scan_secrets

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
    out = list(lines)
    found: list[Redaction] = []
    in_key: str | None = None
    for index, line in enumerate(lines):
        if in_key is not None:
            out[index] = _keep_indent(line, placeholder(in_key))
            if _KEY_END.search(line):
                in_key = None
            continue
        text, code = redact_line(line, entropy_threshold=entropy_threshold, severities=severities)
        if code is None:
            continue
        out[index] = text
        found.append(Redaction(index + 1, code))
        if code == "S101" and _KEY_BEGIN.search(line) and not _KEY_END.search(line):
            in_key = code
    return out, found


def redact_text(
    text: str,
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
) -> tuple[str, list[Redaction]]:
    """`redact_lines` over a whole text, keeping its line endings (CRLF stays CRLF)."""
    if not text or not _may_hold_secret(text):
        return text, []
    parts = text.split("\n")
    bare = [p[:-1] if p.endswith("\r") else p for p in parts]
    redacted, found = redact_lines(bare, entropy_threshold=entropy_threshold, severities=severities)
    if not found:
        return text, []
    out = [new + ("\r" if old.endswith("\r") else "") for old, new in zip(parts, redacted, strict=True)]
    return "\n".join(out), found


def is_secret_code(code: str) -> bool:
    return code in SECRET_CODES


def _keep_indent(line: str, replacement: str) -> str:
    """Keep a list item's or quote's lead so the Markdown around the placeholder still parses."""
    match = re.match(r"^(\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)?)", line)
    return (match.group(1) if match else "") + replacement


# Cheap pre-filter: every secret rule needs either a run of 12+ token characters, a PEM header or a
# password-ish word; most notes have none of them and skip the per-line scan entirely.
_MAYBE = re.compile(
    r"[A-Za-z0-9+/=_\-.~]{12,}|-----BEGIN|(?i:pass(?:word|wd|phrase)?|pwd|-p\s*\S|://[^\s]*@)",
)


def _may_hold_secret(text: str) -> bool:
    return _MAYBE.search(text) is not None
