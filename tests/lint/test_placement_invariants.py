"""Issue 45, twelfth round: where a secret stands says what it is, whatever the words.

Each case is a placement, not a wording: a turn that is one value after turns that named a secret;
a private key's block reported as the lines it covers; a code list that goes on past a struck-off
code; a login and password in an address with no scheme (a commit's e-mail); a document's name
and its number in a file's name, typed with or without accents; a flag between a document's name
and its number; every other personal number on a line where one was found, and a second value
grouped as the first. Each has a line that only looks like it. The values are made up here.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from memgit.lint.code_lists import code_list_lines
from memgit.lint.redact import redact_text
from memgit.lint.secrets import find_secrets, name_secret
from tests.helpers import commit_all, git, memgit, write
from tests.site.helpers import BM25


def turns(*pairs: tuple[str, str]) -> list[str]:
    return [json.dumps({"role": role, "content": content}, ensure_ascii=False) for role, content in pairs]


def values(lines: list[str]) -> set[tuple[int, str | None]]:
    return {(hit.index, hit.value) for hit in find_secrets(lines)}


@pytest.mark.parametrize(
    ("before", "answer"),
    [
        ("Das Router-Passwort steht nicht in deinen Notizen; es klebt meist unten am Gerät.", "tulpe4471"),
        ("Tôi không thấy mã mở khoá điện thoại của mẹ trong ghi chú.", "730512"),
        ('Auf Deutsch: "Die Nummer des Personalausweises wird noch benötigt."', "T22000129"),
    ],
)
def test_a_turn_that_is_one_value_after_turns_naming_a_secret(before: str, answer: str) -> None:
    """No question mark is needed: the conversation named the thing, and the next turn is only a
    word with digits."""
    lines = turns(("user", "kannst du kurz schauen?"), ("assistant", before), ("user", answer))
    assert (2, answer) in values(lines)


@pytest.mark.parametrize(
    ("before", "answer"),
    [
        ("How many chairs do we need for Friday?", "2026"),  # a year, and nothing secret was named
        ("Which room is the meeting in?", "B-204"),
        ("The router password is on the sticker, as always.", "ok danke"),  # no value in the turn
        ("Note the tracking number when it comes.", "1Z999AA1012"),  # a parcel's, named as such
    ],
)
def test_a_bare_turn_after_anything_else_is_no_secret(before: str, answer: str) -> None:
    lines = turns(("assistant", before), ("user", answer))
    assert all(index != 1 for index, _ in values(lines))


def test_a_private_keys_finding_covers_its_block(workspace: Path) -> None:
    body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "QyNTUxOQAAACBXq2Lm9PkR"]
    write(
        workspace / "memory/notes/deploy.md",
        "# Deploy key (cut short)\n\n```\n-----BEGIN OPENSSH PRIVATE KEY-----\n"
        + "\n".join(body)
        + "\n[... cut ...]\n```\n",
    )
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "--no-verify", "-m", "deploy key")
    done = memgit(workspace, "lint", "--json", env=BM25)
    assert done.returncode == 1, done.stderr
    [finding] = [f for f in json.loads(done.stdout)["findings"] if f["code"] == "S101"]
    assert (finding["line"], finding["end_line"]) == (4, 6)  # BEGIN and both body lines, not the "cut" line
    text = memgit(workspace, "lint", env=BM25).stdout
    assert "deploy.md:4: S101 openssh private key block to line 6;" in text
    # a BEGIN line alone, at the end of a file, covers no line after it
    write(workspace / "memory/notes/deploy.md", "# Deploy key\n\n-----BEGIN OPENSSH PRIVATE KEY-----\n")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "--no-verify", "-m", "deploy key cut")
    [alone] = [
        f for f in json.loads(memgit(workspace, "lint", "--json", env=BM25).stdout)["findings"] if f["code"] == "S101"
    ]
    assert (alone["line"], "end_line" in alone) == (3, False)
    # a key on one line has no block to cover
    assert "end_line" not in json.dumps(
        [
            f
            for f in json.loads(memgit(workspace, "lint", "--json", "--all", env=BM25).stdout)["findings"]
            if f["code"] != "S101"
        ]
    )


def test_a_code_list_goes_on_past_a_struck_off_code() -> None:
    lines = [
        "backup codes from the safe, these are still valid:",
        "",
        "1. ~~first~~ (used)",
        "2. 2636 4841",
        "3. 5618 7078",
    ]
    assert code_list_lines(lines) == [3, 4]
    # a struck-through line under no such heading is a to-do list
    assert code_list_lines(["Shopping:", "1. ~~milk~~", "2. 2636 4841"]) == []


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("jens:Lok-Leipzig1899@example-bakery.de", "Lok-Leipzig1899"),
        ("scp it as backup:Nas2024pass@nas.home.arpa", "Nas2024pass"),
    ],
)
def test_a_login_and_password_in_an_address_without_a_scheme(line: str, value: str) -> None:
    assert value in {hit.value for hit in find_secrets([line])}


@pytest.mark.parametrize(
    "line",
    [
        "git@github.com:acme/tools2.git",  # ssh's user@host:path
        "postgres:postgres@localhost",  # no host name with a dot
        "see user:password@example.com in the docs",  # a documented placeholder
        "time 10:30@home.office",  # no word of letters and digits before "@"
    ],
)
def test_what_only_looks_like_a_login_in_an_address(line: str) -> None:
    assert find_secrets([line]) == []


def test_lint_history_names_a_password_in_a_commits_email(workspace: Path) -> None:
    write(workspace / "memory/notes/shop.md", "# Shop\n\n- Opening hours moved to 9.\n")
    git(workspace, "add", "-A")
    env = {**os.environ, "GIT_AUTHOR_NAME": "Jens", "GIT_AUTHOR_EMAIL": "jens:Lok-Leipzig1899@example-bakery.de"}
    subprocess.run(["git", "commit", "-q", "--no-verify", "-m", "hours"], cwd=workspace, env=env, check=True)
    done = memgit(workspace, "lint", "--history", "--json", env=BM25)
    assert done.returncode == 1, done.stderr
    rows = [(f["where"], f["code"]) for f in json.loads(done.stdout)["findings"] if f.get("commit")]
    assert ("author-email", "S102") in rows and "Lok-Leipzig1899" not in done.stdout


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("zettel/ho-chieu-bo_C5903318.md", "C5903318"),  # Vietnamese "hộ chiếu" typed without accents
        ("scans/hộ chiếu mẹ B7204416.md", "B7204416"),
    ],
)
def test_a_documents_name_and_number_in_a_file_name(path: str, value: str) -> None:
    hit = name_secret(path)
    assert hit is not None and hit.value == value


def test_lint_names_a_documents_number_in_a_committed_file_name(workspace: Path) -> None:
    write(workspace / "memory/notes/ho-chieu-bo_C5903318.md", "# Bố\n\n- gia hạn tháng 3\n")
    write(workspace / "memory/notes/routing-table-AB1234567.md", "# Routes\n\n- default via the VPN\n")
    commit_all(workspace, "notes")
    done = memgit(workspace, "lint", "--all", "--json", env=BM25)
    assert done.returncode == 1, done.stderr
    rows = {(f["path"], f["line"], f["code"]) for f in json.loads(done.stdout)["findings"]}
    assert ("memory/notes/ho-chieu-bo_C5903318.md", 0, "S116") in rows
    assert not any("routing-table" in path for path, _, _ in rows) and "C5903318" not in done.stdout.replace(
        "ho-chieu-bo_C5903318", ""
    )


@pytest.mark.parametrize(
    "path",
    [
        "notes/passport-renewal-2026-03-01.md",
        "ho-chieu/checklist.md",
        "projects/passport-photo-specs.md",
        "ops/account-setup-INC1234567.md",  # an account and a ticket: a system's, as often as a person's
        "net/routing-table-AB1234567.md",
    ],
)
def test_a_documents_name_without_its_number_in_a_file_name_is_no_secret(path: str) -> None:
    assert name_secret(path) is None


def test_a_flag_between_a_documents_name_and_its_number() -> None:
    line = "- 여권 🇰🇷 M417K2983 (만료 2033.02) — 두 개 다 들고 다님"
    assert redact_text(line)[0] == "- 여권 🇰🇷 [redacted: S116] (만료 2033.02) — 두 개 다 들고 다님"


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        (
            "- Wanjiru — ID 27839104, KRA PIN A009384712K (payroll only)",
            "- Wanjiru — ID [redacted: S116], KRA PIN [redacted: S108] (payroll only)",
        ),
        (
            "> A számlához: adóazonosító jelem 8441375135, TAJ szám 037815460",
            "> A számlához: adóazonosító jelem [redacted: S116], TAJ szám [redacted: S116]",
        ),
        (
            "- mã dự phòng Google của mẹ (còn 2 cái): 3079 3196 và 6421 3670",
            "- mã dự phòng Google của mẹ (còn 2 cái): [redacted: S117] và [redacted: S117]",
        ),
    ],
)
def test_every_personal_number_of_a_line_where_one_was_found(line: str, shown: str) -> None:
    assert redact_text(line)[0] == shown


def test_a_run_of_codes_longer_than_a_rule_reads_is_hidden_whole() -> None:
    """The access-code rule takes six groups at most; a printed list of eight was hidden up to the
    sixth (found by the reader-view property test on a corpus line)."""
    line = "- Printed the 2FA scratch codes (1177 8281 2568 2180 8316 5858 9864 3912) and put them away"
    assert redact_text(line)[0] == "- Printed the 2FA scratch codes ([redacted: S108]) and put them away"


def test_numbers_beside_no_personal_number_are_left_alone() -> None:
    line = "- order 48213377, invoice 20260412, delivered 12 bags"
    assert redact_text(line)[0] == line
    # beside an identifier, a date written as digits stays a date
    line = "- TAJ szám 037815460, kiállítva 20260412"
    assert redact_text(line)[0] == "- TAJ szám [redacted: S116], kiállítva 20260412"


def test_a_bare_value_in_a_captured_session_is_hidden_in_the_commit(workspace: Path) -> None:
    """Through the CLI: a session whose last turn is only the value, as a capture stores it."""
    session = "\n".join(
        turns(
            ("user", "was war das passwort vom router?"),
            ("assistant", "Das Router-Passwort steht nicht in deinen Notizen."),
            ("user", "tulpe4471"),
        )
    )
    write(workspace / "sessions/2026-04-08-router.jsonl", session + "\n")
    commit_all(workspace, "session")
    done = memgit(workspace, "lint", "--json", "--all", env=BM25)
    assert done.returncode == 1, done.stderr
    rows = [(f["path"], f["line"]) for f in json.loads(done.stdout)["findings"]]
    assert ("sessions/2026-04-08-router.jsonl", 3) in rows and "tulpe4471" not in done.stdout


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("> Телефон доставки лежит в ящике, код от него 5517, зарядка сломана.", "5517"),
        ('> "пароль від кухонного планшета тепер 140322, бо Емре знову грав"', "140322"),
        ("- the code for the shed 4471.", "4471"),
    ],
)
def test_a_code_word_and_what_it_is_for_then_the_code(line: str, value: str) -> None:
    """A code *for* a thing opens it, in any language's preposition; "code" alone opens nothing."""
    assert value in {hit.value for hit in find_secrets([line])}


