"""CI workflows that dream on a schedule and propose the result for review (GitHub, GitLab).

The templates live in the top-level `hooks/` folder (shipped in the wheel); rendering is a pure
substitution of a few `@NAME@` placeholders plus keeping or dropping the `# @PAGES-BEGIN@` ..
`# @PAGES-END@` blocks (the memory-site job). Writing refuses to overwrite a file that differs
unless forced, so a hand-tuned workflow is never lost.

What CI installs is pinned in a requirements file beside the workflow (the running memgit's
version by default, `--install SPEC` otherwise), which a user may edit: memgit never rewrites it
unless asked, and the caches (pip's wheels, the model) are keyed by it, so an edit rebuilds them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from memgit import __version__
from memgit.errors import MemgitError
from memgit.resources import shipped_file

GITHUB_TEMPLATE = "memgit-dream.github.yml"
GITLAB_TEMPLATE = "memgit-dream.gitlab-ci.yml"
GITHUB_PATH = ".github/workflows/memgit-dream.yml"
GITLAB_PATH = ".gitlab/memgit-dream.gitlab-ci.yml"
GITLAB_ROOT = ".gitlab-ci.yml"
GITHUB_REQUIREMENTS = ".github/memgit-requirements.txt"
GITLAB_REQUIREMENTS = ".gitlab/memgit-requirements.txt"
#: The running version, pinned: what CI installs unless told otherwise.
DEFAULT_INSTALL = f"agent-memgit[llama]=={__version__}"
DEFAULT_CRON = "17 3 * * *"
DEFAULT_BRANCH = "memgit/dream/next"

_PYTHON = re.compile(r"^3\.\d{1,2}$")
_BRANCH = re.compile(r"^[A-Za-z0-9._/+-]+$")
#: Each cron field's range and the names it also takes (minute, hour, day of month, month, weekday).
_CRON_RANGES = (
    (0, 59, ()),
    (0, 23, ()),
    (1, 31, ()),
    (1, 12, tuple("jan feb mar apr may jun jul aug sep oct nov dec".split())),
    (0, 7, tuple("sun mon tue wed thu fri sat".split())),
)
_CRON_ITEM = re.compile(r"^(?:\*|(?P<a>[0-9a-z]+)(?:-(?P<b>[0-9a-z]+))?)(?:/(?P<step>[0-9]+))?$")


def cron_field_ok(text: str, low: int, high: int, names: tuple[str, ...]) -> bool:
    """One field of a five-field cron schedule: `*`, N, N-M, with `/STEP`, comma lists; numbers
    within the field's range (a schedule GitHub or GitLab would reject, or never run, is refused)."""

    def value(token: str) -> int | None:
        if token.isdigit():
            number = int(token)
            return number if low <= number <= high else None
        return names.index(token) + (1 if low == 1 else 0) if token in names else None

    for item in text.lower().split(","):
        match = _CRON_ITEM.match(item)
        if match is None:
            return False
        first = value(match["a"]) if match["a"] else low
        last = value(match["b"]) if match["b"] else first
        if first is None or last is None or last < first:
            return False
        if match["step"] is not None and not 1 <= int(match["step"]) <= high:
            return False
    return True


@dataclass(frozen=True)
class CiOptions:
    pages: bool = False
    cron: str = DEFAULT_CRON
    #: None: keep the requirements file as it is (or write the pinned default when there is none).
    install: str | None = None
    python: str = "3.12"
    dream_branch: str = DEFAULT_BRANCH
    default_branch: str = "main"


@dataclass
class CiResult:
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, list[str]]:
        return {"written": self.written, "unchanged": self.unchanged, "hints": self.hints}


def check_options(options: CiOptions) -> None:
    problems = []
    fields = options.cron.split()
    if len(fields) != 5 or not all(cron_field_ok(f, *r) for f, r in zip(fields, _CRON_RANGES, strict=False)):
        problems.append(f"--cron {options.cron!r} is not a five-field cron schedule, e.g. {DEFAULT_CRON!r}")
    if not _PYTHON.match(options.python):
        problems.append(f"--python {options.python!r} must look like 3.12")
    for name, value in (("--dream-branch", options.dream_branch), ("--default-branch", options.default_branch)):
        if not _BRANCH.match(value) or ".." in value or value.startswith("/") or value.endswith("/"):
            problems.append(f"{name} {value!r} is not a usable branch name")
    if options.dream_branch == options.default_branch:
        problems.append(
            f"--dream-branch {options.dream_branch!r} is the default branch: proposals must come from a branch of their own"
        )
    if options.install is not None and (not options.install.strip() or any(c in options.install for c in "\"'\n`$\\")):
        problems.append(f"--install {options.install!r} must be a pip requirement without quotes, backslashes or $")
    elif options.install is not None and not is_pinned(options.install):
        problems.append(
            f"--install {options.install!r} is not pinned: CI must install the same memgit every night; use "
            f"{DEFAULT_INSTALL}, a VCS URL with a commit (agent-memgit[llama] @ git+https://HOST/OWNER/memgit@COMMIT), "
            "or a built wheel (agent-memgit[llama] @ file:///PATH/agent_memgit-VERSION-py3-none-any.whl)"
        )
    if problems:
        raise MemgitError("; ".join(problems))


