"""Identifiers and accounts after the words people write before them, in scripts of several kinds
(`memgit.lint.id_names`, `identifiers.local_ids`): a number right after such a word is a secret
even where no validator knows its country; the word with no number after it, or with a date, an
amount or a short count, is an ordinary line. Values are made up here."""

from __future__ import annotations

import pytest

from memgit.lint.id_names import ACCOUNT, IDENTITY
from memgit.lint.labels import LANGUAGES
from memgit.lint.secrets import find_secrets


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
