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

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Protocol

from memgit.core.paths import daily_log_day, display_path, glob_match, path_key
from memgit.lint.placeholders import is_placeholder

ERROR = "error"
WARNING = "warning"
OFF = "off"
SEVERITIES = (ERROR, WARNING, OFF)


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
    Rule("S117", "labelled-secret", ERROR, "a password, code or key after its label, in any of 40 languages"),
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
    path: str
    line: int
    code: str
    message: str
    severity: str

    def format(self) -> str:
        suffix = " (warning)" if self.severity == WARNING else ""
        return f"{display_path(self.path)}:{self.line}: {self.code} {self.message}{suffix}"

    def to_dict(self) -> dict[str, object]:
        return {
            "path": path_key(self.path),  # git's quoting for a name that is not UTF-8, as search shows it
            "line": self.line,
            "code": self.code,
            "name": RULES_BY_CODE[self.code].name,
            "message": self.message,
            "severity": self.severity,
        }


@dataclass(frozen=True)
class LintInput:
    """One file to check.

    `data` is the content being committed (None: the file is being deleted); `previous` is the
    committed version it replaces (None: a new file). `is_memory` says whether the workspace's
    configured memory paths cover it; only memory files get content rules.
    """

    path: str
    data: bytes | None
    previous: bytes | None = None
    is_memory: bool = True
    #: The 1-based lines the line rules judge (the lines a commit changes); None: every line.
    lines: frozenset[int] | None = None


def lint_files(inputs: Iterable[LintInput], settings: LintSettings, today: date) -> list[Finding]:
    findings: list[Finding] = []
    for item in inputs:
        findings.extend(lint_file(item, settings, today))
    findings.sort(key=lambda f: (f.path, f.line, f.code))
    return findings


def lint_file(item: LintInput, settings: LintSettings, today: date) -> list[Finding]:
    raw: list[tuple[int, str, str, str]] = []  # (line, code, message, line text for allow)
    if not item.is_memory:
        if (
            item.data is not None
            and looks_like_memory(item.path)
            and not _matches_any(item.path, settings.allow_outside)
        ):
            raw.append((1, "F405", _outside_message(item.path), ""))
        return _finish(item.path, raw, settings)

    if item.data is None:
        if item.previous is not None and _is_past_daily(item.path, today, settings.daily_grace_days):
            raw.append((1, "D302", "past daily log deleted; daily logs are append-only history", ""))
        return _finish(item.path, raw, settings)

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
    raw.extend(_secret_findings(lines, settings, item.lines))
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


def _finish(path: str, raw: list[tuple[int, str, str, str]], settings: LintSettings) -> list[Finding]:
    out = []
    for line, code, message, text in raw:
        severity = settings.severity(code)
        if severity == OFF or is_allowed(text, code):
            continue
        out.append(Finding(path, line, code, message, severity))
    return out


_ALLOW = re.compile(r"memgit:\s*allow\b((?:[\s,]+[A-Za-z]\d{3}\b)*)")


def is_allowed(line: str, code: str) -> bool:
    """Inline exemption: `memgit: allow` exempts the line from every rule, `memgit: allow S102` from one."""
    for match in _ALLOW.finditer(line):
        codes = {c.upper() for c in re.findall(r"[A-Za-z]\d{3}", match.group(1))}
        if not codes or code in codes:
            return True
    return False


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


# --- secrets -------------------------------------------------------------------------------------

