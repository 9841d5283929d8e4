"""`memgit ci github|gitlab [--pages]`: the files written, validated by a real offline validator
(check-jsonschema's vendored GitHub-workflow and GitLab-CI schemas), their shell checked by
`bash -n`, and the dream step of the GitHub workflow run for real against a local remote."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import assert_clean_error, commit_all, git, memgit, memgit_json
from tests.test_dream import BM25, recall, seed

CHECKER = Path(sys.executable).parent / "check-jsonschema"


def validate(schema: str, *files: Path) -> subprocess.CompletedProcess[str]:
    if not CHECKER.exists():
        pytest.fail("check-jsonschema is missing: run ./dev setup (it is in the dev extra)")
    return subprocess.run([str(CHECKER), "--builtin-schema", schema, *map(str, files)],
                          capture_output=True, text=True, check=False)


def load_yaml(path: Path) -> dict:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(path.read_text())


def shell_blocks(doc: dict) -> list[str]:
    """Every `run:` of a GitHub workflow and every `script:` of a GitLab job."""
    out: list[str] = []
    for job in doc.get("jobs", {}).values():
        out += [step["run"] for step in job.get("steps", []) if "run" in step]
    for name, job in doc.items():
        if isinstance(job, dict) and "script" in job and name != "jobs":
            out.append("\n".join(job["script"]))
    return out


def bash_ok(script: str) -> None:
    script = script.replace("${{ github.ref_name }}", "main")
    proc = subprocess.run(["bash", "-n"], input=script, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr + script


@pytest.mark.parametrize("pages", [False, True])
def test_github_workflow_is_valid(workspace: Path, pages: bool) -> None:
    out = memgit_json(workspace, "ci", "github", *(["--pages"] if pages else []), "--cron", "5 4 * * 1")
    assert out["written"] == [".github/workflows/memgit-dream.yml"]
    path = workspace / ".github/workflows/memgit-dream.yml"
    proc = validate("vendor.github-workflows", path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = load_yaml(path)
    assert doc["on"]["schedule"] == [{"cron": "5 4 * * 1"}] and "workflow_dispatch" in doc["on"]
    assert set(doc["jobs"]) == ({"dream", "pages"} if pages else {"dream"})
    assert ("push" in doc["on"]) == pages
    text = path.read_text()
    assert "memgit dream" in text and "gh pr create" in text and "@" + "PAGES" not in text
    assert ('memgit site build -o "$RUNNER_TEMP/site" --scope public' in text) == pages
    assert ("actions/deploy-pages" in text) == pages
    for script in shell_blocks(doc):
        bash_ok(script)
    assert any("Allow GitHub Actions to create and approve pull requests" in h for h in out["hints"])


@pytest.mark.parametrize("pages", [False, True])
def test_gitlab_pipeline_is_valid(workspace: Path, pages: bool) -> None:
    out = memgit_json(workspace, "ci", "gitlab", *(["--pages"] if pages else []))
    assert out["written"] == [".gitlab/memgit-dream.gitlab-ci.yml", ".gitlab-ci.yml"]
    job_file, root_file = workspace / ".gitlab/memgit-dream.gitlab-ci.yml", workspace / ".gitlab-ci.yml"
    proc = validate("vendor.gitlab-ci", job_file, root_file)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = load_yaml(job_file)
    assert ("pages" in doc) == pages and "memgit-dream" in doc
    if pages:
        assert doc["pages"]["artifacts"]["paths"] == ["public"]
        assert any("memgit site build" in line and "--scope public" in line for line in doc["pages"]["script"])
    for script in shell_blocks(doc):
        bash_ok(script)
    assert load_yaml(root_file) == {"include": [{"local": ".gitlab/memgit-dream.gitlab-ci.yml"}]}


def test_validator_is_real_and_rewrites_are_refused(workspace: Path) -> None:
    memgit_json(workspace, "ci", "github")
    path = workspace / ".github/workflows/memgit-dream.yml"
    broken = workspace / "broken.yml"
    broken.write_text(path.read_text().replace("runs-on: ubuntu-latest", "runs-on: [ubuntu-latest, {bad: 1}]"))
    assert validate("vendor.github-workflows", broken).returncode != 0
    assert memgit_json(workspace, "ci", "github")["unchanged"] == [".github/workflows/memgit-dream.yml"]
    path.write_text(path.read_text() + "# tuned by hand\n")
    assert_clean_error(memgit(workspace, "ci", "github", "--pages"), "--force")
    assert path.read_text().endswith("# tuned by hand\n")
    assert memgit_json(workspace, "ci", "github", "--pages", "--force")["written"]
    # The GitLab root file of a project that has one is left alone: the include is a hint.
    (workspace / ".gitlab-ci.yml").write_text("test:\n  script: [echo hi]\n")
    out = memgit_json(workspace, "ci", "gitlab")
    assert out["written"] == [".gitlab/memgit-dream.gitlab-ci.yml"]
    assert any("include" in h for h in out["hints"])
    assert (workspace / ".gitlab-ci.yml").read_text() == "test:\n  script: [echo hi]\n"


def test_bad_options_are_one_clean_error(workspace: Path) -> None:
    assert_clean_error(memgit(workspace, "ci", "github", "--cron", "every night"), "cron")
    assert_clean_error(memgit(workspace, "ci", "gitlab", "--python", "latest"), "--python")
    assert_clean_error(memgit(workspace, "ci", "github", "--install", 'x"; rm -rf /'), "--install")
    # a trailing backslash would escape the workflow's closing quote
    assert_clean_error(memgit(workspace, "ci", "github", "--install", "agent-memgit\\"), "--install")
    # five fields, but no schedule a CI would run
    for cron in ("99 99 99 99 99", "a b c d e", "5-1 * * * *", "*/0 * * * *"):
        assert_clean_error(memgit(workspace, "ci", "github", "--cron", cron), "cron")
    both = ("--dream-branch", "main", "--default-branch", "main")
    assert_clean_error(memgit(workspace, "ci", "github", *both), "is the default branch")
    assert not (workspace / ".github").exists() and not (workspace / ".gitlab").exists()


def test_cron_fields_in_range_and_names_are_taken(workspace: Path) -> None:
    for cron in ("0,30 */2 * * mon-fri", "0 0 1 JAN SUN", "0 0 * * 7"):
        out = memgit_json(workspace, "ci", "github", "--cron", cron, "--force")
        assert out["written"] or out["unchanged"]
    git(workspace, "checkout", "-q", "-b", "feat+x")  # a valid git name, taken as the default branch
    assert ".gitlab/memgit-dream.gitlab-ci.yml" in memgit_json(workspace, "ci", "gitlab")["written"]


def test_github_dream_step_runs_for_real(workspace: Path, tmp_path: Path) -> None:
    """The workflow's own shell, run here: dream, push to the remote, outputs for the PR step."""
    seed(workspace)
    recall(workspace)
    assert memgit(workspace, "recalls", "publish").returncode == 0
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(workspace, "remote", "add", "origin", str(bare))
    memgit_json(workspace, "ci", "github")
    step = next(s for s in load_yaml(workspace / ".github/workflows/memgit-dream.yml")["jobs"]["dream"]["steps"]
                if s.get("id") == "dream")
    runner = tmp_path / "runner"
    runner.mkdir()
    output = runner / "output"
    env = {**os.environ, **BM25, **step.get("env", {}), "RUNNER_TEMP": str(runner), "GITHUB_OUTPUT": str(output),
           "MEMGIT_NOW": "2026-03-04T20:00:00+00:00",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    assert shutil.which("memgit", path=env["PATH"]), "the venv's memgit script"
    proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=workspace, env=env, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    assert outputs == {"branch": "memgit/dream/next", "day": "2026-03-04"}
    assert git(bare, "rev-parse", "memgit/dream/next").strip() == git(workspace, "rev-parse", "memgit/dream/next").strip()
    report = (runner / "report.md").read_text()
    assert report.startswith("# Dream 2026-03-04") and "staging database password" in report
    # A second night with nothing new: the step succeeds, no branch output (no PR step).
    if git(workspace, "status", "--porcelain"):
        commit_all(workspace, "ledger lines of the run")
    git(workspace, "merge", "-q", "--no-edit", "memgit/dream/next")
    output.unlink()
    proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=workspace, env=env, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert "branch=\n" in output.read_text() and "nothing to promote" in proc.stderr
    assert json.loads((runner / "dream.json").read_text())["branch"] is None


def test_pages_jobs_build_the_site_with_their_own_commands(workspace: Path, tmp_path: Path) -> None:
    """The site command each generated pages job runs, run here on a real workspace."""
    memgit_json(workspace, "ci", "github", "--pages")
    memgit_json(workspace, "ci", "gitlab", "--pages")
    github = load_yaml(workspace / ".github/workflows/memgit-dream.yml")["jobs"]["pages"]["steps"]
    build = next(step["run"] for step in github if "memgit site build" in step.get("run", ""))
    gitlab = "\n".join(line for line in load_yaml(workspace / ".gitlab/memgit-dream.gitlab-ci.yml")["pages"]["script"]
                       if "pip install" not in line)
    runner = tmp_path / "runner"
    runner.mkdir()
    env = {**os.environ, **BM25, "RUNNER_TEMP": str(runner), "TMPDIR": str(runner),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for command, built in ((build, runner / "site"), (gitlab, workspace / "public")):
        proc = subprocess.run(["bash", "-e", "-c", command], cwd=workspace, env=env, capture_output=True, text=True,
                              check=False)
        assert proc.returncode == 0, proc.stderr
        assert (built / "index.html").is_file()
