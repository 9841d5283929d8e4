import sys


def _run() -> None:
    # Git runs `memgit hook NAME` on every commit: skip click and the CLI imports on that path.
    if len(sys.argv) > 2 and sys.argv[1] == "hook" and sys.argv[2] not in ("-h", "--help"):
        from memgit.githooks.run import main as hook_main

        sys.exit(hook_main(sys.argv[2:]))
    from memgit.cli import main

    main()


if __name__ == "__main__":
    _run()