_PRIVATE_KEY = re.compile(r"-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----")
# Shapes published by the issuers; each is specific enough that a match is very likely real.
_TOKEN_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("AWS access key id", re.compile(r"\b(?:AKIA|ASIA|AGPA|AROA)[0-9A-Z]{16}\b")),
    ("GitHub token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b")),
    ("GitHub fine-grained token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{40,}\b")),
    ("GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])")),
    ("Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    (
        "Slack webhook",
        re.compile(r"https://hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]+"),
    ),
    ("Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("OpenAI API key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{20,}")),
    ("Stripe key", re.compile(r"\b[rsp]k_(?:live|test)_[0-9A-Za-z]{16,}\b")),
    ("Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("Hugging Face token", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    ("npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("PyPI token", re.compile(r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}")),
    ("JSON Web Token", re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}")),
    ("bearer token", re.compile(r"(?i)\bauthorization:\s*bearer\s+[A-Za-z0-9._~+/-]{20,}=*")),
    ("password in URL", re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@'\"]*:([^\s:/@'\"]{3,})@[^\s/'\"]+")),
    (
        "Discord webhook",
        re.compile(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_-]{30,})"),
    ),
    # A chat or automation service's incoming hook (Mattermost, Rocket.Chat, Zapier, IFTTT, Teams,
    # Google Chat, a self-hosted one): the URL is the credential, and its secret part is the path
    # after the hook's name that mixes letters and digits.
    (
        "webhook URL",
        re.compile(
            r"https?://[^\s/]+(?:/[^\s/?#]+)*?/(?:hooks?|webhooks?|webhookb2|trigger/[^\s/]+/with/key|catch)"
            r"/((?=[^\s?#]*?(?:\d[^\s?#/]*[A-Za-z]|[A-Za-z][^\s?#/]*\d))[^\s?#<>()'\"`]{6,})"
        ),
    ),
    (
        "Azure shared access signature",
        re.compile(
            r"[?&]sv=\d{4}-\d\d-\d\d[^\s]*?[?&]sig=([A-Za-z0-9%+/=]{20,})|[?&]sig=([A-Za-z0-9%+/=]{20,})[^\s]*?[?&]sv=\d{4}"
        ),
    ),
)
# What every token shape above starts with (for a URL: a Slack webhook's host or credentials): a line
# with none of these, such as a plain URL, skips the sixteen patterns (a test draws strings from
# each shape and checks this lets them through).
_SHAPE_HINT = re.compile(
    r"AKIA|ASIA|AGPA|AROA|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|sk-|[rsp]k_|AIza|hf_|npm_|pypi-|eyJ"
    r"|hooks\.slack\.com/|://[^\s:/@'\"]*:[^\s:/@'\"]{3,}@|(?i:authorization)|/api/webhooks/|(?i:hook|trigger/)|sig="
)
_SECRET_NAME = (
    r"(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|passphrase|pwd|credentials?|auth[_-]?key"
    r"|access[_-]?key|private[_-]?key|client[_-]?secret|signing[_-]?key)"
)
# An assignment is tried only where a secret word is, from the start of the name around it, and the
# name's parts are bounded: searched from every position of a long unbroken run of name characters
# (one 5 MB token), the unbounded pattern took time quadratic in the run's length.
_NAME_PART = r"[A-Za-z0-9_.-]{0,100}"
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_SECRET_WORD = re.compile(r"(?i)" + _SECRET_NAME)
_ASSIGNMENT = re.compile(
    r"(?i)(" + _NAME_PART + _SECRET_NAME + _NAME_PART + r")[\"']?\s*(?::|=|:=|=>)\s*[\"'`]?"
    r"([A-Za-z0-9+/_\-.~=]{16,})(?![A-Za-z0-9+/_\-.~=])(?!\s*(?::|=))"
)
# A password spelled out: "the wifi password is X", "password: X", "DB_PASSWORD=X", "-p'X'".
_PASSWORD_TEXT = re.compile(
    r"(?i)(?<![A-Za-z])(?:password|passwd|passphrase|pwd)s?(?![A-Za-z])"
    r"(?:[^\n:=]{0,40}?\b(?:is|was|are)\b(?:\s+(?:now|still|currently|just|simply))?\s*:?"
    r"|(?:\s+(?:for|of|to)\s+(?:the\s+|our\s+|my\s+)?[\w.-]+){0,2}\s*[\"']?\s*(?::|=|:=))\s*[\"'`]?([^\s\"'`]{6,})"
)
_PASSWORD_OPTION = re.compile(r"(?:^|\s)(?:-p|--password=|--password\s+)[\"']?([^\s\"'`]{6,})")
_REFERENCE = re.compile(r"^[$%]|\$\{|[\[\](){}]|^(?:os|env|process|settings|config)\.")
# A path: segments of name characters, none as long as a key (an AWS secret may start with "/").
_PATH_LIKE = re.compile(r"^(?:/|\./|~/)(?:[\w.-]{1,19}(?:/|$))*$|://")


def scan_secrets(line: str, entropy_threshold: float = 3.5) -> list[tuple[str, str]]:
    """Secret findings on one line, as (code, message); messages never echo the secret itself."""
    return [(code, message) for code, message, _value in scan_secret_values(line, entropy_threshold)]


