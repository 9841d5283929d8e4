"""Memory lint: pure rules, file contents in, findings out.

Memory files are read back into an agent's context on every session, so a secret pasted into a daily
log leaks into every future prompt, and a line that reads like an instruction ("ignore previous
instructions", a fake `system:` header, a tool-call look-alike) is a standing prompt injection. Past
daily logs are append-only by convention: rewriting one silently changes what the agent "remembers"
happened. This module finds those problems in bytes handed to it; reading git (staged blobs, HEAD
versions) is the caller's job (`files.py`), so every rule here is testable without a repo.

Findings print as `path:line: CODE message`. A line containing `memgit: allow` (every rule) or
`memgit: allow CODE[,CODE]` (those rules) is exempt; in Markdown write it as an HTML comment,
`<!-- memgit: allow S102 -->`, so it does not show when rendered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Protocol

from memgit.core.paths import daily_log_day, display_path, glob_match, path_key
from memgit.lint.line_rules import scan_secret_values, scan_secrets, shannon_entropy
from memgit.lint.severity import ERROR, OFF, SEVERITIES, WARNING, is_allowed

# Re-exported: callers ask `rules` for the per-line secret rules and the severities.
__all__ = [
    "ERROR",
    "OFF",
    "SEVERITIES",
    "WARNING",
    "is_allowed",
    "scan_secret_values",
    "scan_secrets",
    "shannon_entropy",
]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: str
    summary: str


RULES: tuple[Rule, ...] = (
    Rule("S101", "private-key", ERROR, "a private key block"),
    Rule("S102", "api-token", ERROR, "a string shaped like a known API token or credential"),
    Rule("S103", "high-entropy-secret", ERROR, "a secret-looking name assigned a high-entropy value"),
    Rule("S104", "password-in-text", ERROR, "a password written out in prose or on a command line"),
    Rule("S105", "service-token", ERROR, "a service credential found by detect-secrets' detectors"),
    Rule("S106", "iban", ERROR, "a bank account number (IBAN) that passes its country's format and mod 97"),
    Rule("S107", "payment-card", ERROR, "a Luhn-valid payment card number with card words, an expiry or card grouping"),
    Rule("S108", "access-code", ERROR, "a one-time, 2FA, recovery, PIN, door, alarm, keypad or safe code"),
    Rule("S109", "id-number", ERROR, "a member, policy, insurance, passport, account or tax number"),
    Rule("S110", "quoted-credential", ERROR, "a password or key inside a quoted message"),
    Rule("S111", "keyword-token", ERROR, "a random-looking token right after key, secret, token or password"),
    Rule("S112", "bare-key", ERROR, "a random-looking key alone on a line"),
    Rule("S113", "connection-string", ERROR, "a connection string with a password"),
    Rule("S114", "provider-token", ERROR, "a provider's token or credential found by betterleaks' rules"),
    Rule("S115", "seed-phrase", ERROR, "a wallet seed phrase: 12 or more words of one BIP-39 word list"),
    Rule("S116", "personal-id", ERROR, "a personal identifier or bank number named as such that passes its check"),
    Rule("S117", "labelled-secret", ERROR, "a password, code or key after its label, in any of 52 languages"),
    Rule(
        "P201",
        "injection-phrase",
        WARNING,
        "instruction-override phrasing such as 'ignore previous instructions'",
    ),
    Rule("P202", "role-header", WARNING, "a chat role header or chat-template token"),
    Rule("P203", "tool-call", WARNING, "text that looks like a model tool call"),
    Rule("D301", "past-daily-rewritten", ERROR, "a past daily log changed by more than an append"),
    Rule("D302", "past-daily-deleted", ERROR, "a past daily log deleted"),
    Rule("F401", "conflict-marker", ERROR, "a merge conflict marker"),
    Rule("F402", "invalid-utf8", ERROR, "bytes that are not valid UTF-8"),
    Rule("F403", "nul-byte", ERROR, "a NUL byte"),
    Rule("F404", "file-too-large", ERROR, "a memory file over the size limit"),
    Rule("F405", "outside-memory-paths", WARNING, "a memory-looking file that memgit will not index"),
)
RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
_CODE_BY_NAME: dict[str, str] = {rule.name: rule.code for rule in RULES}

# Group switches in memgit.toml set several rules at once; `severity` and `disable` refine them.
_INJECTION_CODES = ("P201", "P202", "P203")
SECRET_CODES = tuple(rule.code for rule in RULES if rule.code.startswith("S"))
_DAILY_CODES = ("D301", "D302")
_PAST_DAILY_POLICY = {"error": ERROR, "warn": WARNING, "warning": WARNING, "allow": OFF, "off": OFF}


@dataclass(frozen=True)
class LintSettings:
    """Resolved lint configuration: one severity per rule plus the numeric limits."""

    severities: Mapping[str, str] = field(default_factory=lambda: {r.code: r.severity for r in RULES})
    max_file_bytes: int = 5_000_000
    entropy_threshold: float = 3.5
    daily_grace_days: int = 1
    allow_outside: tuple[str, ...] = ()
    #: Values a secret rule found somewhere in the workspace (`memgit.lint.known`), each with its
    #: rule: a secret wherever it stands. Empty until a command that reads the workspace adds them.
    known: Mapping[str, str] = field(default_factory=dict)

    def severity(self, code: str) -> str:
        return self.severities.get(code, RULES_BY_CODE[code].severity)


class LintOptions(Protocol):
    """The `[lint]` section as `memgit.config.LintConfig` holds it (core does not import config)."""

    @property
    def disable(self) -> tuple[str, ...]: ...
    @property
    def severity(self) -> Mapping[str, str]: ...
    @property
    def injection(self) -> str: ...
    @property
    def past_daily_logs(self) -> str: ...
    @property
    def outside_paths(self) -> str: ...
    @property
    def max_file_bytes(self) -> int: ...
    @property
    def entropy_threshold(self) -> float: ...
    @property
    def daily_grace_days(self) -> int: ...
    @property
    def allow_outside(self) -> tuple[str, ...]: ...


def resolve_settings(config: LintOptions, *, default_max_bytes: int | None = None) -> LintSettings:
    """Resolve the validated `[lint]` section into one severity per rule plus the limits.

    `default_max_bytes` is the indexer's own limit: a file the index would skip is one lint
    should stop at commit time, so the two agree unless `[lint] max_file_bytes` says otherwise.
    Validation already happened in `memgit.config`, against the same rule table. The lint and
    every writer that redacts (site, context) resolve it here, so a rule turned off is off for all.
    """
    severities = {rule.code: rule.severity for rule in RULES}
    plain = {s: s for s in SEVERITIES} | {"warn": WARNING}
    groups = (
        (config.injection, _INJECTION_CODES, plain),
        (config.past_daily_logs, _DAILY_CODES, _PAST_DAILY_POLICY),
        (config.outside_paths, ("F405",), plain),
    )
    for value, codes, mapping in groups:
        if value:
            for code in codes:
                severities[code] = mapping[value.lower()]
    for name, value in config.severity.items():
        if (named := resolve_code(str(name))) is not None:
            severities[named] = plain[str(value).lower()]
    for name in config.disable:
        if (named := resolve_code(str(name))) is not None:
            severities[named] = OFF
    max_bytes = config.max_file_bytes or default_max_bytes or LintSettings.max_file_bytes
    return LintSettings(
        severities=severities,
        max_file_bytes=max_bytes,
        entropy_threshold=config.entropy_threshold,
        daily_grace_days=config.daily_grace_days,
        allow_outside=tuple(config.allow_outside),
    )


def resolve_code(name: str) -> str | None:
    """Accept a rule by code (`S102`, any case) or by name (`api-token`)."""
    upper = name.strip().upper()
    if upper in RULES_BY_CODE:
        return upper
    return _CODE_BY_NAME.get(name.strip().lower())


@dataclass(frozen=True)
class Finding:
    """One problem at `path:line`; line 0 is the file's name. A finding in a commit's author,
    committer or message (`memgit lint --history`) names the commit and `where` instead of a path
    (`line`: the message's line)."""

    path: str
    line: int
    code: str
    message: str
    severity: str
    commit: str | None = None
    where: str | None = None
    #: The last line a finding covers, when it is a block (a private key's BEGIN to its END).
    end_line: int | None = None

    def format(self) -> str:
        suffix = " (warning)" if self.severity == WARNING else ""
        if self.commit is not None:
            at = f"{self.commit[:12]} {self.where}" + (f":{self.line}" if self.where == "message" else "")
            return f"{at}: {self.code} {self.message}{suffix}"
        return f"{display_path(self.path)}:{self.line}: {self.code} {self.message}{suffix}"

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "path": path_key(self.path),  # git's quoting for a name that is not UTF-8, as search shows it
            "line": self.line,
            "code": self.code,
            "name": RULES_BY_CODE[self.code].name,
            "message": self.message,
            "severity": self.severity,
        }
        if self.commit is not None:
            out |= {"commit": self.commit, "where": self.where}
        if self.end_line is not None:
            out["end_line"] = self.end_line
        return out


