"""Every conversation with git goes through a command's one handle, `repo.Repo` (`Workspace.git`):
batched `git` processes on the hot path (hooks), pygit2 where a library call fits (commits written
straight from trees), GitPython where the user's own git must act (push, fetch through their
remotes and credentials). Nothing else in memgit starts git or opens a repository."""