def scan_secret_values(line: str, entropy_threshold: float = 3.5) -> list[tuple[str, str, str | None]]:
    """Secret findings on one line, as (code, message, the secret as written on `line` or None).

    A line of JSON (a transcript turn) is read with its strings' quotes unescaped too: in
    `{"content": "client_secret: \\"…\\""}` the backslash hid the value from the rules. A value
    found only that way, or only in the line as a reader sees it, may not stand on `line` as
    written: the caller then cannot bound it (`memgit.lint.redact` replaces the whole line).
    """
    found = _scan_secrets(line, entropy_threshold)
    if not found and '\\"' in line:
        found = _scan_secrets(line.replace('\\"', '"'), entropy_threshold)
    if not found and "\\n" in line:  # a transcript turn's lines, each on its own
        for piece in line.split("\\n"):
            found = _scan_secrets(piece, entropy_threshold) if piece != line else []
            if found:
                break
    if not found:
        from memgit.lint.normalize import reader_view

        view = reader_view(line)
        if view != line:
            found = _scan_secrets(view, entropy_threshold)
    return found


def _scan_secrets(line: str, entropy_threshold: float) -> list[tuple[str, str, str | None]]:
    found: list[tuple[str, str, str | None]] = []
    key = _PRIVATE_KEY.search(line)
    if key:
        found.append(("S101", f"{key.group(1).lower()} block; keep keys out of memory", None))
    for label, pattern in _TOKEN_SHAPES if _SHAPE_HINT.search(line) else ():
        match = pattern.search(line)
        if not match:
            continue
        secret = next((g for g in match.groups() if g), "") if pattern.groups else match.group(0)
        if is_placeholder(secret):
            continue  # documentation examples such as AWS's AKIAIOSFODNN7EXAMPLE
        found.append(("S102", f"{label} ({_redact(match.group(0))}); remove it and rotate the credential", secret))
        break  # one token finding a line is enough to act on
    if not found:
        for match in _assignments(line):
            name, value = match.group(1), match.group(2).rstrip(".")
            if is_placeholder(value) or _PATH_LIKE.search(value) or not _looks_random(value, entropy_threshold):
                continue
            message = f"{name} is assigned a high-entropy value ({_redact(value)}); is it a secret?"
            found.append(("S103", message, value))
            break
    if not found and "=" in line:
        from memgit.lint import shapes

        found = shapes.scan_values(line, only="S113")  # a connection string's password, before S104 takes it
    if not found:
        password = _spelled_out_password(line)
        if password:
            message = f"a password written out ({_redact(password)}); keep it in a password manager"
            found.append(("S104", message, password))
    if not found:
        from memgit.lint.detectors import library_findings

        for label, value in library_findings(line)[:1]:
            found.append(("S105", f"{label} ({_redact(value)}); remove it and rotate the credential", value))
    if not found:
        from memgit.lint import shapes

        found = shapes.scan_values(line)
    if not found:
        found = _scan_named(line)
    return found


def _scan_named(line: str) -> list[tuple[str, str, str | None]]:
    """S116 (an identifier after its name) and S117 (a secret after its label, in many languages),
    on a line holding one of their words (`candidates` finds those lines)."""
    from memgit.lint import identifiers, labelled

    value = identifiers.personal_id(line)
    if value is not None:
        return [("S116", f"a personal identifier or bank number ({_redact(value)}); remove it from memory", value)]
    found = labelled.find_value(line)
    if found is not None:
        kind, value = found
        return [("S117", f"a {kind} after its label ({_redact(value)}); remove it from memory", value)]
    return []


def _secret_findings(
    lines: list[str], settings: LintSettings, only: frozenset[int] | None
) -> list[tuple[int, str, str, str]]:
    """Each secret rule's findings (`memgit.lint.secrets`, the rules every output redacts by), one a
    line (the first rule's: one finding a person fixes), on the lines in `only` (1-based) or all."""
    from memgit.lint.secrets import find_secrets

    wanted = None if only is None else {number - 1 for number in only}
    out: list[tuple[int, str, str, str]] = []
    seen: set[int] = set()
    for hit in find_secrets(lines, entropy_threshold=settings.entropy_threshold, only=wanted):
        if hit.reported and hit.index not in seen and settings.severity(hit.code) != OFF:
            seen.add(hit.index)
            out.append((hit.index + 1, hit.code, hit.message, lines[hit.index]))
    return out


