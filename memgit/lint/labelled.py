"""A secret after its label, in any of the languages of `labels.py` (lint S117; pure).

"Passwort: Sonne!2024", "le code de la porte est 4821", "密码是 hunter2x", "비밀번호는 qwer1234",
"WLAN-Schlüssel lautet 8f3kd92mfa": a label, then ":" or "=" or the language's "is", then a value
that looks like what the label names. The label decides the value's shape:

* a password word: a value of six or more characters that is not a plain word (it holds a digit,
  a symbol or mixed case), or any value when it alone ends the line after a ":" or "=";
* a code word (PIN, door, alarm, safe, access, recovery codes): a code of four to twelve digits
  (`4821`, `4-8-2-1`, `*4821#`) or a short letters-and-digits code, not a sequence (`1234`), a
  year after "since", an amount, a time or a quantity;
* a key word (Wi-Fi, licence, API key): eight or more characters mixing letters and digits.

`label_at_end` and `value_kind_ok` serve the rules that read across lines (`multiline.py`).
"""

from __future__ import annotations

import re
from functools import cache

from memgit.lint.label_forms import ONE_WORD_TAILS, with_clitics
from memgit.lint.labels import LANGUAGES, Labels
from memgit.lint.normalize import escaped, without_accents
from memgit.lint.placeholders import is_placeholder
from memgit.lint.shapes import UNSPACED_SCRIPT, generated_code, not_a_secret_code
from memgit.lint.trie import alternation

CODE = "S117"
KINDS = ("password", "code", "key", "place")


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    """kind -> a pattern of every language's labels of that kind (group `label`)."""
    out = {}
    for kind in KINDS:
        # Each word case-folded and also lower-cased: the pattern matches case-blind, but folding
        # turns "ß" into "ss", and "Schließfach-Code" as written would match neither otherwise.
        spaced = {f for lang in LANGUAGES.values() if lang.spaced for w in _words(lang, kind) for f in _forms(w)}
        unspaced = {f for lang in LANGUAGES.values() if not lang.spaced for w in _words(lang, kind) for f in _forms(w)}
        if not spaced and not unspaced:
            continue
        parts = []
        if spaced:
            # Whole words; also the second part of a hyphenated compound ("WLAN-Passwort").
            parts.append(r"(?:(?<=[^\W\d_]-)|(?<![\w.$@:/-]))(?:" + alternation(spaced) + r")(?![\w@/-])")
        if unspaced:
            parts.append("(?:" + alternation(unspaced) + ")")
        if kind in ONE_WORD_TAILS:
            # The last part of a compound, where languages write them as one word ("Initialpasswort",
            # "gastwachtwoord", "Oppsettnøkkel"); a code word never is ("Barcode", "Postleitzahl").
            parts.append(r"(?<=[^\W\d_]{3})(?:" + alternation(set(ONE_WORD_TAILS[kind])) + r")(?![\w@/-])")
        out[kind] = re.compile("(?P<label>" + "|".join(parts) + ")", re.IGNORECASE)
    return out


# A PIN is a code: its value is digits, whichever list the word stands in ("version pin", "pin it").
_PIN = re.compile(r"(?i)(?<![a-z])pin(?![a-z])|пин|пін|ピン|핀|पिन|পিন|ਪਿੰਨ|ፒን|பின்|పిన్|પિન|พิน|پن")


def _forms(word: str) -> set[str]:
    return {word.casefold(), word.lower()}


def _words(lang: Labels, kind: str) -> tuple[str, ...]:
    """`lang`'s words of `kind`, the PIN words moved from passwords to codes, each also without its
    accents (a note typed on a keyboard without them: "codigo", "cadenas", "Kombinacao")."""
    if kind == "password":
        words = tuple(w for w in lang.password if not _PIN.search(w))
    elif kind == "code":
        words = lang.code + tuple(w for w in lang.password if _PIN.search(w))
    else:
        words = tuple(getattr(lang, kind))
    if lang is LANGUAGES.get("ar"):
        words = tuple(w for word in words for w in with_clitics(word))
    return tuple(dict.fromkeys(w for word in words for w in (word, without_accents(word))))


@cache
def label_patterns() -> dict[str, re.Pattern[str]]:
    """Each kind of label (password, code, key …) -> the pattern of its words in every language."""
    return _patterns()


@cache
def any_label() -> re.Pattern[str]:
    """Any label of any kind, in one pattern (group `label`)."""
    joined = "|".join(f"(?:{pattern.pattern})" for pattern in _patterns().values())
    return re.compile("(?P<label>" + joined.replace("(?P<label>", "(?:") + ")", re.IGNORECASE)


