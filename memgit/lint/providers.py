"""Provider tokens by the field's scanner: betterleaks, in process (lint S114; pure as far as
memgit is concerned: text in, hits out, no file and no network).

betterleaks carries ~465 rules of gitleaks' lineage, one for each service that issues tokens, and
gains new ones with its releases; memgit's own token shapes (S102) stay beside it. Only findings of
medium or high confidence count: its low-confidence rules (a generic "api key" assignment, a URL
with any password) flag documentation placeholders, which memgit's own rules judge instead. It
never asks a service whether a token is live: validation is a flag of its command line, and the
in-process binding has none (`tests/lint/test_providers.py` checks that no socket is opened).

Cost: the binding loads a Go runtime (~50 ms, once per process, only when a text holds a long
token) and scans ~3.5 MB a second, so only the lines holding a run of 12 token characters reach
it, the others blanked (line numbers stay). A Go runtime does not survive `fork()`: a process
forked after it was loaded scans through the same library's command-line program instead.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Collection
from functools import cache
from pathlib import Path
from typing import Any

from memgit.lint.hits import Hit
from memgit.lint.placeholders import is_placeholder

CODE = "S114"
_CONFIDENT = frozenset(("medium", "high"))
# Every provider token holds a run of at least 12 token characters (betterleaks' rules with a
# shorter secret key it to a long prefix or URL, which is such a run too).
_RUN = re.compile(r"[A-Za-z0-9+/=_\-.~:@]{12,}")
_LOADED_IN: list[int] = []  # the process that loaded the Go runtime


def find(lines: list[str], wanted: Collection[int] | None) -> list[Hit]:
    """betterleaks' confident findings on `lines` (only those in `wanted`, when given)."""
    kept = [
        line if (wanted is None or index in wanted) and _RUN.search(line) else "" for index, line in enumerate(lines)
    ]
    if not any(kept):
        return []
    hits: list[Hit] = []
    for rule, confidence, line_no, value in _scan("\n".join(kept)):
        index = line_no - 1
        if confidence not in _CONFIDENT or not 0 <= index < len(lines) or is_placeholder(value):
            continue
        shown = value if value and value in lines[index] else None
        message = f"a {rule} credential ({_hint(value)}), by betterleaks; remove it and rotate the credential"
        hits.append(Hit(index, CODE, message, shown))
    return hits


def _hint(value: str) -> str:
    return value[:4] + "…" if len(value) > 8 else "…"


def _scan(text: str) -> list[tuple[str, str, int, str]]:
    """(rule id, confidence, 1-based line, matched value) for each finding in `text`."""
    if _LOADED_IN and _LOADED_IN[0] != os.getpid():
        return _scan_with_program(text)
    module = _library()
    if module is None:
        return []
    out = []
    for finding in module.scan_string(text):
        out.append((finding.rule_id, finding.confidence, finding.location.start_line, finding.match.value))
    return out


@cache
def _library() -> Any:
    """The binding, loaded once per process (None where the package is missing)."""
    try:
        import betterleaks
    except ImportError:  # pragma: no cover - a dependency; an install without it loses only S114
        return None
    _LOADED_IN.append(os.getpid())
    return betterleaks


def _program() -> Path:
    import betterleaks

    return Path(betterleaks.__file__).parent / "bin" / "betterleaks"


def _scan_with_program(text: str) -> list[tuple[str, str, int, str]]:
    """The same scan through the package's own command-line program (after a fork).

    A run that fails (the program cannot start, exits non-zero, prints no report) is tried once
    more, then raises: a scan that did not happen must not read as "no secret here", or every
    output that redacts through it would show what it missed."""
    report = None
    problem = ""
    for _attempt in range(2):
        try:
            done = subprocess.run(
                [str(_program()), "stdin", "--no-banner", "--log-level=error", "-o", "-", "--exit-code=0"],
                input=text.encode("utf-8", "surrogatepass"),
                capture_output=True,
                check=False,
                env={key: value for key, value in os.environ.items() if not key.startswith("BETTERLEAKS_")},
            )
        except OSError as exc:
            problem = str(exc)
            continue
        if done.returncode != 0:
            problem = f"exit status {done.returncode}"
            continue
        try:
            report = json.loads(done.stdout or b"{}")
            break
        except json.JSONDecodeError:
            problem = "a report that is not JSON"
    if not isinstance(report, dict):
        from memgit.errors import ScannerFailed

        raise ScannerFailed(
            f"the provider-token scanner (betterleaks' program) failed twice ({problem}); nothing was shown"
        )
    out = []
    for finding in report.get("findings") or []:
        location = finding.get("location") or {}
        match = finding.get("match") or {}
        out.append(
            (
                str(finding.get("rule_id", "")),
                str(finding.get("confidence", "")),
                int(location.get("start_line", 0)),
                str(match.get("value", "")),
            )
        )
    return out
