"""Which lines of a text any per-line secret rule could flag, found cheaply (pure).

The site redacts every memory file it shows on every full build and `memgit lint --all` reads
every line, so the rules (`memgit.lint.rules.scan_secrets`) run only on the lines these whole-text
searches take: a run of token characters, a PEM header, credentials in a URL, a password word or
`-p` option, the shape rules' words and digit runs (`shapes.may_match`), and lines whose reader's
view differs. A hypothesis test (`tests/lint/test_redact_scan.py`) holds this to the rules.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import AnyStr

from memgit.lint.normalize import TRIGGERS, reader_view
from memgit.lint.shapes import candidate_lines, may_match
from memgit.lint.trie import alternation

# What every secret rule needs on its line (`scan_secrets`): a run of 15+ token characters (every
# token shape, an assigned value of 16+, detect-secrets' candidates of 24+), a PEM header, credentials
# in a URL, a password word, `redis-cli` or a `-p` option. No alternative matches across a line break, and each
# ends on the line it is about; a hypothesis test holds this to the rules.
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-.~")
_MAYBE = re.compile(
    r"[A-Za-z0-9+/=_\-.~]{15,}|-----BEGIN|://[^\s@]*@|(?i:p(?:ass(?:w|phrase)|wd)|redis-cli)|(?:^|[^\S\n])-p",
    re.MULTILINE,
)


def may_hold_secret(line: str) -> bool:
    """Whether any rule could flag `line`: as written, or as a reader sees it (`reader_view`)."""
    if _MAYBE.search(line) is not None or may_match(line) or _named(line):
        return True
    view = reader_view(line)
    return view != line and (_MAYBE.search(view) is not None or may_match(view) or _named(view))


def _named(line: str) -> bool:
    """Whether a stem of an S117 label or an S116 identifier's name is on `line`."""
    if _NAMED_VALUE.search(line) is None:
        return False
    folded = _as_words(line.replace("\u0130", "i").lower())
    return any(stem in folded for stem in name_stems())


def _as_words(lowered: str) -> str:
    """`_` and `-` read as spaces (same length: positions stay), so that a key whose parts are words
    (`api_key:`, `nas-admin-pw:`) holds the stems of the labels it spells (`labelled.value_in_key`)."""
    return lowered.replace("_", " ").replace("-", " ")


@cache
def name_stems() -> tuple[str, ...]:
    """The literal stems (case-folded, four characters at most) of every S117 label and S116 name:
    a line holding none of them cannot be flagged by those rules."""
    from memgit.lint.identifiers import name_words
    from memgit.lint.labelled import label_words

    # Read as the text is (`_as_words`): a stem "sv-n" or "d-nr" would never be found in it. A word
    # that holds another word whole needs no stem of its own: "one-time code" is found by "code",
    # and its own stem "one " would take every line with "one " in it.
    words = {_as_words(word.lower()) for word in (*label_words(), *name_words()) if word}
    stems = {word[:4] for word in words if not _holds_another(word, words)}
    # A stem that holds another is redundant; a stem has at most ten shorter parts to look up.
    return tuple(sorted(s for s in stems if not any(part in stems for part in _shorter_parts(s))))


def _holds_another(phrase: str, words: set[str]) -> bool:
    """Whether a phrase of several words holds, as a run of its words, another of `words`."""
    parts = phrase.split()
    return len(parts) > 1 and any(
        " ".join(parts[i:j]) in words
        for i in range(len(parts))
        for j in range(i + 1, len(parts) + 1)
        if j - i < len(parts)
    )


def _shorter_parts(stem: str) -> set[str]:
    return {stem[i:j] for i in range(len(stem)) for j in range(i + 1, len(stem) + 1)} - {stem}


# A labelled value or an identifier holds a digit or follows ":" or "=" (`labelled.find_value`), or
# a line ends in a number's mark and its value is the next line's ("AOK Versichertennr." / "T48…").
_NAMED_VALUE = re.compile(r"[\d:=：→]|(?i:nr|no|n[°º])\.?[ \t]*$")


@lru_cache(maxsize=2)  # the engine and the redaction's candidate search ask for the same text
def named_lines(text: str) -> frozenset[int]:
    """The lines `_named` takes: a stem (`stem_lines`) and a digit, ":" or "="."""
    lines = text.split("\n")
    return frozenset(n for n in stem_lines(text) if _NAMED_VALUE.search(lines[n]))


@lru_cache(maxsize=2)
def stem_lines(text: str) -> frozenset[int]:
    """The lines holding a stem of a label or an identifier's name, with or without a value (a
    sentence wrapped after its label): one pass of every stem as a trie-shaped pattern over the
    lower-cased text as UTF-8, each line left at its first stem. A `find` of each of the thousand
    stems took 8-13 times as long on notes of every size, and seconds on a 5 MB line."""
    lowered = _as_words(text.replace("\u0130", "i").lower())  # İ is the one letter whose lower case is longer
    if len(lowered) != len(text):
        stems = name_stems()
        return frozenset(
            n
            for n, line in enumerate(text.split("\n"))
            if any(stem in _as_words(line.replace("\u0130", "i").lower()) for stem in stems)
        )
    data = lowered.encode("utf-8", "surrogatepass")
    at: list[int] = []
    pattern, i = _stem_pattern(), 0
    while (found := pattern.search(data, i)) is not None:
        at.append(found.start())
        end = data.find(b"\n", found.start())
        if end < 0:
            break
        i = end + 1
    return frozenset(_lines_at(data, b"\n", at))