_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[A-Za-z0-9._, -]+\])?"
_VERSION_PIN = re.compile(rf"^{_NAME}\s*===?\s*[A-Za-z0-9.+!_-]+$")
_VCS_PIN = re.compile(r"^git\+[a-z]+://\S+@[0-9a-f]{7,40}(?:#\S*)?$")
_ARTIFACT = re.compile(r"^(?:file|https?)://\S+\.(?:whl|tar\.gz|zip)$")


def is_pinned(spec: str) -> bool:
    """A requirement that names one build of memgit (pure): an exact version, a VCS URL at a commit
    (`NAME @ git+URL@COMMIT` or the bare URL) or one built file (a wheel or an sdist)."""
    spec = spec.strip()
    if _VERSION_PIN.match(spec):
        return True
    name, at, url = spec.partition(" @ ")
    url = url.strip() if at else name
    if at and not re.match(rf"^{_NAME}$", name.strip()):
        return False
    return bool(_VCS_PIN.match(url) or _ARTIFACT.match(url))


def requirements_text(spec: str) -> str:
    """The requirements file CI installs from (pure)."""
    return (
        "# What memgit's CI installs (written by `memgit ci`). Edit the pin to upgrade; the workflow's\n"
        "# caches (pip's wheels, the embedding model) are keyed by this file.\n"
        f"{spec}\n"
    )


def render(template: str, options: CiOptions, requirements: str = GITHUB_REQUIREMENTS) -> str:
    """The template with its placeholders filled and the pages blocks kept or dropped (pure)."""
    out: list[str] = []
    keep = True
    for line in template.splitlines(keepends=True):
        marker = line.strip()
        if marker == "# @PAGES-BEGIN@":
            keep = options.pages
            continue
        if marker == "# @PAGES-END@":
            keep = True
            continue
        if keep:
            out.append(line)
    text = "".join(out)
    for name, value in {
        "@CRON@": options.cron,
        "@INSTALL@": options.install or DEFAULT_INSTALL,
        "@REQUIREMENTS@": requirements,
        "@PYTHON@": options.python,
        "@DREAM_BRANCH@": options.dream_branch,
        "@DEFAULT_BRANCH@": options.default_branch,
    }.items():
        text = text.replace(name, value)
    return text


def _write(root: Path, rel: str, text: str, force: bool, result: CiResult) -> None:
    path = root / rel
    if path.is_symlink():
        raise MemgitError(f"{rel} is a symlink; memgit does not write through links")
    if path.exists():
        if path.read_text(encoding="utf-8", errors="replace") == text:
            result.unchanged.append(rel)
            return
        if not force:
            raise MemgitError(f"{rel} exists and differs from what memgit would write; use --force to replace it")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    result.written.append(rel)


def _write_requirements(root: Path, rel: str, options: CiOptions, force: bool, result: CiResult) -> None:
    """The pinned requirement: written when missing or asked for (`--install`); a file a person
    edited is kept as it is."""
    path = root / rel
    if options.install is None and path.exists() and not path.is_symlink():
        result.unchanged.append(rel)
        return
    _write(root, rel, requirements_text(options.install or DEFAULT_INSTALL), force, result)


def write_github(root: Path, options: CiOptions, *, force: bool = False) -> CiResult:
    check_options(options)
    result = CiResult()
    _write(
        root,
        GITHUB_PATH,
        render(shipped_file("hooks", GITHUB_TEMPLATE).read_text(encoding="utf-8"), options, GITHUB_REQUIREMENTS),
        force,
        result,
    )
    _write_requirements(root, GITHUB_REQUIREMENTS, options, force, result)
    result.hints.append(
        "enable Settings > Actions > General > 'Allow GitHub Actions to create and approve pull "
        "requests', then commit and push the workflow"
    )
    if options.pages:
        result.hints.append("set Settings > Pages > Source to 'GitHub Actions'")
    return result


def write_gitlab(root: Path, options: CiOptions, *, force: bool = False) -> CiResult:
    check_options(options)
    result = CiResult()
    _write(
        root,
        GITLAB_PATH,
        render(shipped_file("hooks", GITLAB_TEMPLATE).read_text(encoding="utf-8"), options, GITLAB_REQUIREMENTS),
        force,
        result,
    )
    _write_requirements(root, GITLAB_REQUIREMENTS, options, force, result)
    include = f"include:\n  - local: {GITLAB_PATH}\n"
    main = root / GITLAB_ROOT
    if not main.exists():
        _write(root, GITLAB_ROOT, include, force, result)
    elif GITLAB_PATH not in main.read_text(encoding="utf-8", errors="replace"):
        result.hints.append(f"add to {GITLAB_ROOT}: include: [{{local: {GITLAB_PATH}}}]")
    result.hints.append(
        "store a project access token (write_repository, api) as the masked CI/CD variable "
        f"MEMGIT_DREAM_TOKEN and add a pipeline schedule ({options.cron})"
    )
    return result
