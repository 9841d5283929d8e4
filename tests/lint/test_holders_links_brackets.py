"""Issue 45, thirteenth round: more placements that say what a value is.

- A number followed by the words that name its holder ("… a.n. Hartono", "… 예금주 DIMAS") is an
  account, whatever words came before it.
- The name of a local file a line links to or shows is read as a note's own name is: the site
  and the context print the target with the line.
- A password a few words after its label, in brackets ("the temporary password you told me
  (Kralingen-Tmp-2605)"), when it has capitals, small letters and digits.
- A 2FA setup key alone on a line, in base32, whole or in an authenticator's groups of four.
- French names an access token "jeton d'accès".
- A value the reader's view found is known as written ("48*2719", not "482719"), so its repeats
  elsewhere are found too.
- A table of documents (a "document" column whose rows name passports or licences) and its
  number column; a cell that names an identifier names the next cell of its row.
- Swedish doors, gates, alarms and safes as places; a key box in a file's name.
- A card of a national scheme (Troy, RuPay, UzCard, Humo) beside its expiry.
- A recovery-code list one line of prose below its heading.

Each has a line that only looks like it. The values are made up here.
"""

from __future__ import annotations

import pytest

from memgit.lint.redact import redact_text
from memgit.lint.secrets import find_secrets, kept_value, name_secret


def values(lines: list[str]) -> set[str]:
    return {hit.value for hit in find_secrets(lines) if hit.value}


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("> Rekening bapak sing BCA iku 0881726453 a.n. Hartono, kirimane nang kono wae.", "0881726453"),
        ("> 누나 신한 110-482-917305 예금주 DIMAS SAPUTRA", "110-482-917305"),
        ("- Mama's Sberbank 40817 810 5 3800 1234 567, владелец счёта Ивлева О.", "40817 810 5 3800 1234 567"),
        ("- send it to 2204 5581 9930 17, account holder Priya N.", "2204 5581 9930 17"),
        ("> ഈ അക്കൗണ്ടിലേക്ക് അയക്കൂ: 15670100218834, IFSC FDRL0001567", "15670100218834"),  # a branch's code
        ("- Vietcombank tk 1023847561, chủ tk Nguyen Van Linh", "1023847561"),
    ],
)
def test_a_number_before_its_holders_name_is_an_account(line: str, secret: str) -> None:
    assert secret in values([line])


@pytest.mark.parametrize(
    "line",
    [
        "- invoice 88213045 account name Acme Ltd",  # an invoice's number
        "- hubungi +62 812 3456 7890 a.n. Pak Budi",  # a phone's, after its "+"
        "- transfer 2026-05-01 a.n. Budi",  # a date
        "- ongkir 250.000 a.n. toko",  # an amount
        "- 4 rekening a.n. keluarga",  # a count
        "- bus 1234 IFSC office",
    ],
)
def test_a_holders_name_after_anything_else_is_an_ordinary_line(line: str) -> None:
    assert values([line]) == set()


def test_a_secret_in_a_linked_files_name_is_found_and_hidden() -> None:
    line = "![Ziggo sticker](img/modem-sticker_admin-hT4wLp9cVz.png)"
    assert any("hT4wLp9cVz" in value for value in values([line]))
    assert "hT4wLp9cVz" not in redact_text(line)
    wiki = "![[router_wpa-KopiTubruk2019.jpg]]"
    assert "KopiTubruk2019" in values([wiki])


@pytest.mark.parametrize(
    "line",
    [
        "![](img/Pasted image 20230512143000.png)",
        "![[Pasted image 20240101120000.png]]",
        '<img src="assets/3f9a8b7c6d5e4f1a2b3c.png" alt="diagram">',
        "[install guide](docs/install-guide-v2.md)",
        "![logo](images/logo_a1b2c3d4.svg)",
        "[the sticker](https://example.org/img/modem-sticker.png)",
    ],
)
def test_ordinary_linked_file_names_are_no_secrets(line: str) -> None:
    assert values([line]) == set()


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("> Nenosiri la muda uliloniambia (Kralingen-Tmp-2605) nimelibadilisha tayari.", "Kralingen-Tmp-2605"),
        ("- het tijdelijke wachtwoord dat je me gaf (Oostpoort-Kade-71) werkt niet meer", "Oostpoort-Kade-71"),
    ],
)
def test_a_password_in_brackets_a_few_words_after_its_label(line: str, secret: str) -> None:
    assert secret in values([line])


@pytest.mark.parametrize(
    "line",
    [
        "- the password policy (min-12-chars) applies to every account",
        "- password reset (see ticket INC-20394) done",
        "- der Passwort-Manager (KeePassXC 2.7) ist installiert",
    ],
)
def test_words_in_brackets_after_a_password_word_are_no_password(line: str) -> None:
    assert values([line]) == set()


