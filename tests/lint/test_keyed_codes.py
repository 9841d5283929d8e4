"""Issue 45, seventh round: codes told by the act of keying them in, the second value of a line,
and numbers named in more ways (a security code alone, a bank account under its name in more
languages, an IBAN after its name whose check digits are wrong, a short setup key after its name,
a backup code in a key's name, passports in the plural). Each rule beside a line it must leave
alone; one test through the CLI. Values are made up here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgit.lint.keyed_codes import keyed_code
from memgit.lint.redact import redact_text
from memgit.lint.secrets import find_secrets
from tests.helpers import TODAY, commit_all, memgit, write

BM25 = {"MEMGIT_EMBEDDING": "none"}


def values(text: str) -> set[str]:
    return {hit.value for hit in find_secrets(text.split("\n")) if hit.value}


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("- Loft alarm: disarm 6093 within thirty seconds", "6093"),
        ("the work phone – unlock is 730516, don't share", "730516"),
        ("Back gate intercom, press 1 then 4862 and wait for the buzz", "4862"),
        ("Came in early, punched 5307 at the panel and the beeping stopped.", "5307"),
        ("- Pool locker, 4-digit you choose yourself: I used 8416.", "8416"),
        ("Am Tor 5839 eingeben, dann die Raute drücken", "5839"),
    ],
)
def test_a_code_keyed_in_at_a_door_lock_or_alarm_is_found(line: str, code: str) -> None:
    assert keyed_code(line) == code
    assert code not in redact_text(line)[0]


@pytest.mark.parametrize(
    "line",
    [
        "press 2048 to continue",  # no thing a code opens
        "Set the lock timeout to 3000 ms",  # a unit after the number
        "use 4096-bit keys; lock the file first",
        "Enter 2026 in the year field",
        "unlock the door and type 1234",  # the manual's placeholder
        "the lock was set in 2019",
        "Press Ctrl+C at the panel, then enter 10.5 as the width",
    ],
)
def test_a_number_beside_such_words_that_is_no_code_is_left_alone(line: str) -> None:
    assert keyed_code(line) is None
    assert values(line) == set()


def test_a_door_word_and_a_bare_number_are_a_code_but_not_a_year_a_time_or_a_port() -> None:
    assert values("- biosecurity room door 7351. Boots on.") == {"7351"}
    assert values("the gate 2019 model, painted green") == set()
    assert values("set the alarm 0630 tomorrow") == set()
    assert values("não expor a porta 6379 na rede") == set()  # Portuguese "porta": a door and a port


def test_the_other_code_of_a_line_and_the_key_after_a_network_name_go_too() -> None:
    assert values("- Shop alarm 6281. Duress code (silent) is 6289, staff don't know it") == {"6281", "6289"}
    assert values("door code 5531, fitted in 2019") == {"5531"}  # a year beside it stays
    assert values('studio_wifi: "Lantern_5G / lantern-quay-3318"') >= {"lantern-quay-3318"}


def test_a_security_code_after_its_name_with_no_card_near() -> None:
    assert values("- valid until 09/28, CVC 417") == {"417"}
    assert values("Stripe's test card, any future date, any CVC") == set()
    assert values("CVV: 123") == set()  # the placeholder


def test_a_bank_account_under_its_name_in_more_languages() -> None:
    table = "\n".join(
        [
            "| 이름 | 은행 | 계좌번호 | 금액 |",
            "|---|---|---|---|",
            "| 김하나 | 신한 | 110-315-772904 | 1,200,000 |",
        ]
    )
    assert values(table) == {"110-315-772904"}
    assert values("- tilinumero 40095127741 (Aino)") == {"40095127741"}
    assert values("- hesap no: 6201 4477 3185") == {"6201 4477 3185"}


def test_a_short_setup_key_after_its_name_a_backup_code_key_and_plural_passports() -> None:
    assert values("the QR would not scan, so it showed the setup key MB4X 7QRZ K2PA W5TD") == {"MB4X 7QRZ K2PA W5TD"}
    assert values('admin_backup_code: "6104-8827-3950"   # one-time') == {"6104-8827-3950"}
    assert values('zip_code: "84721"') == set()
    assert values("- children's passports: Maeve PK3816042, Rory PK3816519, both exp 2029") == {
        "PK3816042",
        "PK3816519",
    }


def test_the_new_kinds_through_the_cli(workspace: Path) -> None:
    log = f"memory/{TODAY.isoformat()}.md"
    lines = [
        f"# {TODAY.isoformat()}",
        "",
        "- Warehouse alarm (Securitas): disarm 6093, the duress one is not written here",  # 3
        "- valid until 09/28, CVC 417",  # 4
        "- hesap no: 6201 4477 3185 (kira için)",  # 5
        "- Press 2048 to continue, the installer says",  # 6: no secret
    ]
    write(workspace / log, "\n".join(lines) + "\n")
    commit_all(workspace, "a log committed without hooks")
    proc = memgit(workspace, "lint", "--json", log, env=BM25)
    assert proc.returncode == 1, proc.stderr
    assert sorted({f["line"] for f in json.loads(proc.stdout)["findings"]}) == [3, 4, 5]
    context = memgit(workspace, "context", "--date", TODAY.isoformat(), env=BM25)
    assert context.returncode == 0, context.stderr
    assert not any(value in context.stdout for value in ("6093", "CVC 417", "4477 3185"))
    assert "Press 2048 to continue" in context.stdout


def test_long_runs_of_spaces_after_a_label_or_a_verb_are_read_in_linear_time(workspace: Path) -> None:
    """Untrusted notes: a line of thousands of spaces between a label or an entering verb and a
    number made the patterns try every way of splitting the spaces (~30 s for one such line, ~3 s
    after "password"). Runs of spaces are now taken once. Four such lines and one secret: the lint
    ends well inside the bound (a hang guard, not a speed measure) and names only the secret."""
    log = f"memory/{TODAY.isoformat()}.md"
    hostile = [
        "lock press" + (" " * 3000 + "1") * 6 + " x",
        "the password for" + " " * 20000 + "x1",
        "door code" + (" " * 2000 + "1") * 5 + ":",
        "Das Passwort ist" + " " * 20000 + "y",
    ]
    write(workspace / log, "\n".join([f"# {TODAY.isoformat()}", "", *hostile, "- Loft alarm: disarm 6093"]) + "\n")
    commit_all(workspace, "hostile spacing, committed without hooks")
    proc = memgit(workspace, "lint", "--json", log, env=BM25, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert [f["line"] for f in json.loads(proc.stdout)["findings"]] == [7]
