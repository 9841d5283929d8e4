"""Many words as one regular expression, written as a trie (pure).

A regular expression engine tries an alternation of a thousand words one after another at every
position of a text; written as a trie, it follows one branch per character. The label patterns
of fifty languages (`memgit.lint.labelled`) are searched on every candidate line of every file
`memgit lint --all` reads, so the form matters (five times faster on notes), and a hypothesis test
holds it to the plain list (`tests/lint/test_labels.py`).
"""

from __future__ import annotations

import re

#: A trie of characters: each key one character of a word ("" where a word ends), its value the rest.
_Trie = dict[str, "_Trie"]


def alternation(words: set[str]) -> str:
    """One pattern for `words`, the longest first where several match (as a list sorted by length
    would be); a space in a word matches a space, a tab, a hyphen or nothing."""
    trie: _Trie = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return _trie_pattern(trie)


def _trie_pattern(node: _Trie) -> str:
    end = "" in node
    branches = [
        (r"[ \t-]?" if char == " " else re.escape(char)) + _trie_pattern(child)
        for char, child in sorted(node.items())
        if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if end:  # the word may stop here: the longer words first (greedy), then this one
        return "(?:" + body + ")?" if len(branches) > 1 or len(body) > 1 else body + "?"
    return body
