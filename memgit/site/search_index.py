"""The site's search index, built at build time so a page answers its first query without
indexing anything in the browser.

One inverted index per shard (a shard is the chunks of the files whose path hashes to it, so a
one-file commit rewrites one shard): each chunk's words and their counts, as postings
`term -> [doc, count, doc, count, ...]` (as parallel sorted `keys` and `post` lists), and each
chunk's length. The page's script loads every
shard, sums document frequencies and lengths across shards and ranks with BM25, so shards stay
independent. Words are what `\\w+` finds in NFC, lower-cased text; site.js splits queries the same
way (`[\\p{L}\\p{N}_]+`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    return WORD.findall(unicodedata.normalize("NFC", text).lower())


def shard_index(docs: Sequence[Sequence]) -> dict:
    """`docs` rows are `[url, path, start, kind, date, heading, text]` (search_docs): the shard as
    the page loads it, with postings and lengths over heading, text and the path's words; each
    chunk is `[file, start, heading, text]` with `files` rows `[url, path, kind, date]`."""
    terms: dict[str, list[int]] = {}
    lengths = []
    for number, doc in enumerate(docs):
        counts = Counter(words(f"{doc[1]} {doc[5]}\n{doc[6]}"))
        lengths.append(sum(counts.values()))
        for term, count in counts.items():
            terms.setdefault(term, []).extend((number, count))
    # Sorted as JavaScript compares strings (UTF-16 code units), so the page finds a word, or the
    # words a prefix starts, by binary search without building any table of its own.
    keys = sorted(terms, key=lambda term: term.encode("utf-16-be"))
    # What a file's chunks share (url, path, kind, date) is written once per file.
    files: dict[tuple, int] = {}
    rows = []
    for doc in docs:
        number = files.setdefault((doc[0], doc[1], doc[3], doc[4]), len(files))
        rows.append([number, doc[2], doc[5], doc[6]])
    return {"files": [list(f) for f in files], "docs": rows, "len": lengths, "keys": keys,
            "post": [terms[k] for k in keys]}
