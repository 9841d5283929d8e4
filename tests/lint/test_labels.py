"""A secret after its label in each language of `memgit/lint/labels.py` (lint S117), and a line
of the same language that talks of a password with no value after it (a look-alike).

The lines are written as a person writes them in that language (its word order, its "is", a
definite form where the language attaches one), not made from the label table; a word that goes
wrong shows here under its own language. Every language of the table has its pair: a test fails
when one is added without.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.lint.labels import LANGUAGES
from memgit.lint.redact import redact_line
from memgit.lint.rules import scan_secrets

VALUE = "Qm7vR2x!k9"

#: language -> (a line with a password after its label, a line about a password without one)
LINES: dict[str, tuple[str, str]] = {
    "en": (f"The admin password is {VALUE}", "The password is in the team vault, ask Ana."),
    "de": (f"Das WLAN-Passwort lautet {VALUE}", "Das Passwort steht im Tresor, frag Lena."),
    "fr": (f"Le mot de passe du routeur est {VALUE}", "Le mot de passe est dans le coffre, demande à Léa."),
    "es": (f"La contraseña del wifi es {VALUE}", "La contraseña está en el gestor de contraseñas."),
    "pt": (f"A senha do roteador é {VALUE}", "A senha está no cofre da equipe."),
    "it": (f"La password del NAS è {VALUE}", "La password è nel gestore delle password."),
    "nl": (f"Het wachtwoord van de router is {VALUE}", "Het wachtwoord staat in de kluis."),
    "pl": (f"Hasło do routera: {VALUE}", "Hasło jest w sejfie zespołu."),
    "ru": (f"Пароль от роутера: {VALUE}", "Пароль лежит в менеджере паролей."),
    "uk": (f"Пароль від роутера: {VALUE}", "Пароль зберігається в менеджері паролів."),
    "tr": (f"Modem şifresi: {VALUE}", "Şifre ekip kasasında duruyor."),
    "ar": (f"كلمة المرور للراوتر: {VALUE}", "كلمة المرور موجودة في الخزنة."),
    "fa": (f"رمز عبور مودم: {VALUE}", "رمز عبور در گاوصندوق تیم است."),
    "he": (f"הסיסמה לראוטר: {VALUE}", "הסיסמה נמצאת בכספת של הצוות."),
    "hi": (f"राउटर का पासवर्ड: {VALUE}", "पासवर्ड टीम की तिजोरी में है।"),
    "bn": (f"রাউটারের পাসওয়ার্ড: {VALUE}", "পাসওয়ার্ড দলের ভল্টে আছে।"),
    "ur": (f"راؤٹر کا پاس ورڈ: {VALUE}", "پاس ورڈ ٹیم کی تجوری میں ہے۔"),
    "zh": (f"路由器密码是{VALUE}", "密码在团队的保险箱里。"),
    "ja": (f"ルーターのパスワードは{VALUE}です", "パスワードはチームの金庫にあります。"),
    "ko": (f"공유기 비밀번호는 {VALUE}", "비밀번호는 팀 금고에 있어요."),
    "vi": (f"Mật khẩu wifi là {VALUE}", "Mật khẩu nằm trong két của nhóm."),
    "id": (f"Kata sandi router adalah {VALUE}", "Kata sandi ada di brankas tim."),
    "th": (f"รหัสผ่านเราเตอร์คือ {VALUE}", "รหัสผ่านอยู่ในตู้เซฟของทีม"),
    "sw": (f"Nenosiri la router ni {VALUE}", "Nenosiri liko kwenye sefu ya timu."),
    "tl": (f"Ang password ng router ay {VALUE}", "Nasa vault ng team ang password."),
    "sv": (f"Lösenordet till routern är {VALUE}", "Lösenordet finns i teamets valv."),
    "no": (f"Passordet til ruteren er {VALUE}", "Passordet ligger i hvelvet."),
    "da": (f"Adgangskoden til routeren er {VALUE}", "Adgangskoden ligger i teamets boks."),
    "fi": (f"Reitittimen salasana on {VALUE}", "Salasana on tiimin holvissa."),
    "cs": (f"Heslo k routeru je {VALUE}", "Heslo je v trezoru týmu."),
    "sk": (f"Heslo k routeru je {VALUE}", "Heslo je v trezore tímu."),
    "hu": (f"A router jelszava: {VALUE}", "A jelszó a csapat széfjében van."),
    "ro": (f"Parola routerului este {VALUE}", "Parola este în seiful echipei."),
    "el": (f"Ο κωδικός του ρούτερ είναι {VALUE}", "Ο κωδικός είναι στο χρηματοκιβώτιο της ομάδας."),
    "bg": (f"Паролата за рутера е {VALUE}", "Паролата е в сейфа на екипа."),
    "lt": (f"Maršrutizatoriaus slaptažodis: {VALUE}", "Slaptažodis yra komandos seife."),
    "lv": (f"Maršrutētāja parole ir {VALUE}", "Parole ir komandas seifā."),
    "et": (f"Ruuteri parool on {VALUE}", "Parool on meeskonna seifis."),
    "sq": (f"Fjalëkalimi i ruterit është {VALUE}", "Fjalëkalimi është në kasafortën e ekipit."),
    "ka": (f"როუტერის პაროლი: {VALUE}", "პაროლი გუნდის სეიფშია."),
    "sr": (f"Lozinka za ruter je {VALUE}", "Lozinka je u sefu tima."),
    "ca": (f"La contrasenya del router és {VALUE}", "La contrasenya és a la caixa forta de l'equip."),
    "ms": (f"Kata laluan penghala ialah {VALUE}", "Kata laluan ada dalam peti besi pasukan."),
    "ta": (f"ரவுட்டர் கடவுச்சொல்: {VALUE}", "கடவுச்சொல் குழுவின் பெட்டகத்தில் உள்ளது."),
    "te": (f"రౌటర్ పాస్‌వర్డ్: {VALUE}", "పాస్‌వర్డ్ టీమ్ లాకర్‌లో ఉంది."),
    "mr": (f"राउटरचा पासवर्ड: {VALUE}", "पासवर्ड टीमच्या तिजोरीत आहे."),
    "gu": (f"રાઉટરનો પાસવર્ડ: {VALUE}", "પાસવર્ડ ટીમની તિજોરીમાં છે."),
    "pa": (f"ਰਾਊਟਰ ਦਾ ਪਾਸਵਰਡ: {VALUE}", "ਪਾਸਵਰਡ ਟੀਮ ਦੀ ਤਿਜੋਰੀ ਵਿੱਚ ਹੈ।"),
    "am": (f"የራውተሩ የይለፍ ቃል: {VALUE}", "የይለፍ ቃሉ በቡድኑ ካዝና ውስጥ ነው።"),
    "ha": (f"Kalmar sirri ta router: {VALUE}", "Kalmar sirri tana cikin ma'ajiyar ƙungiya."),
    "ga": (f"Pasfhocal an ródaire: {VALUE}", "Tá an pasfhocal i dtaisceadán na foirne."),
    "yo": (f"Ọ̀rọ̀ aṣínà router náà ni {VALUE}", "Ọ̀rọ̀ aṣínà wà nínú àpótí ẹgbẹ́."),
}


def test_every_language_of_the_table_has_its_lines() -> None:
    assert set(LINES) == set(LANGUAGES)


@pytest.mark.parametrize("language", sorted(LINES))
def test_a_password_after_its_label_is_flagged_and_its_value_redacted(language: str) -> None:
    secret, _ = LINES[language]
    # S117, or English's own rule for a password written out (S104), which comes first.
    codes = [code for code, _ in scan_secrets(secret)]
    assert codes == (["S104"] if language == "en" else ["S117"]), secret
    shown, code = redact_line(secret)
    # The value goes, the words stay: the reader still sees that a password was written there.
    assert code == codes[0] and VALUE not in shown, shown
    assert shown.replace(f"[redacted: {code}]", VALUE) == secret


@pytest.mark.parametrize("language", sorted(LINES))
def test_talk_about_a_password_without_one_is_no_secret(language: str) -> None:
    _, look_alike = LINES[language]
    assert scan_secrets(look_alike) == [], look_alike


def test_the_rule_names_as_many_languages_as_the_table_holds() -> None:
    """`memgit lint --list-rules` and the docs quote this message: it must not drift from the data."""
    from memgit.lint.rules import RULES_BY_CODE

    assert f"{len(LANGUAGES)} languages" in RULES_BY_CODE["S117"].summary


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.text(alphabet="abcé -", min_size=1, max_size=6).map(str.strip).filter(bool), min_size=1, max_size=12),
    st.text(alphabet="abcé \t-xyz", max_size=60),
)
def test_the_label_trie_matches_what_the_list_of_words_matches(words: set[str], text: str) -> None:
    """The labels are one trie pattern for speed; it must find what the plain list, longest first,
    finds, whatever the words and the text."""
    import re

    from memgit.lint.trie import alternation

    plain = "|".join(re.escape(w).replace(r"\ ", r"[ \t-]?") for w in sorted(words, key=len, reverse=True))
    a = re.compile(f"(?:{plain})(?![a-z])", re.IGNORECASE)
    b = re.compile(f"(?:{alternation(words)})(?![a-z])", re.IGNORECASE)
    assert [m.span() for m in a.finditer(text)] == [m.span() for m in b.finditer(text)]


def test_the_cheap_test_for_a_label_in_a_file_name_lets_every_label_through() -> None:
    """`value_in_name` builds every language's label patterns only for a name holding a label's
    first letters; whatever a label looks like in a name (capitals, hyphens, no spaces, a Turkish
    dotted capital), the patterns' own search must never find one the cheap test turned away."""
    import re

    from memgit.lint import labelled, name_labels

    seen = 0
    for word in labelled.label_words():
        for form in {word, word.upper(), word.title(), word.replace(" ", "-"), word.replace(" ", "")}:
            name = re.sub(r"[-_.+]+", " ", f"{form}-Qm7vR2xk9")
            if labelled.any_label().search(name) is None:
                continue
            seen += 1
            assert name_labels.has_label_stem(name), form
    assert seen > 1000


def test_a_plain_word_or_a_date_as_a_file_name_is_one_the_rules_never_flag() -> None:
    """`name_secret` skips a name of one plain word or a day's date without reading it: the rules,
    asked, find nothing in any such name (2,048 English words, a year of dates)."""
    from datetime import date, timedelta

    from mnemonic import Mnemonic

    from memgit.lint.name_labels import has_label_stem, value_in_name
    from memgit.lint.secrets import _PLAIN_NAME, find_secrets, name_secret

    words = [w for w in Mnemonic("english").wordlist if len(w) >= 6]
    days = [(date(2026, 1, 1) + timedelta(days=n)).isoformat() for n in range(365)]
    skipped = [name for name in words + days if _PLAIN_NAME.fullmatch(name) and not has_label_stem(name)]
    assert len(skipped) > 500
    for name in skipped:
        assert value_in_name(name) is None and find_secrets([name]) == [], name
        assert name_secret(f"memory/{name}.md") is None
