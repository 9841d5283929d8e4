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
    """.split()
)
_FILLER = frozenset(
    """
    my your the a an some our their new old own here this that value string goes insert put enter replace with
    secure strong super very real actual db database admin root user username app api access auth private public
    client service mysql postgres redis bot user1 s is of for to
    mein dein ihr neues votre ton mon tu su mi seu sua il tuo mijn twoje
    """.split()
)
_WORDS = re.compile(r"[^\W\d_]+")
_CAMEL = re.compile(r"[A-Z]?[a-z\u00c0-\u024f]+|[A-Z]+(?![a-z])|[^\W\d_A-Za-z]+")
_MAX_DIGITS = 4


def is_placeholder(value: str) -> bool:
    """Whether `value`, found where a secret would be, is a documentation look-alike."""
    value = value.strip().strip("\"'`")
    if not value or _MASKS.search(value) or _WRAPPED.match(value) or _PROPERTY.match(value):
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
