"""``fracas balance``: the value of one scenario parameter that brings a side's win
chance closest to a target."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from fracas.cli.base import FileArg, JsonOpt, MemoryOpt, app, check_run, scenario_mapping
from fracas.cli.jsonout import print_json
from fracas.cli.progress import QuietOpt, progress
from fracas.errors import InputError


@app.command()
def balance(
    file: FileArg,
    vary: Annotated[list[str], typer.Option(
        "--vary", metavar="PATH=LOW..HIGH",
        help="The value to tune: PATH=LOW..HIGH or PATH=LOW..HIGH..STEP (paths "
        "as in sweep: rin.skills.melee, red.group_size).", show_default=False)],
    target: Annotated[list[str], typer.Option(
        "--target", metavar="SIDE=CHANCE",
        help="SIDE=CHANCE: the side's win chance to aim at (0.6 or 60%).",
        show_default=False)],
    fights: Annotated[int, typer.Option("--fights", metavar="N", help="Fights per simulated value.",
                                        min=1)] = 2000,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="URL", help="A Dask scheduler (tcp://host:8786) to run on.")] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", metavar="FILE",
        help="Save a picture (.png or .svg).", show_default=False)] = None,
    max_seconds: Annotated[float, typer.Option("--max-seconds", metavar="SECONDS",
                                               help="Time budget of the "
                                               "whole search, in seconds.", min=0)] = 600.0,
    as_json: JsonOpt = False,
    jobs: Annotated[int | None, typer.Option("--jobs", metavar="N",
                                             help="Local processes (default: "
                                             "every core).", min=1)] = None,
    max_states: Annotated[int, typer.Option("--max-states", metavar="N",
                                            help="Exact budget per value "
                                            "(past it, simulated).", min=1)] = 100_000,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of simulated values.")] = 0,
    max_memory: MemoryOpt = 1.0,
    quiet: QuietOpt = False,
) -> None:
    """Find the value of one scenario parameter that brings a side's win chance closest
    to a target: exact while the fight is small enough, simulated otherwise."""
    import os

    from fracas.analysis.balance import parse_target, run_balance
    from fracas.analysis.sweep import SweepSpec, parse_vary

    check_run(seed, fights, "--fights", jobs, scheduler)
    if plot is not None:
        from fracas.analysis.plots import check_path

        check_path(plot)
    aim = parse_target(_one(target, "--target", "SIDE=CHANCE"))
    varied = parse_vary(_one(vary, "--vary", "PATH=LOW..HIGH (to vary several values over "
                             "a grid: fracas sweep)"))
    data = scenario_mapping(file)
    spec = SweepSpec(data, str(file), (varied,), "win_probability", aim.side, "auto",
                     fights, seed, max_states, int(max_memory * 2**30), max_seconds)
    with progress("balance", "value{s} tried", None, quiet, as_json) as track:
        result = run_balance(spec, aim, jobs or os.cpu_count() or 1, scheduler,
                             track.advance)
    title = str(data.get("title") or file.name)
    if plot is not None:
        from fracas.analysis import plots

        plots.save(plots.balance_figure(
            result, f"{title}: {varied.path} for {aim.side} {aim.chance:.0%}"), plot)
    if as_json:
        print_json("balance", result.to_json())
        return
    from fracas.cli import render

    console = render.make_console()
    for part in balance_view(result, title):
        console.print(part)


def _one(given: list[str], option: str, allowed: str) -> str:
    """The one value of an option balance takes once (Typer would keep the last silently)."""
    if len(given) != 1:
        shown = ", ".join(given)
        raise InputError(f"given {len(given)} times ({shown}); balance tunes one value "
                         "for one side", path=option, allowed=f"one {option} {allowed}")
    return given[0]


def balance_view(result: Any, title: str) -> list[Any]:
    from rich.table import Table
    from rich.text import Text

    from fracas.cli import render

    side = result.target.side
    table = Table(title=f"{title}: {result.vary.path} for {side} to win "
                  f"{result.target.chance:.1%}", show_edge=False)
    table.add_column(result.vary.path, justify="right")
    table.add_column(f"{side} win chance", justify="right")
    sampled = any(p.get("ci95") for p in result.points)
    if sampled:
        table.add_column("95% interval", justify="right")
    table.add_column("method", style="dim")
    table.add_column("")
    for p in result.points:
        ci = p.get("ci95")
        interval = [f"{ci[0]:.1%} – {ci[1]:.1%}" if ci else ""] if sampled else []
        table.add_row(str(result.value_of(p)), render.percent(p["value"]), *interval,
                      p["method"], "◀ closest" if p is result.best else "")
    best = result.best
    line = (f"{result.vary.path} = {result.value_of(best)}: {side} win chance "
            f"{render.percent(best['value'])}")
    line += " (exact)" if best["method"] == "exact" else (
        f" (95% interval {best['ci95'][0]:.1%} – {best['ci95'][1]:.1%}, {best['method']})")
    parts: list[Any] = [table, Text(line, style="bold")]
    if not result.reachable:
        low, high = result.vary.values[0], result.vary.values[-1]
        parts.append(Text(f"the target is out of reach between {low} and {high}: "
                          "the closest end is shown", style="yellow"))
    return parts
