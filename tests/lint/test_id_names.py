"""Identifiers and accounts after the words people write before them, in scripts of several kinds
(`memgit.lint.id_names`, `identifiers.local_ids`): a number right after such a word is a secret
even where no validator knows its country; the word with no number after it, or with a date, an
amount or a short count, is an ordinary line. Values are made up here."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memgit.lint.id_names import ACCOUNT, IDENTITY
from memgit.lint.labels import LANGUAGES
from memgit.lint.secrets import find_secrets
from tests.helpers import commit_all, memgit, write


def values(text: str) -> set[str]:
    return {hit.value for hit in find_secrets([text]) if hit.value}


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("- coord. Marseille, n° sécu 2 95 07 13 055 118 28 (pour la mutuelle)", "2 95 07 13 055 118 28"),
        ("- driver from Addis, ፓስፖርት ቁጥር EP6928314", "EP6928314"),
        ("- Amman lead, الرقم الوطني 9861023457 for the insurance", "9861023457"),
        ("- per diem to her BCA: rek. 5270384916 a.n. Dewi", "5270384916"),
        ("- Ana: número de pasaporte PAA482913", "PAA482913"),
        ("- Jonas' ID-kortnummer: 4928 1734 55", "4928 1734 55"),
    ],
)
def test_a_number_right_after_its_word_is_a_secret_in_any_script(line: str, secret: str) -> None:
    assert secret in values(line)


@pytest.mark.parametrize(
    "line",
    [
        "- n° sécu à demander à la mairie lundi",
        "- ፓስፖርት ቁጥር ለማደስ 3 ቀን ይወስዳል",
        "- rek. 1.500.000 masuk kemarin",
        "- rek. bank 2 hari lagi",
        "- número de pasaporte: renovar antes del 2027-03-01",
        "- passport renewal 2027-03-01",
    ],
)
def test_the_word_without_a_number_of_its_own_is_an_ordinary_line(line: str) -> None:
    assert values(line) == set()


def test_every_label_language_has_identity_and_account_words() -> None:
    assert set(IDENTITY) == set(ACCOUNT) == set(LANGUAGES)
    assert all(IDENTITY[lang] and ACCOUNT[lang] for lang in LANGUAGES)


def test_lint_and_context_name_and_hide_this_rounds_secrets_in_a_committed_note(workspace: Path) -> None:
    """Every line rule of the tenth round through `memgit lint` on a real repository, and the same
    values absent from what `memgit context` sends to a model; the look-alikes beside them shown."""
    log = "memory/2026-05-03.md"
    lines = [
        "# 2026-05-03",  # 1
        "",
        "- coord. Marseille, n° sécu 2 95 07 13 055 118 28 (pour la mutuelle)",  # 3
        "- driver from Addis, ፓስፖርት ቁጥር EP6928314",  # 4
        "- per diem to her BCA: rek. 5270384916 a.n. Dewi",  # 5
        "- Dein Initialpasswort für Grafana ist Krüger-Kaffee-77, bitte ändern",  # 6
        "- وكلمة سر الواي فاي: Haddad@Academia1",  # 7
        "- el código de atrás (CVC) es 318",  # 8
        "- 현관 도어락 731962 다음에 *",  # 9
        "- o cadeado de combinação é o amarelo, girei 6-1-3-8 e abriu",  # 10
        "- CNP: 2991104123451",  # 11
        "- PIN ya M-Pesa 1958, Wanjiru knows it",  # 12
        "- Fødselsnummer (meg) 23118149831",  # 13
        "- Erik:",  # 14
        "  14067933916",  # 15
        "",
        "Oppsettnøkkel (hvis telefonen dør):",  # 17
        "35FOPIIYIXPLQITFGKLZTXA5LKWLEXV3",  # 18
        "",
        "- the door code changes in spring 2026",  # 20
        "- passport renewal 2027-03-01, book early",  # 21
        "- Passworteingabe dauert 300 ms",  # 22
    ]
    secrets: tuple[str, ...] = (
        "055 118 28",
        "EP6928314",
        "5270384916",
        "Krüger-Kaffee-77",
        "Haddad@Academia1",
        "731962",
        "6-1-3-8",
    )
    secrets += ("2991104123451", "1958", "23118149831", "14067933916", "35FOPIIYIXPLQITFGKLZ")
    flagged, context = _lint_and_context(workspace, log, lines, secrets)
    assert flagged == [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 18]
    assert "door code changes in spring 2026" in context.stdout and "passport renewal 2027-03-01" in context.stdout


def test_lint_and_context_name_and_hide_the_eleventh_rounds_secrets(workspace: Path) -> None:
    """The eleventh round's rules through `memgit lint` and `memgit context` on a committed note:
    a code changed or new later in its sentence, a PIN by any name, an account by a compound or
    after an aside, a "…nummer" name's short form with its number on the next line; the phone
    number below an identifier and the look-alikes stay shown."""
    log = "memory/2026-05-04.md"
    lines = [
        "# 2026-05-04",  # 1
        "",
        "- kode til boden er ny fra mandag 4418#",  # 3
        "- byttet PIN i minibanken på Storo, ny er 8361 (gammelt postnummer)",  # 4
        "- 駅のロッカーは暗証番号式で、控えに書いた番号 6390 を押したら開いた",  # 5
        "- brukskonto (jeg + Ola) 1503.27.40918",  # 6
        "- TK Versichertennr.",  # 7
        "  K739204815",  # 8
        "- PESEL taty 49030717025",  # 9
        "- kazali podać telefon, podałam +48 512 330 400",  # 10
        "- the new code review process starts in 2026 with 4500 lines",  # 11
        "- account GB33 MUEH 2860 1290 4047 97 is not valid, asked again",  # 12
    ]
    secrets = ("4418#", "8361", "6390", "1503.27.40918", "K739204815", "49030717025")
    flagged, context = _lint_and_context(workspace, log, lines, secrets)
    assert flagged == [3, 4, 5, 6, 8, 9]
    for shown in ("+48 512 330 400", "starts in 2026 with 4500 lines", "GB33 MUEH 2860 1290 4047 97"):
        assert shown in context.stdout, shown


def _lint_and_context(
    workspace: Path, log: str, lines: list[str], secrets: tuple[str, ...]
) -> tuple[list[int], subprocess.CompletedProcess[str]]:
    """Commit `lines` as `log`, then: `memgit lint --json` fails naming no secret, and `memgit
    context` for the log's day holds none of them. The flagged lines and the context."""
    write(workspace / log, "\n".join(lines) + "\n")
    commit_all(workspace, "a log committed without hooks")
    proc = memgit(workspace, "lint", "--json", log, env={"MEMGIT_EMBEDDING": "none"})
    assert proc.returncode == 1, proc.stderr
    assert not any(secret in proc.stdout for secret in secrets)
    day = Path(log).stem
    context = memgit(workspace, "context", "--date", day, env={"MEMGIT_EMBEDDING": "none"})
    assert context.returncode == 0, context.stderr
    assert not any(secret in context.stdout for secret in secrets)
    return sorted({f["line"] for f in json.loads(proc.stdout)["findings"]}), context