@cache
def _kinds_of() -> dict[str, tuple[str, ...]]:
    """Each label word (case-folded) -> its kinds."""
    out: dict[str, list[str]] = {}
    for lang in LANGUAGES.values():
        for kind in KINDS:
            for word in _words(lang, kind):
                if kind not in out.setdefault(word.casefold(), []):
                    out[word.casefold()].append(kind)
    return {word: tuple(kinds) for word, kinds in out.items()}


def label_words() -> list[str]:
    """Every label word, case-folded (for the cheap search of the lines that may hold one)."""
    return list(_kinds_of())


@cache
def _languages_of() -> dict[str, tuple[str, ...]]:
    """Each label word (case-folded) -> the languages whose labels hold it."""
    out: dict[str, list[str]] = {}
    for code, lang in LANGUAGES.items():
        for kind in KINDS:
            for word in _words(lang, kind):
                out.setdefault(word.casefold(), []).append(code)
    return {word: tuple(codes) for word, codes in out.items()}


# Between a label and its value: a separator, or a few words and the language's "is" or a
# separator ("hasło do konta admin w Grafanie (tymczasowe): …", "la password del NAS, adesso è …"):
# words, an aside between commas and a remark in brackets, within a bounded stretch of the line.
# A language's "is" counts only after that language's label: across forty languages, short
# words such as "to", "de" or "on" would make any English sentence a label and a value.
# A colon that is no path's "::" nor a URL's "://", an "=" that is no "==".
# Each run of spaces is taken once and never given back (possessive): with nested optional runs a
# line of thousands of spaces after a label was split every way before the match failed (~30 s).
_STRONG_SEPARATOR = (
    r"[ \t]*+(?:\*\*|__)?[ \t]*+(?:[:：](?![:/])|[=＝](?!=)|->|→|=>|(?<=[ \t])[—–])[ \t]*+(?:\*\*|__)?[ \t]*+"
)
_FILLER = (
    r"(?:[^\n:：=.!?;()（）@/\\|`\[\]{}<>\"]|\.(?=\w)|\([^()\n]{0,60}\)|（[^（）\n]{0,40}）|\"[^\"\n]{0,40}\"){0,70}?"
)
_ATTACHED = {"zh": "是|为|為", "ja": "は|が", "ko": "는|은|이|가"}
# After a value in those languages, a particle that lists it beside others ("or", "and", "like").
_LISTED = re.compile(
    r"(?:이나|나|와|과|이랑|랑|하고|또는|같은|처럼|や|と|または|など|のような|みたいな|或|和|与|與|、|等)"
)
# A value: one run without spaces, or digits in groups ("8 0 2 6", "481 930", "2 7 0 3 9").
_VALUE = (
    r"[\"'`“„«‚‹]?(?P<value>\d{1,4}(?:[ \u00a0]\d{1,4}){1,5}(?=$|[\s.,;:!?)*\[\]|]|$)"
    r"|[^\s\"'`“”„«»‚‹›,;()\[\]（）]{4,512})"
)


@cache
def _after_label(language: str) -> re.Pattern[str]:
    """What may follow a label of `language`: a separator, or words and the language's "is"."""
    lang = LANGUAGES[language]
    copulas = [w for w in lang.copulas if w not in (":", "=", "-", "—", "：")]
    parts = [_STRONG_SEPARATOR]
    if language in _ATTACHED:
        parts.append(r"[ \t]*+(?:" + _ATTACHED[language] + r")[ \t]*+[:：]?[ \t]*+")
    # A number before a colon and one after it ("12: 30") is a time or a ratio, unless the number
    # ends a name ("sala P2: 5813#").
    tail = r"(?:(?<!\d)|(?<=[^\W\d_]\d)|(?![ \t]*[:：][ \t]*\d))" + _STRONG_SEPARATOR
    if copulas:
        tail += r"|(?<![\w-])(?:" + alternation(set(copulas)) + r")(?![\w-])[ \t]*+[:：]?[ \t]*+"
    parts.append(_FILLER + "(?:" + tail + ")")
    parts.append(r"[ \t]+")
    return re.compile(r"(?i)(?P<sep>" + "|".join(parts) + ")" + _VALUE)