@dataclass(frozen=True)
class LintInput:
    """One file to check.

    `data` is the content being committed (None: the file is being deleted); `previous` is the
    committed version it replaces (None: a new file). `is_memory` says whether the workspace's
    configured memory paths cover it: memory files get every content rule, another note of the
    repository (`is_note_text`) the secret rules only.
    """

    path: str
    data: bytes | None
    previous: bytes | None = None
    is_memory: bool = True
    #: The 1-based lines the line rules judge (the lines a commit changes); None: every line.
    lines: frozenset[int] | None = None


def lint_files(
    inputs: Iterable[LintInput], settings: LintSettings, today: date, found: dict[str, dict[str, str]] | None = None
) -> list[Finding]:
    """Every file's findings, sorted. `found`, when given, receives per path the distinctive
    secret values the rules found there (value -> rule): what `memgit.lint.known` keeps, so a
    command that lints every file need not scan them twice."""
    findings: list[Finding] = []
    for item in inputs:
        findings.extend(lint_file(item, settings, today, found))
    findings.sort(key=lambda f: (f.path, f.line, f.code))
    return findings


def known_findings(item: LintInput, settings: LintSettings, flagged: set[int]) -> list[Finding]:
    """The lines of `item` that hold a value `settings.known` names (found in another file), each
    line not in `flagged` (1-based lines that have a secret finding already) once. A short code
    (`secrets.output_value`: four to eight digits, not a year, a round number or a sequence) too,
    wherever it stands: a code told once with its label is the same code when a later note says
    "I shouted 5281 across the bridge", and every output hides it there already; only a masked
    number ("**** 5281") is left alone."""
    from memgit.lint.secrets import known_hits, workspace_value

    if not settings.known or not item.is_memory or item.data is None or len(item.data) > settings.max_file_bytes:
        return []
    lines = item.data.decode("utf-8", errors="replace").split("\n")
    raw: list[tuple[int, str, str, str]] = []
    for hit in known_hits(lines, settings.known):
        if hit.value and not workspace_value(hit.value) and _masked(lines[hit.index], hit.value):
            continue  # "**** 2207": a card's last digits shown as such, not the code they equal
        number = hit.index + 1
        if number not in flagged and (item.lines is None or number in item.lines):
            flagged.add(number)
            raw.append((number, hit.code, hit.message, lines[hit.index]))
    return _finish(item.path, raw, settings)


