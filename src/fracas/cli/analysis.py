"""``fracas advise``, ``fracas sweep``, ``fracas report`` and the exact fight odds of
``fracas odds --fight``: the analysis commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from fracas.cli.base import (
    FileArg,
    JsonOpt,
    MemoryOpt,
    app,
    check_fights,
    check_run,
    scenario_mapping,
)
from fracas.cli.jsonout import print_json
from fracas.cli.progress import QuietOpt, progress
from fracas.errors import InputError

PlotOpt = Annotated[Path | None, typer.Option(
    "--plot", metavar="FILE", help="Save a picture (.png or .svg).", show_default=False)]


def _plots() -> Any:
    """The plots module, loaded (with matplotlib) only when a picture is asked for."""
    from fracas.analysis import plots

    return plots


def _load_scenario(file: Path) -> Any:
    from fracas.registry.scenarios import load_scenario

    return load_scenario(file)


# -- where a fight starts: a scenario, or a moment of a fight or play log ---------------------
AtOpt = Annotated[int | None, typer.Option(
    "--at", metavar="N", help="A log: start from after event N (a fight log) or input N (a "
    "play log); default: its end.", show_default=False)]


def is_log(file: Path) -> bool:
    """Whether ``file`` is a fight or play log (a record log), not a scenario."""
    from fracas.encounter.log import log_kind

    try:
        return log_kind(file) is not None
    except OSError:
        return False


def fight_start(file: Path, at: int | None, max_rounds: int | None = None,
                policy: str | None = None) -> Any:
    """The :class:`~fracas.analysis.winning.Position` a fight command starts from: a
    scenario's start, or a moment of a log (``--at``); ``--at`` with a scenario is an
    error naming it."""
    from fracas.analysis.winning import of_log, of_scenario

    if is_log(file):
        return of_log(file, at).with_limit(max_rounds, policy)
    if at is not None:
        raise InputError("--at reads a moment of a log, and this file is a scenario",
                         file=str(file), path="--at", allowed="a fight log (fracas fight "
                         "--log) or a play log (fracas play --log), or no --at")
    return of_scenario(_load_scenario(file), max_rounds, policy)


def start_note(position: Any) -> str | None:
    """The line saying which moment of a log the figures start from, and who plays whom
    (None for a scenario's start)."""
    from fracas.analysis.winning import START

    if position.where != START:
        return (f"From {position.where}; rounds are the fight's own. Played by: "
                f"{position.played_by_words()}.")
    return None


# -- odds --fight ---------------------------------------------------------------------------
def fight_odds(file: Path, as_json: bool, plot: Path | None, max_states: int,
               max_seconds: float | None = None, quiet: bool = False,
               at: int | None = None) -> None:
    """The exact fight odds behind ``fracas odds FILE --fight`` (FILE: a scenario, or a
    fight or play log read at ``at``)."""
    from fracas.analysis.duel import duel_odds

    if plot is not None:
        _plots().check_path(plot)
    position = fight_start(file, at)
    with progress("odds --fight", "fight state{s} explored", None, quiet, as_json) as track:
        duel = duel_odds(position.setup, position.state, max_states, progress=track.update,
                         max_seconds=max_seconds)
    title = position.title or file.name
    note = start_note(position)
    if plot is not None:
        _plots().save(_plots().duel_figure(duel, title), plot)
    if as_json:
        extra = {"from": position.to_json()} if note else {}
        print_json("odds-fight", {"system": position.setup.system.id, **duel.to_json(),
                                  **extra})
        return
    from fracas.cli import render
    from fracas.cli.views import duel_view

    console = render.make_console()
    console.print(duel_view(duel, title))
    if note:
        console.print(note, style="dim", highlight=False)


def odds_plot(result: Any, title: str, plot: Path, words: Any = None) -> None:
    _plots().save(_plots().odds_figure(result, title, words), plot)


def simulation_plot(summary: dict[str, Any], title: str, plot: Path) -> None:
    _plots().save(_plots().simulation_figure(summary, title), plot)


# -- advise -----------------------------------------------------------------------------------
@app.command()
def advise(
    file: FileArg,
    as_json: JsonOpt = False,
    top: Annotated[int, typer.Option("--top", metavar="N", help="Options to show.", min=1)] = 15,
    plot: PlotOpt = None,
) -> None:
    """Rank the attacker's options and the defender's answers by exact odds."""
    from fracas.analysis.advise import advise as build

    if plot is not None:
        _plots().check_path(plot)
    scenario = _load_scenario(file)
    advice = build(scenario)
    title = scenario.title or file.name
    if plot is not None:
        rows = [(o.label, float(o.odds.expected_damage), float(o.odds.p_taken_out),
                 o.as_written) for o in advice.options[:top]]
        _plots().save(_plots().advice_figure(rows, f"{title}: the attacker's options "
                                             "(highlighted: as written)"), plot)
    if as_json:
        print_json("advise", {"system": scenario.system.id, **advice.to_json()})
        return
    from fracas.cli import render
    from fracas.cli.views import advice_view

    view = advice_view(advice, title, top)
    render.fitting_console(view).print(view)


# -- sweep ------------------------------------------------------------------------------------
@app.command()
def sweep(
    file: FileArg,
    vary: Annotated[list[str], typer.Option(
        "--vary", help="PATH=1..6, PATH=0..20..5 or PATH=a,b,c (repeat for more).",
        metavar="PATH=VALUES",
        show_default=False)],
    metric: Annotated[str | None, typer.Option(
        "--metric", help="expected_damage, p_hit, p_taken_out, win_probability, "
        "mean_rounds (default: expected_damage for an attack, else win_probability).")
    ] = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
    jobs: Annotated[int | None, typer.Option("--jobs", metavar="N",
                                             help="Local processes (default: "
                                             "every core).", min=1)] = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="URL", help="A Dask scheduler (tcp://host:8786) to run on.")] = None,
    side: Annotated[str | None, typer.Option("--side", metavar="SIDE",
                                             help="The side whose win counts.")
                    ] = None,
    method: Annotated[str, typer.Option("--method", help="Fight metrics: auto (exact "
                                        "while small), exact, simulate.")] = "auto",
    fights: Annotated[int | None, typer.Option(
        "--fights", metavar="N", help="Fight metrics: fights per simulated point (default: 2000).",
        min=1)] = None,
    max_states: Annotated[int | None, typer.Option(
        "--max-states", metavar="N", help="Fight metrics: exact budget per point (default: 10000).",
        min=1)] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of simulated points.")] = 0,
    max_memory: MemoryOpt = 1.0,
    max_seconds: Annotated[float, typer.Option("--max-seconds", metavar="SECONDS",
                                               help="Time budget of the "
                                               "whole sweep, in seconds.", min=0)] = 600.0,
    quiet: QuietOpt = False,
) -> None:
    """Evaluate a metric over every combination of varied scenario values."""
    from fracas.analysis.sweep import SweepSpec, fight_option, parse_vary, run_sweep

    check_run(seed, fights or 0, "--fights", jobs, scheduler)
    if plot is not None:
        _plots().check_path(plot)
    data = scenario_mapping(file)
    varies = tuple(parse_vary(v) for v in vary)
    if plot is not None:
        _plots().check_sweep_plot([len(v.values) for v in varies])
    chosen = metric or ("expected_damage" if data.get("attack") else "win_probability")
    for flag, given in (("--fights", fights), ("--max-states", max_states)):
        if given is not None:
            fight_option(chosen, flag)
    spec = SweepSpec(data, str(file), varies, chosen, side, method, fights or 2000, seed,
                     max_states or 10_000, int(max_memory * 2**30), max_seconds)
    with progress("sweep", "point{s}", spec.size, quiet, as_json) as track:
        result = run_sweep(spec, jobs, scheduler, track.advance)
    title = str(data.get("title") or file.name)
    if plot is not None:
        _plots().save(_plots().sweep_figure(result, f"{title}: {result.label}"), plot)
    if as_json:
        print_json("sweep", result.to_json())
        return
    from fracas.cli import render
    from fracas.cli.views import sweep_view

    console = render.make_console()
    for part in sweep_view(result, title):
        console.print(part)