@pytest.mark.parametrize(
    "line",
    ["LHHBOK3SOB7WPVNNUVUSQX7S2E4PIJUR", "- `QX7S2E4PIJURLHHBOK3S`", "lhhb ok3s ob7w pvnn uvus qx7s 2e4p ijur"],
)
def test_a_base32_setup_key_alone_on_a_line(line: str) -> None:
    assert values([line]) == {line.lstrip("- ").strip("`")}


@pytest.mark.parametrize(
    "line",
    [
        "JBSWY3DPEHPK3PXP",  # the example every TOTP document prints: two digits only
        "- RELEASE 2026 2027 2028 2029",
        "2222 3333 4444 5555",
        "THE QUICK BROWN FOX JUMPS",
        "ISO 8601 UTF8 ABCD",
    ],
)
def test_capitals_and_digits_that_are_no_setup_key(line: str) -> None:
    assert values([line]) == set()


def test_a_french_access_token_after_its_label() -> None:
    token = "EAAGKLIKaEW48xHQzcnqKEGBDIwF00WhD9GDWVnxJ9rtldbTSc6qOo2wZ0bVNqKsORkkPA9RV"
    assert token in values([f"- jeton d'accès: {token}"])
    assert values(["- un jeton de casino, 25 euros la soirée"]) == set()


def test_a_value_the_readers_view_found_is_known_as_written() -> None:
    line = "- Домофон: 48*2719 (зірочка посередині обов'язково)"
    assert values([line]) == {"48*2719"}
    again = find_secrets(["- а, точно. 48*2719, так і є"], known={"48*2719": "S117"})
    assert [hit.value for hit in again] == ["48*2719"]
    assert kept_value("48*2719")  # an intercom's flat and code: kept across files like "36-12-48"


def test_a_table_of_documents_and_its_number_column() -> None:
    table = [
        "| Хто | Документ | Номер | Діє до |",
        "|---|---|---|---|",
        "| Oksana | svenskt pass | 54069343 | 2030-06-11 |",
        "| Oksana | посвідчення водія UA | ХАВ977500 | 2031 |",
    ]
    assert {"54069343", "ХАВ977500"} <= values(table)
    invoices = [
        "| Document | Number | Amount |",
        "|---|---|---|",
        "| Invoice | 20260418 | 120 EUR |",
        "| Credit note | 20260419 | -20 EUR |",
    ]
    assert values(invoices) == set()  # its rows name no passport or licence


def test_a_cell_that_names_an_identifier_names_the_next_cell() -> None:
    row = ["| Who | What | No. |", "|---|---|---|", "| Oksana | закордонний паспорт UA | FT024869 |"]
    assert "FT024869" in values(row)
    plain = ["| Who | What | No. |", "|---|---|---|", "| Oksana | team lunch | 48213390 |"]
    assert values(plain) == set()


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("- Kassaskåpet i förrådet: 17-42-06 (vrid höger först)", "17-42-06"),
        ("- BankID säkerhetskod 583920 (bytte i mars)", "583920"),
        ("- Κουτί με τα κλειδιά (δίπλα στην πόρτα, κάτω από τη γλάστρα): 5820", "5820"),  # a Greek key box
    ],
)
def test_swedish_places_and_a_security_code(line: str, secret: str) -> None:
    assert secret in values([line])


@pytest.mark.parametrize(
    "line",
    [
        "- porten är öppen på dagarna",
        "- larmet gick 03:12 i natt",
        "- the dev server listens on port 3000",
        "- Κουτί με τα κλειδιά είναι στο γκαράζ",
    ],
)
def test_swedish_place_words_without_a_code(line: str) -> None:
    assert values([line]) == set()


def test_a_key_box_code_in_a_files_name() -> None:
    hit = name_secret("misc/chania-keybox-5820.md")
    assert hit is not None and hit.value == "5820"
    assert name_secret("notes/keybox-2024.md") is None  # a year


def test_a_national_schemes_card_beside_its_expiry() -> None:
    line = '- "Troy kartımı yaz, faturaları onunla ödüyorum: 9792321157785281, son kullanma 06/29"'
    assert "9792321157785281" in values([line])
    assert values(["- order 9792321157785281 shipped"]) == set()  # no expiry, no card word


def test_a_code_list_one_line_of_prose_below_its_heading() -> None:
    lines = [
        "## 7. GitHub recovery codes (org owner account)",
        "[I printed them, the ones left are also here]",
        "- f36ef-a9061  b89c3-f2c6d",
    ]
    assert "f36ef-a9061" in " ".join(values(lines))
    other = ["## Backup codes", "Next steps for the team:", "- update-2026"]
    assert values(other) == set()  # a line ending in ":" opens another list
