"""The workspace's theme (override templates and assets), read as data that may be hostile.

A theme folder is versioned with the memory, so whoever can push to the repository writes it:
an agent, a teammate, a pull request. The build therefore reads it without following any link
(a committed symbolic link named `static/env.txt` pointing at `/proc/self/environ`, or a linked
folder, would publish what lies outside the repository): the folder itself must be a real folder
inside the work tree, every entry is read with `O_NOFOLLOW` from a walk that never descends into a
link, and anything else (links, devices, pipes, names that are not UTF-8, oversized files) is left
out with one line in the build's report. Jinja never opens a theme file itself: the templates reach
it as strings (`render.make_environment`), so an `{% include %}` cannot reach past what was read.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_FOLDER = ".memgit/templates"
STATIC = "static"
#: Bounds on what a theme may hold: a repository is no reason to read gigabytes or walk forever.
MAX_FILE = 10_000_000
MAX_TOTAL = 50_000_000
MAX_FILES = 2_000
MAX_DEPTH = 12


@dataclass
class Theme:
    """What a workspace's theme folder holds: template sources by name, assets by name under
    `static/`, and one (path, why) row for each thing left out."""

    folder: str = ""  # as the workspace names it (relative), "" when it has none
    templates: dict[str, str] = field(default_factory=dict)
    assets: dict[str, bytes] = field(default_factory=dict)
    problems: list[tuple[str, str]] = field(default_factory=list)


def load_theme(root: Path, setting: str) -> Theme:
    """The theme of the workspace at `root` (`[site] templates`, default `.memgit/templates`)."""
    name = setting or DEFAULT_FOLDER
    theme = Theme(folder=name)
    folder = _theme_folder(root, name, theme)
    if folder is None:
        return theme
    budget = [MAX_FILES, MAX_TOTAL]
    _walk(folder, "", name, theme, budget, 0)
    return theme


def _theme_folder(root: Path, name: str, theme: Theme) -> Path | None:
    """The theme folder when it is a real folder inside the work tree (not in `.git`, reached
    through no link); None, with the reason in `theme.problems`, when it is refused."""
    base = os.path.realpath(root)
    if os.path.isabs(name) or "\\" in name:
        theme.problems.append(
            (name, "the theme folder must be relative to the workspace: refused, shipped templates used")
        )
        return None
    lexical = os.path.normpath(os.path.join(base, name))
    inside = lexical.startswith(base + os.sep)
    parts = os.path.relpath(lexical, base).split(os.sep) if inside else []
    if not inside or parts[0] == ".git":
        theme.problems.append(
            (name, "the theme folder lies outside the work tree (or in .git): refused, shipped templates used")
        )
        return None
    current = base
    for part in parts:
        current = os.path.join(current, part)
        try:
            info = os.lstat(current)
        except OSError:
            return None  # no theme folder: the shipped templates
        if stat.S_ISLNK(info.st_mode):
            theme.problems.append(
                (name, "the theme folder is reached through a symbolic link: refused, shipped templates used")
            )
            return None
        if not stat.S_ISDIR(info.st_mode):
            return None
    return Path(current)


def _walk(folder: Path, rel: str, shown: str, theme: Theme, budget: list[int], depth: int) -> None:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        theme.problems.append((shown, f"cannot be read ({exc.strerror or exc}): left out"))
        return
    for entry in entries:
        name = entry.name
        here = f"{rel}{name}"
        where = f"{shown}/{here}"
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            theme.problems.append((where, "a name that is not UTF-8: left out"))
            continue
        if entry.is_symlink():
            theme.problems.append(
                (where, "a symbolic link: left out (a theme file is never followed out of its folder)")
            )
            continue
        if entry.is_dir(follow_symlinks=False):
            if depth >= MAX_DEPTH:
                theme.problems.append((where, f"folders nested deeper than {MAX_DEPTH}: left out"))
                continue
            _walk(Path(entry.path), here + "/", shown, theme, budget, depth + 1)
            continue
        data, why = _read_regular(entry.path, budget)
        if data is None:
            theme.problems.append((where, why))
            continue
        _keep(theme, here, where, data)


def _keep(theme: Theme, rel: str, where: str, data: bytes) -> None:
    if rel.startswith(STATIC + "/"):
        theme.assets[rel[len(STATIC) + 1 :]] = data
        return
    try:
        theme.templates[rel] = data.decode("utf-8")
    except UnicodeDecodeError:
        theme.problems.append((where, "a template that is not UTF-8 text: left out"))


def _read_regular(path: str, budget: list[int]) -> tuple[bytes | None, str]:
    """A regular file's bytes, opened without following a link (and without blocking on a pipe),
    or None and why not."""
    if budget[0] <= 0:
        return None, f"more than {MAX_FILES} files in the theme: left out"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, "a symbolic link: left out (a theme file is never followed out of its folder)"
        return None, f"cannot be read ({exc.strerror or exc}): left out"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, "not a regular file: left out"
        if info.st_size > MAX_FILE or info.st_size > budget[1]:
            return None, f"larger than {min(MAX_FILE, budget[1])} bytes: left out"
        chunks = []
        left = info.st_size + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    if len(data) > info.st_size:  # it grew while read
        return None, "changed while it was read: left out"
    budget[0] -= 1
    budget[1] -= len(data)
    return data, ""
