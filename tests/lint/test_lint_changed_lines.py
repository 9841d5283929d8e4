"""The pre-commit lint judges the lines a commit adds or changes; documentation look-alikes are not
secrets; `--all` still judges every line.

The cases are a manual's pages in several languages, written for these tests: credentials shown
as placeholders (which must pass), beside credentials that are shaped like real ones (which must
block when a commit adds them, and only then).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memgit.lint.files import changed_lines
from memgit.lint.placeholders import is_placeholder
from memgit.lint.rules import scan_secrets
from tests.githooks.test_precommit_framework import local_config
from tests.helpers import commit_all, git, memgit, write

GITHUB_TOKEN = "ghp_" + "Zq8w3Rt6Yp1Ls4Kd7Fg0" * 2

LOOK_ALIKES = [
    "Verbinden: `mysql -h db.local -u benutzer -p passwort123 shop`",
    "connect with `psql postgres://admin:yourpassword@host:5432/app`",
    "Beispiel: `curl -u nutzer:passwort https://intern.example.org/api`",
    "export API_TOKEN=<token>",
    "set `SERVICE_SECRET={secret}` in the unit file",
    "dotnet publish -p:PublishSingleFile=true -p:SelfContained=false",
    "mot de passe : `--password MotDePasse`",
    "la contraseña es contraseña_de_ejemplo",
    "пароль: `--password=мойпароль`",
    "DB_PASSWORD=changeme-in-production",
    "redis://:my_secret_password@cache:6379/0",
    "token: YOUR_ACCESS_TOKEN_HERE",
]
REAL = [
    f"- the deploy bot uses {GITHUB_TOKEN}",
    "- db: postgres://billing:Xk29!vQp7mZ@10.1.4.7/ledger",
    "- wifi password is Tr0ub4dor&3x",
    "- AWS_SECRET_ACCESS_KEY=9fK2mQ7vR4tW8yZ1bN5cX3dL6hJ0pS2g",
]


@pytest.mark.parametrize("line", LOOK_ALIKES)
def test_documentation_placeholders_are_not_secrets(line: str) -> None:
    assert scan_secrets(line) == []


@pytest.mark.parametrize("line", REAL)
def test_real_credentials_still_are(line: str) -> None:
    assert [code for code, _ in scan_secrets(line)][:1] and scan_secrets(line)[0][0].startswith("S1")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("passwort", True),
        ("<api-key>", True),
        ("$DB_PASS", True),
        ("hunter2", True),
        ("MySecretToken", True),
        ("xxxxxxxx", True),
        ("Xk29!vQp7mZ", False),
        ("correct-horse-battery", False),
        ("s3cr3tP4ss", False),
        ("password98765", False),  # digits beyond a placeholder's few
    ],
)
def test_placeholder_predicate(value: str, expected: bool) -> None:
    assert is_placeholder(value) is expected


def test_changed_lines_of_an_append_an_edit_and_a_new_file() -> None:
    old = b"# Title\n\nfirst\nsecond\n"
    assert changed_lines(old, old + b"third\n") == {5}
    assert changed_lines(old, b"# Title\n\nFIRST\nsecond\n") == {3}
    assert changed_lines(old, b"# Title\nnew\n\nfirst\nsecond\n") == {2}
    assert changed_lines(None, old) is None
    assert changed_lines(old, old) == frozenset()


@given(
    st.lists(st.sampled_from(["a", "b", "c", ""]), max_size=12),
    st.lists(st.sampled_from(["a", "b", "x", "y", ""]), max_size=12),
    st.integers(0, 12),
    st.integers(0, 3),
)
def test_a_line_the_old_version_never_had_is_always_judged(old: list[str], added: list[str], at: int, cut: int) -> None:
    """The property that keeps a new secret from slipping through: lines are inserted (and a few
    removed) anywhere; every line whose text the old version did not hold is judged, and no line
    number is out of range."""
    at = min(at, len(old))
    new = old[:at] + added + old[at + cut :]
    before, after = "\n".join(old).encode(), "\n".join(new).encode()
    lines = changed_lines(before, after)
    assert lines is not None
    old_lines = before.split(b"\n")
    new_lines = after.split(b"\n")
    assert {i + 1 for i, line in enumerate(new_lines) if line not in old_lines} <= lines
    assert all(1 <= n <= len(new_lines) for n in lines)


# -- through git: plain hooks and the pre-commit framework ----------------------------------------
PAGE = "# Datenbank\n\n" + "\n".join(LOOK_ALIKES) + "\n\n" + REAL[0] + "\n"


@pytest.fixture
def manual(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace indexing a manual's pages, one of which was committed (before memgit's lint
    ran there) with look-alikes and one real token on untouched lines."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.setenv("MEMGIT_NO_PROGRESS", "1")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    write(workspace / "memgit.toml", '[memory]\nextra_paths = ["pages/**/*.md"]\n')
    write(workspace / "pages" / "de" / "mysql.md", PAGE)
    commit_all(workspace, "manual pages")
    return workspace


def _commit(repo: Path, message: str) -> subprocess.CompletedProcess[str]:
    git(repo, "add", "-A")
    return subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo, capture_output=True, text=True)


def _append_then_add_secret(repo: Path) -> None:
    page = repo / "pages" / "de" / "mysql.md"
    page.write_text(PAGE + "- Tabellen mit `SHOW TABLES;` auflisten.\n", encoding="utf-8")
    appended = _commit(repo, "append to a page with untouched look-alikes")
    assert appended.returncode == 0, appended.stdout + appended.stderr
    assert git(repo, "log", "-1", "--format=%s").strip() == "append to a page with untouched look-alikes"

    before = git(repo, "rev-parse", "HEAD")
    added_line = "- Zugang für den Export: AKIA" + "Q7RT2MZP4LXW9KDF"
    page.write_text(page.read_text(encoding="utf-8") + added_line + "\n", encoding="utf-8")
    blocked = _commit(repo, "a real key")
    output = blocked.stdout + blocked.stderr
    assert blocked.returncode == 1, output
    number = page.read_text(encoding="utf-8").splitlines().index(added_line) + 1
    assert f"pages/de/mysql.md:{number}: S102 AWS access key id" in output
    assert f":{PAGE.splitlines().index(REAL[0]) + 1}: S102" not in output  # the untouched token is not this commit's
    assert git(repo, "rev-parse", "HEAD") == before


def test_plain_hook_judges_only_what_the_commit_changes(manual: Path) -> None:
    assert memgit(manual, "hooks", "install").returncode == 0
    _append_then_add_secret(manual)

    staged = json.loads(memgit(manual, "lint", "--staged", "--json").stdout)
    every = json.loads(memgit(manual, "lint", "--staged", "--all", "--json").stdout)
    assert [f["line"] for f in staged["findings"]] == [len(PAGE.splitlines()) + 2]
    assert sorted(f["line"] for f in every["findings"]) == [
        PAGE.splitlines().index(REAL[0]) + 1,
        staged["findings"][0]["line"],
    ]
    assert memgit(manual, "lint", "--all").returncode == 1  # the work tree, every line


def test_pre_commit_framework_judges_only_what_the_commit_changes(manual: Path) -> None:
    write(manual / ".pre-commit-config.yaml", json.dumps(local_config(), indent=2) + "\n")
    commit_all(manual, "pre-commit config")
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=manual, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _append_then_add_secret(manual)
