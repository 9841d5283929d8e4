"""A planned page: one output file, the key of the inputs it shows, the blobs it reads and how its
bytes are made. Planners (`pages`, `concept_pages`) make them; the build renders those whose key
changed since the last build (`build`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memgit.errors import MemgitError


@dataclass
class Plan:
    """One output file: its key (inputs it shows), the blobs it reads and how to make its bytes."""

    url: str
    key: str
    produce: Callable[[dict[str, bytes]], bytes]
    needs: tuple[str, ...] = ()


def unchanged(contents: dict[str, bytes]) -> bytes:  # pragma: no cover - a carried page is never rendered
    """How a page kept from the last build is made: never (its bytes are in the output already)."""
    raise MemgitError("internal error: a page kept from the last build was asked to render")


def constant(data: bytes) -> Callable[[dict[str, bytes]], bytes]:
    """A page whose bytes are known already (a static asset): it reads no blob."""
    return lambda contents: data


def blob_bytes(blob: str) -> Callable[[dict[str, bytes]], bytes]:
    """A copied file: the blob's bytes as they are."""
    return lambda contents: contents[blob]
