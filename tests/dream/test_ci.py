"""`memgit ci github|gitlab [--pages]`: the files written, validated by a real offline validator
(check-jsonschema's vendored GitHub-workflow and GitLab-CI schemas), their shell checked by
`bash -n`, and the dream step of the GitHub workflow run for real against a local remote."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path

import pytest

from memgit import __version__
from tests.dream.test_dream import BM25, recall, seed
from tests.helpers import assert_clean_error, git, memgit, memgit_json

CHECKER = Path(sys.executable).parent / "check-jsonschema"


def validate(schema: str, *files: Path) -> subprocess.CompletedProcess[str]:
    if not CHECKER.exists():
        pytest.fail("check-jsonschema is missing: run ./dev setup (it is in the dev extra)")
    return subprocess.run(
        [str(CHECKER), "--builtin-schema", schema, *map(str, files)], capture_output=True, text=True, check=False
    )


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
    assert out["written"] == [".github/workflows/memgit-dream.yml", ".github/memgit-requirements.txt"]
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
    # Pinned, cached, and dreaming and the site in separate concurrency groups.
    pin = (workspace / ".github/memgit-requirements.txt").read_text().splitlines()[-1]
    assert pin == f"agent-memgit[llama]=={__version__}"
    dream = doc["jobs"]["dream"]
    steps = {step.get("uses", step.get("name")): step for step in dream["steps"]}
    assert steps["actions/setup-python@v5"]["with"]["cache"] == "pip"
    assert steps["actions/setup-python@v5"]["with"]["cache-dependency-path"] == ".github/memgit-requirements.txt"
    model = next(step for step in dream["steps"] if step.get("uses") == "actions/cache@v4")
    assert (
        model["with"]["path"] == "~/.cache/memgit"
        and "hashFiles('.github/memgit-requirements.txt')" in model["with"]["key"]
    )
    assert any(
        step.get("run") == 'python -m pip install -r ".github/memgit-requirements.txt"' for step in dream["steps"]
    )
    assert "concurrency" not in doc and dream["concurrency"]["group"] == "memgit-dream"
    if pages:
        assert doc["jobs"]["pages"]["concurrency"]["group"] == "memgit-pages"
    assert any("Allow GitHub Actions to create and approve pull requests" in h for h in out["hints"])


@pytest.mark.parametrize("pages", [False, True])
def test_gitlab_pipeline_is_valid(workspace: Path, pages: bool) -> None:
    out = memgit_json(workspace, "ci", "gitlab", *(["--pages"] if pages else []))
    assert out["written"] == [".gitlab/memgit-dream.gitlab-ci.yml", ".gitlab/memgit-requirements.txt", ".gitlab-ci.yml"]
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
    job = doc["memgit-dream"]
    assert job["resource_group"] == "memgit-dream" and job["variables"]["GIT_DEPTH"] == "0"
    assert job["cache"]["key"]["files"] == [".gitlab/memgit-requirements.txt"]
    assert job["cache"]["paths"] == [".cache/pip", ".cache/memgit"]
    assert job["variables"]["MEMGIT_CACHE_DIR"] == "$CI_PROJECT_DIR/.cache/memgit"
    if pages:
        assert doc["pages"]["resource_group"] == "memgit-pages"


def test_validator_is_real_and_rewrites_are_refused(workspace: Path) -> None:
    memgit_json(workspace, "ci", "github")
    path = workspace / ".github/workflows/memgit-dream.yml"
    broken = workspace / "broken.yml"
    broken.write_text(path.read_text().replace("runs-on: ubuntu-latest", "runs-on: [ubuntu-latest, {bad: 1}]"))
    assert validate("vendor.github-workflows", broken).returncode != 0
    assert memgit_json(workspace, "ci", "github")["unchanged"] == [
        ".github/workflows/memgit-dream.yml",
        ".github/memgit-requirements.txt",
    ]
    path.write_text(path.read_text() + "# tuned by hand\n")
    assert_clean_error(memgit(workspace, "ci", "github", "--pages"), "--force")
    assert path.read_text().endswith("# tuned by hand\n")
    assert memgit_json(workspace, "ci", "github", "--pages", "--force")["written"]
    # The pinned requirement is the user's to edit: kept on later runs, replaced only when asked.
    requirements = workspace / ".github/memgit-requirements.txt"
    requirements.write_text("agent-memgit[llama] @ git+https://example.invalid/memgit@v9\n")
    assert ".github/memgit-requirements.txt" in memgit_json(workspace, "ci", "github", "--pages")["unchanged"]
    assert requirements.read_text() == "agent-memgit[llama] @ git+https://example.invalid/memgit@v9\n"
    assert_clean_error(memgit(workspace, "ci", "github", "--pages", "--install", "agent-memgit==0.0.9"), "--force")
    memgit_json(workspace, "ci", "github", "--pages", "--install", "agent-memgit==0.0.9", "--force")
    assert requirements.read_text().splitlines()[-1] == "agent-memgit==0.0.9"
    # The GitLab root file of a project that has one is left alone: the include is a hint.
    (workspace / ".gitlab-ci.yml").write_text("test:\n  script: [echo hi]\n")
    out = memgit_json(workspace, "ci", "gitlab")
    assert out["written"] == [".gitlab/memgit-dream.gitlab-ci.yml", ".gitlab/memgit-requirements.txt"]
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


STANDIN_GH = r"""#!PYTHON
# A stand-in for GitHub's `gh` with the few calls the workflow makes; pull requests live in a
# JSON file ($GH_STANDIN), their head commit is read from the remote ($GH_STANDIN_REMOTE).
import json, os, re, subprocess, sys
path = os.environ["GH_STANDIN"]
state = json.load(open(path)) if os.path.exists(path) else {"prs": [], "calls": []}
args = sys.argv[1:]
state["calls"].append(args)
def opt(name):
    return args[args.index(name) + 1]
