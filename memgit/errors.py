"""Domain errors. The CLI turns every MemgitError into one `memgit: error: ...` line and exit 1."""

from __future__ import annotations


class MemgitError(Exception):
    """A problem the user can fix; the message says how."""


class NotAWorkspace(MemgitError):
    pass


class ConfigError(MemgitError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


class PathRefused(MemgitError):
    pass


class IndexLocked(MemgitError):
    pass


class ModelError(MemgitError):
    pass


class BadPattern(MemgitError):
    """A glob (`--path`, `[memory] extra_paths`, a path filter) that git's wildmatch rules reject."""


class ScannerFailed(MemgitError):
    """A secret scanner that could not give an answer: nothing is shown or published unscanned."""
