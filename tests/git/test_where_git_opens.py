"""git is opened in memgit/git/repo.py only: a command's one handle (`Repo`, `Workspace.git`) runs
every `git` process, opens pygit2's repository and GitPython's, and is passed down; everything
else asks it. So a change of environment (a hook's GIT_* variables), of object format (SHA-256) or
of caching is made in one place, and no module keeps a repository of its own between commands."""

from __future__ import annotations

import ast
from pathlib import Path

import memgit

HANDLE = "git/repo.py"
SUBPROCESS = {"run", "Popen", "call", "check_call", "check_output", "getoutput", "getstatusoutput"}
#: pygit2's and GitPython's ways to open or make a repository, and the handle's own process.
OPENERS = {
    ("pygit2", "Repository"),
    ("pygit2", "discover_repository"),
    ("pygit2", "init_repository"),
    ("pygit2", "clone_repository"),
    ("git", "Repo"),
    ("git", "Git"),
}
#: memgit's git modules: a call into them names the repository by the handle, never by a path.
GIT_MODULES = {"plumbing", "history", "trees", "commits", "remote"}
CACHES = {"lru_cache", "cache", "cached_property"}


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _starts_git(call: ast.Call) -> bool:
    """`subprocess.run(["git", ...])`, `os.system("git ...")` and the like."""
    name = _dotted(call.func)
    if not call.args:
        return False
    first = call.args[0]
    if name.split(".")[-1] in SUBPROCESS and isinstance(first, ast.List | ast.Tuple) and first.elts:
        head = first.elts[0]
        return isinstance(head, ast.Constant) and head.value == "git"
    if name in ("os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput"):
        return isinstance(first, ast.Constant) and str(first.value).startswith("git ")
    return False


def _names_a_path(call: ast.Call) -> bool:
    """`plumbing.head_ids(ws.root)`, `history.file_logs(root, ...)`: a git read given a path."""
    module = _dotted(call.func).split(".")
    if len(module) != 2 or module[0] not in GIT_MODULES or not call.args:
        return False
    first = call.args[0]
    return (isinstance(first, ast.Name) and first.id == "root") or (
        isinstance(first, ast.Attribute) and first.attr == "root"
    )


def git_openings(path: Path) -> list[tuple[int, str]]:
    """(line, what) for every place a module starts git, opens a repository or names one by path."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        if _starts_git(node):
            found.append((node.lineno, "a git process"))
        elif tuple(name.split(".")[-2:]) in OPENERS:
            found.append((node.lineno, name))
        elif name.split(".")[-1] == "BlobReader":
            found.append((node.lineno, "a cat-file process"))
        elif _names_a_path(node):
            found.append((node.lineno, f"{name} given a path"))
    return found


def caches(path: Path) -> list[int]:
    """Lines of `functools.lru_cache`-like decorators: a repository kept across handles."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if _dotted(target).split(".")[-1] in CACHES:
                    found.append(decorator.lineno)
    return found


def test_the_finder_sees_every_way_into_git(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import functools, os, subprocess\n"
        "def f(ws, root):\n"
        "    subprocess.run(['git', 'status'], check=False)\n"
        "    subprocess.Popen(('git', 'cat-file', '--batch'))\n"
        "    pygit2.Repository(str(root))\n"
        "    git.Repo(root)\n"
        "    plumbing.BlobReader(root)\n"
        "    plumbing.head_ids(ws.root)\n"
        "    history.file_logs(root, 'HEAD', None, 5)\n"
        "    os.system('git gc')\n"
        "    subprocess.run(['python', '-c', 'pass'])\n"
        "    plumbing.head_ids(ws.git)\n"
        "@functools.lru_cache(maxsize=8)\n"
        "def g(root): ...\n"
    )
    assert [line for line, _ in git_openings(module)] == [3, 4, 5, 6, 7, 8, 9, 10]
    assert caches(module) == [13]


def test_git_is_opened_in_the_handle_only() -> None:
    root = Path(memgit.__file__).parent
    modules = {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*.py"))}
    outside = {name: found for name, path in modules.items() if name != HANDLE and (found := git_openings(path))}
    assert not outside, f"git opened outside {HANDLE} (ask the command's handle, `Workspace.git`): {outside}"
    assert git_openings(modules[HANDLE])  # the finder still sees the handle's own openings


def test_no_repository_is_kept_between_handles() -> None:
    root = Path(memgit.__file__).parent / "git"
    kept = {p.name: lines for p in sorted(root.glob("*.py")) if (lines := caches(p))}
    assert not kept, f"a cache in memgit/git keeps a repository beyond its command's handle: {kept}"
