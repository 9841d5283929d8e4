"""The pictures a site copies, decided by their bytes, not by their names.

A note shows a picture of the workspace (`![alt](pic.png)`) only when that file's bytes are a
PNG, JPEG, GIF or WebP picture by its magic number: a repository can name anything `.png`, and
HTML or SVG (which can hold script) published under a picture's name is a page of its own on
many hosts. What each blob is is kept in the manifest, so a rebuild reads no picture twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memgit.core import paths
from memgit.site import urls

if TYPE_CHECKING:
    from memgit.site.reader import BlobReader, Entry

#: The largest picture a build copies into the site (bytes).
MAX_IMAGE = 5_000_000
#: Magic numbers: the first bytes each picture format starts with (WebP: RIFF, a size, WEBP).
_MAGIC = ((b"\x89PNG\r\n\x1a\n", ".png"), (b"\xff\xd8\xff", ".jpg"), (b"GIF87a", ".gif"), (b"GIF89a", ".gif"))


def picture_type(data: bytes) -> str:
    """The extension of the picture format `data` is by its bytes ("" when it is none of PNG,
    JPEG, GIF and WebP: SVG, HTML or anything else is never published as a picture)."""
    for magic, suffix in _MAGIC:
        if data.startswith(magic):
            return suffix
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    return ""


@dataclass
class Copies:
    """Where each shown picture is copied (path -> site url), what each blob is by its bytes
    (for the manifest), and (path, why) for each picture not copied."""

    urls: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    refused: list[tuple[str, str]] = field(default_factory=list)


def wanted(links: Iterable[str], tree: Mapping[str, Entry], hidden: Callable[[str], bool] | None) -> dict[str, str]:
    """The pictures notes link to that are regular files of the tree (path -> blob), none a
    public site may not show (`hidden`)."""
    return {t: tree[t].blob for t in links if t in tree and tree[t].is_regular and (hidden is None or not hidden(t))}


def copies(reader: BlobReader, wanted: dict[str, str], kept: dict[str, str]) -> Copies:
    """The pictures of `wanted` (path -> blob) worth copying, their sizes and bytes asked of the
    gatherer's `reader`; `kept` is what earlier builds found each blob to be."""
    found = Copies()
    blobs = set(wanted.values())
    sizes = reader.sizes(blobs)
    for blob in sorted(blobs):
        if blob in kept:
            found.kinds[blob] = kept[blob]
        elif sizes.get(blob, MAX_IMAGE + 1) <= MAX_IMAGE:
            found.kinds[blob] = picture_type(reader.read(blob))
    for path, blob in sorted(wanted.items()):
        shown = paths.display_path(path)
        if sizes.get(blob, MAX_IMAGE + 1) > MAX_IMAGE:
            found.refused.append((shown, f"larger than {MAX_IMAGE} bytes: shown as its alt text"))
        elif not found.kinds.get(blob):
            found.refused.append(
                (
                    shown,
                    "its bytes are no PNG, JPEG, GIF or WebP picture, whatever its name says: shown as its alt text",
                )
            )
        else:
            found.urls[path] = urls.image_url(blob, found.kinds[blob])
    return found
