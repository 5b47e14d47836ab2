"""``fracas zamani ...``: the initiative countdown and the action table, for a GM at the table.

The system's ``commands`` hook names this module: the command line calls :func:`build_app`
with its own JSON printer and mounts the result as ``fracas zamani``, so this package never
imports ``fracas.cli``. No rules here: parse the arguments, call :func:`countdown` or
:func:`load_action_table`, render with Rich or as JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from fracas.core.system import CommandServices
from fracas.dice.rollers import RandomRoller
from fracas.errors import InputError

from .countdown import SEGMENTS, Countdown, countdown
from .table import ActionTable, load_action_table

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def parse_entry(text: str) -> tuple[str, int, int, int]:
    """``name=initiative[:fitness[:spirit]]`` -> (name, initiative, fitness, spirit)."""
    name, sep, rest = text.partition("=")
    numbers = rest.split(":")
    if not sep or not name.strip() or not 1 <= len(numbers) <= 3 or not all(
            n.strip().removeprefix("-").isascii() and n.strip().removeprefix("-").isdigit()
            and len(n.strip()) <= 30 for n in numbers):
        raise InputError(f"cannot read {text!r}", path="combatants",
                         allowed="name=initiative[:fitness[:spirit]], e.g. joe=12 or ann=12:5:4")
    values = [int(n) for n in numbers] + [0] * (3 - len(numbers))
    return name.strip(), values[0], values[1], values[2]


def _from_scenario(path: Path, load_scenario: Callable[[Path], Any]
                   ) -> tuple[dict[str, int], dict[str, int], dict[str, int], int]:
    from .rules import Zamani

    scenario = load_scenario(path)
    system = scenario.system
    if not isinstance(system, Zamani):
        raise InputError(f"{path} is a {system.id} scenario, not a zamani one", path="system",
                         allowed="zamani")
    inits, fit, spi = {}, {}, {}
    names = [c.name for c in scenario.roster.values()]
    for c in scenario.roster.values():
        if system.is_active(c):
            key = c.name if names.count(c.name) == 1 else c.id
            inits[key] = sum(v for _, v in system.initiative_parts(c))
            fit[key] = c.sheet.attributes["fitness"]
            spi[key] = c.sheet.attributes["spirit"]
    return inits, fit, spi, system.defaults.tie_die


def render(cd: Countdown) -> Table:
    """The countdown as a Rich table: one line per segment, who acts in order."""
    table = Table(title="Countdown", show_edge=False)
    table.add_column("segment", justify="right", style="bold")
    table.add_column("acts, in order")
    for segment in SEGMENTS:
        names = []
        for p in cd.places:
            if p.segment == segment:
                extra = "" if p.action == 1 else " [dim](extra)[/]"
                names.append(f"{p.name} [dim]({p.initiative})[/]{extra}")
        table.add_row(str(segment), ", ".join(names) or "[dim]—[/]")
    return table


def table_json(table: ActionTable) -> dict[str, Any]:
    return {"name": table.name, "source": table.source, "columns": list(table.column_labels),
            "rows": {label: list(row) for label, row in zip(table.row_labels, table.cells,
                                                             strict=True)},
            "warnings": list(table.warnings)}


def build_app(services: CommandServices) -> typer.Typer:
    """The ``fracas zamani`` commands, printing ``--json`` output and loading scenario files
    with the command line's ``services``."""
    app = typer.Typer(help="Zamani: the 10-to-1 initiative countdown and the action table.",
                      no_args_is_help=True, add_completion=False)

    @app.command("countdown")
    def countdown_cmd(
        combatants: Annotated[list[str] | None, typer.Argument(
            metavar="NAME=INITIATIVE",
            help="name=initiative[:fitness[:spirit]] for each character, e.g. joe=12 ann=21:5:4",
            show_default=False)] = None,
        scenario: Annotated[Path | None, typer.Option(
            "--from", metavar="FILE",
            help="Take the characters from a zamani scenario file.")] = None,
        seed: Annotated[int | None, typer.Option(
            "--seed", metavar="N", help="Seed of the tie-break die.")] = None,
        die: Annotated[int, typer.Option("--die", metavar="SIDES",
                                         help="Sides of the tie-break die.")] = 10,
        as_json: JsonOpt = False,
    ) -> None:
        """Who acts on each segment of the countdown, 10 to 1 (ties: Fitness, Spirit, a die)."""
        inits: dict[str, int] = {}
        fit: dict[str, int] = {}
        spi: dict[str, int] = {}
        if scenario is not None:
            inits, fit, spi, die = _from_scenario(scenario, services.load_scenario)
        for text in combatants or []:
            name, value, f, s = parse_entry(text)
            if name in inits:
                raise InputError(f"{name!r} is given twice", path="combatants",
                                 allowed="one entry per character")
            inits[name], fit[name], spi[name] = value, f, s
        if not inits:
            raise InputError("no characters given", path="combatants",
                             allowed="name=initiative ..., or --from scenario.yaml")
        cd = countdown(inits, fit, spi, RandomRoller(seed), die)
        if as_json:
            services.print_json("zamani-countdown", cd.to_json())
            return
        console = Console()
        console.print(render(cd))
        console.print("[dim]One action of each character's countdown may be an attack, on any "
                      "of its segments; the others are for non-attacks.[/]")
        for tie in cd.ties:
            console.print(f"[dim]{tie.text()}[/]")

    @app.command("table")
    def table_cmd(
        file: Annotated[str, typer.Argument(
            metavar="FILE", help="A table file (.yaml/.csv), or 'default'.")
                        ] = "default",
        as_json: JsonOpt = False,
    ) -> None:
        """Show (and validate) an action table: the default, or your own file."""
        table = load_action_table(file)
        if as_json:
            services.print_json("zamani-table", table_json(table))
            return
        view = Table(title=f"Action table: {table.name}", show_edge=False)
        view.add_column("margin \\ defense", style="bold")
        for label in table.column_labels:
            view.add_column(label, justify="center")
        for label, row in zip(table.row_labels, table.cells, strict=True):
            view.add_row(label, *row)
        console = Console()
        console.print(view)
        console.print("[dim]A avoided · L light · M medium · H heavy · X extreme · C critical; "
                      "D disarm · $ limb/joint strike · P prone · R bypasses armor[/]")
        for warning in table.warnings:
            console.print(f"[yellow]warning:[/] {warning}")

    return app
