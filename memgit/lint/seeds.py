"""Wallet seed phrases: twelve or more consecutive words of one BIP-39 word list (lint S115; pure).

Whoever holds a wallet's recovery phrase holds the wallet, and people write it down in notes: on
one line, numbered one a line, in a table, in any of the languages BIP-39 has lists for. The word
lists are the `mnemonic` package's (Trezor's reference implementation: English, Spanish, French,
Italian, Portuguese, Czech, Turkish, Russian, Japanese, Korean, both Chinese scripts); each word
also counts without its accents, as people type them.

Ordinary prose never runs twelve words from one list: its small words ("the", "of", "und", "de")
are in none. A list that runs one word a line is held to more, since a list of twelve common
nouns can be all list words: it counts when its items are numbered, when a line above it names a
seed, recovery or wallet phrase, or when its words pass the BIP-39 checksum.
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from collections.abc import Collection
from functools import cache
from pathlib import Path

from memgit.lint.hits import Hit

CODE = "S115"
MIN_WORDS = 12
# A word, its combining accents included (a phrase copied from a wallet may be decomposed, NFD).
_WORD = re.compile(r"(?:[^\W\d_]|[\u0300-\u036f\u3099\u309a])+")
# What may stand between two words of a phrase besides spaces: numbering, list marks, table pipes,
# commas, quotes, code marks. Anything else (a full stop, a colon after a word, a bracket) ends it.
# Possessive throughout: a run of digits has one way to be read as numbers of one or two digits,
# so a long one between two list words (a block's hash "…0000</code>") fails at once instead of
# trying every split (exponential: a 66-digit gap hung the lint on a public document).
_GAP = re.compile(r"^[\s,;|·•*`'\"#>+\-–—/]*+(?:\d{1,2}+[.):]?+[\s,;|·•*`'\"#>+\-–—/]*+)*+$")
_NUMBERED = re.compile(r"^\s*(?:[-*+]\s+|\|\s*)?(?:#?\d{1,2}[.):]?\s+)")
_CONTEXT = re.compile(
    r"(?i)seed|mnemonic|recovery|phrase|wallet|bip-?39|secret words|backup words|12 words|24 words|metamask|ledger"
    r"|trezor|семя|сид|фраз|кошел|mnemotechn|frase|semilla|graine|phrase de|wörter|wiederherstellung|cartera"
    r"|portefeuille|carteira|portafoglio|助记词|助記詞|シード|ニーモニック|복구|시드|cüzdan|kurtarma"
    # a wallet and its words in more languages
    r"|portfel|słowa|slowa|peněženk|penezenk|slova|obnov|dompet|lompakko|plånbok|tegnebog|lommebok|portemonnee"
    r"|herstelzin|geldbörse|wallet|kripto|crypto|bitcoin|ethereum|كلمات|محفظة|ארנק|กระเป๋า|ví tiền|từ khôi phục"
)
#: How many lines above a run of several lines a line naming a seed may stand (a paragraph telling
#: what the words are, then a fence, then the words).
_CONTEXT_LINES = 8


@cache
def _vocabulary() -> dict[str, int]:
    """Each list word (and its accent-free spelling) -> a bit per language list holding it."""
    vocabulary: dict[str, int] = {}
    for bit, words in enumerate(_word_lists()):
        flag = 1 << bit
        for word in words:
            if word.isascii():
                vocabulary[word] = vocabulary.get(word, 0) | flag  # the lists are written in small letters
                continue
            for form in {_fold(word), _plain(word)}:
                vocabulary[form] = vocabulary.get(form, 0) | flag
    return vocabulary


def _word_lists() -> list[list[str]]:
    """The `mnemonic` package's word lists, by language name, read from its files: importing the
    package (hashing and key derivation for wallets) would cost a commit's lint hook more than
    reading them does."""
    spec = importlib.util.find_spec("mnemonic")
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    if not folders:
        return []
    lists = Path(folders[0]) / "wordlist"
    return [
        [line.strip() for line in (lists / name).read_text(encoding="utf-8").splitlines() if line.strip()]
        for name in sorted(entry.name for entry in lists.iterdir() if entry.name.endswith(".txt"))
    ]


def _fold(word: str) -> str:
    return unicodedata.normalize("NFC", word).casefold()


def _plain(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def find(lines: list[str], wanted: Collection[int] | None) -> list[Hit]:
    """A hit on each line of each run of twelve or more words of one list (only lines in `wanted`)."""
    hits: list[Hit] = []
    if not _enough_words(lines):
        return hits  # no phrase fits (a file name, a short note): the word lists are not even read
    for run in _runs(lines):
        if not _counts(lines, run):
            continue
        spans: dict[int, tuple[int, int]] = {}
        for index, start, end in run:
            first, last = spans.get(index, (start, end))
            spans[index] = (min(first, start), max(last, end))
        for index, (start, end) in sorted(spans.items()):
            if wanted is None or index in wanted:
                message = f"a wallet seed phrase ({len(run)} words of a BIP-39 list); move it to a safe place"
                hits.append(Hit(index, CODE, message, lines[index][start:end]))
    return hits


def _enough_words(lines: list[str]) -> bool:
    """Whether `lines` hold `MIN_WORDS` words at all (counting stops there: a long file pays for
    its first lines only)."""
    count = 0
    for line in lines:
        count += len(_WORD.findall(line))
        if count >= MIN_WORDS:
            return True
    return False


Word = tuple[int, int, int]  # (line index, start, end)


def _runs(lines: list[str]) -> list[list[Word]]:
    """Maximal runs of at least `MIN_WORDS` words that share a list, across lines."""
    vocabulary = _vocabulary()
    runs: list[list[Word]] = []
    run: list[Word] = []
    mask = 0
    previous: Word | None = None
    for index, line in enumerate(lines):
        if not line.strip():
            continue  # a blank line may part the groups of a phrase
        if previous is not None and previous[0] != index and lines[previous[0]][previous[2] :].strip(" \t|`*"):
            previous = None  # the last word's line went on with something else
        for match in _WORD.finditer(line):
            word = match.group(0)
            if word.isascii():
                bits = vocabulary.get(word.lower(), 0)
            else:
                bits = vocabulary.get(_fold(word)) or vocabulary.get(_plain(word)) or 0
            gap = line[previous[2] : match.start()] if previous is not None and previous[0] == index else " "
            # A hyphen alone joins the parts of one name ("left-index-finger"), not two words of a phrase.
            joined = previous is not None and _GAP.match(gap) is not None and gap not in ("-", "_")
            if previous is not None and previous[0] != index and line[: match.start()].strip(" \t|`*#>-+").strip():
                joined = joined and _NUMBERED.match(line) is not None
            if bits & mask and joined:
                mask &= bits
                run.append((index, match.start(), match.end()))
            else:
                if len(run) >= MIN_WORDS:
                    runs.append(run)
                mask, run = bits, ([(index, match.start(), match.end())] if bits else [])
            previous = (index, match.start(), match.end()) if bits else None
    if len(run) >= MIN_WORDS:
        runs.append(run)
    return runs


def _counts(lines: list[str], run: list[Word]) -> bool:
    """One line of twelve list words counts; a run over several lines needs its numbers, a line
    above naming a seed phrase, or the BIP-39 checksum. Twelve words drawn from 2,048 rarely
    repeat: a run that says the same words again and again ("left-thumb|left-index-finger|…")
    is a list of names."""
    words = [_fold(lines[i][s:e]) for i, s, e in run]
    if len(set(words)) < len(words) - 2:
        return False
    first_line, last_line = run[0][0], run[-1][0]
    if first_line == last_line or len({w[0] for w in run}) * 6 <= len(run):
        return True  # one line, or a few lines of six or more words each
    if all(_NUMBERED.match(lines[index]) for index in {w[0] for w in run}):
        return True
    above = "\n".join(lines[max(0, first_line - _CONTEXT_LINES) : first_line + 1])
    if _CONTEXT.search(above):
        return True
    return _checksum_holds([lines[i][s:e] for i, s, e in run])


def _checksum_holds(words: list[str]) -> bool:
    """Whether some 12- to 24-word window of `words` passes BIP-39's checksum in some language."""
    from mnemonic import Mnemonic

    for size in (24, 21, 18, 15, 12):
        for start in range(0, len(words) - size + 1):
            phrase = " ".join(_fold(w) for w in words[start : start + size])
            for language in Mnemonic.list_languages():
                try:
                    if Mnemonic(language).check(phrase):
                        return True
                except (ValueError, LookupError):
                    continue
    return False
