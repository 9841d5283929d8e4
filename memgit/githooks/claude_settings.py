"""`memgit hooks install --agent claude-code|codex`: memgit's hooks in the host's settings file.

Claude Code reads hooks from `.claude/settings.local.json` (personal, git-ignored),
`.claude/settings.json` (the project's, committed) and `~/.claude/settings.json` (the user's), as
`{"hooks": {EVENT: [{"matcher": …, "hooks": [{"type": "command", "command": …, "timeout": S}]}]}}`;
Codex CLI reads the same shape from `<repo>/.codex/hooks.json` and `~/.codex/hooks.json`. memgit
adds one command hook for each of SessionStart, PreCompact and SessionEnd, calling
`memgit hook claude-code` (or `memgit hook codex`; `memgit.githooks.claude_code`).

* **Settings where they belong** (`--settings`): `local` (Claude Code's default) names this
  machine's interpreter and memory, in a file git ignores (memgit adds it to `.git/info/exclude`
  when nothing ignores it yet); `project` writes a portable command, `memgit` found on PATH and the
  memory named relative to `$CLAUDE_PROJECT_DIR`, never an absolute path, since the file is
  committed and shared; `user` (Codex's default, which has no per-project personal file) names the
  memory absolutely, as the hooks then run in every project.
* **Merge, never overwrite.** Every other key, event and hook in the file stays as it was; memgit's
  own entries are found by their command (`… memgit hook claude-code`) and rewritten in place,
  so installing twice changes nothing.
* **A broken file is refused, not repaired:** JSON that does not parse, or a `hooks` of the wrong
  shape, is one error line and the file is left untouched.
* **Timeouts are written out**, well above what a capture takes (text only: about a second) and
  within each host's limits: Claude Code's 60 s ceiling for SessionEnd, Codex's 3 s clamp.

The merge is pure (`merge_hooks`, `remove_hooks`); reading and the atomic write are the thin rest.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core.atomic import atomic_write
from memgit.errors import MemgitError

if TYPE_CHECKING:
    from memgit.workspace import Workspace

AGENTS = ("claude-code", "codex")
SETTINGS = Path(".claude") / "settings.json"
#: The file each (agent, --settings) writes: relative to the project, or to the home folder for `user`.
SETTINGS_FILES = {
    ("claude-code", "local"): Path(".claude") / "settings.local.json",
    ("claude-code", "project"): SETTINGS,
    ("claude-code", "user"): Path(".claude") / "settings.json",
    ("codex", "project"): Path(".codex") / "hooks.json",
    ("codex", "user"): Path(".codex") / "hooks.json",
}
DEFAULT_SETTINGS = {"claude-code": "local", "codex": "user"}
#: Seconds each host lets each hook run before it cancels it (Codex clamps SessionEnd to 3 s).
TIMEOUTS = {"SessionStart": 30, "PreCompact": 120, "SessionEnd": 60}
AGENT_TIMEOUTS = {"claude-code": TIMEOUTS, "codex": {"SessionStart": 10, "PreCompact": 60, "SessionEnd": 3}}
_SIGNATURE = "memgit hook claude-code"
_SIGNATURES = ("memgit hook claude-code", "memgit hook codex")


@dataclass
class AgentHooksReport:
    agent: str
    settings: Path
    command: str
    actions: list[str] = field(default_factory=list)
    changed: bool = False
    kind: str = "local"  # which settings file: local | project | user

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "kind": self.kind,
            "settings": str(self.settings),
            "command": self.command,
            "events": sorted(TIMEOUTS),
            "actions": self.actions,
            "changed": self.changed,
        }


def hook_command(python: str, pythonpath: str = "", workspace: Path | None = None, agent: str = "claude-code") -> str:
    """The shell command the host runs (pure): this interpreter, so the hook finds this memgit."""
    command = f"{shlex.quote(python)} -m memgit hook {agent}"
    if pythonpath:
        command = f"PYTHONPATH={shlex.quote(pythonpath)} {command}"
    if workspace is not None:
        command += f" --workspace {shlex.quote(str(workspace))}"
    return command


def portable_command(agent: str, inside: str | None) -> str:
    """The command for a committed settings file (pure): `memgit` from PATH, and the memory (when it
    is a folder `inside` the project, not the project itself) relative to `$CLAUDE_PROJECT_DIR`."""
    command = f"memgit hook {agent}"
    if inside:
        command += f' --workspace "$CLAUDE_PROJECT_DIR"/{shlex.quote(inside)}'
    return command


def is_memgit_command(command: Any) -> bool:
    if not isinstance(command, str):
        return False
    words = " ".join(command.split())
    return any(signature in words for signature in _SIGNATURES)


def merge_hooks(
    settings: dict[str, Any], command: str, timeouts: dict[str, int] | None = None, name: str = str(SETTINGS)
) -> tuple[dict[str, Any], list[str]]:
    """`settings` with memgit's three hooks in place, and what changed (pure).

    Raises `MemgitError` when the file's `hooks` is not the shape Claude Code documents.
    """
    merged = json.loads(json.dumps(settings))  # a deep copy: the caller's dict stays as it was
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise MemgitError(f'"hooks" in {name} is not an object; fix the file by hand, nothing was changed')
    actions = []
    for event, timeout in (timeouts or TIMEOUTS).items():
        groups = hooks.setdefault(event, [])
        _check_groups(event, groups, name)
        wanted = {"type": "command", "command": command, "timeout": timeout}
        found = [
            h for g in groups for h in g.get("hooks", []) if isinstance(h, dict) and is_memgit_command(h.get("command"))
        ]
        if not found:
            groups.append({"hooks": [wanted]})
            actions.append(f"added the {event} hook")
            continue
        first, *extra = found
        if any(first.get(k) != v for k, v in wanted.items()):
            first.update(wanted)
            actions.append(f"updated the {event} hook")
        for hook in extra:  # a second copy would capture twice
            _drop(groups, hook)
            actions.append(f"removed a duplicate {event} hook")
    return merged, actions


def remove_hooks(settings: dict[str, Any], name: str = str(SETTINGS)) -> tuple[dict[str, Any], list[str]]:
    """`settings` without memgit's hooks (other hooks and keys kept), and what changed (pure)."""
    merged = json.loads(json.dumps(settings))
    hooks = merged.get("hooks")
    if hooks is None:
        return merged, []
    if not isinstance(hooks, dict):
        raise MemgitError(f'"hooks" in {name} is not an object; fix the file by hand, nothing was changed')
    actions = []
    for event in TIMEOUTS:
        groups = hooks.get(event)
        if groups is None:
            continue
        _check_groups(event, groups, name)
        for hook in [
            h for g in groups for h in g.get("hooks", []) if isinstance(h, dict) and is_memgit_command(h.get("command"))
        ]:
            _drop(groups, hook)
            actions.append(f"removed the {event} hook")
        if not groups:
            del hooks[event]
    if not hooks:
        del merged["hooks"]
    return merged, actions