@pytest.mark.parametrize(
    "line",
    [
        "- code review on friday 2026",
        "- код ошибки от сервера 5031, повторить позже",  # an error code for a server
        "- kod pocztowy do magazynu 04109, Lipsk",  # a postcode for a warehouse
    ],
)
def test_a_code_word_without_what_it_opens_takes_no_number(line: str) -> None:
    assert find_secrets([line]) == []


def test_a_row_named_as_an_account_and_a_banks_number_column() -> None:
    rows = ["| what | number | note |", "|---|---|---|", "| Barclays account | 43871265 | close by summer |"]
    assert (2, "43871265") in values(rows)
    banks = [
        "| bank | what for | number |",
        "|---|---|---|",
        "| KB국민은행 | 관리비 | 482301-04-193857 |",
        "| Itaú | hotline | +55 11 3062-4418 |",
    ]
    found = values(banks)
    assert (2, "482301-04-193857") in found and all(index != 3 for index, _ in found)  # a phone is no account
    # a number column in a table that names no bank nor an account is a list of numbers
    orders = ["| shop | what | number |", "|---|---|---|", "| Zalando | shoes | 48213377 |"]
    assert values(orders) == set()


def test_hostile_runs_between_a_name_or_a_list_word_and_a_number_are_read_in_linear_time() -> None:
    """Untrusted notes, found on a public document (a block's hash between two BIP-39 words) and
    by fuzzing the rules with long runs: the patterns tried every way to split a run of digits into
    numbered items (exponential: 66 digits never ended) or of spaces between a document's name and
    a number (cubic: 3,000 spaces took minutes). Each run is now read once (a hang guard in CPU
    seconds, not a speed measure)."""
    import time

    for line in (
        "* Pubkey: <code>" + "0" * 2000 + "</code> abandon ability",
        "abandon " + "0" * 5000 + "</code> zoo",
        "passport" + " " * 50_000 + "1234",
        "passport no." + " \t" * 20_000 + ":" + " " * 20_000 + "P-12",
    ):
        started = time.process_time()
        redact_text(line + "\n")
        assert time.process_time() - started < 30


