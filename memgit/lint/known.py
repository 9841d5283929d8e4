"""The secrets found anywhere in the workspace, so that every output hides each one wherever it
stands (the I/O half; the rule is `memgit.lint.secrets.workspace_value`).

A rule finds a secret by its context: a label, a table header, a heading a few lines up. The same
value written again in another file ("used Fj0rd-Blue-77 for the cabin router too", an assistant's
turn that repeats it, a note that lists it without its label) has no such context there, and no
wording rule can be trusted to see it. So the invariant is not a rule about words: a value that a
rule found once in any memory file or other note of the repository (a `people.md` beside them),
HEAD's or the work tree's, or in an author or a message of HEAD's history (which the site and a
dream's pull request publish), is a secret in every text memgit publishes or copies, and the lint
reports it where it stands again in a memory file.

The values are kept per blob and per commit in the clone's data folder
(`.git/memgit/secret-values.json`, beside the index, which holds these files' text anyway;
readable by the owner only), so a command scans only the files and commits that are new since it
last looked. A change of memgit's version or of the `[lint]`
settings starts the cache afresh.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from memgit import __version__
from memgit.core.atomic import atomic_write
from memgit.git.trees import blob_id_of

if TYPE_CHECKING:  # the rules are imported when a scan runs: `warmed` is asked by every commit's hook
    from memgit.lint.rules import LintSettings
    from memgit.workspace import Workspace

CACHE_NAME = "secret-values.json"
#: What the cache keeps of each file; a cache kept by another rule is scanned afresh. 2: the short
#: codes of digits too (`secrets.output_value`); 3: the history's authors and messages too.
_VALUES_KEPT = 3


def warmed(ws: Workspace) -> bool:
    """Whether this clone's memory files were scanned by this version of memgit already, so that
    a command scans only the files changed since. Asked by the hooks and `memgit index` to decide
    whether to warm the cache behind the user's back (a first scan is ~12 s per 100k lines, which
    the first `memgit context` of a fresh clone or a new version would otherwise make a person or
    an agent host wait for). It reads the cache's first bytes only, where `_save` puts the version;
    a change of the `[lint]` settings is not seen here and costs the next command one scan."""
    try:
        with open(ws.data_dir / CACHE_NAME, "rb") as cache:
            head = cache.read(len(_head()))
    except OSError:
        return False
    return head == _head()


def _head() -> bytes:
    return ('{"version": ' + json.dumps(__version__) + ",").encode()


def known_secrets(
    ws: Workspace,
    settings: LintSettings,
    *,
    tree: str | None = None,
    scanned: Mapping[str, Mapping[str, str]] | None = None,
    short_codes: bool = False,
) -> dict[str, str]:
    """Every distinctive value a secret rule finds in the workspace's memory files and other notes (HEAD's, the
    work tree's and, when given, `tree`'s: a site built from another commit) and in the authors and
    messages of HEAD's history, each with the rule
    that found it. `scanned`: blob id -> the values a caller's own scan found in it (`memgit lint`
    has run every rule on those files already), kept as they are. `short_codes`: the short codes of
    digits too (`secrets.output_value`), which what memgit publishes or copies hides wherever they
    stand and `memgit lint --all` reports wherever they are repeated, unless masked."""
    from memgit.lint.secrets import workspace_value

    blobs = _memory_blobs(ws, settings.max_file_bytes, tree)
    key = _settings_key(settings)
    cache_path = ws.data_dir / CACHE_NAME
    cached = _load(cache_path, key)
    fresh = {blob: sorted([value, code] for value, code in values.items()) for blob, values in (scanned or {}).items()}
    changed = any(cached.get(blob) != pairs for blob, pairs in fresh.items() if blob in blobs)
    cached.update(fresh)
    missing = [blob for blob in blobs if blob not in cached]
    if missing:
        stored = [blob for blob in missing if blobs[blob] is None]
        data = ws.git.read_blobs(stored) if stored else {}
        for blob in missing:
            text = (blobs[blob] if blobs[blob] is not None else data.get(blob, b"")) or b""
            cached[blob] = _values_in(text, settings)
    commits = _history(ws)
    unread = [commit for commit in commits if COMMIT_PREFIX + commit not in cached]
    for commit, values in _commit_values(ws, unread, settings).items():
        cached[COMMIT_PREFIX + commit] = values
    missing += unread
    kept = {blob: cached[blob] for blob in blobs}
    kept.update({COMMIT_PREFIX + commit: cached.get(COMMIT_PREFIX + commit, []) for commit in commits})
    # Saved also when nothing changed but the file does not start as `warmed` reads it (none yet
    # in a workspace with no memory file, or one an earlier memgit wrote): else every memory
    # commit's hook would start a background scan that finds nothing to do and writes nothing.
    if missing or changed or len(kept) != len(cached) or not warmed(ws):
        _save(cache_path, key, kept)
    out: dict[str, str] = {}
    for pairs in kept.values():
        for value, code in pairs:
            if short_codes or workspace_value(value):
                out.setdefault(value, code)
    return out


#: The cache's key for a commit's author, committer and message (the rest are blob ids).
COMMIT_PREFIX = "commit:"


def _history(ws: Workspace) -> list[str]:
    """The commits reachable from HEAD: their authors and messages are published with the memory
    (the site's history, a dream's pull request), and a password first told in a commit message
    ("wifi: new password Calanques-Morgiou-77") is a secret where a note repeats it."""
    proc = ws.git.run("rev-list", "HEAD", "--")
    return proc.stdout.decode("ascii", "replace").split() if proc.returncode == 0 else []


def _commit_values(ws: Workspace, commits: list[str], settings: LintSettings) -> dict[str, list[list[str]]]:
    """Each commit's values (as `_values_in` keeps them) found in its people and its message."""
    if not commits:
        return {}
    from memgit.lint.history import LOG_FORMAT, commit_texts
    from memgit.lint.secrets import find_secrets, kept_value

    proc = ws.git.run("log", "--no-walk", "--stdin", LOG_FORMAT, data=("\n".join(commits) + "\n").encode())
    out: dict[str, list[list[str]]] = {commit: [] for commit in commits}
    if proc.returncode != 0:
        return out  # kept empty: read again by the next command whose cache misses them
    for commit in commit_texts(proc.stdout):
        if commit.id not in out:
            continue
        found: dict[str, str] = {}
        people = dict.fromkeys(
            filter(None, (commit.author, commit.author_email, commit.committer, commit.committer_email))
        )
        for lines in [*([person] for person in people), commit.message.split("\n")]:
            for hit in find_secrets(
                lines, entropy_threshold=settings.entropy_threshold, severities=settings.severities
            ):
                if hit.value and kept_value(hit.value):
                    found.setdefault(hit.value, hit.code)
        out[commit.id] = [[value, code] for value, code in sorted(found.items())]
    return out