def _check_groups(event: str, groups: Any, name: str) -> None:
    where = f'"hooks.{event}" in {name}'
    if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
        raise MemgitError(f"{where} is not a list of matcher objects; fix the file by hand, nothing was changed")
    if not all(isinstance(g.get("hooks", []), list) for g in groups):
        raise MemgitError(f'{where} has a "hooks" that is not a list; fix the file by hand, nothing was changed')


def _drop(groups: list[dict[str, Any]], hook: dict[str, Any]) -> None:
    """Remove `hook` (by identity) and any matcher group it leaves empty."""
    for group in list(groups):
        kept = [h for h in group.get("hooks", []) if h is not hook]
        if len(kept) != len(group.get("hooks", [])):
            group["hooks"] = kept
            if not kept:
                groups.remove(group)


# -- I/O -----------------------------------------------------------------------------------------
def read_settings(path: Path) -> dict[str, Any]:
    """The settings file as an object ({} when absent); anything unusable is refused in one line."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise MemgitError(f"{path} is a folder, not a settings file; nothing was changed") from None
    except OSError as exc:
        raise MemgitError(f"cannot read {path}: {exc.strerror or exc}; nothing was changed") from None
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise MemgitError(f"{path} is not UTF-8 text; fix it by hand, nothing was changed") from None
    except (ValueError, RecursionError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise MemgitError(f"{path} is not valid JSON{where}; fix it by hand, nothing was changed") from None
    if not isinstance(data, dict):
        raise MemgitError(f"{path} does not hold a JSON object; fix it by hand, nothing was changed")
    return data


def _write_settings(path: Path, settings: dict[str, Any]) -> None:
    """Write the whole file at once (a temporary file renamed over it), keeping its mode."""
    text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
        atomic_write(path, text.encode("utf-8"), durable=False, mode=mode)
    except OSError as exc:
        raise MemgitError(f"cannot write {path}: {exc.strerror or exc}; nothing was changed") from None


def _project_folder(project: Path) -> Path:
    if not project.is_dir():
        raise MemgitError(f"{project} is not a folder: name the project the agent runs in with --project")
    return project


def settings_file(agent: str, kind: str | None, project: Path, home: Path | None = None) -> tuple[str, Path]:
    """(the settings kind, the file it writes) for `agent`; a kind the agent lacks is an error."""
    if agent not in AGENTS:
        raise MemgitError(f"unknown agent {agent!r}: memgit installs hooks for {', '.join(AGENTS)}")
    kind = kind or DEFAULT_SETTINGS[agent]
    rel = SETTINGS_FILES.get((agent, kind))
    if rel is None:
        kinds = [k for a, k in SETTINGS_FILES if a == agent]
        raise MemgitError(
            f"{agent} has no {kind} settings file (it reads hooks from {' and '.join(kinds)}): "
            f"use --settings {' or --settings '.join(kinds)}"
        )
    if kind == "user" and agent == "codex" and home is None and os.environ.get("CODEX_HOME"):
        return kind, Path(os.environ["CODEX_HOME"]) / rel.name  # Codex's user layer lives there
    if kind == "user":
        return kind, (home or Path.home()) / rel
    return kind, _project_folder(project) / rel


def _command_for(ws: Workspace, agent: str, kind: str, project: Path, python: str) -> tuple[str, list[str]]:
    """The command the settings file gets, and notices about it."""
    import shutil

    from memgit.githooks.install import interpreter_pythonpath

    root = ws.root.resolve()
    if kind != "project":
        named = root if kind == "user" or project != root else None
        return hook_command(python, interpreter_pythonpath(python), named, agent), []
    if project == root:
        inside = None
    elif root.is_relative_to(project) and agent == "claude-code":
        inside = root.relative_to(project).as_posix()
    else:
        raise MemgitError(
            f"the memory workspace {root} is not the project {project}"
            + (" nor inside it" if agent == "claude-code" else "")
            + ", and a committed settings file must not name a path of this machine; "
            "use --settings local (or user) instead"
        )
    notices = []
    if shutil.which("memgit") is None:
        notices.append(
            "`memgit` is not on PATH here: the project's hooks run `memgit hook "
            f"{agent}`, so install memgit where the agent runs (pipx install agent-memgit)"
        )
    return portable_command(agent, inside), notices


def _ignore_locally(project: Path, path: Path) -> str | None:
    """Keep a personal settings file out of commits: add it to `.git/info/exclude` when nothing
    ignores it yet. Returns the action, or None (ignored already, or not in a git repository)."""
    from memgit.git.repo import Repo

    git = Repo(project)
    rel = path.relative_to(project).as_posix()
    if git.run("rev-parse", "--git-dir").returncode != 0:
        return None
    # (check-ignore refuses the --literal-pathspecs every memgit git call carries, exit 128: the
    # exclude file's own lines are read too, so a second install never adds the line again.)
    if git.run("check-ignore", "-q", "--no-index", "--", rel).returncode == 0:
        return None
    exclude = git.run("rev-parse", "--git-path", "info/exclude").stdout.decode().strip()
    target = project / exclude
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        before = target.read_text(encoding="utf-8") if target.exists() else ""
        if f"/{rel}" in before.splitlines() or rel in before.splitlines():
            return None
        lead = "" if not before or before.endswith("\n") else "\n"
        target.write_text(before + lead + f"/{rel}\n", encoding="utf-8")
    except OSError as exc:
        return f"could not add {rel} to {exclude} ({exc.strerror or exc}): do not commit it"
    return f"added {rel} to {exclude} (a personal settings file is never committed)"


def _shown(path: Path, project: Path, home: Path | None) -> str:
    """The settings file as an error message names it: relative to the project, or `~/…`."""
    if path.is_relative_to(project):
        return path.relative_to(project).as_posix()
    home = home or Path.home()
    return "~/" + path.relative_to(home).as_posix() if path.is_relative_to(home) else str(path)


def install_agent_hooks(
    ws: Workspace,
    agent: str,
    *,
    project: Path | None = None,
    python: str | None = None,
    settings: str | None = None,
    home: Path | None = None,
) -> AgentHooksReport:
    """Merge memgit's hooks into the `settings` file of `agent` for `project` (default: the memory
    workspace itself). When the project is another folder, the command names the memory
    workspace, so the hooks capture into this memory wherever the agent runs."""
    target = (project or ws.root).resolve()
    kind, path = settings_file(agent, settings, target, home)
    _refuse_a_second_level(agent, kind, path, target, home)
    command, notices = _command_for(ws, agent, kind, target, python or sys.executable)
    current = read_settings(path)
    merged, actions = merge_hooks(current, command, AGENT_TIMEOUTS[agent], _shown(path, target, home))
    report = AgentHooksReport(agent, path, command, actions or ["memgit's hooks are already in place"])
    report.kind = kind
    if merged != current or not path.exists():
        _write_settings(path, merged)
        report.changed = True
    if kind == "local":
        ignored = _ignore_locally(target, path)
        if ignored:
            report.actions.append(ignored)
            report.changed = report.changed or ignored.startswith("added")
    report.actions += notices
    return report


def _refuse_a_second_level(agent: str, kind: str, path: Path, project: Path, home: Path | None) -> None:
    """The host merges its settings levels and would run memgit's hooks once per level (the context
    twice, ~17 KB, every capture twice): an install at a second level is refused, naming the first."""
    for other in (k for a, k in SETTINGS_FILES if a == agent and k != kind):
        try:
            _kind, elsewhere = settings_file(agent, other, project, home)
            hooks = read_settings(elsewhere).get("hooks") if elsewhere != path else None
        except MemgitError:
            continue
        if isinstance(hooks, dict) and any(
            isinstance(h, dict) and is_memgit_command(h.get("command"))
            for groups in hooks.values()
            if isinstance(groups, list)
            for g in groups
            if isinstance(g, dict) and isinstance(g.get("hooks"), list)
            for h in g["hooks"]
        ):
            raise MemgitError(
                f"memgit's {agent} hooks are already in {_shown(elsewhere, project, home)} (--settings {other}), "
                f"and {agent} would run both (the context twice, every capture twice): remove them there first "
                f"(`memgit hooks uninstall --agent {agent} --settings {other}`), then install again; nothing was changed"
            )


def installed_events(project: Path) -> list[str]:
    """The events with a memgit hook in `project`'s Claude Code settings (local or project file);
    [] when the files are absent or unusable."""
    found: list[str] = []
    for rel in (SETTINGS_FILES[("claude-code", "local")], SETTINGS):
        try:
            hooks = read_settings(project / rel).get("hooks")
        except MemgitError:
            continue
        if not isinstance(hooks, dict):
            continue
        for event in TIMEOUTS:
            groups = hooks.get(event)
            if (
                event not in found
                and isinstance(groups, list)
                and any(
                    isinstance(h, dict) and is_memgit_command(h.get("command"))
                    for g in groups
                    if isinstance(g, dict) and isinstance(g.get("hooks"), list)
                    for h in g["hooks"]
                )
            ):
                found.append(event)
    return [event for event in TIMEOUTS if event in found]


def uninstall_agent_hooks(
    ws: Workspace, agent: str, *, project: Path | None = None, settings: str | None = None, home: Path | None = None
) -> AgentHooksReport:
    """Remove memgit's hooks from the `settings` file; everything else in the file stays."""
    target = (project or ws.root).resolve()
    kind, path = settings_file(agent, settings, target, home)
    current = read_settings(path)
    merged, actions = remove_hooks(current, _shown(path, target, home))
    report = AgentHooksReport(agent, path, "", actions or ["no memgit hooks were there"])
    report.kind = kind
    if actions:
        _write_settings(path, merged)
        report.changed = True
    return report
