"""Pushing with the user's own git through GitPython: their remotes, credential helpers, SSH agent."""

from __future__ import annotations

from pathlib import Path

from memgit.errors import MemgitError


def check_remote(root: Path, remote: str) -> None:
    """A MemgitError unless `remote` is a remote of this repository (one `git remote` process):
    asked before anything is written, so a typo costs nothing."""
    from memgit.git import plumbing

    if not remote or remote.startswith("-"):
        raise MemgitError(f"--push {remote!r} is not a remote name; see `git remote -v`")
    proc = plumbing.run_git(root, "remote")
    if proc.returncode != 0:
        detail = proc.stderr.decode(errors="replace").strip()
        raise MemgitError(f"cannot list the repository's remotes: {detail or f'git remote exit {proc.returncode}'}")
    if remote not in proc.stdout.decode("utf-8", "surrogateescape").split("\n"):
        raise MemgitError(f"no remote named {remote!r}; see `git remote -v`")


def push_branch(root: Path, remote: str, branch: str, *, force: bool = False) -> str:
    """Push `branch` to the same name on `remote`; returns git's summary line."""
    import git

    try:
        repo = git.Repo(root)
        target = repo.remote(remote)
    except ValueError:
        raise MemgitError(f"no remote named {remote!r}; see `git remote -v`") from None
    except git.exc.GitError as exc:
        raise MemgitError(f"cannot open the repository for pushing: {exc}") from None
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


def fetch_branch(root: Path, remote: str, branch: str) -> str | None:
    """Fetch `branch` from `remote` into `refs/remotes/REMOTE/BRANCH` (with the user's git, so their
    credentials apply); its commit id, or None when the remote has no such branch."""
    import git

    ref = f"refs/heads/{branch}"
    try:
        repo = git.Repo(root)
        listed = str(repo.git.ls_remote("--heads", remote, ref))
    except git.exc.GitCommandError as exc:
        raise MemgitError(f"cannot read branch {branch} of {remote} (nothing was written): {_complaint(exc)}") from None
    except git.exc.GitError as exc:
        raise MemgitError(f"cannot open the repository to fetch: {exc}") from None
    tip = next((line.split()[0] for line in listed.splitlines() if line.endswith("\t" + ref)), None)
    if tip is None:
        return None
    try:
        repo.git.fetch("--no-tags", "--quiet", remote, f"+{ref}:refs/remotes/{remote}/{branch}")
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
