"""Concept tags, subjects and text similarity without a model (pure).

Tags are what the REM phase counts into themes and the `conceptual` score component reads: the
distinct words of a snippet, stop words out, 3-32 characters, at most eight, CJK runs kept whole
(a CJK word has no spaces around it, and a single character already carries meaning).
"""

from __future__ import annotations

import hashlib
import re

from memgit.core.text import CJK_RE, STOP_WORDS, WORD_RE

MAX_TAGS = 8
#: Words search keeps in a query (they can matter to BM25) but that name no concept: a theme
#: "must" or "found" in a dream report, or a concept page for "every", tells a reviewer nothing.
#: Common verbs, adverbs and chat filler; nouns stay, even generic ones ("time", "work").
NOT_CONCEPTS = frozenset(
    """must may might shall also need needs needed one two yes okay ok yeah sure thanks thank hey wow
    first last next every much many lot lots really still always never maybe often sometimes already
    even well good great nice new old big little today yesterday tomorrow tonight
    get gets got getting make makes made making use uses used using find finds found finding want wants
    wanted know knows knew think thinks thought said say says tell told going went come came take took
    give gave keep kept like likes liked let lets see saw seen look looks looked seems feel felt try tried
    thing things something anything everything nothing someone anyone everyone""".split()
)
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_EMPHASIS = re.compile(r"(\*\*|__|`)")
_SPEAKER = re.compile(r"^\s*(?:[-*+]\s+)?\*\*(?P<name>[^*]{1,40})\*\*\s*:")


def concept_tags(text: str, limit: int = MAX_TAGS) -> list[str]:
    """Up to `limit` distinct concept words of `text`, in order of first appearance."""
    tags: list[str] = []
    for word in WORD_RE.findall(text):
        lowered = word.lower()
        if CJK_RE.search(word):
            tag = lowered[:32]
        elif lowered in STOP_WORDS or lowered in NOT_CONCEPTS or not 3 <= len(lowered) <= 32 or lowered.isdigit():
            continue
        else:
            tag = lowered
        if tag not in tags:
            tags.append(tag)
        if len(tags) >= limit:
            break
    return tags


def words(text: str) -> frozenset[str]:
    """Content words (stop words out; CJK characters one by one) for overlap measures."""
    out: set[str] = set()
    for word in WORD_RE.findall(text):
        lowered = word.lower()
        if CJK_RE.search(word):
            out.update(ch for ch in CJK_RE.findall(word))
            rest = CJK_RE.sub(" ", word).split()
            out.update(r.lower() for r in rest if r.lower() not in STOP_WORDS)
        elif lowered not in STOP_WORDS:
            out.add(lowered)
    return frozenset(out)


def jaccard(a: str, b: str) -> float:
    left, right = words(a), words(b)
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def plain(text: str) -> str:
    """A promoted line as it should read in MEMORY.md: no list marker, single spaces."""
    lines = [_LIST_MARKER.sub("", line).strip() for line in text.splitlines()]
    return " ".join(line for line in lines if line)


def subject(text: str) -> str | None:
    """Who or what a fact is about: the speaker of a `**Name**:` line, else its first content word."""
    match = _SPEAKER.match(text)
    if match:
        return match["name"].strip().lower()
    for word in WORD_RE.findall(_EMPHASIS.sub("", plain(text))):
        lowered = word.lower()
        if lowered not in STOP_WORDS and not lowered.isdigit():
            return lowered
    return None


def entry_key(text: str) -> str:
    """Stable key of a fact: the same words give the same key wherever and whenever they are found."""
    normal = " ".join(plain(text).lower().split())
    return "k" + hashlib.sha1(normal.encode("utf-8")).hexdigest()[:10]