def _masked(line: str, value: str) -> bool:
    """Whether `value` stands in `line` as a masked number's shown digits ("**** 2207", "•••• 2207")."""
    return re.search(r"[*•xX]{2,}[ \t-]?" + re.escape(value.strip("*#")) + r"(?!\d)", line) is not None


def lint_file(
    item: LintInput, settings: LintSettings, today: date, found: dict[str, dict[str, str]] | None = None
) -> list[Finding]:
    raw: list[tuple[int, str, str, str]] = []  # (line, code, message, line text for allow)
    if not item.is_memory:
        if (
            item.data is not None
            and looks_like_memory(item.path)
            and not _matches_any(item.path, settings.allow_outside)
        ):
            raw.append((1, "F405", _outside_message(item.path), ""))
        if item.data is not None and is_note_text(item.path):
            raw.extend(_note_secrets(item, settings, None if found is None else found.setdefault(item.path, {})))
        return _finish(item.path, raw, settings)

    if item.data is None:
        if item.previous is not None and _is_past_daily(item.path, today, settings.daily_grace_days):
            raw.append((1, "D302", "past daily log deleted; daily logs are append-only history", ""))
        return _finish(item.path, raw, settings)

    raw.extend(_name_findings(item.path))
    data = item.data
    is_transcript = item.path.endswith(".jsonl")
    limit = settings.max_file_bytes
    if len(data) > limit:
        raw.append((1, "F404", f"file is {len(data)} bytes, over the {limit}-byte limit; split it", ""))
        # Content rules on a huge file would be slow and the size finding already blocks it.
        return _finish(item.path, raw, settings)

    nul = data.find(b"\0")
    if nul >= 0:
        raw.append((_line_of(data, nul), "F403", "NUL byte; memory files must be plain text", ""))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raw.append((_line_of(data, exc.start), "F402", f"invalid UTF-8 at byte {exc.start}; re-save as UTF-8", ""))
        text = data.decode("utf-8", errors="replace")

    lines = text.split("\n")
    raw.extend(_conflict_markers(lines))
    raw.extend(
        _secret_findings(lines, settings, item.lines, None if found is None else found.setdefault(item.path, {}))
    )
    if not is_transcript:
        for number, line in enumerate(lines, start=1):
            if item.lines is not None and number not in item.lines:
                continue
            for code, message in scan_injection(line):
                raw.append((number, code, message, line))

    if item.previous is not None and _is_past_daily(item.path, today, settings.daily_grace_days):
        changed_at = first_non_append_line(item.previous, data)
        if changed_at is not None:
            allow_text = lines[changed_at - 1] if changed_at - 1 < len(lines) else ""
            raw.append(
                (
                    changed_at,
                    "D301",
                    "past daily log rewritten, not appended to; add new notes at the end or to today's log",
                    allow_text,
                )
            )
    return _finish(item.path, raw, settings)


