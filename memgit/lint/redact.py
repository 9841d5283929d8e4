"""Redaction: the lint's secret rules applied to text that memgit publishes or copies.

A secret that reached a memory file (committed without hooks, or with `--no-verify`) must not
travel further: into the site, its search index, a dream proposal, a captured transcript or the
context an agent loads. Every such writer asks this module, so "what counts as a secret" has one
answer, the lint's (`memgit.lint.secrets.find_secrets`, which runs `scan_secrets` and the rules
that read across lines), and one placeholder a reader can see and search for.

The value is replaced, not the message: "the alarm code is [redacted: S108], don't forget" keeps
what a reader needs (that a code was there, and its kind). The line is checked again after each
replacement; a line whose value cannot be bounded (found only in the line as a reader sees it,
or a private key block) or that still flags after a few rounds is replaced whole. Line counts
never change (line anchors and provenance keep pointing at the right lines), and a private key's
body lines go with their BEGIN line up to END. A line carrying `memgit: allow` (for that rule) is
the person's word that it is no secret.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memgit.lint.candidates import text_candidates
from memgit.lint.hits import Hit
from memgit.lint.secrets import find_secrets, name_secret

PLACEHOLDER = "[redacted: {code}]"
#: Rounds of replacing values and checking the line again before the line goes whole.
_ROUNDS = 4


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
    known: Mapping[str, str] | None = None,
) -> str | None:
    """The first secret rule that flags `line` (honouring `memgit: allow` and rules turned off)."""
    if len(line) < 6:
        return None
    # A "line" from outside a file (a commit's message, an author's name) may hold line breaks.
    hits = find_secrets(line.split("\n"), entropy_threshold=entropy_threshold, severities=severities, known=known)
    return hits[0].code if hits else None


def redact_line(
    line: str,
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
    known: Mapping[str, str] | None = None,
) -> tuple[str, str | None]:
    """(`line` with its secrets replaced, the first rule that fired or None)."""
    if len(line) < 6:
        return line, None
    # A commit's message has a body under its subject: its lines are read together, as a file's are.
    out, found = redact_lines(line.split("\n"), entropy_threshold=entropy_threshold, severities=severities, known=known)
    return "\n".join(out), (found[0].code if found else None)


def redact_lines(
    lines: list[str],
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
    candidates: list[int] | None = None,
    known: Mapping[str, str] | None = None,
) -> tuple[list[str], list[Redaction]]:
    """Each secret on `lines` replaced; a private key block replaced from BEGIN through END.

    Returns a new list of the same length and the redactions, one per flagged line (a key block
    reports its BEGIN line once: one finding a person fixes, as the lint reports it). `known`: the
    values found elsewhere in the workspace (`memgit.lint.known`) or in a conversation's earlier
    turns (`turn_secrets`), hidden here too.
    """
    hits = find_secrets(
        lines, entropy_threshold=entropy_threshold, severities=severities, candidates=candidates, known=known
    )
    out = list(lines)
    found: list[Redaction] = []
    by_line: dict[int, list[Hit]] = {}
    for hit in hits:
        by_line.setdefault(hit.index, []).append(hit)
    for index, line_hits in by_line.items():
        out[index] = _redact_values(lines[index], line_hits, entropy_threshold, severities, known)
        if any(hit.reported for hit in line_hits):
            found.append(Redaction(index + 1, next(hit.code for hit in line_hits if hit.reported)))
    return out, found


def _redact_values(
    line: str,
    hits: list[Hit],
    entropy_threshold: float,
    severities: Mapping[str, str] | None,
    known: Mapping[str, str] | None = None,
) -> str:
    """`line` with each hit's value replaced, checked again until nothing flags; whole when a value
    cannot be bounded or the line still flags after `_ROUNDS`."""
    out = line
    for _round in range(_ROUNDS):
        values = [hit for hit in hits if hit.value and hit.value in out]
        if len(values) < len(hits):
            break  # a value not on the line as written (a reader's view, a key block): the line goes
        for hit in sorted(values, key=lambda hit: -len(hit.value or "")):
            if hit.value and hit.value in out:
                out = out.replace(hit.value, placeholder(hit.code))
        hits = find_secrets([out], entropy_threshold=entropy_threshold, severities=severities, known=known)
        if not hits:
            return out
    return _keep_indent(line, placeholder(hits[0].code if hits else "S100"))


def redact_text(
    text: str,
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
    known: Mapping[str, str] | None = None,
) -> tuple[str, list[Redaction]]:
    """`redact_lines` over a whole text, keeping its line endings (CRLF stays CRLF).

    A few byte-level searches over the whole text find the lines the per-line rules could flag;
    only those are scanned rule by rule (the rules that read across lines do their own search).
    """
    parts = text.split("\n")
    bare = [p[:-1] if p.endswith("\r") else p for p in parts]
    redacted, found = redact_lines(
        bare,
        entropy_threshold=entropy_threshold,
        severities=severities,
        candidates=text_candidates(text),
        known=known,
    )
    if not found and redacted == bare:
        return text, []
    out = [new + ("\r" if old.endswith("\r") else "") for old, new in zip(parts, redacted, strict=True)]
    return "\n".join(out), found


def turn_secrets(turns: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Values (-> rule) that the conversation's rules find in the last of `turns` ((role, text),
    oldest first): a value given as the answer to the question before it, a value alone under a
    label that ended the turn before. Passed as `known` when that turn's text is redacted."""
    from memgit.lint.conversation import last_turn_values

    return last_turn_values(list(turns)) if len(turns) > 1 else {}


def secret_in_name(path: str, known: Mapping[str, str] | None = None) -> str | None:
    """The rule that flags a part of `path` (a folder's or the file's name), or None; a value
    `known` from the workspace's files counts wherever it stands in the path."""
    hit = name_secret(path)
    if hit is not None:
        return hit.code
    return next((code for value, code in (known or {}).items() if value in path), None)


def shown_path(path: str, known: Mapping[str, str] | None = None) -> str:
    """`path` with a secret in its name replaced by the placeholder (for an output that must name a
    file without publishing what its name holds); a value `known` from the workspace too."""
    hit = name_secret(path)
    if hit is not None and hit.value:
        path = path.replace(hit.value, placeholder(hit.code))
    for value, code in (known or {}).items():
        if value in path:
            path = path.replace(value, placeholder(code))
    return path


_PLACEHOLDER_LINE = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)?\[redacted: S1\d\d\]\s*$")


def is_placeholder(line: str) -> bool:
    """Whether `line` is what `redact_lines` left of a flagged line (lead kept), so a reader that
    lists or indexes text (summaries, search) can leave it out instead of showing the marker."""
    return "[redacted: " in line and _PLACEHOLDER_LINE.match(line) is not None


def _keep_indent(line: str, replacement: str) -> str:
    """Keep a list item's or quote's lead so the Markdown around the placeholder still parses."""
    match = re.match(r"^(\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)?)", line)
    return (match.group(1) if match else "") + replacement
