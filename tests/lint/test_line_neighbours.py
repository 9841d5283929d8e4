"""Issue 45, third round: what stands beside a secret on its line or the next says what it is.

Each case is a mechanism, with a line that has it and one that only looks like it: a card's expiry
and security code beside its number, a second code of the same shape beside a labelled one, an
IBAN broken over two lines, a password a few words after its label in any language, the names of
identity documents and registers in many languages (each name, not only the first on a line),
recovery codes in a code block under the line naming them, and a question answered in the next
turn of a conversation. The values are made up here.
"""

from __future__ import annotations

import json

import pytest

from memgit.lint.redact import redact_text
from memgit.lint.secrets import find_secrets


def hidden(text: str) -> str:
    return redact_text(text)[0]


def test_a_cards_expiry_and_security_code_go_with_its_number() -> None:
    line = "- Cartão Visa virtual: 4539 1488 0343 6467 · validade 11/28 · CVC 318"
    out = hidden(line)
    assert "11/28" not in out and "318" not in out and "4539" not in out
    assert "validade [redacted: S107]" in out
    # no card number on the line: a date and a number stay what they are
    assert hidden("- Meeting moved to 11/28, room 318") == "- Meeting moved to 11/28, room 318"


def test_a_second_code_of_the_same_shape_beside_a_labelled_one() -> None:
    out = hidden("- Briefkasten: neuer Code 604219 (der alte 731855 gilt noch bis Freitag)")
    assert "604219" not in out and "731855" not in out
    # another shape on the line is not taken along
    assert "2026" in hidden("- Briefkasten: neuer Code 604219 seit März 2026")


def test_an_iban_broken_over_two_lines() -> None:
    text = "Überweisung an:\nDE89 3704 0044\n0532 0130 00\nDanke"
    out = hidden(text)
    assert "3704" not in out and "0532 0130 00" not in out and out.endswith("Danke")
    # two lines of groups that do not make an IBAN stay
    assert hidden("Tracking:\nDE12 3456 7890\n1111 2222 33") == "Tracking:\nDE12 3456 7890\n1111 2222 33"


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("- Hasło do routera w piwnicy, które ustawił Marek, to teraz Piwnica!Stara77", "Piwnica!Stara77"),
        ("- La contraseña del portal del banco cambió; ahora es Nogal#Rojo2031", "Nogal#Rojo2031"),
        ("- كلمة المرور الجديدة للبريد هي Zaytun#Akhdar88", "Zaytun#Akhdar88"),
    ],
)
def test_a_password_a_few_words_after_its_label(line: str, value: str) -> None:
    assert value in [hit.value for hit in find_secrets([line])]
    assert value not in hidden(line)


@pytest.mark.parametrize(
    "line",
    [
        "password hashing uses Argon2id-v19 by default",
        "The password policy needs a-zA-Z0-9!@# and 12 characters",
        "Set the password in `config_v2.toml` under [auth]",
    ],
)
def test_what_only_stands_near_a_password_label_is_no_password(line: str) -> None:
    assert find_secrets([line]) == []


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("- Numer dowodu osobistego: ABA300000", "ABA300000"),
        ("- Mme L. a envoyé sa pièce d'identité : passeport n° 18KD27593", "18KD27593"),
        ("- Steuerliche Identifikationsnummer: 86095742719", "86095742719"),
        ("- Ayşe: T.C. Kimlik No 10000000146 · pasaport U12765430", "U12765430"),
    ],
)
def test_identity_documents_named_in_many_languages(line: str, value: str) -> None:
    assert value not in hidden(line)


def test_recovery_codes_in_a_code_block_under_the_line_naming_them() -> None:
    text = "GitHub kurtarma kodları (yeni telefon):\n\n```\n3f9a2-7c1d0\n8be41-02f9c\n```\n"
    out = hidden(text)
    assert "3f9a2-7c1d0" not in out and "8be41-02f9c" not in out
    # a code block of version numbers under an ordinary line stays
    assert "3.11.7" in hidden("Python versions we test:\n\n```\n3.11.7\n3.12.1\n```\n")


def turns(*pairs: tuple[str, str]) -> list[str]:
    return [json.dumps({"role": role, "content": content}, ensure_ascii=False) for role, content in pairs]


def test_a_question_for_a_secret_answered_in_the_next_turn() -> None:
    lines = turns(
        ("assistant", "Anotado. E qual vai ser o novo código do portão?"),
        ("user", "8-3-1-6"),
        ("assistant", "Guardado: portão com 8-3-1-6 a partir de amanhã."),
    )
    values = {(hit.index, hit.value) for hit in find_secrets(lines)}
    assert (1, "8-3-1-6") in values and (2, "8-3-1-6") in values
    # the same short answer to a question for something else is a number
    other = turns(("assistant", "How many guests are arriving on Friday?"), ("user", "8-3-1-6 maybe"))
    assert find_secrets(other) == []


def test_a_label_in_one_turn_and_the_value_alone_in_the_next() -> None:
    lines = turns(("user", "Wi-Fi da casa da praia:"), ("user", "Gaivota-Salgada-29"))
    assert [(hit.index, hit.value) for hit in find_secrets(lines)] == [(1, "Gaivota-Salgada-29")]


def test_a_marker_after_a_password_sentence_is_no_password() -> None:
    """memgit's own entry markers (`<!--mg:k…-->`) follow promoted lines, password sentences too."""
    assert find_secrets(["- The staging database password rotates every Monday. <!--mg:k2626add4dc-->"]) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Redis full again: `redis-cli -h 10.0.3.12 -a Keks$Dose#31 info memory`", "Keks$Dose#31"),
        ("APP_KEY=base64:Q2x1ZWxlc3NLZXlNYXRlcmlhbDEyMzQ1Njc4OTA=", "base64:Q2x1ZWxlc3NLZXlNYXRlcmlhbDEyMzQ1Njc4OTA="),
        ("- Hetzner: 2FA anahtarı JBSWY3DPK5XXE3DE, yedek kodlar kasada", "JBSWY3DPK5XXE3DE"),
    ],
)
def test_a_commands_password_a_base64_key_and_a_2fa_seed(text: str, value: str) -> None:
    assert value not in hidden(text)


@pytest.mark.parametrize(
    "text",
    [
        "redis-cli -a is deprecated on the command line; use REDISCLI_AUTH",
        "APP_KEY=base64:YOUR_KEY_HERE",
        "Enable 2FA for the account ABCDEFGHIJKLMNOP",  # capitals alone, no base32 digit
    ],
)
def test_what_only_looks_like_a_commands_password_a_key_or_a_seed(text: str) -> None:
    assert find_secrets([text]) == []