#: Notes memgit does not index but the repository holds (and a push publishes): a `people.md`
#: or `howto/wifi.md` beside the memory files. Their secrets are flagged as a memory file's are.
NOTE_SUFFIXES = (".md", ".markdown", ".txt")


def is_note_text(path: str) -> bool:
    """A file outside the memory paths whose lines the secret rules read: Markdown or plain text,
    not a dotfile, and not in a dot-folder (`.github/`), a package or a build's output
    (`node_modules/`, `dist/`, `site/`: `core.adoption.is_vendored`, the folders adoption skips)."""
    from memgit.core.adoption import is_vendored

    name = path.rsplit("/", 1)[-1]
    return path.lower().endswith(NOTE_SUFFIXES) and not name.startswith(".") and not is_vendored(path)


def _note_secrets(
    item: LintInput, settings: LintSettings, found: dict[str, str] | None = None
) -> list[tuple[int, str, str, str]]:
    """The secret rules on a note outside the memory paths: the same rules as a memory file's,
    nothing else (no size, byte or daily-log rule: memgit does not read the file otherwise). A
    file over the size limit or holding NUL bytes is not text to read line by line. Its values
    join the workspace's known secrets (`found`), as a memory file's do: a password in
    `people.md` is hidden where a daily log repeats it."""
    data = item.data or b""
    if len(data) > settings.max_file_bytes or b"\0" in data:
        return []
    lines = data.decode("utf-8", errors="replace").split("\n")
    raw = _name_findings(item.path)
    raw.extend(_secret_findings(lines, settings, item.lines, found))
    return raw


def _finish(path: str, raw: list[tuple[int, str, str, str]], settings: LintSettings) -> list[Finding]:
    out = []
    for line, code, message, text in raw:
        severity = settings.severity(code)
        if severity == OFF or is_allowed(text, code):
            continue
        end = _BLOCK_END.search(message)
        out.append(Finding(path, line, code, message, severity, end_line=int(end.group(1)) if end else None))
    return out


#: How a block's finding names its last line in its message ("… block to line 12; …").
_BLOCK_END = re.compile(r" block to line (\d+);")


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


# --- secrets: the engine (memgit.lint.secrets) over the per-line rules (memgit.lint.line_rules) ---


