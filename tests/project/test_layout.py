"""The package's shape is part of its contract: imports point downward, and what ships beside the
code (`hooks/`, `templates/`) really ships in the wheel and is found there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT, git

ROOT = REPO_ROOT


def test_imports_point_downward() -> None:
    """The import-linter contracts in pyproject.toml (layers; core stays pure) hold."""
    lint_imports = Path(sys.executable).parent / "lint-imports"
    proc = subprocess.run([str(lint_imports)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "broken" not in proc.stdout.lower().replace("0 broken", "")


def test_types_check() -> None:
    """`mypy` with the [tool.mypy] settings of pyproject.toml (strict flags) finds nothing in memgit/."""
    mypy = Path(sys.executable).parent / "mypy"
    proc = subprocess.run([str(mypy)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success: no issues found" in proc.stdout, proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    (built,) = out.glob("agent_memgit-*.whl")
    return built


def test_wheel_carries_hooks_and_templates(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("hooks", "templates"):
        shipped = {n for n in names if n.startswith(f"memgit/_shipped/{folder}/")}
        expected = {
            f"memgit/_shipped/{folder}/{p.relative_to(ROOT / folder).as_posix()}"
            for p in (ROOT / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
        assert expected and shipped == expected, folder
    assert not any(n.startswith(("hooks/", "templates/", "tests/")) for n in names)


def test_installed_wheel_finds_its_files_outside_the_source_tree(wheel: Path, tmp_path: Path) -> None:
    """A fresh venv, the wheel installed into it, run from a folder far from this checkout."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # Dependencies come from the test environment (read-only, through a .pth line); memgit itself
    # only from the wheel, unpacked into the fresh venv's own site-packages.
    site = Path(
        subprocess.check_output(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import memgit, memgit.resources as r; print(memgit.__file__); "
            "print(r.shipped_dir('hooks')); print(r.shipped_dir('templates'))",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert where.returncode == 0, where.stderr
    module, hooks_dir, templates_dir = where.stdout.split()
    for path in (module, hooks_dir, templates_dir):
        assert Path(path).is_relative_to(site), path
        assert not Path(path).is_relative_to(ROOT)

    repo = tmp_path / "memory"
    repo.mkdir()
    git(repo, "init", "-q")
    proc = subprocess.run(
        [str(python), "-m", "memgit", "hooks", "install", "--json"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    hook = (repo / ".git" / "hooks" / "post-commit").read_text()
    assert "memgit-hook-id: 3f6c1b9e-memgit" in hook
    assert hook.splitlines()[0] == (ROOT / "hooks" / "git-hook.sh").read_text().splitlines()[0]
    shutil.rmtree(venv)
