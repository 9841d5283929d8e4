"""What the lint flags never leaves a daily log through dreaming (pure).

A secret committed without hooks, or a line that reads as an instruction to the agent, is exactly
what must not be copied into MEMORY.md, a commit message, the report a pull request shows, or the
concepts file the site reads. The lint decides (its secret rules through `core.redact`, its
prompt-injection rules through `scan_injection`, with the workspace's severities: a rule turned
off flags nothing, a line with `memgit: allow` is the person's word): a flagged snippet is never a
candidate (`junk: S104`), and any text shown anyway (an explanation, a report line) is redacted.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import TypeVar

from memgit.dream.entries import EntryRecord
from memgit.dream.model import Action
from memgit.lint.redact import placeholder, redact_lines, redact_text, secret_code
from memgit.lint.rules import OFF, LintSettings, is_allowed, scan_injection

T = TypeVar("T")


class _Memo(OrderedDict[Hashable, object]):
    """The last `size` answers, keyed by the question and the settings' key (LintSettings holds
    mappings, so it is no key itself)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_or(self, key: Hashable, make: Callable[[], T]) -> T:
        if key in self:
            self.move_to_end(key)
            return self[key]  # type: ignore[return-value]
        value = self[key] = make()
        if len(self) > self.size:
            self.popitem(last=False)
        return value


_LINES: _Memo = _Memo(4096)
_FILES: _Memo = _Memo(256)
_FLAGS: _Memo = _Memo(256)
_LAST_KEY: list[tuple[LintSettings, Hashable]] = []


def _key(settings: LintSettings) -> Hashable:
    """What of `settings` a line's verdict depends on, as a key: one dream asks of a file in four
    phases (light, its tags, the concept map, the timeline) and of a line again after its rewrite,
    and a file's lint is most of a night's CPU. The last settings' key is kept (a run has one)."""
    if _LAST_KEY and _LAST_KEY[0][0] is settings:
        return _LAST_KEY[0][1]
    key = (
        settings.entropy_threshold,
        frozenset(settings.severities.items()),
        frozenset(settings.known.items()),
    )
    _LAST_KEY[:] = [(settings, key)]
    return key


def flagged(text: str, settings: LintSettings) -> str | None:
    """The first rule (secret, then prompt injection) that flags a line of `text`, or None."""
    return _LINES.get_or((text, _key(settings)), lambda: _flagged(text, settings))


def _flagged(text: str, settings: LintSettings) -> str | None:
    for line in text.splitlines() or [text]:
        code = secret_code(
            line, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=settings.known
        )
        if code is not None:
            return code
        for code, _message in scan_injection(line):
            if settings.severity(code) != OFF and not is_allowed(line, code):
                return code
    return None


def flagged_lines(lines: list[str], settings: LintSettings) -> dict[int, str]:
    """1-based line number -> rule, for every line of a file the lint's rules cover: a private
    key's body lines go with their BEGIN line (alone, a base64 line flags nothing)."""
    key = (tuple(lines), _key(settings))
    return dict(_FLAGS.get_or(key, lambda: _flagged_lines(key[0], _redacted(key, settings), settings)))


def redacted_lines(lines: list[str], settings: LintSettings) -> list[str]:
    """A file's lines with their secrets redacted as the whole file reads (a number in a table
    column the row alone does not name), for what a report shows of a flagged line."""
    return list(_redacted((tuple(lines), _key(settings)), settings))


def _redacted(key: tuple[tuple[str, ...], Hashable], settings: LintSettings) -> tuple[str, ...]:
    def run() -> tuple[str, ...]:
        redacted, _found = redact_lines(
            list(key[0]),
            entropy_threshold=settings.entropy_threshold,
            severities=settings.severities,
            known=settings.known,
        )
        return tuple(redacted)

    return _FILES.get_or(key, run)


def _flagged_lines(
    lines: tuple[str, ...], redacted: tuple[str, ...], settings: LintSettings
) -> tuple[tuple[int, str], ...]:
    out: dict[int, str] = {}
    code = ""
    for number, (old, new) in enumerate(zip(lines, redacted, strict=True), 1):
        if old != new:
            code = new[new.find("[redacted: ") + 11 : new.find("]", new.find("[redacted: "))] or code
            out[number] = code
            continue
        for rule, _message in scan_injection(old):
            if settings.severity(rule) != OFF and not is_allowed(old, rule):
                out[number] = rule
                break
    return tuple(out.items())


def shown(text: str, settings: LintSettings) -> str:
    """`text` as it may be shown: each flagged line replaced by the lint's placeholder."""
    redacted, _found = redact_text(
        text, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=settings.known
    )
    lines = redacted.split("\n")
    for index, line in enumerate(lines):
        for code, _message in scan_injection(line):
            if settings.severity(code) != OFF and not is_allowed(line, code):
                lines[index] = placeholder(code)
                break
    return "\n".join(lines)


def safe_action(action: Action, settings: LintSettings) -> Action:
    """An action whose commit message parts pass the lint (a candidate the lint flags never
    becomes an action; this keeps the message honest even for an entry a person wrote)."""
    subject, body, text = (shown(part, settings) for part in (action.subject, action.body, action.text))
    previous = shown(action.previous_text, settings) if action.previous_text else action.previous_text
    if (subject, body, text, previous) == (action.subject, action.body, action.text, action.previous_text):
        return action
    return replace(action, subject=subject, body=body, text=text, previous_text=previous)


def safe_record(record: EntryRecord, settings: LintSettings) -> EntryRecord:
    """A provenance record whose shown parts pass the lint: the questions that recalled a fact and
    the heading above it are a person's words too (a query may quote a secret), and they reach the
    store, the commit message and the site."""
    why = tuple(shown(q, settings) for q in record.why)
    heading = shown(record.heading, settings) if record.heading else record.heading
    text = shown(record.text, settings)
    if (why, heading, text) == (record.why, record.heading, record.text):
        return record
    return replace(record, why=why, heading=heading, text=text)
