"""The git hook types memgit installs: one list, shared by the installer, the runner and the CLI."""

LINT_HOOK = "pre-commit"
INDEX_HOOKS = ("post-commit", "post-merge", "post-checkout", "post-rewrite")
HOOK_TYPES = (LINT_HOOK, *INDEX_HOOKS)
