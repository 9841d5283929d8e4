"""Pure text helpers for keyword search: CJK-aware FTS text and always-valid FTS5 queries."""

from __future__ import annotations

import re

# Han, Hiragana, Katakana, Hangul, CJK punctuation-free ranges: each character is a token, so
# unicode61 (which would swallow a whole run of CJK as one "word") finds words inside runs.
_CJK_CLASS = "([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\U00020000-\U0002ebef])"
#: Below the first CJK code point of the class: text whose largest character is under it never matches.
_CJK_FLOOR = "\u1100"


class _CjkPattern:
    """The CJK pattern, compiled on the first text that could match it.

    Its ranges reach into the astral planes, so compiling takes ≈3 ms: a noticeable share of a
    one-shot search's start-up, for a pattern that Latin-script memory never needs. Text whose
    largest character sits below the class cannot match, and `max` over a string is cheap, so
    those calls answer without the pattern (with exactly what the regex would return).
    """

    def __init__(self) -> None:
        self._pattern: re.Pattern[str] | None = None

    def _compiled(self) -> re.Pattern[str]:
        if self._pattern is None:
            self._pattern = re.compile(_CJK_CLASS)
        return self._pattern

    @staticmethod
    def _cannot_match(text: str) -> bool:
        return not text or max(text) < _CJK_FLOOR

    def search(self, text: str) -> re.Match[str] | None:
        return None if self._cannot_match(text) else self._compiled().search(text)

    def sub(self, repl: str, text: str) -> str:
        return text if self._cannot_match(text) else self._compiled().sub(repl, text)

    def split(self, text: str) -> list[str]:
        return [text] if self._cannot_match(text) else self._compiled().split(text)

    def findall(self, text: str) -> list[str]:
        return [] if self._cannot_match(text) else self._compiled().findall(text)


CJK_RE = _CjkPattern()
WORD_RE = re.compile(r"\w+", re.UNICODE)

STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    just me might more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    ever kind likely whats""".split()
)


def fts_text(text: str) -> str:
    """Text as stored in the FTS table: CJK characters spaced apart, everything else unchanged."""
    return CJK_RE.sub(r" \1 ", text)


def invalid_utf8_at(text: str) -> int | None:
    """Offset of the first character UTF-8 cannot encode, or None. Bytes that were not UTF-8
    reach Python from argv, a file read with `surrogateescape` or a JSON `"\\udcff"` as lone
    surrogates; no memory file, index or JSON line can hold them, so callers refuse them."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def query_terms(query: str, drop_stop_words: bool = True) -> list[str]:
    """Search terms of a free-text query: words, with CJK runs kept as phrases of characters."""
    terms: list[str] = []
    for word in WORD_RE.findall(query):
        lowered = word.lower()
        if CJK_RE.search(word):
            pieces = [p for p in CJK_RE.split(word) if p]
            terms.append(" ".join(pieces))
            continue
        if drop_stop_words and lowered in STOP_WORDS:
            continue
        if lowered.isdigit() and len(lowered) == 1:
            continue
        terms.append(lowered)
    if not terms and drop_stop_words:
        return query_terms(query, drop_stop_words=False)
    return list(dict.fromkeys(terms))


def match_expression(terms: list[str]) -> str | None:
    """An FTS5 MATCH expression that cannot be a syntax error: every term quoted, OR'ed."""
    if not terms:
        return None
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


def prune_common_terms(terms: list[str], doc_counts: dict[str, int], total: int, max_share: float) -> list[str]:
    """Drop words found in more than `max_share` of all chunks, keeping at least one term.

    BM25 gives such words little weight (idf of a word in 30 % of chunks is ~1.2 against ~7 for
    a rare one) but scoring them costs a pass over a third of the index. Phrases (CJK) and
    words whose count is unknown always stay.
    """
    if max_share <= 0 or max_share >= 1 or total <= 0 or len(terms) < 2:
        return terms
    kept = [t for t in terms if " " in t or t not in doc_counts or doc_counts[t] <= max_share * total]
    return kept or terms


def token_set(text: str) -> frozenset[str]:
    """Lower-cased word set, for MMR's Jaccard similarity."""
    return frozenset(w.lower() for w in WORD_RE.findall(fts_text(text)))


class NotText(ValueError):
    """Bytes that memgit will not read as a memory file; `reason` is the user-facing why."""

    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


def decode_memory_text(data: bytes) -> str:
    """Memory files are UTF-8 text: a NUL byte marks a binary file, bad UTF-8 an unreadable one."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise NotText("binary file (NUL bytes)", nul)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotText(f"not valid UTF-8 (byte {exc.start})", exc.start) from None
