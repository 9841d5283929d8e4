"""A table's secret column whatever wrote the table (Markdown pipes, HTML rows, delimited lines), a
generated recovery code after its label, a password that ends the sentence of its label, and a
code after the words saying what it is for: one
secret and its look-alikes each, through the rules every output redacts by (`find_secrets`), then
through `memgit lint` on a real repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgit.lint.secrets import find_secrets
from tests.helpers import commit_all, memgit, write


def values(text: str) -> list[str]:
    return [hit.value or "" for hit in find_secrets(text.split("\n"))]


CSV = """```csv
city;network;password;notes
Praha;LUCERNA-BACK;Vltava-1907x;backstage only
Milano;Studio_Nav;mixa-bene-77;Giulia's room
```"""

HTML = """<table>
<tr><th>Service</th><th>Login</th><th>Passwort</th></tr>
<tr><td>Label portal</td><td>kim.w</td><td>Hangang#Night22</td></tr>
</table>"""

TABS = "Konto\tBenutzer\tKennwort\nBank\tlena.k\tSpree-Ufer_1983\n"


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        (CSV, ["Vltava-1907x", "mixa-bene-77"]),
        (HTML, ["Hangang#Night22"]),
        (TABS, ["Spree-Ufer_1983"]),
        # A quoted field holds the delimiter; the secret is still in its column.
        ('site,login,password\n"Lyon, FR",marta,"Tulpe-88x;ok"\n', ["Tulpe-88x;ok"]),
        # A password manager's recovery code: letters and digits mixed, past a short code's shape.
        ("- keep her recovery code: zml7ixsztivlisp9xvh50vrzuz8gi4ey", ["zml7ixsztivlisp9xvh50vrzuz8gi4ey"]),
        ("- код відновлення zml7ixsztivlisp9xvh50vrzuz8gi4ey", ["zml7ixsztivlisp9xvh50vrzuz8gi4ey"]),
        # The sentence of the label ends on the password.
        ("- رانيا كتبت: كلمة المرور لمجلد Dropbox المشترك Jumeirah_Vox_2026", ["Jumeirah_Vox_2026"]),
        # Names of identifiers and places in more languages.
        ("- Arjun — PAN नंबर (भुगतान के लिए ज़रूरी): BQKPM4821L", ["BQKPM4821L"]),
        ("- honorář Jakubovi na účet `2716493858/0800`", ["2716493858/0800"]),
        ("- Zoom, मीटिंग पासकोड: 551903", ["551903"]),
        ("- brama nie chciała puścić, wpisałem 5831 trzy razy", ["5831"]),
        # The words between a label and its value say what it is for; the value ends its clause.
        ("- pincode werktelefoon 846120, privé iPhone gaat met face-id", ["846120"]),
        ("- digicode portail 4B7219, puis porte d'entrée clé normale", ["4B7219"]),
        ("- رمز الإنذار (alarm) 7734 — Rami changes it every Ramadan", ["7734"]),
    ],
)
def test_each_is_found(text: str, secrets: list[str]) -> None:
    found = values(text)
    assert all(any(secret in value for value in found) for secret in secrets), found


@pytest.mark.parametrize(
    "text",
    [
        # Delimited and HTML tables with nothing secret under their headers.
        "```csv\ncity;venue;capacity;notes\nPraha;Lucerna;2500;backstage only\nMilano;Alcatraz;3000;load-in 14:00\n```",
        "<table>\n<tr><th>Package</th><th>Version</th><th>Licence</th></tr>\n"
        "<tr><td>click</td><td>8.1.7</td><td>BSD-3-Clause</td></tr>\n</table>",
        "name,password,notes\nalice,<password>,set on first login\nbob,changeme,placeholder in the template\n",
        # A commit hash or a slug after "code".
        "- code: 3f2a9c0d1e4b5a6c7d8e9f00a1b2c3d4 (the fix for the import)",
        "- the source code lives in ubuntu2204jammyjellyfish now",
        # A password's label and a file name ending the line.
        "- the password policy is in docs/security_policy_2026.md",
        "- PAN card copy is in the blue folder",
        # A bare "code" opens nothing; a year or a round number is no code.
        "- code review on friday 2026, then the release",
        "- see the code sample 4021.",
        # A thing a code opens is a label only before ":" or "is" (Italian "porta", a port).
        "- Avvia un web server di sviluppo (porta predefinita 8765):",
        "- Soporta tanto cadenas de duración ISO 8601 (por ejemplo, `PT6702S`) como segundos simples.",
        "- the code page 1252 is used by the old exports",
        "- password policy v2 2023",
        # "Pass" is a verb too; a name from code is no password (PowerShell's docs).
        "### Example 7: Pass multiple items through `Out-GridView`",
    ],
)
def test_look_alikes_are_not(text: str) -> None:
    assert values(text) == []


def test_lint_and_context_name_and_hide_them_in_a_committed_note(workspace: Path) -> None:
    log = "memory/2026-04-06.md"
    after = [
        "- keep her recovery code: zml7ixsztivlisp9xvh50vrzuz8gi4ey",
        "- pincode werktelefoon 846120, privé iPhone gaat met face-id",
        "- رانيا كتبت: كلمة المرور لمجلد Dropbox المشترك Jumeirah_Vox_2026",
        "- code review on friday 2026, then the release",
        "",
        "## Safe in the office",
        "",
        "Turn left first, three full turns.",
        "",
        "22-07-61",
    ]
    write(workspace / log, "# 2026-04-06\n\n- Wi-Fi of the venues:\n\n" + CSV + "\n\n" + "\n".join(after) + "\n")
    commit_all(workspace, "a log committed without hooks")
    proc = memgit(workspace, "lint", "--json", log, env={"MEMGIT_EMBEDDING": "none"})
    assert proc.returncode == 1, proc.stderr
    assert sorted(f["line"] for f in json.loads(proc.stdout)["findings"]) == [7, 8, 11, 12, 13, 20]
    secrets = ("mixa-bene-77", "Vltava-1907x", "zml7ixszt", "846120", "Jumeirah_Vox_2026", "22-07-61")
    assert not any(secret in proc.stdout for secret in secrets)
    context = memgit(workspace, "context", "--date", "2026-04-06", env={"MEMGIT_EMBEDDING": "none"})
    assert context.returncode == 0, context.stderr
    assert not any(secret in context.stdout for secret in secrets)
    assert "code review on friday 2026" in context.stdout and "Turn left first" in context.stdout
