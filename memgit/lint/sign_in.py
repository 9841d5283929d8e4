"""A password told by the act of using it (lint S117; pure): after a sign-in verb beside its login
("logs in with admin and Xk9!…", "se connecte avec maelle / Tirage-…"), or as what a device
wants ("the router wants nabi2026rehearsal!"). No label names it; the verb does.
"""

from __future__ import annotations

import re

from memgit.lint.labelled import password_word, strong_password_shape, trim_value
from memgit.lint.placeholders import is_placeholder

# Signing in, in the languages people write notes in, then a login and its password side by side
# ("logs in with admin and Xk9!…", "se connecte avec maelle / Tirage-…", "meldet sich mit jan, Kw8…
# an"): the verb says what the pair is.
_LOGIN_VERB = re.compile(
    r"(?i)\b(?:log(?:s|ged|ging)?[ \t-]?in|sign(?:s|ed|ing)?[ \t-]?in|login|connect(?:s|ed)?)[ \t]+(?:to[ \t]+\S+[ \t]+)?(?:with|using|as)"
    r"|\b(?:se|me|te|nous|vous)[ \t]+connect(?:e|es|ent|ons|ez|ait|er)[ \t]+(?:avec|en tant que)"
    r"|\b(?:meldet|melde|melden)[ \t]+(?:sich|mich|uns)[ \t]+mit|\banmelden[ \t]+mit|\beinloggen[ \t]+mit"
    r"|\b(?:inicia|iniciar|inicio)[ \t]+sesi[óo]n[ \t]+con|\b(?:entra|entrar|accede|acceder|acessa|acessar|loga|logar)[ \t]+(?:con|com)"
    r"|\b(?:faz|fazer)[ \t]+login[ \t]+com|\blogt?[ \t]+in[ \t]+met|\binloggen[ \t]+met|\baccedi[ \t]+con"
    r"|\bzaloguj(?:e)?[ \t]+si[ęe][ \t]+(?:jako|przez)|\bgiriş[ \t]+yap"
    # the noun, then the pair: "manager login kostas.kyma / Xtapodi_sto_kar8ouni", "Zugangsdaten: …"
    r"|\b(?:login|logins|credentials|creds|zugangsdaten|identifiants|credenciales|credenziali|credenciais"
    r"|dane logowania|inloggegevens|логин|учётные данные|учетные данные"
    r"|basic[ \t-]?auth(?:[ \t]+(?:is|was)(?:[ \t]+now)?)?)[ \t]*:?(?=[ \t]+[\"'`]?[\w.@+-]{2,40}[\"'`]?[ \t]*[/|,])"
)
_PAIR = re.compile(
    r"[ \t]+[\"'`]?(?P<login>[\w.@+-]{2,40})[\"'`]?[ \t]*(?:/|\||,|:|[ \t](?:and|et|und|y|e|en|i|ve|и)[ \t])[ \t]*"
    r"[\"'`]?(?P<value>[^\s\"'`,;]{6,64})"
)


def sign_in_lines(text: str) -> set[int]:
    """0-based numbers of the lines of `text` with a sign-in verb (one search of the whole text)."""
    out: set[int] = set()
    line, at = 0, 0
    for match in _LOGIN_VERB.finditer(text):
        line += text.count("\n", at, match.start())
        at = match.start()
        out.add(line)
    return out


def login_pair(line: str) -> str | None:
    """The password of a login and password pair after a sign-in verb, when it has a password's
    shape (three kinds of character, or a long run of letters and digits)."""
    for verb in _LOGIN_VERB.finditer(line):
        pair = _PAIR.match(line, verb.end())
        if pair is None:
            continue
        value = trim_value(pair.group("value").rstrip(".!?:)"))
        if (
            strong_password_shape(value)
            and len(value) >= 8
            and any(c.isdigit() for c in value)
            and any(c.islower() for c in value)
            and not is_placeholder(value)
            and "://" not in value
            and "@" not in value
            and not value.startswith(("/", "~", "$", "%", "-", "."))
        ):
            return value
    return None


# A device or a page that asks for a password, then the verb of asking: the word after it is that
# password when it can be nothing but one ("the router wants nabi2026rehearsal!", "the NAS only
# accepts Kiln-Harbour-44").
_WANTS = re.compile(
    r"(?i)(?<![^\W_])(?:router|modem|wi-?fi|wlan|network|hotspot|laptop|nas|admin page|login page|tablet|phone"
    r"|printer|tv|console)(?![^\W_])[^\n.;!?]{0,20}?(?<![^\W_])(?:wants|takes|needs|accepts|asks for|expects"
    r"|only takes|only accepts)(?![^\W_])[ \t:]+[\"'`“]?(?P<word>[^\s\"'`”,;()]{8,64})"
)


def device_wants(line: str) -> str | None:
    """The password a device or a page is said to want, when the word can be nothing but one."""
    for match in _WANTS.finditer(line):
        value = password_word(match.group("word"), right_after=True)
        if value is not None:
            return value
    return None
