"""Documentation look-alikes: values that stand where a secret would, in a page that explains how
to pass one (`mysql://user:passwort@host`, `--password <token>`, `API_KEY=your-api-key-here`).

A repository of manuals writes such values by the hundred, in every language its pages are
translated into; none of them is a credential, and a lint that blocks them blocks every edit of
those pages. The secret rules (`memgit.lint.rules`) ask `is_placeholder` before they report a
value. The test is on the value's words, not on its place: a value made only of placeholder words
(in any letters, camelCase or joined by `_`, `-`, `.`), with at most a few digits, is a
look-alike; so is a value in brackets, a variable reference, a run of one repeated mask character,
and an MSBuild-style property (`-p:Name=value` is an option, not a password).
"""

from __future__ import annotations

import re

# The old single pattern, kept as the first test: masks, `example`, `your-`, templates.
_MASKS = re.compile(
    r"(?i)x{4,}|\*{3,}|•{3,}|\.{3}|…|example|placeholder|changeme|changeit|your[_-]|redacted|dummy|<|\$\{"
)
_WRAPPED = re.compile(r"^(?:<[^>]*>?|\{[^}]*\}?|\[[^\]]*\]?|\$[A-Za-z_]\w*|%[A-Za-z_]\w*%)$")
_PROPERTY = re.compile(r"^:[A-Za-z_][\w.]*(?:=|$)")
# Words a placeholder is made of: what it stands for (in the languages documentation is
# translated into), and the fillers around it ("my", "here", "your", "new").
_CORE = frozenset(
    """
    password passwort passwd pass pwd passphrase passcode kennwort geheim secret secrets token tokens key keys
    apikey credential credentials motdepasse mdp contraseña contrasena clave senha segredo parola wachtwoord
    haslo hasło lösenord losenord adgangskode passord salasana heslo jelszó jelszo parolă sifre şifre
    пароль секрет ключ 密码 密碼 口令 秘密 パスワード 비밀번호 암호 كلمة סיסמה
    example sample test testing dummy fake demo placeholder foo bar baz qux quux hunter changeme
    value string text blah abc xyz qwerty asdf letmein welcome
    """.split()
)
_FILLER = frozenset(
    """
    my your the a an some our their new old own here this that value string goes insert put enter replace with
    secure strong super very real actual db database admin root user username app api access auth private public
    client service mysql postgres redis bot user1 s is of for to not
    mein dein ihr neues votre ton mon tu su mi seu sua il tuo mijn twoje
    """.split()
)
_WORDS = re.compile(r"[^\W\d_]+")
_CAMEL = re.compile(r"[A-Z]?[a-z\u00c0-\u024f]+|[A-Z]+(?![a-z])|[^\W\d_A-Za-z]+")
_MAX_DIGITS = 4


#: Values that providers' own documentation prints as examples, quoted in notes about that
#: documentation: Telegram's bot token, Stripe's test keys, jwt.io's token, GitHub's and Slack's
#: examples. A documented example is public; a note quoting it is no leak.
DOCUMENTED_EXAMPLES = frozenset(
    (
        "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",
        "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
        "pk_test_TYooMQauvdEDq54NiTphI7jx",
        "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
        ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "xoxb-263594206564-2343594206574-FGqddMF8t08v8N7Oq4i57vs1",
        "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        # ICAO 9303's specimen passport (Anna Maria Eriksson of Utopia), printed in every MRZ guide.
        "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    )
)


def is_documented_example(value: str) -> bool:
    """Whether `value` is (part of) a value providers' documentation prints as its example."""
    return len(value) >= 16 and any(value in example or example in value for example in DOCUMENTED_EXAMPLES)


def is_placeholder(value: str) -> bool:
    """Whether `value`, found where a secret would be, is a documentation look-alike."""
    value = value.strip().strip("\"'`")
    if not value or _MASKS.search(value) or _WRAPPED.match(value) or _PROPERTY.match(value):
        return True
    if is_documented_example(value) or _is_sample(value):
        return True
    if len(set(value)) == 1:
        return True  # "000000", "aaaaaaaa"
    if sum(c.isdigit() for c in value) > _MAX_DIGITS:
        return False
    words = [w.lower() for run in _WORDS.findall(value) for w in _CAMEL.findall(run) or [run]]
    parts = [part for word in words for part in (_segment(word) or [word])]
    if not parts or not any(p in _CORE for p in parts):
        return False
    return all(p in _CORE or p in _FILLER for p in parts)


_SAMPLE_WORDS = frozenset(("password", "passwort", "pass", "secret", "changeme", "letmein", "admin", "welcome"))
_LEET = str.maketrans("@43!10$57", "aaeiiosst")


def _is_sample(value: str) -> bool:
    """A value every manual writes: `P@ssw0rd` and its spellings (read as letters, a placeholder
    word), `p%40ss` (percent-encoded), `abc123`, `XYZ12345`, `qwerty123` (a run of the alphabet or
    the keyboard, then a run of digits)."""
    from urllib.parse import unquote

    plain = unquote(value) if "%" in value else value
    leet = plain.lower().rstrip("!?.").translate(_LEET)
    if leet != value.lower() and leet in _SAMPLE_WORDS:
        return True
    match = re.fullmatch(r"(?i)([a-z]{2,6})[-_]?(\d{2,8})", plain)
    if match is None:
        return False
    letters, digits = match.group(1).lower(), match.group(2)
    runs = ("abcdefghijklmnopqrstuvwxyz", "qwertyuiop", "asdfghjkl", "zxcvbnm", "xyz")
    return any(letters in run for run in runs) and digits in "0123456789012345678909876543210"


def _segment(word: str) -> list[str] | None:
    """`word` as a run of known words ("yourpassword" -> your, password), or None."""
    best: list[list[str] | None] = [[]] + [None] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - 16), end):
            head = best[start]
            piece = word[start:end]
            if head is not None and (piece in _CORE or piece in _FILLER):
                best[end] = [*head, piece]
                break
    return best[len(word)]