def test_a_label_written_with_sharp_s_matches_as_written() -> None:
    """Labels match case-blind, and case-folding turns "ß" into "ss": "Schließfach-Code" as
    written matched only its "Code" (a bare code word, which takes no value after a space)."""
    assert [hit.value for hit in find_secrets(["Berlin: Schließfach-Code 0336 nachgetragen"])] == ["0336"]
    assert [hit.value for hit in find_secrets(["Berlin: Schliessfach-Code 0336 nachgetragen"])] == ["0336"]


def test_mysqls_password_glued_to_its_option() -> None:
    line = '$ mysql -h 10.44.2.10 -u root -pWisla_root_2019 -e "SELECT 1"'
    assert [hit.value for hit in find_secrets([line])] == ["Wisla_root_2019"]
    # -p glued elsewhere is a port or a parent folder's flag
    assert find_secrets(["ssh -p2222 host -v", "docker run -p8080:80 nginx -d", "mysql -u root -p mydb -e x"]) == []


def test_a_value_found_once_is_hidden_glued_to_an_option_or_a_suffix() -> None:
    known = {"1357": "S117", "Wisla_root_2019": "S104"}
    assert (
        redact_text("kode alarmam 1357-e, mesle ghabl", known=known)[0]
        == "kode alarmam [redacted: S117]-e, mesle ghabl"
    )
    assert "Wisla_root_2019" not in redact_text("pg_dump -pWisla_root_2019 db", known=known)[0]
    # inside a longer number, or a range, it is another number
    for text in ("room 1357-1359", "call 21357", "ext. 13570"):
        assert redact_text(text, known=known)[0] == text


def test_a_wifi_key_joined_to_its_networks_word_in_a_file_name() -> None:
    hit = name_secret("projects/router-thuis_wpa-KopiTubruk2019.md")
    assert hit is not None and hit.value == "KopiTubruk2019"
    assert name_secret("docs/wpa-supplicant-config.md") is None
