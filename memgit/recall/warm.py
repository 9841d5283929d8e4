"""What a long-running searcher does before its first query so that it does not pay for it: ask
the kernel to read the float vectors into its page cache. (Filling or loading the per-word BM25
cache is the index's: memgit.index.word_cache.)
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def read_ahead_vectors(data_dir: Path) -> None:
    """Ask the kernel to read the float vectors into its page cache (asynchronous; page cache
    is not this process's memory): the exact re-score reads rows from them."""
    from memgit.index.vectors import base_path

    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(base_path(data_dir), os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
        finally:
            os.close(fd)