_BARE = re.compile(r"(?P<sep>[ \t]+)" + _VALUE)
_UUID = re.compile(r"(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
# A labelled value holds a digit, or follows ":" or "=": a line with neither skips the patterns.
_VALUE_GATE = re.compile(r"[\d:=：→]")


def find_value(line: str) -> tuple[str, str] | None:
    """(kind, value) of the first labelled secret on `line`, or None."""
    if _VALUE_GATE.search(line) is None:
        return None
    languages = _languages_of()
    kinds_of = _kinds_of()
    for label in any_label().finditer(line):
        word = re.sub(r"[ \t-]", " ", label.group("label").casefold())
        kinds = kinds_of.get(word) or kinds_of.get(label.group("label").casefold()) or _guess_kinds(word)
        if not_a_secret_code(line[max(0, label.start() - 16) : label.end() + 8]):
            continue  # a zip, promo, status or error code
        for kind in kinds:
            for language in languages.get(word, ()) or languages.get(label.group("label").casefold(), ()) or ("en",):
                for match in _separations(_after_label(language), line, label.end()):
                    value = trim_value(match.group("value"))
                    sep = match.group("sep")
                    colon = re.search(r"[:：=＝→>]", sep) is not None
                    ends = not line[match.end() :].strip(" \t.!?)*_`'\"”»")
                    weak = not sep.strip()
                    if weak and line[label.start() - 1 : label.start()] == "-":
                        continue  # the end of a compound ("LICENSE-CODE   1106") needs a ":" or an "is"
                    if weak and word in _NETWORK_WORDS:
                        continue  # "wifi HomeNet5G", "WLAN 802.11ac": a network's name or standard
                    before = line[: label.start()]
                    after = line[match.start("value") + len(value) :]
                    if language in _ATTACHED and _LISTED.match(after):
                        continue  # "新 패스워드는 Argon2나 Bcrypt 같은…": one of several names, not a value
                    if value_kind_ok(kind, value, strong=not weak, alone=ends and colon, before=before):
                        return kind, value
            found = _unseparated(line, label.end(), kind)
            if found is not None:
                return kind, found
    return None


# A key of front matter, YAML, TOML or an environment file, written as one identifier whose parts
# are words ("wlan_graz_psk:", "nasAdminPw =", "haustor-code:"), then its value.
_KEY_LINE = re.compile(
    r"^(?P<indent>[ \t]*(?:[-*][ \t]+)?)[\"']?(?P<key>[A-Za-z][A-Za-z0-9_-]{2,80})[\"']?(?P<rest>[ \t]*[:=][^\n]*)$"
)
# Where an identifier's parts meet: "_", "-" or a capital after a small letter or digit.
_KEY_PARTS = re.compile(r"[_-]|(?<=[a-z0-9])(?=[A-Z])")


# A TOTP seed as authenticator apps take it: sixteen or more base32 capitals and digits.
_BASE32_SEED = re.compile(r"(?=[A-Z2-7]*[2-7])[A-Z2-7]{16,64}")
# A key that names a code kept to get back in ("shop_admin_backup_code", "recoveryCodes") needs no
# place word: no zip or exit code is called that.
_RECOVERY_KEY_WORDS = re.compile(r"(?i)\b(?:backup|recovery|one[ -]?time|2fa|mfa|otp|scratch)\b")


def value_in_key(line: str) -> tuple[str, str] | None:
    """(kind, value) after a key whose parts name a secret ("nas_admin_pw: …"): the key read as
    its words, then as any label and value are (`find_value`). The parts join with `_`, `-` or a
    capital, so the label is no whole word of the line as written. A code's label counts only
    beside a thing a code opens ("haustor_code", not "zip_code" or "exit_code"), a password's or
    a key's always."""
    match = _KEY_LINE.match(line)
    if match is None or _KEY_PARTS.search(match.group("key")) is None:
        return None
    key = match.group("key")
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key).replace("_", " ").replace("-", " ")
    found = find_value(match.group("indent") + words + match.group("rest"))
    if found is None:
        return None
    kind, value = found
    if (
        kind in ("code", "place")
        and label_patterns().get("place", re.compile("$^")).search(words) is None
        and not _RECOVERY_KEY_WORDS.search(words)
    ):
        return None
    if kind in ("password", "key") and not (strong_password_shape(value) or _BASE32_SEED.fullmatch(value)):
        return None  # `"hashed_password": "fakehashedsecret"`: a key names the field, not its value's kind
    return kind, value