@cache
def _stem_pattern() -> re.Pattern[bytes]:
    """Every stem's UTF-8 bytes as one trie-shaped pattern (each byte a character of Latin-1, so
    that the trie branches by byte), a space as a space: exactly the lines holding a stem."""
    stems = {stem.encode("utf-8").decode("latin-1").replace(" ", "\x00") for stem in name_stems()}
    pattern = alternation(stems).replace(re.escape("\x00"), " ")  # the trie reads a space loosely
    return re.compile(pattern.encode("latin-1"))


# The fast path reads the text as UTF-8 bytes: a run of token characters shows as a run of b"a".
_RUN = b"a" * 15
_RUN_TABLE = bytes(ord("a") if chr(i) in _TOKEN_CHARS else ord(" ") for i in range(128)) + b" " * 128
_WORDS = (b"passw", b"passphrase", b"pwd", b"redis-cli")
# Before a `-p` option: whitespace (str.isspace's ASCII ones), or any byte of a character outside
# ASCII (some are spaces: taking them all only adds candidates).
_BEFORE_OPTION = frozenset(b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f") | frozenset(range(128, 256))
# The only characters outside ASCII that the rules' case-blind patterns take for ASCII letters
# (dotted and dotless i, long s, the Kelvin sign): a text holding one takes the slow path.
_CASE_TWINS = re.compile("[\u0130\u0131\u017f\u212a]")
_CREDENTIALS_URL = re.compile(rb"://[^\s@]*@")


def text_candidates(text: str) -> list[int]:
    """0-based numbers of the lines of `text` (split on \\n) that may hold a secret, ascending:
    every line `may_hold_secret` takes. The shape rules' words and digit runs (`may_match`) and the
    lines whose reader's view may differ (escapes, entities, markup, invisible characters) are
    found with whole-text searches; the token rules' lines with byte-level ones."""
    found = set(_token_lines(text)) | named_lines(text)
    lines = text.split("\n")
    for number in candidate_lines(text) - found:
        if may_match(lines[number]):
            found.add(number)
    for number in _lines_at(text, "\n", _first_per_line(TRIGGERS, text)):
        if number in found:
            continue
        # Not found as written (both searches above take every such line): only its view can be.
        view = reader_view(lines[number])
        if view != lines[number] and (_MAYBE.search(view) is not None or may_match(view) or _named(view)):
            found.add(number)
    return sorted(found)


def _first_per_line(pattern: re.Pattern[str], text: str) -> list[int]:
    """The position of `pattern`'s first match on each line that has one (ascending)."""
    out: list[int] = []
    match = pattern.search(text)
    while match is not None:
        out.append(match.start())
        end = text.find("\n", match.start())
        match = None if end < 0 else pattern.search(text, end + 1)
    return out


def _token_lines(text: str) -> list[int]:
    """The lines `_MAYBE` matches (and a few more), found with byte-level searches that skip whole
    stretches of prose (about ten times faster on notes than the regular expression)."""
    if not text.isascii() and _CASE_TWINS.search(text) is not None:
        return sorted(set(_lines_at(text, "\n", [match.end() - 1 for match in _MAYBE.finditer(text)])))
    data = text.encode("utf-8", "surrogatepass")
    at: list[int] = []
    for needle in (b"-----BEGIN", b"://", b"-p"):
        i = data.find(needle)
        while i >= 0:
            if needle == b"-p":
                keep = i == 0 or data[i - 1] in _BEFORE_OPTION  # an option, not a hyphenated word
            else:
                keep = needle != b"://" or _CREDENTIALS_URL.match(data, i) is not None
            if keep:
                at.append(i)
            i = data.find(needle, i + 1)
    lowered = data.lower()
    for word in _WORDS:
        i = lowered.find(word)
        while i >= 0:
            at.append(i)
            i = lowered.find(word, i + 1)
    runs = data.translate(_RUN_TABLE)
    i = runs.find(_RUN)
    while i >= 0:
        at.append(i)
        i = data.find(b"\n", i)  # one hit a line is enough: go on from the next line
        i = -1 if i < 0 else runs.find(_RUN, i)
    return sorted(set(_lines_at(data, b"\n", sorted(at))))


def _lines_at(text: AnyStr, newline: AnyStr, positions: list[int]) -> list[int]:
    """The 0-based line number of each of `positions` (ascending)."""
    out: list[int] = []
    line = previous = 0
    for position in positions:
        line += text.count(newline, previous, position)
        previous = position
        out.append(line)
    return out
