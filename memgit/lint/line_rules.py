"""The per-line secret rules (pure): one line in, each secret on it with the value as written.

Token shapes (S101, S102), a secret-looking name assigned a random value (S103), passwords
written out or in a command line (S104), detect-secrets' detectors (S105), the shape and checksum
rules (`shapes.py`: S106-S113), identifiers after their names (S116) and secrets after their
labels (S117). The engine (`memgit.lint.secrets`) runs them on the lines that may hold a secret,
beside the rules that read across lines and the field's token scanner.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from memgit.lint.normalize import escaped
from memgit.lint.placeholders import is_placeholder

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
    ("Tailscale key", re.compile(r"\btskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}\b")),
    ("PyPI token", re.compile(r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}")),
    ("JSON Web Token", re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}")),
    ("bearer token", re.compile(r"(?i)\bauthorization:\s*bearer\s+[A-Za-z0-9._~+/-]{20,}=*")),
    ("password in URL", re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@'\"]*:([^\s:/@'\"]{3,})@[^\s/'\"]+")),
    # The same credentials with no scheme, as an address ("jens:Lok-1899@example.de" in a commit's
    # e-mail, a note's "deploy:K8s-Push2@registry.example.io"): an address has no ":" before its
    # "@", so a user, a ":" and a word of letters and digits before a host name are a login.
    (
        "password in an address",
        re.compile(
            r"(?<![\w.%+:/@-])[A-Za-z0-9._%+-]{1,64}:((?=[^\s:/@'\"]*\d)(?=[^\s:/@'\"]*[A-Za-z])[^\s:/@'\"]{6,64})"
            r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w.-]|:\d)"
        ),
    ),
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
    # A hook whose host says it is one (Make's `hook.eu2.make.com/<key>`): the path is the key.
    (
        "webhook URL",
        re.compile(r"https?://(?:web)?hooks?\.[^\s/]+/((?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[A-Za-z0-9_-]{20,})"),
    ),
    # A key as a URL's user, with no password after it (an error tracker's DSN:
    # `https://<32 hex>@o123.ingest.sentry.io/456`).
    ("key in a URL", re.compile(r"\b[a-z][a-z0-9+.-]*://((?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{24,})@[^\s/'\"]+")),
    # A live key named so by its issuer's convention: `<service>_live_…` (Stripe's, copied by many
    # payment services) or `live_sk_…`, with a digit in its random part.
    (
        "live secret key",
        re.compile(
            r"\b(?:(?:live|prod)_(?:sk|secret|key)_|[a-z]{2,12}_(?:live|prod)_)(?=[A-Za-z]*\d)[A-Za-z0-9]{20,}\b"
        ),
    ),
    # Google's OAuth client secret, by the prefix Google gives it.
    ("Google OAuth client secret", re.compile(r"\bGOCSPX-[A-Za-z0-9_-]{24,40}(?![A-Za-z0-9_-])")),
    # A calendar's secret address (Google's "secret address in iCal format"): the path is the key.
    ("secret calendar address", re.compile(r"/private-([0-9a-f]{24,})/[A-Za-z]+\.ics\b")),
    ("Mapbox secret token", re.compile(r"\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{10,}")),
    (
        "Azure shared access signature",
        re.compile(
            r"[?&]sv=\d{4}-\d\d-\d\d[^\s]*?[?&]sig=([A-Za-z0-9%+/=]{20,})|[?&]sig=([A-Za-z0-9%+/=]{20,})[^\s]*?[?&]sv=\d{4}"
        ),
    ),
)
# What every token shape above starts with (for a URL: a Slack webhook's host or credentials): a line
# with none of these, such as a plain URL, skips the token shapes (a test draws strings from
# each shape and checks this lets them through).
_SHAPE_HINT = re.compile(
    r"AKIA|ASIA|AGPA|AROA|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|sk-|[rsp]k_|AIza|hf_|npm_|pypi-|eyJ|tskey-"
    r"|hooks\.slack\.com/|://[^\s:/@'\"]*:[^\s:/@'\"]{3,}@|(?i:authorization)|/api/webhooks/|(?i:hook|trigger/|/catch/)|sig="
    r"|://[A-Za-z0-9]{24,}@|(?:live|prod)_|/private-|GOCSPX-|[\w.%+-]:[^\s:/@'\"]{6,64}@[A-Za-z0-9-]+\."
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
    r"(?:[^\n:=]{0,40}?\b(?:is|was|are)\b(?:\s++(?:now|still|currently|just|simply))?\s*+:?"
    r"|(?:\s++(?:for|of|to)\s++(?:the\s++|our\s++|my\s++)?[\w.-]+){0,2}\s*+[\"']?\s*+(?::|=|:=))\s*+[\"'`]?([^\s\"'`]{6,})"
)  # runs of spaces taken once (possessive): a line of thousands of spaces took seconds
_PASSWORD_OPTION = re.compile(r"(?:^|\s)(?:-p|--password=|--password\s+)[\"']?([^\s\"'`]{6,})")
# A login and its password side by side: "anna@example.de / Bahn!Ostsee2026", "bob@x.io | Xk9!…".
_LOGIN_PAIR = re.compile(
    r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+[ \t]*(?:/|\||,|[ \t][—–])[ \t]*[\"'`]?([^\s\"'`|]{6,64})"
)
# MySQL's clients take the password glued to `-p` ("mysql -u root -pS3cret -e …"): the options
# after it are the command's, not a sign of code.
_MYSQL = re.compile(r"\b(?:mysql|mariadb|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mycli)\b")
# `-p VALUE` after a command whose `-p` is the password (a registry login, sshpass); elsewhere
# `-p` is a port, a parent folder or a prompt.
_LOGIN_PASSWORD = re.compile(
    r"(?i)\b(?:(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?:[ \t]+registry)?)[ \t]+login|sshpass)\b"
    r"[^\n|;&]*?[ \t](?:-p|--password)[ =]+[\"']?([^\s\"'`]{4,})"
)
# redis-cli's `-a` / `--pass` is the password (elsewhere `-a` means "all").
_REDIS_PASSWORD = re.compile(r"(?i)\bredis-cli\b[^\n|;&]*?[ \t](?:-a|--pass)[ =]+[\"']?([^\s\"'`]{4,})")
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
            found = [
                (code, message, _as_written(value, line))
                for code, message, value in _scan_secrets(view, entropy_threshold)
            ]
    return found


# Stars between a value's characters: the reader's view drops every star as markup, though a lone
# one between digits shows ("48*2719", an intercom's flat and code). Escapes, entities and invisible
# characters stay unbounded: the line goes whole (`memgit.lint.redact`).
_UNSEEN = r"\**+"


def _as_written(value: str | None, line: str) -> str | None:
    """`value` found in the reader's view as it stands on `line` ("48*2719" for "482719": the star a
    reader sees, which the view took for markup), so that a repeat of it elsewhere is known by how
    it is written; the view's value when anything but stars stands between (the line goes whole)."""
    if not value or value in line or len(value) > 512:
        return value
    match = re.search(_UNSEEN.join(re.escape(c) for c in value), line)
    return match.group(0) if match else value


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
        if password and not escaped(password):  # an escaped one: the reader's view is judged instead
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
    from memgit.lint import identifiers, labelled, near_label, sign_in

    value = identifiers.personal_id(line)
    if value is not None:
        return [("S116", f"a personal identifier or bank number ({_redact(value)}); remove it from memory", value)]
    found = (
        labelled.find_value(line)
        or labelled.value_in_key(line)
        or labelled.value_in_compound(line)
        or near_label.value_after_what_for(line)
    )
    if found is None and (later := near_label.code_later_in_sentence(line)) is not None:
        found = ("code", later)
    if found is not None:
        kind, value = found
        return [("S117", f"a {kind} after its label ({_redact(value)}); remove it from memory", value)]
    near = labelled.password_near_label(line)
    if near is not None:
        return [("S117", f"a password a few words after its label ({_redact(near)}); remove it from memory", near)]
    wanted = sign_in.device_wants(line)
    if wanted is not None:
        return [("S117", f"a password a device asks for ({_redact(wanted)}); remove it from memory", wanted)]
    seed = _TOTP_SEED.search(line)
    if seed is not None and sum(c.isdigit() for c in seed.group(1)) >= 2:
        value = seed.group(1)
        return [("S117", f"a 2FA secret near its word ({_redact(value)}); remove it from memory", value)]
    return []