@cache
def _compound() -> re.Pattern[str]:
    """A one-word label of a compounding language: a head (`labels.COMPOUND_HEADS` and every
    `place` word), a linking letter or hyphen, and a tail (`labels.COMPOUND_TAILS`). The word
    starts with its head: a free prefix would take "Transportcode" and "Reportcode"."""
    from memgit.lint.labels import COMPOUND_HEADS, COMPOUND_TAILS

    heads = {f for w in COMPOUND_HEADS for f in _forms(w)}
    heads |= {f for lang in LANGUAGES.values() if lang.spaced for w in lang.place if " " not in w for f in _forms(w)}
    heads |= {without_accents(w) for w in heads}
    head = "|".join(re.escape(w) for w in sorted(heads, key=len, reverse=True))
    tail = "|".join(re.escape(w) for w in sorted(set(COMPOUND_TAILS), key=len, reverse=True))
    return re.compile(rf"(?i)(?<![^\W\d_])(?P<head>{head})(?:s|n|en|e|es)?-?(?P<tail>{tail})(?![^\W\d_])")


# A compound's tail glued to a letter before it: the cheap test before the heads' long alternation.
_GLUED_TAIL = re.compile(
    r"(?i)[^\W\d_]-?(?:code|kode|koodi|kód|pin|passwort|kennwort|wachtwoord|lösenord|passord|kodeord)"
)


def value_in_compound(line: str) -> tuple[str, str] | None:
    """(kind, value) after a compound label ("Abholcode aus der DHL-Mail: 8830 4127",
    "Der Spindcode ist 4471"): the line read with the compound as its two words."""
    if _GLUED_TAIL.search(line) is None or not _compound().search(line):
        return None
    return find_value(_compound().sub(lambda m: m.group("head") + " " + m.group("tail"), line))


# A mark that identifiers, versions and file names never carry and passwords often do.
_PASSWORD_MARK = re.compile(r"[!#$%&+?^~€£§]|(?<=\w)@(?=\w)")
# What a path, an assignment, an anchor, a template or a hash string has: no password of prose.
_NOT_NEAR = re.compile(r"[/=*{}\\]|^[#!]|--|\$.*\$")  # also an HTML comment's `<!--…-->` (memgit's markers)
_NEAR_TOKEN = re.compile(r"[^\s,;()\[\]{}<>\"'`“”«»]{8,64}")
#: How far after a password's label a word that can be nothing but a password still belongs to it.
NEAR_CHARS = 60


def password_near_label(line: str) -> str | None:
    """A word that can be nothing but a password (three kinds of character, or a long run of
    letters and digits), within `NEAR_CHARS` after a password label on the same line, whatever
    words stand between in whatever language ("كلمة السر لحساب البريد … هي Jisr#Lisboa_24",
    "das Zertifikatspasswort lautet Spree-Ufer_1983", "a password … mudou: agora é Ria-Formosa#2026")."""
    found = passwords_near_label(line)
    return found[0] if found else None


def passwords_near_label(line: str) -> list[str]:
    """Every word `password_near_label` would take, in order: a line may give the old password
    and the new one ("… ήταν Eleni_1972 και ο νέος θα είναι Vlachou-E1-Kyklades!")."""
    pattern = _patterns().get("password")
    if pattern is None:
        return []
    folded = line.casefold()
    out: list[str] = []
    for label in pattern.finditer(folded):
        for token in _NEAR_TOKEN.finditer(line, label.end()):
            if token.start() > label.end() + NEAR_CHARS:
                break
            # Right after the label, or ending the line: the sentence leads up to it ("كلمة المرور
            # لمجلد Dropbox المشترك Jumeirah_Vox_2026"), as "is" would.
            right_after = not line[label.end() : token.start()].strip(" \t:：=") or not line[token.end() :].strip(
                " \t.!)»”\"'*_`"
            )
            value = password_word(token.group(0), right_after=right_after)
            if value is not None and value not in out:
                out.append(value)
    return out


def password_word(word: str, *, right_after: bool = False) -> str | None:
    """`word` as the password it can only be (`only_a_password`), with a final "!" or "?" that
    belongs to it ("Vlachou-E1-Kyklades!") or without the sentence's mark, else None."""
    value = word.rstrip(".,:;)»”")
    if UNSPACED_SCRIPT.search(value) is None and only_a_password(value, right_after=right_after):
        return value
    value = trim_value(word.rstrip(".!?:"))
    if UNSPACED_SCRIPT.search(value) is not None:
        return None  # a sentence of a script without spaces around the word: the labels' rules read it
    return value if only_a_password(value, right_after=right_after) else None


