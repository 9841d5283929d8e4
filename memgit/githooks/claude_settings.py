"""`memgit hooks install --agent claude-code`: memgit's hooks in a project's `.claude/settings.json`.

Claude Code reads hooks from `.claude/settings.json` as `{"hooks": {EVENT: [{"matcher": …,
"hooks": [{"type": "command", "command": …, "timeout": SECONDS}]}]}}`. memgit adds one command
hook for each of SessionStart, PreCompact and SessionEnd, calling `memgit hook claude-code`
(`memgit.githooks.claude_code`).

* **Merge, never overwrite.** Every other key, event and hook in the file stays as it was; memgit's
  own entries are found by their command (`… -m memgit hook claude-code`) and rewritten in place,
  so installing twice changes nothing.
* **A broken file is refused, not repaired:** JSON that does not parse, or a `hooks` of the wrong
  shape, is one error line and the file is left untouched.
* **Timeouts are written out.** Claude Code gives SessionEnd hooks a short default budget unless
  the hook names a longer one, so each hook carries its own (`TIMEOUTS`), well above what a
  capture takes (about a second) and within the host's 60 s ceiling for SessionEnd.

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

from memgit.errors import MemgitError

if TYPE_CHECKING:
    from memgit.workspace import Workspace

AGENTS = ("claude-code",)
SETTINGS = Path(".claude") / "settings.json"
#: Seconds Claude Code lets each hook run before it cancels it.
TIMEOUTS = {"SessionStart": 30, "PreCompact": 120, "SessionEnd": 60}
_SIGNATURE = "memgit hook claude-code"


@dataclass
class AgentHooksReport:
    agent: str
    settings: Path
    command: str
    actions: list[str] = field(default_factory=list)
    changed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "settings": str(self.settings),
            "command": self.command,
            "events": sorted(TIMEOUTS),
            "actions": self.actions,
            "changed": self.changed,
        }


def hook_command(python: str, pythonpath: str = "", workspace: Path | None = None) -> str:
    """The shell command Claude Code runs (pure): this interpreter, so the hook finds this memgit."""
    command = f"{shlex.quote(python)} -m {_SIGNATURE}"
    if pythonpath:
        command = f"PYTHONPATH={shlex.quote(pythonpath)} {command}"
    if workspace is not None:
        command += f" --workspace {shlex.quote(str(workspace))}"
    return command


def is_memgit_command(command: Any) -> bool:
    return isinstance(command, str) and _SIGNATURE in " ".join(command.split())


def merge_hooks(settings: dict[str, Any], command: str) -> tuple[dict[str, Any], list[str]]:
    """`settings` with memgit's three hooks in place, and what changed (pure).

    Raises `MemgitError` when the file's `hooks` is not the shape Claude Code documents.
    """
    merged = json.loads(json.dumps(settings))  # a deep copy: the caller's dict stays as it was
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise MemgitError(f'"hooks" in {SETTINGS} is not an object; fix the file by hand, nothing was changed')
    actions = []
    for event, timeout in TIMEOUTS.items():
        groups = hooks.setdefault(event, [])
        _check_groups(event, groups)
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


def remove_hooks(settings: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """`settings` without memgit's hooks (other hooks and keys kept), and what changed (pure)."""
    merged = json.loads(json.dumps(settings))
    hooks = merged.get("hooks")
    if hooks is None:
        return merged, []
    if not isinstance(hooks, dict):
        raise MemgitError(f'"hooks" in {SETTINGS} is not an object; fix the file by hand, nothing was changed')
    actions = []
    for event in TIMEOUTS:
        groups = hooks.get(event)
        if groups is None:
            continue
        _check_groups(event, groups)
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


def _check_groups(event: str, groups: Any) -> None:
    where = f'"hooks.{event}" in {SETTINGS}'
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
        tmp = path.with_name(f".{path.name}.memgit-tmp")
        tmp.write_text(text, encoding="utf-8")
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        raise MemgitError(f"cannot write {path}: {exc.strerror or exc}; nothing was changed") from None


def _settings_path(project: Path) -> Path:
    if not project.is_dir():
        raise MemgitError(f"{project} is not a folder: name the project Claude Code runs in with --project")
    return project / SETTINGS


def install_agent_hooks(
    ws: Workspace, agent: str, *, project: Path | None = None, python: str | None = None
) -> AgentHooksReport:
    """Merge memgit's hooks into `project`'s settings (default: the memory workspace itself).

    When the project is another folder, the command names the memory workspace, so the hooks
    capture into this memory wherever Claude Code runs.
    """
    from memgit.githooks.install import interpreter_pythonpath

    if agent not in AGENTS:
        raise MemgitError(f"unknown agent {agent!r}: memgit installs hooks for {', '.join(AGENTS)}")
    target = (project or ws.root).resolve()
    path = _settings_path(target)
    python = python or sys.executable
    command = hook_command(python, interpreter_pythonpath(python), None if target == ws.root.resolve() else ws.root)
    current = read_settings(path)
    merged, actions = merge_hooks(current, command)
    report = AgentHooksReport(agent, path, command, actions or ["memgit's hooks are already in place"])
    if merged != current or not path.exists():
        _write_settings(path, merged)
        report.changed = True
    return report


def installed_events(project: Path) -> list[str]:
    """The events whose memgit hook is in `project`'s settings; [] when the file is absent or unusable."""
    try:
        hooks = read_settings(project / SETTINGS).get("hooks")
    except MemgitError:
        return []
    if not isinstance(hooks, dict):
        return []
    found = []
    for event in TIMEOUTS:
        groups = hooks.get(event)
        if isinstance(groups, list) and any(
            isinstance(h, dict) and is_memgit_command(h.get("command"))
            for g in groups
            if isinstance(g, dict) and isinstance(g.get("hooks"), list)
            for h in g["hooks"]
        ):
            found.append(event)
    return found


def uninstall_agent_hooks(ws: Workspace, agent: str, *, project: Path | None = None) -> AgentHooksReport:
    """Remove memgit's hooks from `project`'s settings; everything else in the file stays."""
    if agent not in AGENTS:
        raise MemgitError(f"unknown agent {agent!r}: memgit installs hooks for {', '.join(AGENTS)}")
    path = _settings_path((project or ws.root).resolve())
    current = read_settings(path)
    merged, actions = remove_hooks(current)
    report = AgentHooksReport(agent, path, "", actions or ["no memgit hooks were there"])
    if actions:
        _write_settings(path, merged)
        report.changed = True
    return report
