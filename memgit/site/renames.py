"""A note's history across its renames, as `git log --follow` shows it (pure).

`history.file_logs` lists the commits that touched each path name; a renamed note's earlier
commits are listed under its old name. `follow` puts them back under the note: the rows of its
current name down to the commit that renamed it, then the old name's rows before that commit,
and so on down a chain of renames. The rename commit itself is shown once (as the new name's).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence


def past_names(path: str, renames: Sequence[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(rename commit, old name) for each earlier name of `path`, newest first; `renames` is
    newest first, so each step looks only at renames older than the one before it."""
    out: list[tuple[str, str]] = []
    name, start = path, 0
    while True:
        step = next(((i, c, old) for i, (c, old, new) in enumerate(renames) if i >= start and new == name), None)
        if step is None:
            return out
        i, commit, old = step
        out.append((commit, old))
        name, start = old, i + 1


def follow(
    logs: Mapping[str, list[dict]], renames: Sequence[tuple[str, str, str]], paths: Iterable[str], limit: int
) -> dict[str, list[dict]]:
    """Each path's rows (newest first, at most `limit`) with those of its past names added."""
    out: dict[str, list[dict]] = {}
    for path in paths:
        rows = list(logs.get(path, []))
        chain = past_names(path, renames) if renames else []
        if chain:
            rows = _upto(rows, chain[0][0])
        for n, (commit, old) in enumerate(chain):
            if len(rows) >= limit:
                break
            older = _after(logs.get(old, []), commit)
            if n + 1 < len(chain):
                older = _upto(older, chain[n + 1][0])
            rows += older
        out[path] = rows[:limit]
    return out


def _upto(rows: list[dict], commit: str) -> list[dict]:
    """Rows down to and including `commit` (older rows of a name belong to another file)."""
    for i, row in enumerate(rows):
        if row["id"] == commit:
            return rows[: i + 1]
    return rows


def _after(rows: list[dict], commit: str) -> list[dict]:
    """Rows older than `commit` (the commit that renamed the file away from this name)."""
    for i, row in enumerate(rows):
        if row["id"] == commit:
            return rows[i + 1 :]
    return []
