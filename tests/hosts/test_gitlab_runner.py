"""The GitLab dream job run by a real runner: `gitlab-ci-local` (npm) in shell mode.

`memgit ci gitlab --install SPEC` writes the job; gitlab-ci-local runs it as GitLab would (its
rules, variables, cache keys and script, in a shell executor) against a local bare remote (the
job's `git remote set-url` to GitLab is mapped back to it by git's `insteadOf`) and a loopback
stand-in for the merge-request API. The job installs memgit from SPEC, a wheel of this checkout,
into a venv whose other packages are the test environment's (so llama-cpp-python is never
rebuilt and nothing is downloaded), converts the model, dreams, pushes `memgit/dream/next`, opens
one merge request; the next run with new evidence updates it; once it is closed without merging,
the next run records its proposals as rejected.
"""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

import pytest

from tests.dream.test_ci import _GitLab
from tests.dream.test_dream import BM25, recall, seed
from tests.helpers import REPO_ROOT, TESTS_DIR, commit_all, git, memgit, write

pytestmark = pytest.mark.hosts

RUNNER = TESTS_DIR / "node" / "node_modules" / ".bin" / "gitlab-ci-local"
REMOTE = "https://gitlab.example.invalid/team/memory.git"
TOKEN = "glpat-loopback"
BRANCH = "memgit/dream/next"


def _job_python(tmp_path: Path) -> Path:
    """A venv for the job: no memgit, every other package the tests' environment has (linked in
    through a .pth), so installing memgit there resolves its dependencies without building any."""
    deps = tmp_path / "deps"
    deps.mkdir()
    purelib = Path(sysconfig.get_paths()["purelib"])
    for entry in purelib.iterdir():
        if not entry.name.startswith(("agent_memgit", "memgit", "_editable_impl_agent_memgit", "__editable__")):
            (deps / entry.name).symlink_to(entry)
    venv = tmp_path / "job-venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = (venv / "lib").glob("python*/site-packages")
    (site / "memgit-test-deps.pth").write_text(f"{deps}\n")
    return venv / "bin" / "python"


def _wheel(python: Path, tmp_path: Path) -> Path:
    out = tmp_path / "wheel"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-q",
            "-w",
            str(out),
            str(REPO_ROOT),
        ],
        check=True,
        capture_output=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    (wheel,) = out.glob("agent_memgit-*.whl")
    return wheel


def _publish(workspace: Path, day: str) -> None:
    assert memgit(workspace, "recalls", "publish", env=BM25).returncode == 0
    git(workspace, "push", "-q", "origin", "main")


def test_gitlab_ci_local_runs_the_dream_job_twice_and_after_a_closed_mr(
    workspace: Path, tmp_path: Path, hermetic_env: Path
) -> None:
    if not RUNNER.exists():
        pytest.skip("gitlab-ci-local is not installed (npm ci in tests/node installs it)")
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    for url in (REMOTE, f"https://oauth2:{TOKEN}@gitlab.example.invalid/team/memory.git"):
        git(workspace, "config", "--global", "--add", f"url.{bare.as_uri()}.insteadOf", url)
    git(workspace, "remote", "add", "origin", REMOTE)
    seed(workspace)
    recall(workspace)
    python = _job_python(tmp_path)
    spec = f"agent-memgit[llama] @ {_wheel(python, tmp_path).as_uri()}"
    assert memgit(workspace, "ci", "gitlab", "--install", spec).returncode == 0
    assert spec in (workspace / ".gitlab/memgit-requirements.txt").read_text()
    commit_all(workspace, "ci")
    _publish(workspace, "2026-03-04")

    _GitLab.mrs, _GitLab.calls, _GitLab.remote = [], [], str(bare)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _GitLab)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{python.parent}{os.pathsep}{env['PATH']}"

    def night(day: str) -> str:
        variables = {
            "CI_PIPELINE_SOURCE": "schedule",
            "CI_SERVER_HOST": "gitlab.example.invalid",
            "CI_PROJECT_PATH": "team/memory",
            "CI_API_V4_URL": f"http://127.0.0.1:{server.server_address[1]}/api/v4",
            "CI_PROJECT_ID": "7",
            "MEMGIT_DREAM_TOKEN": TOKEN,
            "MEMGIT_NOW": f"{day}T20:00:00+00:00",
            "MEMGIT_EMBEDDING": "none",
            # gitlab-ci-local's CI_PROJECT_DIR is /builds/… even in shell mode: keep every cache in the test's folder.
            "MEMGIT_CACHE_DIR": str(tmp_path / "job-cache" / "memgit"),
            "PIP_CACHE_DIR": str(tmp_path / "job-cache" / "pip"),
            "PIP_NO_INDEX": "1",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        }
        args = [str(RUNNER), "--force-shell-executor", "--home", str(tmp_path / "gcl-home")]
        args += ["--ignore-predefined-vars", ",".join(name for name in variables if name.startswith("CI_"))]
        for name, value in variables.items():
            args += ["--variable", f"{name}={value}"]
        proc = subprocess.run(
            [*args, "memgit-dream"], cwd=workspace, env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
        return proc.stdout

    try:
        log = night("2026-03-04")
        tip = git(workspace, "ls-remote", str(bare), f"refs/heads/{BRANCH}").split()[0]
        assert [mr["state"] for mr in _GitLab.mrs] == ["opened"] and _GitLab.mrs[0]["sha"] == tip
        assert "memgit dream drop" in _GitLab.mrs[0]["description"]
        assert (
            "Successfully installed agent-memgit" in log
            and "llama" not in log.split("Successfully installed")[1].split("\n")[0]
        )

        # New evidence, the next night: the same merge request is updated, not a second one opened.
        write(
            workspace / "memory/2026-03-05.md",
            "# 2026-03-05\n\n## 09:00\n\n- Releases ship on Thursdays after the review.\n",
        )
        commit_all(workspace, "notes")
        recall(
            workspace,
            ("release day", "when do releases ship", "thursday release review"),
            ("2026-03-03", "2026-03-04", "2026-03-05"),
        )
        _publish(workspace, "2026-03-05")
        night("2026-03-05")
        assert [method for method, _ in _GitLab.calls].count("POST") == 1
        assert any(method == "PUT" and path.endswith("/merge_requests/1") for method, path in _GitLab.calls)
        assert git(workspace, "ls-remote", str(bare), f"refs/heads/{BRANCH}").split()[0] != tip

        # Closed without merging: the next run records its proposals as rejected and proposes nothing.
        _GitLab.mrs[0]["state"] = "closed"
        _GitLab.mrs[0]["sha"] = git(workspace, "ls-remote", str(bare), f"refs/heads/{BRANCH}").split()[0]
        log = night("2026-03-06")
        assert any("state=closed" in path for _, path in _GitLab.calls)
        assert len(_GitLab.mrs) == 1
        assert "nothing to promote, supersede or forget" in log and "rejected: 1" in log, log[-3000:]
        assert (tmp_path / "job-cache" / "memgit" / "models").is_dir()  # the caches stayed in the test folder
    finally:
        server.shutdown()