def _secret_findings(
    lines: list[str], settings: LintSettings, only: frozenset[int] | None, found: dict[str, str] | None = None
) -> list[tuple[int, str, str, str]]:
    """Each secret rule's findings (`memgit.lint.secrets`, the rules every output redacts by), one a
    line (the first rule's: one finding a person fixes), on the lines in `only` (1-based) or all."""
    from memgit.lint.secrets import find_secrets, kept_value

    wanted = None if only is None else {number - 1 for number in only}
    out: list[tuple[int, str, str, str]] = []
    seen: set[int] = set()
    for hit in find_secrets(lines, entropy_threshold=settings.entropy_threshold, only=wanted, known=settings.known):
        if found is not None and hit.value and settings.severity(hit.code) != OFF and kept_value(hit.value):
            found.setdefault(hit.value, hit.code)
        if hit.reported and hit.index not in seen and settings.severity(hit.code) != OFF:
            seen.add(hit.index)
            out.append((hit.index + 1, hit.code, hit.message, lines[hit.index]))
        elif not hit.reported and out and out[-1][1] == hit.code == "S101" and lines[hit.index].strip():
            # a key's body line: its block's finding names the block's last line, so an editor or
            # a reviewer sees every line of the key, not only its BEGIN
            line, code, message, text = out[-1]
            head, _, advice = _BLOCK_END.sub(" block;", message).partition(" block;")
            out[-1] = (line, code, f"{head} block to line {hit.index + 1};{advice}", text)
    return out


def _name_findings(path: str) -> list[tuple[int, str, str, str]]:
    """A secret in the file's path (its name or a folder's), at line 0: every output that names
    the file publishes it (`memgit.lint.secrets.name_secret`)."""
    from memgit.lint.secrets import name_secret

    hit = name_secret(path)
    return [] if hit is None else [(0, hit.code, hit.message, "")]


# --- prompt injection ----------------------------------------------------------------------------

_OVERRIDE_OBJECT = r"(?:instructions?|prompts?|messages?|rules|directions|directives|guidelines|context|commands)"
_INJECTION_PHRASES: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*"
        r"(?:previous|prior|above|earlier|preceding|former|original|system|existing)\s+" + _OVERRIDE_OBJECT,
        r"\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:you\s+(?:were|have\s+been)\s+told|your\s+"
        + _OVERRIDE_OBJECT
        + r")",
        r"\bnew\s+(?:system\s+)?instructions\s*:",
        r"\byou\s+are\s+now\s+(?:in\s+)?(?:DAN|developer\s+mode|jailbroken|unrestricted|no\s+longer\s+bound)",
        r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|alert|mention\s+(?:this|it)\s+to)\s+the\s+user\b",
        r"\breveal\s+(?:your|the)\s+system\s+prompt\b",
    )
)
_TEMPLATE_TOKENS = re.compile(
    r"<\|(?:im_start|im_end|system|user|assistant|endoftext|start_header_id|end_header_id|eot_id)\|>"
    r"|\[/?INST\]|<</?SYS>>"
)
_ROLE_HEADER = re.compile(
    r"^\s*(?:#{1,6}\s*|>\s*|\*\*)?(?:system|assistant|human|developer)(?:\s+(?:prompt|message))?\s*(?:\*\*)?\s*:",
    re.IGNORECASE,
)
_ROLE_TAG = re.compile(r"</?(?:system|system-prompt|system_prompt|assistant|developer)\s*>", re.IGNORECASE)
_TOOL_CALL = (
    re.compile(r"</?(?:function_calls|invoke|tool_call|tool_use|tool_result|function_results)\b", re.IGNORECASE),
    re.compile(r"\"(?:tool_calls|function_call|tool_use)\"\s*:"),
    re.compile(r"^\s*\{\s*\"(?:name|tool|function)\"\s*:\s*\"[^\"]+\"\s*,\s*\"(?:arguments|parameters|input)\"\s*:"),
)