# A TOTP seed: 16 to 64 characters of base32 (capitals and 2-7) a few words after a 2FA word, in
# whatever language the words between are ("2FA anahtarı …", "clé TOTP …").
_TOTP_SEED = re.compile(
    r"(?i:\b(?:2fa|totp|mfa|otp|authenticator|two[- ]factor))\b[^\n]{0,40}?(?<![A-Za-z0-9])([A-Z2-7]{16,64})(?![A-Za-z0-9])"
)


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
_USER_OPTION = re.compile(
    r"(?:^|\s)(?:-u|--user)[ =][\"']?[^\s:'\"]*:([^\s'\"@]{4,})"
    r"|\blftp\b[^\n|;&]*?\s-u\s+[\"']?[^\s,'\"]+,[\"']?([^\s'\"@]{4,})"  # lftp -u user,password
)
_BASIC = re.compile(r"(?i)\bauthorization:?\s*[\"']?\s*basic\s+([A-Za-z0-9+/]{8,}={0,2})")
# A framework's key as base64 key material in an environment file (`APP_KEY=base64:…`).
_BASE64_KEY_VARIABLE = re.compile(
    r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]*(?:KEY|SECRET)[ \t]*=[ \t]*[\"']?(base64:[A-Za-z0-9+/]{20,}={0,2})"
)
_SECRET_VARIABLE = re.compile(
    r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|API_?KEY|PRIVATE_KEY"
    r"|(?:ACCOUNT|ACCESS|SECRET|APP|APPLICATION|MASTER|AUTH|SIGNING|ENCRYPTION)_KEY)[ \t]*=[ \t]*"
    r"([\"']?)([^\s'\"]{6,})\1"
)


