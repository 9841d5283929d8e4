"""Issue 45, thirteenth round: the word for "number" is a mark in every language, as ":" is.

People put their language's "number" between a document's or an account's name and its value
("paspor RI nomor …", "Kitambulisho (ID) no. …", "บัญชี … เลขที่ …"), and in a bank table's header
("IBAN / nomor"). `id_names.NUMBER_WORDS` holds them as data, read by every rule that reads a mark.
Also here: a valid identifier that happens to hold two short runs of digits in order is no manual's
sample, and a document's number of letters and digits mixed is taken after the document's local
name. Each has a line that only looks like it. The values are made up here (valid where their
kind has check digits).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgit.lint.id_names import NUMBER_WORDS
from memgit.lint.secrets import find_secrets
from tests.helpers import commit_all, memgit, write


def values(lines: list[str]) -> set[str]:
    return {hit.value for hit in find_secrets(lines) if hit.value}


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("- paspor RI nomor C7739214, habis Feb 2027", "C7739214"),  # Indonesian "number"
        ("> Kitambulisho (ID) no. 28813406", "28813406"),  # Swahili identity card, an aside, "no."
        ("- Ausweis von Oma Nummer L01X00T47", "L01X00T47"),
        ("- paszport Zosi numer EK4417203 do wizy", "EK4417203"),
        ("- บัญชีกสิกรไทย เลขที่ 047-8-31926-5 ชื่อบัญชี Somchai", "047-8-31926-5"),  # Thai, no spaces
        ("- paspor NL Sekar no. NW8K2LT74, geldig t/m 2029", "NW8K2LT74"),  # letters and digits mixed
        ("- Hennes D-nr: 63089023604 (hun sendte bilde)", "63089023604"),  # a Norwegian D-number
        ("  三井住友銀行 梅田支店 (店番 321) 普通 7204815 パク ジウ", "7204815"),  # "普通": a savings account
        ("- Sozialvers.-Nr. (kam endlich von der DRV): 65030679K520", "65030679K520"),
        ('- "رقمي الشخصي عند المستشفى 760101-0858 إذا سألوكِ"', "760101-0858"),  # "my personal number", valid
    ],
)
def test_a_number_word_between_a_name_and_its_value_is_a_mark(line: str, secret: str) -> None:
    assert secret in values([line])


@pytest.mark.parametrize(
    "line",
    [
        "- paspor RI nomor antrian 12 di KBRI",  # a queue number, two digits
        "- paspor NL: foto no. 3 is the good one",
        "- the passport office's number is on their site",
        "- บัญชี LINE ของร้าน เลขที่ 12 ซอย 4",  # a shop's LINE account, a street number
        "- Kitambulisho kimeisha muda wake 2027-03-01",  # an expiry date
        "- 普通の日 1234567",  # "an ordinary day"
        "- الرقم الشخصي مطلوب في الاستمارة 2026",  # "the personal number is needed in the form"
    ],
)
def test_a_number_word_with_no_value_of_its_own_is_an_ordinary_line(line: str) -> None:
    assert values([line]) == set()


def test_number_words_are_marks_only_never_names() -> None:
    """A mark alone names nothing: "number 4471" and "nomor 88213045" are no secrets."""
    assert {"nomor", "nummer", "номер", "번호", "เลขที่", "رقم", "no."} <= set(NUMBER_WORDS)
    assert values(["- order number 88213045, nomor 88213045, номер 88213045"]) == set()


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("- CPF (buat payout Pagato, urus lewat konsulat) 478.912.305-79", "478.912.305-79"),
        ('- "CPF do prestador": 478.912.305-79', "478.912.305-79"),
        ("- zijn ID-nummer in te vullen: 031482961 (teudat zehut)", "031482961"),
        ("- Karim's Moroccan CIN (buat form visa Nadia dll): BH382915", "BH382915"),
    ],
)
def test_an_identifier_after_an_aside_or_a_few_words_and_a_colon(line: str, secret: str) -> None:
    """A valid CPF holding "789" and "123" is no manual's sample; an aside may run to 60 letters."""
    assert secret in values([line])


@pytest.mark.parametrize(
    "line",
    [
        "- CPF de exemplo do manual: 123.456.789-09",  # a sample: its digits run in order
        "- SSN format is 123-45-6789 in the form's help",
        "- CIN office opens at 9, queue ticket 482913",
    ],
)
def test_a_sample_number_or_a_named_office_is_no_identifier(line: str) -> None:
    assert values([line]) == set()


