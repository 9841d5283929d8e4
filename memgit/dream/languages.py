"""The language a note's line is written in, and its stop words (pure, after one cached load).

Dreaming's word rules (concept tags, chat filler, the words two facts share) drop function words,
and a workspace may be written in German, Spanish or several languages at once. The stop-word lists
are the `stop-words` package's (maintained lists for 30-odd languages); a line's language is the
one whose list holds most of its words, English when no other list holds more than the English
one does. English lines keep memgit's own short list (`core.text.STOP_WORDS`), which search and
the tuned rules share; another language's line drops that language's list as well.
"""

from __future__ import annotations

import re
from functools import cache

from memgit.core.text import STOP_WORDS

#: Languages read (the `stop-words` package's names), besides English. Scripts memgit's word
#: rules cannot split (Chinese, Japanese) are left to the CJK handling.
OTHER_LANGUAGES = (
    "german",
    "french",
    "spanish",
    "italian",
    "portuguese",
    "dutch",
    "swedish",
    "danish",
    "norwegian",
    "finnish",
    "polish",
    "czech",
    "romanian",
    "hungarian",
    "turkish",
    "catalan",
    "indonesian",
    "russian",
    "ukrainian",
    "greek",
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)


@cache
def _lists() -> dict[str, frozenset[str]]:
    from stop_words import get_stop_words

    out = {"english": frozenset(get_stop_words("english"))}
    for name in OTHER_LANGUAGES:
        out[name] = frozenset(w.lower() for w in get_stop_words(name))
    return out


def language_of(text: str) -> str:
    """The language of `text` by its function words ("english" when none other has more). Each
    other language is weighed against English by the words only one of the two lists holds: the
    package's English list is long and holds "de", "si", "es", "ref" and single letters, so a count
    of all hits called half of a German or Spanish workspace's lines English."""
    tokens = {w.lower() for w in _WORD.findall(text) if len(w) >= 2}
    if not tokens:
        return "english"
    lists = _lists()
    english = lists["english"]
    best, margin = "english", 0
    for name in OTHER_LANGUAGES:
        other = lists[name]
        lead = len((tokens & other) - english) - len((tokens & english) - other)
        if lead > margin:
            best, margin = name, lead
    return best


def stop_list(language: str) -> frozenset[str]:
    """The `stop-words` package's list for `language` (one of `OTHER_LANGUAGES`, or "english")."""
    return _lists()[language]


@cache
def _stop_set(language: str) -> frozenset[str]:
    return STOP_WORDS if language == "english" else STOP_WORDS | _lists()[language]


def stop_words_for(text: str) -> frozenset[str]:
    """The stop words to drop from `text`: memgit's English list, and its own language's."""
    return _stop_set(language_of(text))