def _assignments(line: str) -> Iterator[re.Match[str]]:
    """`_ASSIGNMENT`'s matches, left to right, each tried at the start of the name around a secret word
    (at most `_NAME_PART` before it): the same matches a search from every position finds."""
    done = 0
    for word in _SECRET_WORD.finditer(line):
        start = word.start()
        if start < done:
            continue
        floor = max(done, start - 100)
        while start > floor and line[start - 1] in _NAME_CHARS:
            start -= 1
        match = _ASSIGNMENT.match(line, start)
        if match is not None:
            done = match.end()
            yield match


# `curl -u user:secret`, `--user user:secret`; `Authorization: Basic <base64 of user:secret>`;
# `PGPASSWORD='…' pg_restore`, `export API_TOKEN=…` (an environment variable named for a secret).
_USER_OPTION = re.compile(r"(?:^|\s)(?:-u|--user)[ =][\"']?[^\s:'\"]*:([^\s'\"@]{4,})")
_BASIC = re.compile(r"(?i)\bauthorization:?\s*[\"']?\s*basic\s+([A-Za-z0-9+/]{8,}={0,2})")
_SECRET_VARIABLE = re.compile(
    r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|API_?KEY|PRIVATE_KEY)[ \t]*=[ \t]*"
    r"([\"']?)([^\s'\"]{6,})\1"
)


def _command_credential(line: str) -> str | None:
    """A password in a command line or an HTTP header, as written on `line`."""
    for match in _USER_OPTION.finditer(line):
        value = match.group(1).rstrip(".,;")
        if not is_placeholder(value) and not _REFERENCE.search(value):
            return value
    for match in _SECRET_VARIABLE.finditer(line):
        value = match.group(2).rstrip(".,;")
        spaced = re.search(r"[ \t]=|=[ \t]", match.group(0)) is not None
        if not match.group(1) and spaced and re.match(r"[ \t]+[\w$-]", line[match.end() :]):
            continue  # `$Env:PGPASS = gcloud auth print-access-token`: a command's output, not a value
        if not is_placeholder(value) and not _REFERENCE.search(value) and not _PATH_LIKE.search(value):
            return value
    for match in _BASIC.finditer(line):
        import base64
        import binascii

        try:
            decoded = base64.b64decode(match.group(1) + "=" * (-len(match.group(1)) % 4)).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        user, colon, password = decoded.partition(":")
        if colon and password and not is_placeholder(password) and not is_placeholder(user + password):
            return match.group(1)
    return None


def _spelled_out_password(line: str) -> str | None:
    """A password value after the word or a `-p` option: not a placeholder, reference or plain word."""
    command = _command_credential(line)
    if command is not None:
        return command
    for pattern in (_PASSWORD_TEXT, _PASSWORD_OPTION):
        for match in pattern.finditer(line):
            value = match.group(1).split(",")[0].rstrip(".,;")
            if len(value) < 6 or is_placeholder(value) or _REFERENCE.search(value) or _PATH_LIKE.search(value):
                continue
            if value.isalpha():
                continue  # "the password is stored in Vault", "password policy"
            if _expression(value, line[match.end(1) :]) or sum(c.isascii() for c in value) * 2 < len(value):
                continue  # `$Password = Read-Host -AsSecureString`, `hashed_password=hashed_password`
            if pattern is _PASSWORD_OPTION and value.startswith(":"):
                continue  # `-p:$true`: an option's value, not a password
            return value
    return None


def _expression(value: str, after: str) -> bool:
    """Whether `value` is code rather than a secret: a name from code or a command with arguments."""
    from memgit.lint.labelled import code_like

    if code_like(value) or re.fullmatch(r"[a-z]+(?:_[a-z]+)+", value):
        return True
    return re.match(r"[ \t]+(?:-{1,2}[A-Za-z]|\||[A-Za-z][\w.-]*[ \t]+-)", after) is not None


def shannon_entropy(value: str) -> float:
    """Bits per character; random base64 is near 6, hex near 4, English words near 3."""
    if not value:
        return 0.0
    counts: dict[str, int] = {}
    for char in value:
        counts[char] = counts.get(char, 0) + 1
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def _looks_random(value: str, threshold: float) -> bool:
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    if len(value) >= 32 and all(c in "0123456789abcdefABCDEF" for c in value):
        # Hex carries at most 4 bits a character: a random 32-digit key often measures under 3.5.
        threshold = min(threshold, 3.0)
    return has_digit and has_alpha and shannon_entropy(value) >= threshold


def _redact(secret: str) -> str:
    return secret[:4] + "…" if len(secret) > 8 else "…"


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