def test_a_bank_tables_number_column_under_an_account_header() -> None:
    table = [
        "| rekening | IBAN / nomor | buat apa |",
        "|---|---|---|",
        "| BCA Surabaya | 0883140257 | kirim ke Ibu |",
    ]
    assert "0883140257" in values(table)
    plain = ["| produk | nomor | harga |", "|---|---|---|", "| kopi | 0883140257 | 25000 |"]
    assert values(plain) == set()  # no bank named in the header: a product's number


def test_an_account_named_on_the_line_before_a_long_number() -> None:
    lines = ["> وليدي كريم، هادي هي الأرقام ديال الحساب ديالي ف CIH:", "> 007780000426190038271589"]
    assert "007780000426190038271589" in values(lines)
    assert values(["> هادي هي الأرقام ديال الطلبية:", "> 007780000426190038271589"]) == set()  # an order's
    # "الحسابية" is "arithmetic": the account's word only whole
    assert values(["- والعوامل الحسابية (مثلاً) يُرجع `86400000` ملي ثانية"]) == set()


def test_a_korean_api_key_label() -> None:
    assert "dca49be9c58848e60ad64aa481e3c53b" in values(["yes, REST API 키: dca49be9c58848e60ad64aa481e3c53b"])
    assert values(["API 키는 설정 파일에 있어요"]) == set()


def test_lint_and_context_name_and_hide_this_rounds_values(workspace: Path) -> None:
    """End to end on a committed log: `memgit lint --json` names each line and no value, `memgit
    context` for the day shows none of them, and the look-alikes beside them are shown."""
    log = "memory/2026-05-04.md"
    lines = [
        "# 2026-05-04",  # 1
        "",
        "- paspor RI nomor C7739214, habis Feb 2027",  # 3
        "- Kitambulisho (ID) no. 28813406",  # 4
        "- CPF (buat payout Pagato, urus lewat konsulat) 478.912.305-79",  # 5
        "- paspor RI nomor antrian 12 di KBRI",  # 6
        "- order number 88213045 shipped",  # 7
        "- Rekening bapak sing BCA iku 0881726453 a.n. Hartono",  # 8: a number before its holder's name
        "![Ziggo sticker](img/modem-sticker_admin-hT4wLp9cVz.png)",  # 9: a linked file's name
        "- Nenosiri la muda uliloniambia (Kralingen-Tmp-2605) nimelibadilisha",  # 10: a password in brackets
        "LHHBOK3SOB7WPVNNUVUSQX7S2E4PIJUR",  # 11: a 2FA setup key alone on a line
        "- Troy kartımı yaz: 9792321157785281, son kullanma 06/29",  # 12: a national scheme's card
        "- Κουτί με τα κλειδιά (δίπλα στην πόρτα): 5820",  # 13: a Greek key box
        "- Домофон: 48*2719 (зірочка посередині)",  # 14: a star the reader sees
        "",
        "| Хто | Документ | Номер |",  # 16
        "|---|---|---|",
        "| Oksana | посвідчення водія UA | ХАВ977500 |",  # 18: a table of documents
    ]
    secrets = ("C7739214", "28813406", "478.912.305-79", "0881726453", "hT4wLp9cVz", "Kralingen-Tmp-2605")
    secrets += ("LHHBOK3SOB7WPVNNUVUSQX7S2E4PIJUR", "9792321157785281", "ХАВ977500")
    write(workspace / log, "\n".join(lines) + "\n")
    commit_all(workspace, "a log committed without hooks")
    env = {"MEMGIT_EMBEDDING": "none"}
    proc = memgit(workspace, "lint", "--json", log, env=env)
    assert proc.returncode == 1, proc.stderr
    assert not any(secret in proc.stdout for secret in secrets)
    assert sorted({f["line"] for f in json.loads(proc.stdout)["findings"]}) == [3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 18]
    context = memgit(workspace, "context", "--date", "2026-05-04", env=env)
    assert context.returncode == 0, context.stderr
    assert not any(secret in context.stdout for secret in secrets)
    assert "nomor antrian 12" in context.stdout and "order number 88213045" in context.stdout
    assert "5820" not in context.stdout and "48*2719" not in context.stdout
    # the intercom's code told again in another day's log, without its label: `lint --all` names it
    write(workspace / "memory/2026-05-05.md", "# 2026-05-05\n\n- а, точно. 48*2719, так і є\n")
    commit_all(workspace, "the next day")
    again = memgit(workspace, "lint", "--all", "--json", "memory/2026-05-05.md", env=env)
    assert again.returncode == 1 and "48*2719" not in again.stdout, again.stdout + again.stderr
    assert [f["line"] for f in json.loads(again.stdout)["findings"]] == [3]
