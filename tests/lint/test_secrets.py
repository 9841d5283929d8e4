"""Secrets in memory (issue #11, point 6): the lint's rules plus detect-secrets' detectors.

The corpus is `bench/secrets_corpus.py` (generated values, never real ones); the side-by-side
figures are `bench/secrets_compare.py`'s. Here: the shipped lint finds every secret of the corpus
and flags none of its look-alikes, detect-secrets is used without the network and only for lines
that could hold a token, and the refusals reach the user through the CLI and the git hook.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from bench.secrets_corpus import LOOK_ALIKES, SECRETS, corpus
from memgit.githooks import install as hook_install
from memgit.lint.rules import LintInput, LintSettings, lint_file, scan_secrets
from memgit.workspace import Workspace
from tests.githooks.test_hooks import commit
from tests.helpers import TODAY as SESSION_TODAY
from tests.helpers import assert_clean_error, git, memgit, write

TODAY = date(2026, 1, 5)


def secret_codes(text: str) -> set[str]:
    item = LintInput("memory/2026-01-05.md", text.encode() + b"\n", None, True)
    return {f.code for f in lint_file(item, LintSettings(), TODAY) if f.code.startswith("S")}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_corpus_secret_is_found(seed: int) -> None:
    missed = [(s.kind, s.text) for s in corpus(seed) if s.secret and not secret_codes(s.text)]
    assert missed == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_corpus_look_alike_is_flagged(seed: int) -> None:
    alarms = [(s.kind, s.text, secret_codes(s.text)) for s in corpus(seed) if not s.secret and secret_codes(s.text)]
    assert alarms == []


def test_corpus_covers_the_kinds_the_issue_names() -> None:
    kinds = " ".join(SECRETS).lower()
    for needed in ("aws", "github", "private key", "json web token", "postgres url", "password in prose"):
        assert needed in kinds
    assert len(LOOK_ALIKES) >= 15


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("- Mail relay key SG." + "a1B2c3D4e5F6g7H8i9J0kL" + "." + "Z" * 22 + "9y8x7w6v5u4t3s2r1q0pO", "S105"),
        ("- Twilio API key SK" + "0123456789abcdef" * 2 + " for the pager.", "S105"),
        ("- The wifi password at the office is Maple!2231falcon", "S104"),
        ("- mysql -u root -p'Quokka#77orbit' inventory", "S104"),
        ("- Cache at redis://:Zq81LmXp0Rt5Wv2Ky7Nc@cache:6379/0", "S102"),
        ("- ~/.aws/credentials: aws_secret_access_key = AK4lXOELxyxeH8ilqtekYJEB1J5/TkPo+QyFc", "S103"),
    ],
)
def test_new_rules(line: str, code: str) -> None:
    assert [c for c, _m in scan_secrets(line)] == [code]


@pytest.mark.parametrize(
    "line",
    [
        "- pwd: /home/ana/src",
        "- password: ${DB_PASSWORD}",
        "- The password is stored in Vault.",
        "- mkdir -p build/output2 && ssh -p 2222 host",
        '- password = os.environ["DB_PASSWORD"]',
        "- Rotate the database password tomorrow.",
    ],
)
def test_password_rule_leaves_references_and_prose_alone(line: str) -> None:
    assert scan_secrets(line) == []


def test_secret_messages_never_echo_the_secret() -> None:
    value = "Maple!2231falcon"
    for _code, message in scan_secrets(f"- the vpn password is {value}"):
        assert value not in message and value[4:] not in message


def test_detect_secrets_never_reaches_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the detectors' regular expressions run: no verification request, even for live-able keys."""

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the lint tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    line = "- Telegram bot token 123456789:AA" + "b" * 33 + "; mailchimp " + "0f" * 16 + "-us6"
    assert [c for c, _m in scan_secrets(line)] == ["S105"]


def test_plain_notes_never_import_detect_secrets() -> None:
    code = (
        "import sys\n"
        "from memgit.lint.rules import scan_secrets\n"
        "for line in ['- Met Ana about the Q3 roadmap.', '- https://grafana.kestrel.dev/d/abc/latency', "
        "'- Fixed the flaky test in commit 3f6c1b9']:\n"
        "    assert scan_secrets(line) == []\n"
        "print('detect_secrets' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"


def test_cli_and_hook_refuse_the_new_kinds(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    log = workspace / "memory" / f"{SESSION_TODAY.isoformat()}.md"
    assert_clean_error(memgit(workspace, "remember", "- Twilio key SK" + "0123456789abcdef" * 2), "S105")
    assert_clean_error(memgit(workspace, "log", "- the vpn password is Harbor!4821copper"), "S104")
    assert not log.exists()

    hook_install.install_hooks(Workspace.discover(workspace), ["pre-commit"])
    write(workspace / "MEMORY.md", "# Long-term Memory\n\n- SendGrid: SG." + "k" * 22 + "." + "Q1w2E3r4" * 5 + "abc\n")
    git(workspace, "add", "-A")
    proc = commit(workspace, "-m", "key")
    assert proc.returncode == 1 and "MEMORY.md:3: S105 SendGrid API key" in proc.stderr, proc.stderr
