"""Typed command options: a frozen dataclass declares a command's click options, and the command
receives ONE instance of it instead of a parameter per option.

A command with many flags grows a long parameter list that is easy to misorder and hard to pass
on; the dataclass names each option once (its flag, help, default and click type live in the
field's metadata), and the value handed to the command is typed, immutable and can travel to the
library call whole.

    @dataclass(frozen=True)
    class DreamOptions:
        now_text: str | None = option("--now", help="Run as of this ISO time.")
        dry_run: bool = flag("--dry-run", help="Plan and report; write no branch.")

    @click.command()
    @options(DreamOptions)
    def dream(opts: DreamOptions) -> None: ...

Flags that are one choice (`--json` or `--quiet`; `--full` or `--fill-in-background`) are one
field, an enum, whose flags `choice` declares in order of precedence:

    output: Output = choice(Output.TEXT, switch("--json", Output.JSON, help="Print JSON."),
                            switch("-q", "--quiet", Output.QUIET, help="Print nothing."))

`--help` lists the options in field order. Click arguments and other options of the command still
arrive as their own keyword parameters; `@click.pass_context` goes below `@options`, as usual.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

_SPEC = "memgit.cli.option"  # the metadata key of a field that is a click option
_CHOICE = "memgit.cli.choice"  # the metadata key of a field that several flags set

_T = TypeVar("_T")
_R = TypeVar("_R")


def option(*decls: str, help: str, default: Any = None, **click_kwargs: Any) -> Any:
    """A dataclass field that is the click option `decls` (flags such as "--now", "-d").

    `click_kwargs` pass through to `click.option` (type, metavar, show_default, hidden, multiple …);
    the field's default is the option's default. Typed `Any` so a field of any type can take it.
    """
    spec = {"decls": decls, "kwargs": {"help": help, "default": default, **click_kwargs}}
    if isinstance(default, list | dict | set):
        raise TypeError("option(): a mutable default would be shared between calls; use a tuple")
    return dataclasses.field(default=default, metadata={_SPEC: spec})


def flag(*decls: str, help: str, **click_kwargs: Any) -> Any:
    """A boolean field that is an on/off click flag (default off)."""
    return option(*decls, help=help, default=False, is_flag=True, **click_kwargs)


@dataclasses.dataclass(frozen=True)
class Switch:
    """One flag of a `choice`: given, the field takes `value`."""

    decls: tuple[str, ...]
    value: Any
    help: str


def switch(*decls_and_value: Any, help: str) -> Switch:
    """`switch("-q", "--quiet", Output.QUIET, help=...)`: the flag's names, then its value."""
    *decls, value = decls_and_value
    return Switch(tuple(decls), value, help)


def choice(default: Any, *switches: Switch) -> Any:
    """A field that holds one of several values, each set by its own on/off flag (default:
    `default`). Flags given together resolve by the order written here: the first wins, so a field
    folded from flags keeps what they did together (`--json` over `--quiet`)."""
    return dataclasses.field(default=default, metadata={_CHOICE: switches})


def _frozen(cls: type) -> bool:
    params: Any = getattr(cls, "__dataclass_params__", None)
    return bool(params is not None and params.frozen)


def options(cls: type[_T], name: str = "opts") -> Callable[[Callable[..., _R]], Callable[..., _R]]:
    """Add every option field of the frozen dataclass `cls` to the command, and call the command
    with one instance of `cls` as keyword `name` in place of those fields' values."""
    if not dataclasses.is_dataclass(cls) or not _frozen(cls):
        raise TypeError(f"options(): {cls.__name__} must be a frozen dataclass")
    fields = [f for f in dataclasses.fields(cls) if _SPEC in f.metadata or _CHOICE in f.metadata]
    if not fields:
        raise TypeError(f"options(): {cls.__name__} declares no option(), flag() or choice() field")

    def decorate(fn: Callable[..., _R]) -> Callable[..., _R]:
        @functools.wraps(fn)
        def command(*args: Any, **kwargs: Any) -> _R:
            values = {f.name: _value(f, kwargs) for f in fields}
            return fn(*args, **kwargs, **{name: cls(**values)})

        # click lists options in the order their decorators are written, i.e. applied last-first
        for field in reversed(fields):
            if _CHOICE in field.metadata:
                for i, flag_ in reversed(list(enumerate(field.metadata[_CHOICE]))):
                    click.option(*flag_.decls, _switch_name(field, i), is_flag=True, help=flag_.help)(command)
                continue
            spec = field.metadata[_SPEC]
            click.option(*spec["decls"], field.name, **spec["kwargs"])(command)
        return command

    return decorate


def _switch_name(field: dataclasses.Field[Any], index: int) -> str:
    return f"{field.name}_{index}"


def _value(field: dataclasses.Field[Any], kwargs: dict[str, Any]) -> Any:
    """The field's value from click's keywords (popped): a choice's first flag given, else its default."""
    if _CHOICE not in field.metadata:
        return kwargs.pop(field.name)
    given = [kwargs.pop(_switch_name(field, i)) for i in range(len(field.metadata[_CHOICE]))]
    return next((s.value for s, on in zip(field.metadata[_CHOICE], given, strict=True) if on), field.default)
