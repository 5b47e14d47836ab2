"""The ``fracas`` Typer app and what every command module shares (options, checks).

Command modules register on :data:`app` by importing it from here; this module imports
none of them (the entry point, :mod:`fracas.cli.app`, loads them), so no import circle.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand

from fracas.errors import InputError

# Start-up stays light: systems, data packs, numpy and the rest load inside the commands.

Command = TypeVar("Command", bound=Callable[..., Any])


class PlainCommand(TyperCommand):
    """A command whose help and usage line say what to type in words (``FILE``, ``N``,
    ``SECONDS``, ``at least 1``), never Python's or Click's type names (``<int range>``,
    ``{file}``, ``INTEGER``, ``x>=1``). Each option and argument names what it takes by its
    ``metavar``; one without falls back to its own name in capitals."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                shown = metavar(param) + ("..." if param.nargs != 1 else "")
                pieces.append(shown if param.required else f"[{shown}]")
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        rows: dict[str, list[tuple[str, str]]] = {"argument": [], "option": []}
        for param in self.get_params(ctx):
            if not getattr(param, "hidden", False) and param.param_type_name in rows:
                rows[param.param_type_name].append(_help_row(param))
        for kind, title in (("argument", "Arguments"), ("option", "Options")):
            if rows[kind]:
                with formatter.section(title):
                    formatter.write_dl(rows[kind])


def metavar(param: Any) -> str:
    """What an option or argument takes, as its help shows it."""
    return str(param.metavar or param.name.replace("_", "-").upper())


def _help_row(param: Any) -> tuple[str, str]:
    if param.param_type_name == "argument":
        name = metavar(param) + ("..." if param.nargs != 1 else "")
    else:
        name = ", ".join(sorted(param.opts, key=lambda o: len(o) - len(o.lstrip("-"))))
        if param.secondary_opts:
            name += " / " + ", ".join(param.secondary_opts)
        if not param.is_flag:
            name += " " + metavar(param)
    extra = []
    default = param.default
    if isinstance(param.show_default, str):
        extra.append(f"default: {param.show_default}")
    elif (param.show_default and default is not None and not getattr(param, "is_flag", False)
          and not callable(default) and default not in ([], ())):
        extra.append(f"default: {_plain(default)}")
    bounds = param if hasattr(param, "min") else getattr(param, "type", None)  # Click's range
    low, high = getattr(bounds, "min", None), getattr(bounds, "max", None)
    if low is not None and high is not None:
        extra.append(f"{_plain(low)} to {_plain(high)}")
    elif low is not None:
        extra.append(f"at least {_plain(low)}")
    elif high is not None:
        extra.append(f"at most {_plain(high)}")
    if param.required:
        extra.append("required")
    text = param.help or ""
    if extra:
        text = f"{text}  [{'; '.join(extra)}]" if text else f"[{'; '.join(extra)}]"
    return name, text


def _plain(value: object) -> str:
    """A default or a bound as people write it: 600 (not 600.0), 1000000000 (not 1e9)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class PlainTyper(typer.Typer):
    """A Typer app whose commands (its own and those of the apps added to it, such as a
    system's commands) show their help in words: see :class:`PlainCommand`."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Command], Command]:
        kwargs.setdefault("cls", PlainCommand)
        return super().command(*args, **kwargs)

    def add_typer(self, typer_instance: typer.Typer, *args: Any, **kwargs: Any) -> None:
        _plain_commands(typer_instance)
        super().add_typer(typer_instance, *args, **kwargs)


def _plain_commands(typer_app: typer.Typer) -> None:
    for info in typer_app.registered_commands:
        if info.cls in (None, TyperCommand):  # Typer's own default: not a chosen class
            info.cls = PlainCommand
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            _plain_commands(group.typer_instance)


app = PlainTyper(
    name="fracas",
    help="A rules-faithful combat engine for tabletop RPGs: resolve, track, know the odds.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help and usage errors: Typer's Rich help costs ~0.2 s
)

_state: dict[str, bool] = {"debug": False}


def debugging() -> bool:
    """Was ``--debug`` given (show tracebacks)?"""
    return _state["debug"]


MAX_SEED = 2**128 - 1


def check_seed(seed: int | None) -> int | None:
    """A seed the random roller accepts (numpy's PCG64 takes 0 to 2**128 - 1)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InputError(f"a seed of {seed}", path="--seed", allowed="a whole number from "
                         "0 to 2**128 - 1")
    return seed

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", metavar="N",
                                             help="Seed of the random roller.")]
FileArg = Annotated[Path, typer.Argument(
    metavar="FILE", help="A scenario file (YAML).", show_default=False)]
MemoryOpt = Annotated[float, typer.Option(
    "--max-memory", metavar="GB",
    help="The most memory, in GB, a chain or sub-step cache may hold.",
    min=0.001, max=1_000_000)]
MAX_FIGHTS = 10_000_000


def scenario_mapping(file: Path) -> dict[str, Any]:
    """A scenario file read as the mapping a sweep or a balance edits (the same message as
    loading it when it is not one)."""
    from fracas.core.scenario import read_yaml

    data = read_yaml(file)
    if not isinstance(data, dict):
        raise InputError("a scenario must be a mapping with system: and combatants:",
                         file=str(file), allowed="a YAML mapping")
    return data


def check_engine(jobs: int | None, scheduler: str | None) -> None:
    """Local processes or a Dask cluster, not both (one of them would be ignored)."""
    if jobs is not None and scheduler is not None:
        raise InputError(f"--jobs {jobs} runs local processes and --scheduler runs on a Dask "
                         "cluster: one of them would be ignored", path="--jobs",
                         allowed="--jobs N or --scheduler tcp://HOST:PORT, not both")


def check_run(seed: int | None, fights: int, flag: str, jobs: int | None,
              scheduler: str | None) -> None:
    """The options every command that may simulate shares: the seed, the number of
    fights (given as ``flag``) and where they run."""
    check_seed(seed)
    check_fights(fights, flag)
    check_engine(jobs, scheduler)


def check_fights(n: int, flag: str) -> int:
    """A number of fights to simulate whose results fit in memory."""
    if n > MAX_FIGHTS:  # the results grow with n: refuse before any work
        raise InputError(f"{n:,} fights are too many", path=flag,
                         allowed=f"at most {MAX_FIGHTS:,} (run more in parts with other seeds)")
    return n


@app.callback()
def _main(debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks.")] = False
          ) -> None:
    _state["debug"] = debug