def only_a_password(value: str, *, right_after: bool = False) -> bool:
    """Whether a word near a password's label can be nothing but a password: three kinds of
    character with a digit and a mark identifiers never carry ("Jisr#Lisboa_24"), or words joined
    into one with a number ("Leuchtfeuer-Bootshaus-22", "Xtapodi_sto_kar8ouni"); and nothing a
    path, an address, a file, a class of characters or a name from code has. `right_after`: the
    word follows the label with nothing between ("Admin-Passwort Leuchtfeuer-Bootshaus-22"),
    where words joined with a number need no other sign."""
    return (
        len(value) >= 8
        and any(c.isdigit() for c in value)
        and (
            _classes(value) >= 3 and _PASSWORD_MARK.search(value) is not None or _joined_words(value, loose=right_after)
        )
        and _NOT_NEAR.search(value) is None
        and not code_like(value)
        and not is_placeholder(value)
        and not re.search(r"@[^@\s]*\.[A-Za-z]{2,}|^@|@$", value)  # an address, a package@version, a handle
        and "://" not in value
        and not any(span in value for span in ("a-z", "A-Z", "0-9"))  # a character class
        and not value.startswith(("/", "~", "$", "%", "-", "."))
        and not re.search(r"\.(?:[a-z]{2,4})$", value)  # a file or a host name
        and not re.search(r"&#x?[0-9a-fA-F]+;?|&[a-zA-Z]+;|%[0-9A-Fa-f]{2}", value)  # an escape: the reader's view
    )


def nothing_but_a_password(value: str) -> bool:
    """A word with no label around it that can still be nothing but a password: a capital, a
    small letter, a digit and a mark (`only_a_password`'s), no run of marks, and not an
    expression, a shortcut or a format string."""
    return (
        only_a_password(value)
        and _classes(value) == 4
        and re.search(r"[!#$%&?^~€£§]", value) is not None  # not "@" alone: user@host has that shape
        and re.search(r"[^\w\s]{3}|#\^|\[\[|\]\]|\.[A-Za-z]{1,5}#|#L\d|@\d", value) is None  # marks, links
        and re.search(r"[A-Z][a-z]*\+[A-Z]|%[a-z]|^\$|\$\{|\$\(|&&|\?\?|^#|#[0-9a-fA-F]{6}\b", value) is None
    )


# Three parts or more joined by "-" or "_", words of three letters or more among them, and a
# number: a part of digits, or a digit inside a word ("kar8ouni").
_JOINED_PART = re.compile(r"[^\W_]+")


def _joined_words(value: str, *, loose: bool = False) -> bool:
    """Words joined into one with a number, with a capital or a digit inside a word, three parts
    or more: how people make a password they can remember ("Adr-Occupancy-2026"). A product and its
    version ("Windows-Server-2019"), a standard ("ISO-8859-1", "AES-256-GCM") or a slug
    ("release-notes-2026") has no digit inside a word and its capitals begin each word of a name
    or fill it, so only a capital that does not begin a word, a word in small letters beside one
    in capitals, or a digit inside a word counts."""
    if not re.fullmatch(r"[^\W_]+(?:[-_][^\W_]+){2,5}[!?#*]*", value):
        return False
    parts = _JOINED_PART.findall(value)
    words = [part for part in parts if part.isalpha()]
    if not any(len(word) >= 3 for word in words) or not any(c.isdigit() for c in value):
        return False
    if any(part.isupper() and len(part) >= 2 for part in words):
        return False  # a standard or an acronym: "AES-256-GCM", "UTF-8-BOM"
    if loose:
        return True
    inner_digit = any(re.search(r"[^\W\d_]\d+[^\W\d_]", part) for part in parts)
    mixed = any(word[:1].isupper() for word in words) and any(word.islower() for word in words)
    inner_capital = any(re.search(r"[^\W\d_][A-Z]", part) for part in parts)
    return inner_digit or mixed or inner_capital


# A value in brackets right after its label ("パスワード（Kamogawa_Lab_0503）", "password (Xk9!mq2)"), or
# in quotes a few words after it ("das alte „Ostsee2024“", "the old one was "Mia2017""): no
# separator says it is the value, so only a value shaped like nothing but a password counts.
# A bracket may stand a few words after the label as a quote does ("Nenosiri la muda uliloniambia
# (Kralingen-Tmp-2605)": "the temporary password you told me (…)").
_BRACKETED = re.compile(
    r"(?:[^\n:：=.!?;()（）@/\\|`\[\]{}<>\"“„«‚‹”»]){0,40}?[ \t]*[（(][ \t]*(?P<value>[^\s()（）]{6,64})[ \t]*[）)]"
)
_QUOTED = re.compile(
    r"(?:[^\n:：=.!?;()（）@/\\|`\[\]{}<>\"“„«‚‹”»]){0,40}?(?:^|(?<=[\s(]))[\"“„«‚‹](?P<value>[^\s\"“”„«»‚‹›]{6,64})[\"”“»‹›]"
)


