"""The site's search index, built at build time so a page answers its first query without
indexing anything in the browser.

One inverted index per shard (a shard is the chunks of the files whose path hashes to it, so a
one-file commit rewrites one shard): each chunk's words and their counts, as postings
`term -> docs and counts` (as parallel sorted `keys` and `post` lists, `packed`), and each
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

from memgit.site.visible import visible

WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    return WORD.findall(unicodedata.normalize("NFC", text).lower())


def shard_index(docs: Sequence[Sequence]) -> dict:
    """`docs` rows are `[url, path, start, kind, date, heading, text]` (search_docs): the shard as
    the page loads it, with postings and lengths over heading, text and the path's words; each
    chunk is `[file, start, end, heading]` with `files` rows `[url, path, kind, date, first line,
    text of its lines]`."""
    # Postings are packed as they are made (see `packed`): docs come in order, so each word
    # only needs the last doc it was seen in.
    post: dict[str, list[int]] = {}
    last: dict[str, int] = {}
    lengths = []
    for number, doc in enumerate(docs):
        counts = Counter(words(f"{doc[1]} {doc[5]}\n{doc[6]}"))
        lengths.append(sum(counts.values()))
        for term, count in counts.items():
            found = post.get(term)
            if found is None:
                found = post[term] = [number]
            else:
                found.append(number - last[term])
            last[term] = number
            if count > 1:
                found.extend([0] * (count - 1))
    # Sorted as JavaScript compares strings (UTF-16 code units), so the page finds a word, or the
    # words a prefix starts, by binary search without building any table of its own.
    keys = sorted(post, key=lambda term: term.encode("utf-16-be"))
    # What a file's chunks share is written once: url, path, kind, date, and its lines (chunks
    # overlap, so each line once), from its first chunk's first line on. A chunk names its file
    # and line range.
    files: dict[tuple, int] = {}
    texts: list[dict[int, str]] = []
    rows = []
    for doc in docs:
        number = files.setdefault((doc[0], doc[1], doc[3], doc[4]), len(files))
        if number == len(texts):
            texts.append({})
        lines = doc[6].split("\n")
        for offset, line in enumerate(lines):
            known = texts[number].get(doc[2] + offset)
            if known is None or len(line) > len(known):
                texts[number][doc[2] + offset] = line
        rows.append([number, doc[2], doc[2] + len(lines) - 1, doc[5]])
    # What the page shows of a hit (path, heading, lines) carries invisible characters as visible
    # escapes, as every page does; the words were counted from the text itself.
    rows = [[number, start, end, visible(heading)] for number, start, end, heading in rows]
    table = []
    for (url, path, kind, date), lines in zip(files, texts, strict=True):
        base = min(lines)
        text = "\n".join(lines.get(n, "") for n in range(base, max(lines) + 1))
        table.append([url, visible(path), kind, date, base, visible(text)])
    return {"files": table, "docs": rows, "len": lengths, "keys": keys, "post": [post[k] for k in keys]}


def packed(postings: Sequence[int]) -> list[int]:
    """`[doc, count, doc, count, ...]` as the page reads it: each doc as the gap from the one
    before (the first from 0), then one 0 for each further occurrence in it. Most words occur once
    in a chunk, so this is about a third of the plain form's size. (`shard_index` packs as it
    goes; this is the format's definition, which its tests hold it to.)"""
    out: list[int] = []
    previous = 0
    for i in range(0, len(postings), 2):
        doc, count = postings[i], postings[i + 1]
        out.append(doc - previous)
        out.extend([0] * (count - 1))
        previous = doc
    return out
