"""Planning an update: which paths changed, what each should hold, and its chunks.

Pure decisions over plain values, fed by the git module: the tree-to-tree diff names the
changed paths with their new blob ids (the cost follows the diff), blob sizes are checked
before any content is read (a file over the limit is never loaded), and contents are read one
at a time and dropped once chunked, so memory follows the chunks, not the blobs.

Nothing about one file stops an update: a file that cannot be read, decoded or chunked is
recorded as skipped, with the reason, and every other file is indexed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memgit.core.chunking import Chunk, char_token_counter, chunk_lines, split_lines
from memgit.core.text import NotText, decode_memory_text
from memgit.core.transcripts import transcript_lines
from memgit.git import trees
from memgit.workspace import Workspace

#: The first line of a Git LFS pointer file (its blob holds this, not the file's content).
LFS_POINTER = b"version https://git-lfs.github.com/spec/"


@dataclass
class FileState:
    """What one path should hold in the index after this update (None content = remove)."""

    path: str
    blob: str
    mode: int
    source: str
    content: bytes | None
    skipped: str | None = None
    from_tree: bool = False  # content still to be read from the blob


def tree_states(ws: Workspace, tree: str) -> dict[str, trees.Entry]:
    """Every memory file of `tree` (a full rebuild's change set)."""
    return {p: e for p, e in ws.git.entries(tree).items() if ws.is_memory_path(p)}


class KnownDiff:
    """The paths that differ from `old_tree` to `new` (a commit or its tree: their ids never
    coincide), with what `new` holds there, as the caller that decided an update is due already
    read them: a hook, in Python (`Repo.diff_entries`) or in the shell (`git diff-tree --raw`).
    An update applies it only while the index is at `old_tree` and HEAD is `new`."""

    __slots__ = ("old_tree", "new", "entries")

    def __init__(self, old_tree: str, new: str, entries: dict[str, trees.Entry | None]) -> None:
        self.old_tree, self.new, self.entries = old_tree, new, entries

    def applies(self, old_tree: str | None, commit: str | None, tree: str) -> bool:
        """Is this the diff from the index's tree to HEAD's (`commit`, `tree`)?"""
        return self.old_tree == old_tree and self.new in (commit, tree)


def changed_entries(
    ws: Workspace,
    old_tree: str | None,
    tree: str,
    worktree_rows: list[str],
    diff: dict[str, trees.Entry | None] | None = None,
) -> dict[str, trees.Entry | None]:
    """Paths that may differ from the index, with what `tree` holds there: the diff from the
    indexed tree (`diff` when the caller already read it), plus rows indexed from the work tree
    (they fall back to the tree's version)."""
    changed = dict(diff) if diff is not None else ws.git.diff_entries(old_tree, tree)
    rest = [p for p in worktree_rows if p not in changed]
    if rest:
        found = ws.git.entries(tree, rest)
        for path in rest:
            changed[path] = found.get(path)
    return changed


def worktree_overlay(ws: Workspace) -> dict[str, bytes | None]:
    """Uncommitted memory files: their bytes, b"" for a symlink, None when deleted."""
    overlay: dict[str, bytes | None] = {}
    for path in ws.git.worktree_changed_paths():
        if ws.is_memory_path(path):
            full_path = ws.root / path
            if full_path.is_symlink():
                overlay[path] = b""
            else:
                overlay[path] = full_path.read_bytes() if full_path.is_file() else None
    return overlay


def plan_states(
    ws: Workspace,
    entries: dict[str, trees.Entry | None],
    overlay: dict[str, bytes | None],
    stored: dict[str, tuple[str, int, str, str | None]],
    *,
    rebuild: bool,
) -> list[FileState]:
    """The files to write or remove, in path order; unchanged ones are left out."""
    states: list[FileState] = []
    for path in sorted(set(entries) | set(overlay)):
        state = desired_state(ws, entries.get(path), path, overlay) if ws.is_memory_path(path) else None
        if state is None:
            if path in stored:
                states.append(FileState(path, "", 0, "tree", None))
            continue
        previous = stored.get(path)
        if previous and previous[:3] == (state.blob, state.mode, state.source) and not rebuild:
            continue
        states.append(state)
    return states


def desired_state(
    ws: Workspace, entry: trees.Entry | None, path: str, overlay: dict[str, bytes | None]
) -> FileState | None:
    """What `path` should hold; tree contents are read later, one blob at a time."""
    if path in overlay:
        data = overlay[path]
        if data is None:
            # Deleted in the work tree: recorded so the next HEAD-only update restores it.
            return FileState(path, "", 0, "worktree", None, "deleted in the work tree")
        if (ws.root / path).is_symlink():
            return FileState(path, "", 0o120000, "worktree", b"", "not a regular file (symlink)")
        return FileState(path, trees.blob_id_of(data), 0o100644, "worktree", data)
    if entry is None:
        return None
    if not entry.is_regular:
        return FileState(path, entry.blob, entry.mode, "tree", b"", "not a regular file (symlink)")
    return FileState(path, entry.blob, entry.mode, "tree", b"", from_tree=True)


def chunk_states(
    ws: Workspace, states: list[FileState], report: Any, on_file: Callable[[FileState, list[Chunk]], None]
) -> None:
    """Read, decode and chunk every state that holds content, calling `on_file` for each and
    dropping the bytes afterwards. Sizes are checked before reading."""
    limit = ws.config.memory.max_file_bytes
    chunking = ws.config.chunking
    counter = char_token_counter(chunking.chars_per_token)
    to_read = [st for st in states if st.from_tree and not st.skipped]
    with ws.git.blob_reader() as reader:
        sizes = reader.sizes(st.blob for st in to_read) if to_read else {}
        for state in to_read:
            if sizes.get(state.blob, 0) > limit:
                state.skipped = _too_large(limit, sizes[state.blob])
        wanted = [st.blob for st in to_read if not st.skipped]
        contents = reader.read_many(wanted)  # streamed in the order of `states`
        for state in states:
            if state.content is None:
                continue
            try:
                if state.from_tree and not state.skipped:
                    _oid, state.content = next(contents)
                chunks = _chunks_of(ws, state, counter, limit)
            except Exception as exc:  # one file never stops the update
                state.skipped = f"could not be indexed ({type(exc).__name__}: {exc})"
                chunks = []
            if state.skipped:
                report.skipped.append({"path": _shown(state.path), "reason": state.skipped})
                chunks = []
            state.content = b""  # the bytes are no longer needed
            on_file(state, chunks)


def _chunks_of(ws: Workspace, state: FileState, counter: Callable[[str], int], limit: int) -> list[Chunk]:
    if state.skipped:
        return []
    data = state.content or b""
    if len(data) > limit:
        state.skipped = _too_large(limit, len(data))
        return []
    if data.startswith(LFS_POINTER) and len(data) < 1024:
        state.skipped = "a Git LFS pointer: the file's content is not in git"
        return []
    try:
        text = decode_memory_text(data)
    except NotText as exc:
        state.skipped = exc.reason
        return []
    is_transcript = state.path.endswith(".jsonl")
    lines = transcript_lines(text) if is_transcript else list(enumerate(split_lines(text), start=1))
    if not is_transcript:
        # Front matter is the file's metadata, not its text: a hit that is raw YAML (`ms.date:`,
        # `schema: 2.0.0`) answered queries on docs repositories.
        lines = lines[front_matter_lines([t for _, t in lines[:MAX_FRONT_MATTER_LINES]]) :]
    chunking = ws.config.chunking
    return chunk_lines(
        lines,
        max_tokens=chunking.max_tokens,
        overlap_tokens=chunking.overlap_tokens,
        count_tokens=counter,
        markdown=not state.path.endswith(".jsonl"),
    )


#: Front matter closes within this many lines, or its opening `---` was a thematic break.
MAX_FRONT_MATTER_LINES = 200
_FRONT_KEY = re.compile(r"^[A-Za-z0-9_\"'][^:]{0,80}:(?:[ \t]|$)")


def front_matter_lines(texts: list[str]) -> int:
    """How many lines a YAML front matter block takes at the top of a file (0: none): `---`, a
    first non-blank line of the form `key:`, and a closing `---` or `...`. A `---` first line
    followed by anything else (a list, prose) is a thematic break and stays text."""
    if not texts or texts[0].rstrip() != "---":
        return 0
    keyed = False
    for number, text in enumerate(texts[1:], start=1):
        if text.rstrip() in ("---", "..."):
            return number + 1 if keyed else 0
        if not keyed and text.strip() and not text.lstrip().startswith("#"):
            if not _FRONT_KEY.match(text):
                return 0
            keyed = True
    return 0


def _too_large(limit: int, size: int) -> str:
    return f"larger than {limit} bytes ({size}); raise [memory] max_file_bytes to index it"


def _shown(path: str) -> str:
    from memgit.core.paths import path_key

    return path_key(path)