def _unseparated(line: str, start: int, kind: str) -> str | None:
    """A password in brackets or quotes near its label at `start` (see `_BRACKETED`)."""
    if kind != "password":
        return None
    for pattern in (_BRACKETED, _QUOTED):
        match = pattern.match(line, start)
        if match is None:
            continue
        value = trim_value(match.group("value"))
        gap = pattern is _BRACKETED and line[start : match.start("value")].strip(" \t(（")
        if gap and not (re.search(r"[A-Z]", value) and re.search(r"[a-z]", value) and re.search(r"\d", value)):
            continue  # words between: only a value of capitals, small letters and digits ("(min-12-chars)" is a rule)
        if (
            len(value) >= 6
            and password_shaped(value)
            and strong_password_shape(value)
            and value_kind_ok(kind, value, strong=True, alone=False)
        ):
            return value
    return None


def kinds_of_label(label: str) -> tuple[str, ...]:
    """The kinds (password, code, key …) of a label as `any_label` matched it, in any spacing."""
    word = re.sub(r"[ \t-]", " ", label.casefold())
    return _kinds_of().get(word) or _guess_kinds(word)


def _guess_kinds(word: str) -> tuple[str, ...]:
    """The kinds of a label matched with other spacing than its listed form ("pin-code")."""
    squeezed = re.sub(r"[ \t-]", "", word)
    return tuple(
        dict.fromkeys(k for w, ks in _kinds_of().items() if re.sub(r"[ \t-]", "", w) == squeezed for k in ks)
    ) or ("password",)


def _separations(after: re.Pattern[str], line: str, start: int) -> list[re.Match[str]]:
    """The ways a value may follow a label at `start`: the nearest separator first, then a later
    one (a colon after an aside, when the words before it were no value)."""
    first = after.match(line, start)
    if first is None:
        return []
    out = [first]
    if first.group("sep").strip(" \t"):
        # The words the separator's path took as an aside may be the value itself, a dash after it
        # ("暗証番号 8830 — malas da Tia"): the value right after a space is a way too.
        bare = _BARE.match(line, start)
        if bare is not None:
            out.append(bare)
    colon = re.search(r"[:：=→]", line[first.end() : start + 80])
    if colon is not None and not line[first.end() + colon.start() - 1 : first.end() + colon.start()].isdigit():
        later = after.match(line, first.end() + colon.start())
        if later is not None and later.end() > first.end():
            out.append(later)
    return out


#: Words for a wireless network: a label only before a separator or "is" (else what follows is
#: the network's name or its standard).
_NETWORK_WORDS = frozenset(
    # and the doors that are also a network's ports ("a porta 6379", "poort 8080")
    {
        "wifi",
        "wi fi",
        "wlan",
        "wireless password",
        "guest wifi",
        "guest wi fi",
        "gäste wlan",
        "porta",
        "portas",
        "poort",
    }
)


def trim_value(value: str) -> str:
    if value[:1].isascii():
        # After a value in Latin letters, a script without spaces starts the sentence again
        # ("…パスワードはQm7vR2x!k9です").
        cut = UNSPACED_SCRIPT.search(value)
        value = value[: cut.start()] if cut else value
    return value.rstrip(".,;:!?)]}»”'\"*_")


_SEQUENCE = "01234567890123456789"
_YEARISH = re.compile(r"^(?:19|20)\d\d$")
_TIME_OR_AMOUNT = re.compile(r"^\d{1,2}[:h.]\d{2}$|^\d+[.,]\d+$|^[€$£¥]|[€$£¥%]$|\d[€$£¥%]")
_CODE_SHAPE = re.compile(
    r"^[*#]{0,2}\d{4,12}[#*]{0,2}$|^\d{1,4}(?:[- .]\d{1,4}){1,5}$|^(?=.*\d.*\d)[A-Za-z0-9]{4,12}$|^[A-Z]{1,2}-\d{4,8}$"
)
_DAY, _MONTH = r"(?:0?[1-9]|[12]\d|3[01])", r"(?:0?[1-9]|1[0-2])"
_DATE = re.compile(rf"^(?:19|20)\d\d-\d\d-\d\d|^(?:{_DAY}[./-]{_MONTH}|{_MONTH}[./-]{_DAY})[./-](?:19|20)?\d\d$")
_FILE_OR_LINK = re.compile(
    r"(?i)\.(?:html?|md|py|js|ts|json|ya?ml|toml|txt|png|jpe?g|gif|svg|pdf|exe|dll|zip|sh|ps1|cs|go|rs)(?:$|[#?])"
    r"|(?-i:[a-z]#[a-z])|^\w+\.\w+\.\w+/|^(?:www\.|localhost)"
)
# A code of digits alone, four to eight, which a door, lock or alarm word before it makes a code even
# after a bare space ("room door 4455", "House alarm 5071"): no name, version or year has it there.
_DIGITS_ONLY = re.compile(r"[*#]?\d{4,8}[#*]?")


