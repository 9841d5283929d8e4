import sys


def _run() -> None:
    # Git runs `memgit hook NAME` on every commit: skip click and the CLI imports on that path.
    # (`hook claude-code` and `hook codex` run once a session, through the CLI, which reads MEMGIT_NOW.)
    if len(sys.argv) > 2 and sys.argv[1] == "hook" and sys.argv[2] not in ("-h", "--help", "claude-code", "codex"):
        from memgit.githooks.run import end_process
        from memgit.githooks.run import main as hook_main

        end_process(hook_main(sys.argv[2:]))
    # The pre-commit framework runs `memgit lint --staged FILE...` for every commit that stages
    # files: when none could be memory, answer before importing the CLI (as the shell hook does).
    if sys.argv[1:3] == ["lint", "--staged"]:
        from pathlib import Path

        from memgit.githooks.fastpath import lint_can_skip

        if lint_can_skip(sys.argv[3:], Path.cwd()):
            sys.exit(0)
    from memgit.cli import main

    main()


if __name__ == "__main__":
    _run()