def tip(branch):
    out = subprocess.run(["git", "ls-remote", os.environ["GH_STANDIN_REMOTE"], "refs/heads/" + branch],
                         capture_output=True, text=True).stdout.split()
    return out[0] if out else ""
code = 0
if args[:2] == ["pr", "list"]:
    wanted = re.search(r'headRefOid == "([0-9a-f]*)"', opt("--jq")).group(1)
    print(sum(1 for pr in state["prs"] if pr["head"] == opt("--head") and pr["state"] == "CLOSED"
              and pr["mergedAt"] is None and pr["headRefOid"] == wanted))
elif args[:2] == ["pr", "view"]:
    found = [pr for pr in state["prs"] if pr["head"] == args[2] and pr["state"] == "OPEN"]
    if found:
        print("OPEN")
    else:
        print("no pull requests found for branch", file=sys.stderr)
        code = 1
elif args[:2] == ["pr", "create"]:
    state["prs"].append({"number": len(state["prs"]) + 1, "head": opt("--head"), "state": "OPEN", "mergedAt": None,
                         "headRefOid": tip(opt("--head")), "body": open(opt("--body-file")).read()})
elif args[:2] == ["pr", "edit"]:
    for pr in state["prs"]:
        if pr["head"] == args[2] and pr["state"] == "OPEN":
            pr.update(body=open(opt("--body-file")).read(), headRefOid=tip(args[2]))
json.dump(state, open(path, "w"))
sys.exit(code)
"""


def github_night(workspace: Path, runner: Path, steps: dict, day: str) -> dict[str, str]:
    """The dream job's own shell steps, run in order as the runner would: the closed-PR check,
    the dream, and (when there is a branch to propose) the pull-request step."""
    outputs: dict[str, str] = {}
    env = {
        **os.environ,
        **BM25,
        "RUNNER_TEMP": str(runner),
        "MEMGIT_NOW": f"{day}T20:00:00+00:00",
        "PATH": f"{runner / 'bin'}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    for step_id in ("previous", "dream", "pr"):
        step = steps[step_id]
        step_env = {k: str(v) for k, v in step.get("env", {}).items() if "${{" not in str(v)}
        step_env.update(
            {
                "FLAG": outputs.get("flag", ""),
                "BRANCH": outputs.get("branch", "memgit/dream/next"),
                "DAY": outputs.get("day", ""),
                "BASE": "main",
                "GH_TOKEN": "t",
            }
        )
        if step_id == "pr" and not outputs.get("branch"):
            break
        output = runner / f"output-{step_id}"
        output.write_text("")
        proc = subprocess.run(
            ["bash", "-e", "-c", step["run"]],
            cwd=workspace,
            capture_output=True,
            text=True,
            env={**env, **step_env, "GITHUB_OUTPUT": str(output)},
            check=False,
        )
        assert proc.returncode == 0, proc.stderr + proc.stdout
        outputs.update(line.split("=", 1) for line in output.read_text().splitlines())
    return outputs


def published(workspace: Path, tmp_path: Path) -> Path:
    """The dreaming fixture's recalls published and pushed to a bare remote, as CI finds them."""
    seed(workspace)
    recall(workspace)
    assert memgit(workspace, "recalls", "publish").returncode == 0
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(workspace, "remote", "add", "origin", str(bare))
    git(workspace, "push", "-q", "origin", "main")
    return bare


