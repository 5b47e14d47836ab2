"""``fracas advise``, ``fracas sweep``, ``fracas report`` and the exact fight odds of
``fracas odds --fight``: the analysis commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Group
from rich.table import Table
from rich.text import Text

from fracas.cli import render
from fracas.cli.app import FileArg, JsonOpt, MemoryOpt, app, check_fights, check_seed
from fracas.cli.jsonout import print_json
from fracas.cli.progress import QuietOpt, progress
from fracas.core.errors import InputError

PlotOpt = Annotated[Path | None, typer.Option(
    "--plot", help="Save a picture (.png or .svg).", show_default=False)]


def _plots() -> Any:
    """The plots module, loaded (with matplotlib) only when a picture is asked for."""
    from fracas.analysis import plots

    return plots


def _load_scenario(file: Path) -> Any:
    from fracas.core.scenario import load_scenario

    return load_scenario(file)


def _exact_text(p: Any, limit: int = 24) -> str:
    from fracas.analysis.odds import fraction_text

    text = fraction_text(p)
    return text if len(text) <= limit else "(long fraction: see --json)"


# -- odds --fight ---------------------------------------------------------------------------
def duel_view(duel: Any, title: str) -> Group:
    table = Table(title=f"{title}: exact odds over {duel.states:,} fight states",
                  show_edge=False)
    table.add_column("outcome")
    table.add_column("probability", justify="right")
    table.add_column("exact", justify="right", style="dim")
    for name, p in duel.outcomes.items():
        table.add_row(name, render.percent(p), _exact_text(p))
    rounds = Table(title=f"Rounds to the end: mean {float(duel.mean_rounds()):.3f}",
                   show_edge=False)
    rounds.add_column("rounds", justify="right")
    rounds.add_column("probability", justify="right")
    rounds.add_column("at most", justify="right")
    rounds.add_column("", min_width=30)
    dist = duel.rounds_distribution()
    top = max(dist.values()) if dist else 1
    running = 0
    for r, p in dist.items():
        running += p
        if p * 10_000 < 1 and r > 1 and running > 0.9999:
            continue
        rounds.add_row(str(r), render.percent(p), render.percent(running),
                       "█" * max(1, round(30 * p / top)))
    note = Text(f"{duel.transitions:,} transitions, {duel.turns} turns of propagation, "
                f"round limit {duel.max_rounds}; {duel.seconds:.2f} s", style="dim")
    return Group(table, rounds, note)


def fight_odds(file: Path, as_json: bool, plot: Path | None, max_states: int,
               max_seconds: float | None = None, quiet: bool = False) -> None:
    """The exact fight odds behind ``fracas odds FILE --fight``."""
    from fracas.analysis.duel import duel_odds
    from fracas.encounter.engine import setup_from_scenario

    if plot is not None:
        _plots().check_path(plot)
    scenario = _load_scenario(file)
    setup = setup_from_scenario(scenario)
    with progress("odds --fight", "fight states explored", None, quiet, as_json) as track:
        duel = duel_odds(setup, scenario.roster, max_states, progress=track.update,
                         max_seconds=max_seconds)
    title = scenario.title or file.name
    if plot is not None:
        _plots().save(_plots().duel_figure(duel, title), plot)
    if as_json:
        print_json("odds-fight", {"system": scenario.system.id, **duel.to_json()})
        return
    render.make_console().print(duel_view(duel, title))


def odds_plot(result: Any, title: str, plot: Path) -> None:
    _plots().save(_plots().odds_figure(result, title), plot)


def simulation_plot(summary: dict[str, Any], title: str, plot: Path) -> None:
    _plots().save(_plots().simulation_figure(summary, title), plot)


# -- advise -----------------------------------------------------------------------------------
def advice_view(advice: Any, title: str, top: int) -> Group:
    def pct(p: Any) -> str:
        return render.percent(p)

    options = Table(title=f"{title}: the attacker's options, by exact expected damage",
                    show_edge=False)
    for col in ("#", "option", "expected damage", "hit", "taken out", "best reply",
                "its damage"):
        options.add_column(col, justify="left" if col in ("option", "best reply") else "right")
    for i, o in enumerate(advice.options[:top], 1):
        best = o.best_reply
        style = "bold yellow" if o.as_written else ""
        options.add_row(str(i), o.label, f"{float(o.odds.expected_damage):.3f}",
                        pct(o.odds.p_hit), pct(o.odds.p_taken_out), best.label,
                        f"{float(best.odds.expected_damage):.3f}", style=style)
    parts: list[Any] = [options]
    notes = []
    if advice.situation:
        notes.append(f"kept from the scenario: {advice.situation}")
    if len(advice.options) > top:
        notes.append(f"{len(advice.options) - top} more options: --top N or --json")
    if notes:
        parts.append(Text("; ".join(notes), style="dim"))
    defenses = Table(title="The defender's answers to the attack as written, least damage "
                     "first", show_edge=False)
    for col in ("#", "answer", "expected damage", "hit", "taken out"):
        defenses.add_column(col, justify="left" if col == "answer" else "right")
    for i, r in enumerate(advice.defenses, 1):
        style = "bold yellow" if r.action == advice.attack else ""
        defenses.add_row(str(i), r.label, f"{float(r.odds.expected_damage):.3f}",
                         pct(r.odds.p_hit), pct(r.odds.p_taken_out), style=style)
    parts.append(defenses)
    for s in advice.skipped:
        parts.append(Text(f"not shown: {s}", style="dim"))
    return Group(*parts)


@app.command()
def advise(
    file: FileArg,
    as_json: JsonOpt = False,
    top: Annotated[int, typer.Option("--top", help="Options to show.", min=1)] = 15,
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
    render.make_console().print(advice_view(advice, title, top))


# -- sweep ------------------------------------------------------------------------------------
def _cell(p: dict[str, Any] | None) -> str:
    if p is None:
        return ""
    if p.get("value") is None:
        return "error"
    v = float(p["value"])
    return f"{v:.3f}" + ("" if p.get("method") == "exact" else "~")


def sweep_view(result: Any, title: str) -> list[Any]:
    axes = result.axes
    parts: list[Any] = []
    caption = f"{title}: {result.metric}"
    if len(axes) == 2:
        (rname, rvalues), (cname, cvalues) = axes
        table = Table(title=caption, caption=f"rows: {rname}; columns: {cname}",
                      show_edge=False)
        table.add_column(rname.rsplit(".", 1)[-1], style="bold")
        for c in cvalues:
            table.add_column(str(c), justify="right")
        for r in rvalues:
            table.add_row(str(r), *(_cell(result.point_at((r, c))) for c in cvalues))
        parts.append(table)
    else:
        table = Table(title=caption, show_edge=False)
        for name, _ in axes:
            table.add_column(name, justify="right")
        table.add_column(result.metric, justify="right")
        table.add_column("method", style="dim")
        for p in result.points:
            table.add_row(*(str(p["values"][n]) for n, _ in axes), _cell(p),
                          p.get("method", ""))
        parts.append(table)
    simulated = sum(1 for p in result.points if p.get("value") is not None
                    and p.get("method") != "exact")
    errors = [p for p in result.points if p.get("value") is None]
    notes = [f"{len(result.points):,} points on {result.engine} workers"]
    if simulated:
        notes.append(f"~ simulated: {simulated} point(s) past the exact budget")
    parts.append(Text("; ".join(notes), style="dim"))
    for p in errors[:5]:
        parts.append(Text(f"error at {p['values']}: {p['error']}", style="red"))
    if len(errors) > 5:
        parts.append(Text(f"... and {len(errors) - 5} more errors (see --json)", style="red"))
    return parts


@app.command()
def sweep(
    file: FileArg,
    vary: Annotated[list[str], typer.Option(
        "--vary", help="PATH=1..6, PATH=0..20..5 or PATH=a,b,c (repeat for more).",
        show_default=False)],
    metric: Annotated[str | None, typer.Option(
        "--metric", help="expected_damage, p_hit, p_taken_out, win_probability, "
        "mean_rounds (default: expected_damage for an attack, else win_probability).")
    ] = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
    jobs: Annotated[int | None, typer.Option("--jobs", help="Local processes (default: "
                                             "every core).", min=1)] = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help="A Dask scheduler (tcp://host:8786) to run on.")] = None,
    side: Annotated[str | None, typer.Option("--side", help="The side whose win counts.")
                    ] = None,
    method: Annotated[str, typer.Option("--method", help="Fight metrics: auto (exact "
                                        "while small), exact, simulate.")] = "auto",
    fights: Annotated[int, typer.Option("--fights", help="Fights per simulated point.",
                                        min=1)] = 2000,
    max_states: Annotated[int, typer.Option("--max-states", help="Exact budget per "
                                            "point.", min=1)] = 10_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of simulated points.")] = 0,
    max_memory: MemoryOpt = 1.0,
    max_seconds: Annotated[float, typer.Option("--max-seconds", help="Time budget of the "
                                               "whole sweep, in seconds.", min=0)] = 600.0,
    quiet: QuietOpt = False,
) -> None:
    """Evaluate a metric over every combination of varied scenario values."""
    from fracas.analysis.sweep import SweepSpec, parse_vary, run_sweep
    from fracas.core.scenario import read_yaml

    check_seed(seed)
    check_fights(fights, "--fights")
    if plot is not None:
        _plots().check_path(plot)
    data = read_yaml(file)
    if not isinstance(data, dict):
        raise InputError("a scenario must be a mapping", file=str(file))
    varies = tuple(parse_vary(v) for v in vary)
    chosen = metric or ("expected_damage" if data.get("attack") else "win_probability")
    spec = SweepSpec(data, str(file), varies, chosen, side, method, fights, seed, max_states,
                     int(max_memory * 2**30), max_seconds)
    with progress("sweep", "points", spec.size, quiet, as_json) as track:
        result = run_sweep(spec, jobs, scheduler, track.advance)
    title = str(data.get("title") or file.name)
    if plot is not None:
        _plots().save(_plots().sweep_figure(result, f"{title}: {result.metric}"), plot)
    if as_json:
        print_json("sweep", result.to_json())
        return
    console = render.make_console()
    for part in sweep_view(result, title):
        console.print(part)


# -- report -----------------------------------------------------------------------------------
@app.command()
def report(
    file: FileArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="The HTML file to write.")
                      ] = Path("report.html"),
    top: Annotated[int, typer.Option("--top", help="Options to show.", min=1)] = 15,
    max_states: Annotated[int, typer.Option("--max-states", help="Exact budget of a fight.",
                                            min=1)] = 200_000,
    fights: Annotated[int, typer.Option("-n", help="Fights to simulate past the budget.",
                                        min=1)] = 20_000,
    max_seconds: Annotated[float, typer.Option("--max-seconds", help="Time budget of the "
                                               "exact fight odds.", min=0)] = 60.0,
    max_memory: MemoryOpt = 1.0,
    quiet: QuietOpt = False,
) -> None:
    """Write a one-page HTML report: odds, advice and pictures, readable offline."""
    from fracas.analysis.report import build_report

    check_fights(fights, "-n")
    scenario = _load_scenario(file)
    with progress("report", "sections written", None, quiet, False) as track:
        page = build_report(scenario, top=top, max_states=max_states, fights=fights,
                            max_seconds=max_seconds, max_memory=int(max_memory * 2**30),
                            progress=track)
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot write the report: {err.strerror or err}", path="-o",
                         allowed="a writable file") from None
    render.make_console().print(f"Report written to {output} ({len(page) / 1024:,.0f} KiB).")