def scan_injection(line: str) -> list[tuple[str, str]]:
    """Prompt-injection findings on one Markdown line, as (code, message)."""
    found: list[tuple[str, str]] = []
    for pattern in _INJECTION_PHRASES:
        match = pattern.search(line)
        if match:
            found.append(("P201", f"instruction-override phrasing {_quote(match.group(0))}"))
            break
    header = _ROLE_HEADER.search(line) or _TEMPLATE_TOKENS.search(line) or _ROLE_TAG.search(line)
    if header:
        found.append(("P202", f"chat role header or template token {_quote(header.group(0).strip())}"))
    for pattern in _TOOL_CALL:
        match = pattern.search(line)
        if match:
            found.append(("P203", f"tool-call look-alike {_quote(match.group(0).strip())}"))
            break
    return found


def _quote(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'


# --- files ---------------------------------------------------------------------------------------


def _conflict_markers(lines: list[str]) -> list[tuple[int, str, str, str]]:
    """`<<<<<<<`/`>>>>>>>` anywhere; `=======`/`|||||||` only between them.

    A bare `=======` line is a Markdown setext heading underline, not a conflict.
    """
    found = []
    inside = False
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r")
        if line.startswith("<<<<<<<") and (len(line) == 7 or line[7] == " "):
            inside = True
            found.append((number, "F401", "merge conflict marker '<<<<<<<'; finish the merge", ""))
        elif line.startswith(">>>>>>>") and (len(line) == 7 or line[7] == " "):
            inside = False
            found.append((number, "F401", "merge conflict marker '>>>>>>>'; finish the merge", ""))
        elif inside and (line == "=======" or line.startswith("||||||| ") or line == "|||||||"):
            found.append((number, "F401", f"merge conflict marker '{line[:7]}'; finish the merge", ""))
    return found


_DATE_NAME = re.compile(r"(?:^|/)\d{4}-\d{2}-\d{2}\.(?:md|markdown|txt)$", re.IGNORECASE)


def _is_past_daily(path: str, today: date, grace_days: int) -> bool:
    """A daily log is history once its date is more than `grace_days` before today.

    The grace day lets a session that runs past midnight, or an agent on another time zone, finish
    yesterday's log without tripping the rule.
    """
    day = daily_log_day(path)
    return day is not None and day < today - timedelta(days=grace_days)


def first_non_append_line(previous: bytes, new: bytes) -> int | None:
    """None when `new` only appends to `previous`; otherwise the 1-based line of the first change.

    An append keeps every old line as it was and adds lines after them. Trailing blank lines and
    the final newline of the old text do not count (editors add or drop them), but extending
    the old last line does: that edits a line.
    """
    stem = previous.rstrip(b" \t\r\n")
    if new.startswith(stem) and (not stem or new[len(stem) :].lstrip(b" \t")[:1] in (b"", b"\r", b"\n")):
        return None
    old_lines = previous.split(b"\n")
    new_lines = new.split(b"\n")
    for index, (old, cur) in enumerate(zip(old_lines, new_lines, strict=False)):
        if old.rstrip(b"\r") != cur.rstrip(b"\r"):
            return index + 1
    return min(len(old_lines), len(new_lines)) or 1


def looks_like_memory(path: str) -> bool:
    """Files a person or agent probably meant as memory, though the configured paths miss them.

    Such a file is never indexed, so the agent never finds what was written there. Dot-folders
    (like `memory/.dreams/`) and dotfiles are dreaming's and git's own, not notes.
    """
    parts = path.split("/")
    if any(part.startswith(".") for part in parts):
        return False
    name = parts[-1].lower()
    dirs = [p.lower() for p in parts[:-1]]
    if _DATE_NAME.search(path) or name in {"memory.md", "user.md", "memories.md"}:
        return True
    if any(d in {"memory", "memories"} for d in dirs):
        return True
    return name.endswith(".jsonl") and "sessions" in dirs


def _outside_message(path: str) -> str:
    return (
        f"{path} looks like memory but is outside the configured memory paths, so it is never indexed; "
        "move it, add it to the memory paths in memgit.toml, or list it in [lint] allow_outside"
    )


def _matches_any(path: str, globs: Iterable[str]) -> bool:
    return any(glob_match(g, path) for g in globs)


def summarize(findings: list[Finding]) -> str:
    errors = sum(1 for f in findings if f.severity == ERROR)
    warnings = len(findings) - errors
    return f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
