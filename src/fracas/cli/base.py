"""The ``fracas`` Typer app and what every command module shares (options, checks).

Command modules register on :data:`app` by importing it from here; this module imports
none of them (the entry point, :mod:`fracas.cli.app`, loads them), so no import circle.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from fracas.errors import InputError

# Start-up stays light: systems, data packs, numpy and the rest load inside the commands.

app = typer.Typer(
    name="fracas",
    help="A rules-faithful combat engine for tabletop RPGs: resolve, track, know the odds.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help and usage errors: Typer's Rich help costs ~0.2 s
)

_state: dict[str, bool] = {"debug": False}
MAX_SEED = 2**128 - 1


def check_seed(seed: int | None) -> int | None:
    """A seed the random roller accepts (numpy's PCG64 takes 0 to 2**128 - 1)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InputError(f"a seed of {seed}", path="--seed", allowed="a whole number from "
                         "0 to 2**128 - 1")
    return seed

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed of the random roller.")]
FileArg = Annotated[Path, typer.Argument(help="A scenario file (YAML).", show_default=False)]
MemoryOpt = Annotated[float, typer.Option(
    "--max-memory", help="The most memory, in GB, a chain or sub-step cache may hold.",
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
