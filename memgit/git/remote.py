"""The user's remotes, through GitPython: their remote names, credential helpers and SSH agent.

Everything that talks to a remote (push, fetch, ls-remote) lives here and goes through GitPython's
`Remote`, which the command's handle opens (`Repo.remote`; ls-remote, which has no typed call
there, through its `git` command object); reading and writing the local repository is
the handle's (`trees`, `log`) and `commits`' work.
"""

from __future__ import annotations

from memgit.errors import MemgitError
from memgit.git.repo import Repo


def check_remote(repo: Repo, remote: str) -> None:
    """A MemgitError unless `remote` is a remote of this repository (read from its config, no
    network): asked before anything is written, so a typo costs nothing."""
    if not remote or remote.startswith("-"):
        raise MemgitError(f"--push {remote!r} is not a remote name; see `git remote -v`")
    repo.remote(remote, "to list its remotes")


def push_branch(repo: Repo, remote: str, branch: str, *, force: bool = False) -> str:
    """Push `branch` to the same name on `remote`; returns git's summary line."""
    import git

    target = repo.remote(remote, "for pushing")
    spec = f"{'+' if force else ''}refs/heads/{branch}:refs/heads/{branch}"
    try:
        infos = target.push(spec)
    except git.exc.GitCommandError as exc:
        # GitPython quotes git's stderr (`stderr: 'fatal: ...'`): the last line ends with that quote.
        detail = [line for line in (exc.stderr or str(exc)).strip().strip("'").splitlines() if line.strip()]
        raise MemgitError(f"git push to {remote} failed: {detail[-1].strip() if detail else exc}") from None
    for info in infos:
        if info.flags & (info.ERROR | info.REJECTED | info.REMOTE_REJECTED | info.REMOTE_FAILURE):
            hint = " (the branch exists there: use --force to replace it)" if info.flags & info.REJECTED else ""
            raise MemgitError(f"git push of {branch} to {remote} was refused: {info.summary.strip()}{hint}")
    return "; ".join(info.summary.strip() for info in infos)


def fetch_branch(repo: Repo, remote: str, branch: str) -> str | None:
    """Fetch `branch` from `remote` into `refs/remotes/REMOTE/BRANCH` (with the user's git, so their
    credentials apply); its commit id, or None when the remote has no such branch."""
    import git

    ref = f"refs/heads/{branch}"
    target = repo.remote(remote, "to fetch")
    try:
        listed = str(target.repo.git.ls_remote("--heads", remote, ref))
    except git.exc.GitCommandError as exc:
        raise MemgitError(f"cannot read branch {branch} of {remote} (nothing was written): {_complaint(exc)}") from None
    tip = next((line.split()[0] for line in listed.splitlines() if line.endswith("\t" + ref)), None)
    if tip is None:
        return None
    try:
        target.fetch(f"+{ref}:refs/remotes/{remote}/{branch}", no_tags=True)
    except git.exc.GitCommandError as exc:
        raise MemgitError(
            f"git fetch of {branch} from {remote} failed (nothing was written): {_complaint(exc)}"
        ) from None
    return tip


def _complaint(exc: Exception) -> str:
    """git's own first `fatal:` line (GitPython quotes stderr), else its last line."""
    text = str(getattr(exc, "stderr", "") or exc).strip().strip("'")
    lines = [line.strip().removeprefix("stderr:").strip().strip("'") for line in text.splitlines() if line.strip()]
    fatal = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return (fatal or lines or [str(exc)])[0].removeprefix("stderr: ").strip("'")