def _bare_place_code(value: str) -> bool:
    """A code after a place word and a bare space: digits alone, and not a year or a time of day
    ("the 2019 gate", "alarm 0630"), which a bare space after those words more often is."""
    digits = value.strip("*#")
    return (
        _DIGITS_ONLY.fullmatch(value) is not None
        and re.fullmatch(r"(?:19|20)\d\d|(?:[01]\d|2[0-3])[0-5]\d", digits) is None
    )


_UNITS = re.compile(r"(?i)^\d+(?:px|em|ms|s|kb|mb|gb|tb|mm|cm|km|m|kg|g|x|h|min|st|nd|rd|th)$")


def value_kind_ok(kind: str, value: str, *, strong: bool, alone: bool, before: str = "") -> bool:
    """Whether `value` has the shape a `kind` label's value has (see the module's text). `strong`:
    a separator or "is" stood between label and value (not a bare space); `alone`: the value ends
    the line after a ":" or "="."""
    value = trim_value(value)
    if escaped(value):
        return False  # "os.environ&#91;…", "os\\.environ": the line's reader's view is judged instead
    if (
        len(value) < 4
        or is_placeholder(value)
        or "://" in value
        or value.startswith(("/", "~", "$", "%", "[", "@", "-"))
    ):
        return False
    grouped = re.fullmatch(r"\d{1,3}(?:[-–]\d{1,3}){2,5}|\d(?: \d){3,7}", value) is not None  # 24-08-61, 7 2 4 8
    if _UNITS.match(value) or _TIME_OR_AMOUNT.search(value) or _DATE.match(value) and not (grouped and kind == "place"):
        return False
    if _FILE_OR_LINK.search(value) or len(UNSPACED_SCRIPT.findall(value)) * 2 > len(value) or _UUID.match(value):
        return False
    digits = sum(c.isdigit() for c in value)
    if kind in ("code", "place"):
        return _code_ok(value, before) and (
            strong or kind == "code" or grouped or kind == "place" and _bare_place_code(value)
        )
    if kind == "key":
        return (
            len(value) >= 8
            and digits >= 1
            and any(c.isalpha() for c in value)
            and password_shaped(value)
            and not _is_version(value)
        )
    # a password
    if sum(c.isalnum() for c in value) < 4:
        return False  # "|---|---|", "*****", a sentence in a script without spaces
    if digits == len(value):
        return strong and _code_ok(value, before)  # a PIN written as a password ("getent passwd 1000": none)
    if len(value) < 6 or _is_version(value):
        return False
    plain = value.isalpha() and (value.islower() or value[:1].isupper() and value[1:].islower())
    if plain:
        return alone and len(value) >= 6
    if not strong:  # "pass Plesk4ever!!": after a bare space, only what can be nothing but a password
        if re.fullmatch(r"[^\W\d_]+(?:['’-][^\W\d_]+)+", re.sub(r"[*_`]", "", value)):
            return False  # words joined by hyphens ("**Salaussalasana**-kenttään", "Obsidian-fiókoddal")
        return password_shaped(value) and digits > 0 and (_classes(value) >= 3 or _long_mixed(value))
    return not code_like(value)


def strong_password_shape(value: str) -> bool:
    """Three kinds of character, or a long run of letters and digits: what stands for a password
    with no label or separator to say so."""
    return _classes(value) >= 3 or _long_mixed(value)


def _long_mixed(value: str) -> bool:
    """Ten characters or more, three letters and three digits at least, in one run ("mapo2848house"):
    no word of prose or code has that shape, where "node16" or "sha256" do."""
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    return len(value) >= 10 and letters >= 3 and digits >= 3 and value.isalnum() and not _is_version(value)


def _classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


