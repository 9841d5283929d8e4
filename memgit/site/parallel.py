"""Pure work of a big build spread over every core: forked workers that inherit what they need.

A full build of a big repository is mostly two pure steps, redacting and summarising every note
(the lint's secret rules, line by line) and rendering the pages (Markdown parsing). Forked workers
inherit the function and its inputs (nothing is pickled on the way in), and send back only what
they made, which is what one process would make. One process does the work when there is little
of it, one core, `MEMGIT_SITE_JOBS=1`, or other threads running (`site serve`'s HTTP server: a
fork could copy a lock one of them holds).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

#: Items a worker does before a fresh one takes its place.
RECYCLE = 400
_work: Callable[[Any], Any] | None = None
_items: Sequence[Any] = ()


def workers() -> int:
    """Processes to work in: one a core, at most four, `MEMGIT_SITE_JOBS` lowering it."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    wanted = os.environ.get("MEMGIT_SITE_JOBS", "")
    return min(cores, 4, int(wanted)) if wanted.isdigit() and int(wanted) > 0 else min(cores, 4)


def _call(index: int) -> tuple[int, Any]:
    assert _work is not None
    return index, _work(_items[index])


def forked_map(work: Callable[[Any], Any], items: Sequence[Any], minimum: int = 200) -> Iterator[tuple[int, Any]]:
    """(index, work(item)) for every item, in the order they are done (in this process: in order).

    The caller takes each result before the next arrives, so only the results in flight are held.
    """
    global _work, _items
    count = workers()
    context = None
    if len(items) >= minimum and count >= 2 and threading.active_count() == 1:
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:
            context = None
    if context is None:
        for index, item in enumerate(items):
            yield index, work(item)
        return
    _work, _items = work, items
    try:
        chunk = min(32, max(4, len(items) // (count * 16)))
        # A worker copies each page of the parent's heap it touches (reference counts are
        # writes): a fresh worker now and then gives them back (a big site's workers grew to
        # 150 MB each; forking again costs milliseconds).
        with context.Pool(count, maxtasksperchild=max(1, RECYCLE // chunk)) as pool:
            yield from pool.imap_unordered(_call, range(len(items)), chunksize=chunk)
    finally:
        _work, _items = None, ()