@pytest.fixture
def github_runner(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path, dict]:
    bare = published(workspace, tmp_path)
    memgit_json(workspace, "ci", "github")
    dream_job = load_yaml(workspace / ".github/workflows/memgit-dream.yml")["jobs"]["dream"]
    steps = {
        s.get("id") or ("pr" if "gh pr create" in s.get("run", "") else s.get("name")): s for s in dream_job["steps"]
    }
    runner = tmp_path / "runner"
    (runner / "bin").mkdir(parents=True)
    gh = runner / "bin" / "gh"
    gh.write_text(STANDIN_GH.replace("PYTHON", sys.executable))
    gh.chmod(0o755)
    monkeypatch.setenv("GH_STANDIN", str(runner / "gh.json"))
    monkeypatch.setenv("GH_STANDIN_REMOTE", str(bare))
    return workspace, bare, runner, steps


def test_github_job_proposes_and_a_closed_pull_request_is_rejected(github_runner: tuple) -> None:
    """The workflow's own shell with a stand-in `gh`: night 1 opens a pull request; it is closed
    unmerged; nights 2 and 3 record its proposals as rejected and open nothing."""
    workspace, bare, runner, steps = github_runner
    assert shutil.which("memgit", path=f"{Path(sys.executable).parent}"), "the venv's memgit script"
    first = github_night(workspace, runner, steps, "2026-03-04")
    assert first == {"flag": "", "branch": "memgit/dream/next", "day": "2026-03-04"}
    tip = git(bare, "rev-parse", "memgit/dream/next").strip()
    state = json.loads((runner / "gh.json").read_text())
    [pr] = state["prs"]
    assert pr["state"] == "OPEN" and pr["headRefOid"] == tip and "memgit dream drop k" in pr["body"]
    assert "staging database password" in pr["body"] and "- [ ] **remember**" in pr["body"]
    pr.update(state="CLOSED")  # the maintainer closes it without merging
    (runner / "gh.json").write_text(json.dumps(state))
    for day in ("2026-03-05", "2026-03-06"):
        night = github_night(workspace, runner, steps, day)
        assert night["flag"] == "--reject-previous" and night["branch"] == "", night
        data = json.loads((runner / "dream.json").read_text())
        assert data["actions"] == [] and data["gates"].get("rejected") == 1, data
    assert len(json.loads((runner / "gh.json").read_text())["prs"]) == 1  # no fresh PR with the same proposals
    assert git(bare, "rev-parse", "memgit/dream/next").strip() == tip


def test_github_job_never_pushes_over_a_reviewer_commit(github_runner: tuple, tmp_path: Path) -> None:
    workspace, bare, runner, steps = github_runner
    github_night(workspace, runner, steps, "2026-03-04")
    reviewer = tmp_path / "reviewer"
    git(tmp_path, "clone", "-q", "--branch", "memgit/dream/next", str(bare), str(reviewer))
    (reviewer / "MEMORY.md").write_text((reviewer / "MEMORY.md").read_text().replace("at nine", "at nine sharp"))
    git(reviewer, "commit", "-q", "-am", "review: be precise")
    git(reviewer, "push", "-q", "origin", "memgit/dream/next")
    fix = git(reviewer, "rev-parse", "HEAD").strip()
    night = github_night(workspace, runner, steps, "2026-03-05")
    assert night["flag"] == "" and night["branch"] == ""  # the PR step is skipped
    assert json.loads((runner / "dream.json").read_text())["not_pushed"] is True
    assert git(bare, "rev-parse", "memgit/dream/next").strip() == fix


