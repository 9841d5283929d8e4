"""detect-secrets' detectors for the credential shapes memgit's own rules do not know (lint S105).

Chosen by `bench/secrets_compare.py` (docs/SECURITY.md has the table): of the library's detectors,
these find secrets the hand-written rules miss and raised no false alarm on the look-alike
corpus. Its entropy and keyword detectors are left out: they flagged checksums, fingerprints,
image digests and `os.environ[...]` lines as secrets.

Two choices keep this safe and cheap inside a pre-commit hook:

* only `analyze_string` is called, the detectors' regular expressions: never `analyze_line`,
  whose verification step may ask the service over the network whether a key is live;
* importing detect-secrets costs 80-200 ms, so only a line holding one of the shapes below
  reaches it (plain notes, URLs and paths never do), and the import happens at most once per
  process. `tests/lint/test_redact.py` draws strings from every detector's own patterns and checks
  that this gate lets each through, so a detect-secrets that changes a shape fails the tests.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

#: (module, class) of each detector used, with the name a finding shows.
DETECTORS: tuple[tuple[str, str, str], ...] = (
    ("detect_secrets.plugins.azure_storage_key", "AzureStorageKeyDetector", "Azure storage account key"),
    ("detect_secrets.plugins.discord", "DiscordBotTokenDetector", "Discord bot token"),
    ("detect_secrets.plugins.mailchimp", "MailchimpDetector", "Mailchimp API key"),
    ("detect_secrets.plugins.sendgrid", "SendGridDetector", "SendGrid API key"),
    ("detect_secrets.plugins.telegram_token", "TelegramBotTokenDetector", "Telegram bot token"),
    ("detect_secrets.plugins.twilio", "TwilioKeyDetector", "Twilio API key"),
)

# Every shape holds a run of at least 24 token characters, and more precisely, loosely (ASCII only:
# memgit looks for ASCII tokens): Azure's account key, Discord's three dotted parts, Mailchimp's
# data-centre suffix, SendGrid's prefix, Telegram's 35 characters after the bot id's colon, Twilio's
# AC/SK ids. A long URL or path (once the whole gate) no longer imports the library.
_LONG_RUN = re.compile(r"[A-Za-z0-9+/=_-]{24,}")
_SHAPES = re.compile(
    r"AccountKey=|[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{6}\.|[0-9a-z]{32}-us|SG\.|:[A-Za-z0-9_-]{35}|(?:AC|SK)[a-z0-9]{32}"
)


def is_candidate(line: str) -> bool:
    """Whether any detector could match `line` (the gate before detect-secrets is imported)."""
    return _LONG_RUN.search(line) is not None and _SHAPES.search(line) is not None


@cache
def _detectors() -> tuple[tuple[str, Any], ...]:
    import importlib

    loaded = []
    for module, name, label in DETECTORS:
        try:
            loaded.append((label, getattr(importlib.import_module(module), name)()))
        except (ImportError, AttributeError):  # an older or newer detect-secrets: use what exists
            continue
    return tuple(loaded)


def library_findings(line: str) -> list[tuple[str, str]]:
    """(label, matched value) for each detector that matches `line`; [] without a candidate token."""
    if not is_candidate(line):
        return []
    found = []
    for label, detector in _detectors():
        for value in detector.analyze_string(line):
            found.append((label, str(value)))
            break
    return found