def _code_ok(value: str, before: str) -> bool:
    if generated_code(value):
        return True  # a recovery code of sixteen and more ("zml7ixszt…"), past the short codes' shapes
    bare = re.sub(r"[^0-9A-Za-z]", "", value)
    if not _CODE_SHAPE.match(value) or (bare.isdigit() and bare in _SEQUENCE) or len(set(bare)) < 2:
        return False
    if _is_version(value) or re.search(r"\d\.\d+\.\d", value):
        return False
    letters = sum(c.isalpha() for c in bare)
    if letters > sum(c.isdigit() for c in bare) and not bare.isupper():
        return False  # "node16", "utf8mb4": a name with a number, not a code
    if _YEARISH.match(value) and re.search(r"(?i)\b(?:in|since|from|until|seit|depuis|desde|dal|sinds)\s*$", before):
        return False
    digits = sum(c.isdigit() for c in value)
    # "2B47A": five characters in capitals, three of them digits, is a code, not a word or a name
    return digits >= 4 or (digits >= 2 and len(bare) >= 6) or (digits >= 3 and len(bare) == 5 and bare.isupper())


def password_shaped(value: str) -> bool:
    """Letters and digits, or three kinds of character, and not a name from code."""
    if code_like(value):
        return False
    classes = sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )
    has_letter = any(c.isalpha() for c in value)
    return has_letter and (any(c.isdigit() for c in value) or classes >= 3)


def code_like(value: str) -> bool:
    """An identifier from code (`self.config`, `os.environ`, `get_value()`, `snake_case_name`)."""
    if re.search(r"[()\[\]{}<>]", value):
        return True
    if re.fullmatch(r"[a-z_$][a-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+", value):
        return True  # attribute access, module paths
    if re.fullmatch(r"[A-Z][A-Za-z]+-[A-Z][A-Za-z]+", value):
        return True  # a PowerShell command: Verb-Noun
    if re.fullmatch(r"[A-Z][A-Za-z]+(?:\.[A-Z][A-Za-z0-9]+){2,}", value):
        return True  # a .NET type: System.Security.SecureString
    if re.fullmatch(r"[A-Za-z_]\w*=\w+", value):
        return True  # an argument: capture_all=True
    return re.fullmatch(r"[a-z]+(?:_[a-z]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", value) is not None


def _is_version(value: str) -> bool:
    return re.fullmatch(r"(?i)v?\d+(?:\.\d+)+[a-z0-9.-]*", value) is not None


def label_at_end(line: str) -> str | None:
    """The kind of label that ends `line`, whose value is then on the next line: the label itself
    ("**Door code**", "## Alarmcode") or the label and a few words before a closing colon
    ("Neues Kennwort für die Oberfläche:", "hasło do konta admin (tymczasowe):"); None otherwise."""
    folded = line.casefold().rstrip()
    colon = folded.endswith((":", "：")) or re.search(r"[:：][*_`]*$", folded) is not None
    stripped = re.sub(r"[\s:：=＝*_`#>|\-–—]+$", "", folded)
    stripped = re.sub(r"^[\s#>*_`|\-+\d.)]+", "", stripped)
    if not stripped:
        return None
    tail = stripped[-90:] if colon else stripped
    if not colon and len(stripped) > 60:
        return None
    for kind, pattern in _patterns().items():
        for label in pattern.finditer(tail):
            rest = tail[label.end() :].replace(" / ", " ")  # "du portail cantine / périscolaire :"
            if label.end() == len(tail) or colon and re.fullmatch(_FILLER, rest) and not re.search(r"[.!?]\s", rest):
                return kind
    return None


def label_kind(cell: str) -> str | None:
    """The kind of label a table header cell is ("Password", "PIN", "Türcode"), or None."""
    folded = cell.casefold().strip(" \t*_`:")
    if not folded or len(folded) > 40:
        return None
    for kind, pattern in _patterns().items():
        if pattern.search(folded) is not None:
            return kind
    return None


# The word "code" alone, in the languages that list it: a heading "## Code" or "# Some more code"
# in technical writing is about source code, so a section needs a more specific name.
GENERIC_CODES = frozenset(
    ("code", "codes", "kode", "kod", "koodi", "código", "codice", "codi", "код", "코드", "コード")
)


def names_a_specific_code(title: str) -> bool:
    """Whether a heading names a code a person keeps (door, alarm, PIN…), not just "code"."""
    folded = title.casefold().strip(" \t*_`:")
    if not folded or len(folded) > 40:
        return False
    pattern = _patterns().get("code")
    return pattern is not None and any(m.group(0) not in GENERIC_CODES for m in pattern.finditer(folded))
