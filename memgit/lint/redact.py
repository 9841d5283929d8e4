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
from collections.abc import Callable, Mapping, Sequence
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
    values found elsewhere in the workspace (`memgit.lint.known`) or in the rest of a conversation
    (`conversation_secrets`), hidden here too.
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


@dataclass(frozen=True)
class ConversationSecrets:
    """What a conversation's turns hold, for a writer that stores them one by one (capture)."""

    #: Values found in any turn, distinctive enough to hide wherever they stand (`kept_value`).
    everywhere: dict[str, str]
    #: Per turn, what the rules found in it, distinctive or not ("kiwi-77" as the answer to
    #: "what's the wifi password?" is a secret in that turn; elsewhere it may be anything).
    by_turn: list[dict[str, str]]
    #: Per turn, True when this call read it and no rule hit it at all: its redaction, with no
    #: known value in its text, would find nothing, and need not read it again.
    clean: list[bool]

    def for_turn(self, index: int) -> dict[str, str]:
        """The values hidden in turn `index` wherever they stand in it (`known` for its redaction)."""
        return {**self.everywhere, **self.by_turn[index]}


def conversation_secrets(
    turns: Sequence[tuple[str, str]],
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
    scanned: Sequence[Mapping[str, str] | None] | None = None,
    on_turn: Callable[[int], None] | None = None,
) -> ConversationSecrets:
    """The secrets of a conversation (`turns`: (role, text), oldest first): what the conversation's
    rules find across its turns, and what every rule finds in each turn's own text. `scanned`: per
    turn, what an earlier call found in it (None: not scanned yet), so that a session captured
    again reads only its new turns (with the turns just before them as their context).
    `on_turn(n)`: after the n-th turn read.

    A turn that repeats a secret far from where it was given ("Jonas gets in with 7-4-0-9", twenty
    turns after the code was the answer to a question) has no label or question beside it, and no
    rule about its wording, nor a window of turns around it, can be trusted to see it. So a value
    found anywhere in the session is hidden in every turn of it."""
    from memgit.lint.conversation import values_by_turn
    from memgit.lint.secrets import kept_value

    before = list(scanned) if scanned is not None else [None] * len(turns)
    by_turn = [dict(values) if values is not None else {} for values in before]
    clean = [False] * len(turns)
    todo = [index for index, values in enumerate(before) if values is None]
    if todo:
        start = max(0, todo[0] - CONTEXT_TURNS)
        asked = values_by_turn(list(turns[start:])) if len(turns) - start > 1 else [{}]
        for done, index in enumerate(todo, start=1):
            found = dict(asked[index - start])
            text = turns[index][1]
            lines = [part[:-1] if part.endswith("\r") else part for part in text.split("\n")]  # as redact_text reads it
            hits = find_secrets(lines, entropy_threshold=entropy_threshold, severities=severities)
            for hit in hits:
                if hit.value and hit.value in text:
                    found.setdefault(hit.value, hit.code)
            by_turn[index] = found
            clean[index] = not hits and not found
            if on_turn is not None:
                on_turn(done)
    everywhere: dict[str, str] = {}
    for values in by_turn:
        for value, code in values.items():
            if kept_value(value):
                everywhere.setdefault(value, code)
    return ConversationSecrets(everywhere, by_turn, clean)


#: How many turns before the first new one a capture reads again as their context: a question and
#: its answer, a label ending one turn and the value alone in the next.
CONTEXT_TURNS = 3


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
