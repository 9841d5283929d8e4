"""The command line: parse, call one service, print human text or `--json`."""

from memgit.cli.main import cli, main

__all__ = ["cli", "main"]