# -- report -----------------------------------------------------------------------------------
@app.command()
def report(
    file: FileArg,
    output: Annotated[Path, typer.Option("-o", "--output", metavar="FILE",
                                         help="The HTML file to write.")
                      ] = Path("report.html"),
    top: Annotated[int, typer.Option("--top", metavar="N", help="Options to show.", min=1)] = 15,
    max_states: Annotated[int, typer.Option("--max-states", metavar="N",
                                            help="Exact budget of a fight.",
                                            min=1)] = 200_000,
    fights: Annotated[int, typer.Option("-n", metavar="N",
                                        help="Fights to simulate past the budget.",
                                        min=1)] = 20_000,
    max_seconds: Annotated[float, typer.Option("--max-seconds", metavar="SECONDS",
                                               help="Time budget of the "
                                               "exact fight odds.", min=0)] = 60.0,
    max_memory: MemoryOpt = 1.0,
    quiet: QuietOpt = False,
) -> None:
    """Write a one-page HTML report: odds, advice and pictures, readable offline."""
    from fracas.analysis.plots import check_writable
    from fracas.analysis.report import build_report

    check_fights(fights, "-n")
    check_writable(output, "-o", "the report")
    scenario = _load_scenario(file)
    with progress("report", "section{s} written", None, quiet, False) as track:
        page = build_report(scenario, top=top, max_states=max_states, fights=fights,
                            max_seconds=max_seconds, max_memory=int(max_memory * 2**30),
                            progress=track)
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot write the report {str(output)!r}: "
                         f"{err.strerror or err}", path="-o", allowed="a writable file"
                         ) from None
    from fracas.cli import render

    render.make_console().print(f"Report written to {output} ({len(page) / 1024:,.0f} KiB).")
