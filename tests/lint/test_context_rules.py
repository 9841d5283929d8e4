"""Issue 45, second round: what a secret's context says, beyond a label right before its value.

Each case is a mechanism, with a line that has it and a line that only looks like it: a code
written in spaced digits, words and a dash between a label and its value, a value in a script
other than Latin, a password in quotes or brackets near its label, a login beside its password, a
registry login's `-p`, a network word that needs a separator, a table that says what a cell is
by its country column, a label in its row or a login column, a value found once and repeated
further down, a code list whose items lack digits, a secret in a file name after its label, and
the URL shapes (a key as a URL's user, a hook's host, a Mapbox secret). The values are made up here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgit.lint.redact import redact_lines
from memgit.lint.secrets import find_secrets, name_secret
from tests.helpers import commit_all, memgit, write
from tests.site.helpers import BM25


def values(lines: list[str]) -> list[tuple[int, str | None]]:
    return [(hit.index, hit.value) for hit in find_secrets(lines)]


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("- Garage door keypad (the new one, 5 digits): 4 1 9 7 3", "4 1 9 7 3"),
        ("Der Code für den Briefkasten ist 7 3 0 2, sagt Frau Ilg.", "7 3 0 2"),
        ("- Passwort für Konto5 bei der Sparkasse: Lindenbaum!44", "Lindenbaum!44"),
        ("- пароль від роутера — Vyshnia_Sad_81", "Vyshnia_Sad_81"),
        ("  κωδικός: Θάλασσα_77x", "Θάλασσα_77x"),
        ("- TOTP secret for the build account: JBSWY3DPEHPK3PXPQ4ZA", "JBSWY3DPEHPK3PXPQ4ZA"),
        ("- Gäste-WLAN „Ahorn“: Herbst-Laub-2031", "Herbst-Laub-2031"),
        ("- Tom changed the NAS password, the old „Krokus2020“ is gone.", "Krokus2020"),
        ("共有プリンタのパスワード（Shiori_Print_77）を更新しました。", "Shiori_Print_77"),
        ("- Bahn login: mara.vogt@example.org / Zug!Fahrt2029", "Zug!Fahrt2029"),
        ("docker login ghcr.example.net -u ci -p Kiefer-Moos-6610", "Kiefer-Moos-6610"),
        ("psql --host db.internal --password RtqWmzXbLpKdNe", "RtqWmzXbLpKdNe"),
        ("- the cabinet padlock (cadeado) code is 3-8-1-7", "3-8-1-7"),
        ("- Kontonummer für Mieten: ES7921000813610123456789", "ES7921000813610123456789"),
        (
            "- DSN: https://9c1e0f4b7a2d4e8f9b3c5d7e1f2a4b6c@o4507.ingest.sentry.io/4507",
            "9c1e0f4b7a2d4e8f9b3c5d7e1f2a4b6c",
        ),
        (
            "- scenario hook https://hook.us1.make.com/q8w7e6r5t4y3u2i1o0p9a8s7d6f5g4h3",
            "q8w7e6r5t4y3u2i1o0p9a8s7d6f5g4h3",
        ),
        (
            "- geocoder: sk.eyJ1IjoiYWJjZGVmZ2hpamtsbW5vcCJ9.QwErTyUiOpAsDfGhJkL",
            "sk.eyJ1IjoiYWJjZGVmZ2hpamtsbW5vcCJ9.QwErTyUiOpAsDfGhJkL",
        ),
        ("- Carta de condução: L-5512309 4", "L-5512309 4"),
    ],
)
def test_a_value_its_context_names_is_found_and_hidden(line: str, value: str) -> None:
    found = values([line])
    assert [v for _, v in found if v and value.startswith(v.rstrip("!"))], found
    assert value.rstrip("!") not in redact_lines([line])[0][0]


@pytest.mark.parametrize(
    "line",
    [
        "- Connect to wifi Gartenhaus5G, it reaches the terrace.",
        "- The new access point does Wi-Fi 802.11ax.",
        "- The password must be 12 characters and hold a digit.",
        "mot de passe : `--password MotDePasse`",
        "- Order 4 1 9 boxes of tea for the shop.",
        "- mkdir -p build-output-2026",
        "- Meeting moved: 19-03-26 at noon.",
        "- Reach me at mara.vogt@example.org / weekdays only",
    ],
)
def test_what_only_looks_like_it_is_not_flagged(line: str) -> None:
    assert values([line]) == []


def test_a_table_says_what_a_cell_is_by_its_country_its_row_label_or_a_login_column() -> None:
    ids = [
        "| Person | Land | Nummer |",
        "|---|---|---|",
        "| Eva Novak | NL | 701414091 |",  # passes the Dutch eleven test
        "| Sam Reyes | US | 536-22-8714 |",
        "| Ola Berg | NO | 12345 |",  # too short for any Norwegian number
    ]
    assert [(i, v) for i, v in values(ids)] == [(2, "701414091"), (3, "536-22-8714")]
    row = ["| what | account | value |", "|---|---|---|", "| Post office — pin code | 55120981 | 493817 |"]
    assert (2, "493817") in values(row)
    logins = [
        "| site | login | value |",
        "|---|---|---|",
        "| Library | mara.v | Buch-Regal-91 |",
        "| Gym | 0091233 | open 6-22 |",
    ]
    assert values(logins) == [(2, "Buch-Regal-91")]


def test_a_value_found_once_is_hidden_where_it_is_repeated() -> None:
    lines = [
        '{"role": "user", "content": "the locker code at the pool is 6284, remember it"}',
        '{"role": "assistant", "content": "Saved: locker 6284."}',
        '{"role": "assistant", "content": "Ticket 62841 is unrelated."}',
    ]
    assert values(lines) == [(0, "6284"), (1, "6284")]
    redacted, _ = redact_lines(lines)
    assert "6284" not in redacted[0] + redacted[1] and "62841" in redacted[2]


def test_a_code_list_keeps_its_items_without_digits_when_they_share_the_shape() -> None:
    lines = ["## Backup codes for the shop account", "", "k3v9p-q7mzx", "hrtwd-ymqcs", "p0b2n-c8xfa", "", "Done."]
    assert [i for i, _ in values(lines)] == [2, 3, 4]
    assert [i for i, _ in values(["Códigos de backup (guardar):", "- `7hq2xm9b`", "- `c4n8tz1w`"])] == [1, 2]


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("memory/keller-tresor-code-5081.md", "5081"),
        ("memory/cabin-wifi-Birke42xz.md", "Birke42xz"),
        ("memory/pin-board-2024.md", None),
        ("memory/wifi-setup-notes.md", None),
        ("memory/door-codes.md", None),
    ],
)
def test_a_secret_after_its_label_in_a_file_name(path: str, value: str | None) -> None:
    hit = name_secret(path)
    assert (hit.value if hit else None) == value


def test_a_repeated_secret_in_a_transcript_is_named_through_the_cli(workspace: Path) -> None:
    session = "sessions/2026-05-01-pool.jsonl"
    turns = [
        {"role": "user", "content": "o código do cacifo na piscina é 6284, guarda isso", "at": "2026-05-01T08:00:00Z"},
        {"role": "assistant", "content": "Guardado: cacifo 6284.", "at": "2026-05-01T08:00:05Z"},
    ]
    write(workspace / session, "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in turns))
    commit_all(workspace, "a session committed without hooks")
    proc = memgit(workspace, "lint", "--json", session, env=BM25)
    assert proc.returncode == 1, proc.stderr
    assert sorted(f["line"] for f in json.loads(proc.stdout)["findings"]) == [1, 2]
    assert "6284" not in proc.stdout
