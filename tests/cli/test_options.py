"""`options()`: a frozen dataclass's fields become click options, and the command receives one
typed instance; help, defaults, flags, click types and option order come from the fields."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from memgit.cli.options import choice, flag, option, options, switch


@dataclass(frozen=True)
class Opts:
    now_text: str | None = option("--now", help="Run as of this time.")
    base: str = option("--base", default="HEAD", show_default=True, help="Build on this commit.")
    k: int = option("-k", default=5, type=int, help="How many.")
    dry_run: bool = flag("--dry-run", help="Write nothing.")
    tags: tuple[str, ...] = option("--tag", default=(), multiple=True, help="Repeatable.")
    directory: Path | None = option("--directory", "-d", type=click.Path(path_type=Path), hidden=True, help="")


seen: list[tuple[Opts, tuple[str, ...]]] = []


@click.command()
@click.argument("keys", nargs=-1)
@options(Opts)
@click.pass_context
def cmd(ctx: click.Context, keys: tuple[str, ...], opts: Opts) -> None:
    """Say what was parsed."""
    assert isinstance(ctx, click.Context)
    seen.append((opts, keys))


def run(*args: str) -> tuple[Opts, tuple[str, ...]]:
    seen.clear()
    result = CliRunner().invoke(cmd, list(args))
    assert result.exit_code == 0, result.output
    assert len(seen) == 1
    return seen[0]


def test_defaults_arrive_as_one_instance() -> None:
    opts, keys = run()
    assert opts == Opts()
    assert (opts.now_text, opts.base, opts.k, opts.dry_run, opts.tags, opts.directory) == (
        None,
        "HEAD",
        5,
        False,
        (),
        None,
    )
    assert keys == ()


def test_values_flags_types_and_arguments_parse(tmp_path: Path) -> None:
    opts, keys = run("a", "--now", "2026-01-02", "--base", "main", "-k", "7", "--dry-run", "--tag", "x", "--tag", "y")
    assert opts == Opts(now_text="2026-01-02", base="main", k=7, dry_run=True, tags=("x", "y"))
    assert keys == ("a",)
    opts, _ = run("-d", str(tmp_path))
    assert opts.directory == tmp_path and isinstance(opts.directory, Path)


def test_the_instance_is_frozen() -> None:
    opts, _ = run()
    with pytest.raises(FrozenInstanceError):
        opts.base = "other"  # type: ignore[misc]


def test_help_lists_options_in_field_order_with_their_text() -> None:
    out = CliRunner().invoke(cmd, ["--help"]).output
    assert "Say what was parsed." in out
    lines = [line.strip() for line in out.splitlines() if line.strip().startswith("-")]
    assert [line.split()[0].rstrip(",") for line in lines] == ["--now", "--base", "-k", "--dry-run", "--tag", "--help"]
    assert "Build on this commit.  [default: HEAD]" in out
    assert "--directory" not in out  # hidden stays hidden


def test_a_bad_value_is_a_usage_error() -> None:
    result = CliRunner().invoke(cmd, ["-k", "many"])
    assert result.exit_code == 2
    assert "Invalid value for '-k'" in result.output


def test_only_frozen_dataclasses_with_options_are_accepted() -> None:
    @dataclass
    class Loose:
        x: str | None = option("--x", help="x")

    @dataclass(frozen=True)
    class Empty:
        x: int = 1

    with pytest.raises(TypeError, match="frozen dataclass"):
        options(Loose)
    with pytest.raises(TypeError, match="no option"):
        options(Empty)
    with pytest.raises(TypeError, match="mutable default"):
        option("--x", default=[], help="x")


@dataclass(frozen=True)
class Folded:
    output: str = choice(
        "text", switch("--json", "json", help="Print JSON."), switch("-q", "--quiet", "quiet", help="Print nothing.")
    )
    force: bool = flag("--force", help="Anyway.")


folded: list[Folded] = []


@click.command()
@options(Folded)
def folded_cmd(opts: Folded) -> None:
    folded.append(opts)


@pytest.mark.parametrize(
    ("args", "output"),
    [
        ([], "text"),
        (["--json"], "json"),
        (["-q"], "quiet"),
        (["--quiet", "--json"], "json"),
        (["--json", "-q"], "json"),
    ],
)
def test_a_choice_is_one_field_set_by_its_first_flag_given(args: list[str], output: str) -> None:
    folded.clear()
    result = CliRunner().invoke(folded_cmd, [*args, "--force"])
    assert result.exit_code == 0, result.output
    assert folded == [Folded(output=output, force=True)]
    helped = CliRunner().invoke(folded_cmd, ["--help"]).output
    assert helped.index("--json") < helped.index("--quiet") < helped.index("--force") and "Print nothing." in helped