def _values_in(data: bytes, settings: LintSettings) -> list[list[str]]:
    from memgit.lint.secrets import find_secrets, kept_value

    lines = data.decode("utf-8", errors="replace").split("\n")
    hits = find_secrets(lines, entropy_threshold=settings.entropy_threshold, severities=settings.severities)
    found = {hit.value: hit.code for hit in hits if hit.value and kept_value(hit.value)}
    return [[value, code] for value, code in sorted(found.items())]


def _memory_blobs(ws: Workspace, max_bytes: int, tree: str | None) -> dict[str, bytes | None]:
    """The blob ids of HEAD's (and `tree`'s) memory files and of the work tree's changed ones
    (their bytes, read here; None: read from git when not cached)."""
    out: dict[str, bytes | None] = {}
    trees = [ws.git.head_files(), ws.git.entries(tree) if tree is not None else {}]
    for files in trees:
        for path, entry in files.items():
            if entry is not None and entry.is_regular and _read_for_values(ws, path):
                out.setdefault(entry.blob, None)
    for path in sorted(ws.git.worktree_changed_paths()):
        full = ws.root / path
        if not _read_for_values(ws, path) or full.is_symlink() or not full.is_file():
            continue
        try:
            if full.stat().st_size > max_bytes:
                continue  # the lint refuses the file whole (F404); its content rules never run
            data = full.read_bytes()
        except OSError:
            continue
        out[blob_id_of(data)] = data
    return out


def _read_for_values(ws: Workspace, path: str) -> bool:
    """A memory file, or another note of the repository (a `people.md` beside them): a value
    found in either is a secret wherever a memory file repeats it."""
    from memgit.lint.rules import is_note_text

    return ws.is_memory_path(path) or is_note_text(path)


def load_values(path: Path, settings: LintSettings) -> dict[str, list[list[str]]]:
    """A values cache kept as this one is (id -> [[value, rule], …]), for the settings and memgit
    version it was written by; {} when there is none or it was written by others."""
    return _load(path, _settings_key(settings))


def save_values(path: Path, settings: LintSettings, entries: dict[str, list[list[str]]]) -> None:
    """Write a values cache (owner-only, atomically; a read-only clone writes nothing)."""
    _save(path, _settings_key(settings), entries)


def _settings_key(settings: LintSettings) -> str:
    severities = sorted((code, level) for code, level in settings.severities.items() if code.startswith("S"))
    raw = json.dumps([__version__, _VALUES_KEPT, settings.entropy_threshold, severities])
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def _load(path: Path, key: str) -> dict[str, list[list[str]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # none yet, or unreadable: scanned again
    if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("blobs"), dict):
        return {}
    blobs: Mapping[str, object] = data["blobs"]
    return {
        blob: [list(pair) for pair in pairs if isinstance(pair, list) and len(pair) == 2]
        for blob, pairs in blobs.items()
        if isinstance(pairs, list)
    }


def _save(path: Path, key: str, blobs: dict[str, list[list[str]]]) -> None:
    # The version first, as `warmed` reads it; the blobs in order, so that a rerun writes the same bytes.
    ordered = {"version": __version__, "key": key, "blobs": {blob: blobs[blob] for blob in sorted(blobs)}}
    text = json.dumps(ordered, ensure_ascii=False)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text.encode("utf-8"), durable=False, mode=0o600)
    except OSError:
        pass  # a read-only clone: the next command scans again
