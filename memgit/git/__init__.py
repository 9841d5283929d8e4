"""Every conversation with git: batched `git` processes on the hot path (hooks), pygit2 where a
library call fits (blame, commits written straight from trees), GitPython where the user's own git
must act (push, fetch through their remotes and credentials). Nothing else in memgit runs git."""
