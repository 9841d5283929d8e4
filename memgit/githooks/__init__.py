"""The git side of keeping the index current: the hook entry point (`memgit hook NAME`), its fast
paths that return before anything heavy is imported, and installing plain git hooks beside other
managers' (marker, `.legacy` chaining, `core.hooksPath`, worktrees)."""