class _GitLab(http.server.BaseHTTPRequestHandler):
    """A stand-in GitLab API: merge requests of one project, in memory."""

    mrs: list[dict] = []
    calls: list[tuple[str, str]] = []
    remote = ""

    def _reply(self, data: object) -> None:
        body = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        self.calls.append(("GET", self.path))
        self._reply(
            [
                mr
                for mr in self.mrs
                if mr["state"] == query.get("state") and mr["source_branch"] == query.get("source_branch")
            ]
        )

    def _form(self) -> dict:
        return dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers["Content-Length"])).decode()))

    def do_POST(self) -> None:  # noqa: N802
        form = self._form()
        self.calls.append(("POST", self.path))
        tip = git(Path("/"), "ls-remote", self.remote, "refs/heads/" + form["source_branch"]).split()[0]
        mr = {"iid": len(self.mrs) + 1, "state": "opened", "sha": tip, "web_url": "http://mr/1", **form}
        self.mrs.append(mr)
        self._reply(mr)

    def do_PUT(self) -> None:  # noqa: N802
        self.calls.append(("PUT", self.path))
        self._reply({"web_url": "http://mr/1", **self._form()})

    def log_message(self, *args: object) -> None:
        pass


def test_gitlab_job_with_a_stand_in_api_rejects_a_closed_merge_request(workspace: Path, tmp_path: Path) -> None:
    bare = published(workspace, tmp_path)
    memgit_json(workspace, "ci", "gitlab")
    script = load_yaml(workspace / ".gitlab/memgit-dream.gitlab-ci.yml")["memgit-dream"]["script"]
    job = "\n".join(
        line
        for line in script
        if "pip install" not in line and "model install" not in line and "remote set-url" not in line
    )
    _GitLab.mrs, _GitLab.calls, _GitLab.remote = [], [], str(bare)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _GitLab)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {
        **os.environ,
        **BM25,
        "CI_API_V4_URL": f"http://127.0.0.1:{server.server_address[1]}/api/v4",
        "CI_PROJECT_ID": "7",
        "MEMGIT_DREAM_TOKEN": "t",
        "CI_DEFAULT_BRANCH": "main",
        "MEMGIT_NO_RECALL": "1",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    try:

        def night(day: str) -> dict:
            proc = subprocess.run(
                ["bash", "-e", "-c", job],
                cwd=workspace,
                capture_output=True,
                text=True,
                env={**env, "MEMGIT_NOW": f"{day}T20:00:00+00:00"},
                check=False,
            )
            assert proc.returncode == 0, proc.stderr + proc.stdout
            return json.loads((workspace / "dream.json").read_text())

        first = night("2026-03-04")
        assert first["pushed"] and [mr["state"] for mr in _GitLab.mrs] == ["opened"]
        assert "memgit dream drop" in _GitLab.mrs[0]["description"]
        _GitLab.mrs[0]["state"] = "closed"  # closed without merging
        for day in ("2026-03-05", "2026-03-06"):
            later = night(day)
            assert later["actions"] == [] and later["gates"].get("rejected") == 1, later
        assert len(_GitLab.mrs) == 1 and sum(1 for method, _ in _GitLab.calls if method == "POST") == 1
        assert any("state=closed" in path for _, path in _GitLab.calls)
    finally:
        server.shutdown()


def test_pages_jobs_build_the_site_with_their_own_commands(workspace: Path, tmp_path: Path) -> None:
    """The site command each generated pages job runs, run here on a real workspace."""
    memgit_json(workspace, "ci", "github", "--pages")
    memgit_json(workspace, "ci", "gitlab", "--pages")
    github = load_yaml(workspace / ".github/workflows/memgit-dream.yml")["jobs"]["pages"]["steps"]
    build = next(step["run"] for step in github if "memgit site build" in step.get("run", ""))
    gitlab = "\n".join(
        line
        for line in load_yaml(workspace / ".gitlab/memgit-dream.gitlab-ci.yml")["pages"]["script"]
        if "pip install" not in line
    )
    runner = tmp_path / "runner"
    runner.mkdir()
    env = {
        **os.environ,
        **BM25,
        "RUNNER_TEMP": str(runner),
        "TMPDIR": str(runner),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    for command, built in ((build, runner / "site"), (gitlab, workspace / "public")):
        proc = subprocess.run(
            ["bash", "-e", "-c", command], cwd=workspace, env=env, capture_output=True, text=True, check=False
        )
        assert proc.returncode == 0, proc.stderr
        assert (built / "index.html").is_file()