def _command_credential(line: str) -> str | None:
    """A password in a command line or an HTTP header, as written on `line`."""
    for match in _USER_OPTION.finditer(line):
        value = (match.group(1) or match.group(2)).rstrip(".,;")
        if not is_placeholder(value) and not _REFERENCE.search(value):
            return value
    for match in _BASE64_KEY_VARIABLE.finditer(line):
        return match.group(1)
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
    for match in _LOGIN_PAIR.finditer(line):
        if _paired_password(match.group(1).rstrip(".,;:!?)")):
            return match.group(1).rstrip(".,;:!?)")
    for pattern in (_PASSWORD_TEXT, _PASSWORD_OPTION, _LOGIN_PASSWORD, _REDIS_PASSWORD):
        for match in pattern.finditer(line):
            value = match.group(1).split(",")[0].rstrip(".,;:!?")
            if len(value) < 6 or is_placeholder(value) or _REFERENCE.search(value) or _PATH_LIKE.search(value):
                continue
            if value.startswith("-"):
                continue  # `--password --all-databases`: the option asks for it; the next option follows
            if value.isalpha() and _words_only(value):
                continue  # "password policy", `--password MotDePasse`: words (not "SkiFkvTKjMOIWKpB")
            after = "" if pattern is _PASSWORD_OPTION and _MYSQL.search(line) else line[match.end(1) :]
            if _expression(value, after) or sum(c.isascii() for c in value) * 2 < len(value):
                continue  # `$Password = Read-Host -AsSecureString`, `hashed_password=hashed_password`
            if pattern is _PASSWORD_OPTION and value.startswith(":"):
                continue  # `-p:$true`: an option's value, not a password
            return value
    return None


def _words_only(value: str) -> bool:
    """Letters that read as words: one case, or capitalised parts each with a vowel ("MotDePasse"),
    where random letters ("RtqWmzXbLpKdNe") have parts without one."""
    if value.isupper() or value.islower():
        return True
    parts = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", value)
    return "".join(parts) == value and all(re.search(r"(?i)[aeiouyäöüéèàâêîôû]", part) for part in parts)


def _paired_password(value: str) -> bool:
    """Whether the word after a login is a password: three kinds of character or a long mixed run,
    not a second address, a link, a name from code or a placeholder."""
    from memgit.lint.labelled import code_like, password_shaped, strong_password_shape

    if "@" in value or "://" in value or "." in value.strip(".") and value.replace(".", "").isalpha():
        return False
    if is_placeholder(value) or _REFERENCE.search(value) or code_like(value):
        return False
    return password_shaped(value) and strong_password_shape(value)


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
