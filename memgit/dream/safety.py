"""What the lint flags never leaves a daily log through dreaming (pure).

A secret committed without hooks, or a line that reads as an instruction to the agent, is exactly
what must not be copied into MEMORY.md, a commit message, the report a pull request shows, or the
concepts file the site reads. The lint decides (its secret rules through `core.redact`, its
prompt-injection rules through `scan_injection`, with the workspace's severities: a rule turned
off flags nothing, a line with `memgit: allow` is the person's word): a flagged snippet is never a
candidate (`junk: S104`), and any text shown anyway (an explanation, a report line) is redacted.
"""

from __future__ import annotations

from dataclasses import replace

from memgit.dream.entries import EntryRecord
from memgit.dream.model import Action
from memgit.lint.redact import placeholder, redact_lines, redact_text, secret_code
from memgit.lint.rules import OFF, LintSettings, is_allowed, scan_injection


def flagged(text: str, settings: LintSettings) -> str | None:
    """The first rule (secret, then prompt injection) that flags a line of `text`, or None."""
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
    redacted, _found = redact_lines(
        lines, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=settings.known
    )
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
    return out


def redacted_lines(lines: list[str], settings: LintSettings) -> list[str]:
    """A file's lines with their secrets redacted as the whole file reads (a number in a table
    column the row alone does not name), for what a report shows of a flagged line."""
    return redact_lines(
        lines, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=settings.known
    )[0]


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
