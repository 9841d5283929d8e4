"""Where the files that ship beside the code live: `hooks/` and `templates/`.

They sit at the repository's top level (so a reader sees them as part of the product, not buried in
the package) and the wheel carries them inside the package as `memgit/_shipped/<name>`. An installed
wheel finds them there; a source checkout or an editable install finds them at the top level.
"""

from __future__ import annotations

from pathlib import Path

from memgit.errors import MemgitError

_PACKAGE_DIR = Path(__file__).resolve().parent


def shipped_dir(name: str) -> Path:
    """The folder `name` (`hooks` or `templates`) of this installation of memgit."""
    for candidate in (_PACKAGE_DIR / "_shipped" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise MemgitError(f"memgit's {name}/ folder is missing from this installation; reinstall memgit")


def shipped_file(name: str, filename: str) -> Path:
    path = shipped_dir(name) / filename
    if not path.is_file():
        raise MemgitError(f"memgit's {name}/{filename} is missing from this installation; reinstall memgit")
    return path
