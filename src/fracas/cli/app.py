"""The ``fracas`` command line (Typer + Rich). No rules here: parse, call the library, render."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fracas.errors import FracasError, InputError

if TYPE_CHECKING:
    from fracas.core.model import Resolution
    from fracas.core.scenario import Scenario
    from fracas.dice.rollers import Roller

from fracas.cli.base import (  # re-exported: the commands below and tests use them
    MAX_FIGHTS,
    MAX_SEED,
    FileArg,
    JsonOpt,
    MemoryOpt,
    SeedOpt,
    app,
    check_fights,
    check_seed,
    debugging,
)

ODDS_WORK = 5_000_000  # roll --odds: steps of convolution (about 5 s; 50d100 takes 9 million)

__all__ = ["MAX_FIGHTS", "MAX_SEED", "FileArg", "JsonOpt", "MemoryOpt", "SeedOpt", "app",
           "check_fights", "check_seed", "main"]


def _print_json(data: Any, kind: str) -> None:
    from fracas.cli.jsonout import print_json

    print_json(kind, data)


@app.command("systems")
def systems_cmd(as_json: JsonOpt = False) -> None:
    """List the rule systems fracas knows (and any installed one that failed to load)."""
    from fracas.cli import render
    from fracas.registry import broken, package_of
    from fracas.registry import systems as registered_systems

    known = registered_systems()
    failed = broken()
    if as_json:
        _print_json([*({"id": k, "title": s.title, "seed": s.seed, "summary": s.summary,
                        "package": package_of(k)} for k, s in known.items()),
                     *({"id": why.name, "package": why.package, "broken": why.reason}
                       for why in failed.values())], "systems")
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Rule systems")
    table.add_column("id", style="bold")
    table.add_column("system")
    table.add_column("seed", style="dim")
    for k, s in known.items():
        table.add_row(k, s.title + (f"\n[dim]{s.summary}[/]" if s.summary else ""), s.seed)
    for why in failed.values():
        table.add_row(escape(why.name), f"[red]broken, not loaded[/] ({escape(why.package)}): "
                      f"{escape(why.reason)}", "")
    render.make_console().print(table)


def _find_roll(expression: str) -> Any:
    """A dice expression, or failing that a system's own roll notation."""
    from fracas.dice import parse_dice
    from fracas.errors import DiceSyntaxError
    from fracas.registry import roll_readers

    try:
        return parse_dice(expression)
    except DiceSyntaxError as err:
        known = []
        for reader in roll_readers():  # lazily: the first that reads it is enough
            special = reader.parse_roll(expression)
            if special is not None:
                return special
            known.append(reader)
        for reader in known:  # a system's notation written wrongly: its own words
            explain = getattr(reader, "roll_problem", None)
            if explain is not None:
                explain(expression)
        raise err from None


@app.command()
def roll(
    expression: Annotated[str, typer.Argument(metavar="DICE",
                                              help="Dice: 2d6, d100, d%, 3d20kh1, 4d6kl3, "
                                              "2d6+3, d8+d6-1 (or a system's pool).")],
    seed: SeedOpt = None,
    odds: Annotated[bool, typer.Option("--odds", help="Exact distribution instead.")] = False,
    joint: Annotated[bool, typer.Option("--joint", help="With --odds, a pool's full joint "
                                        "distribution too.")] = False,
    as_json: JsonOpt = False,
    max_work: Annotated[int, typer.Option("--max-work", metavar="STEPS",
                                          help="With --odds: the most steps "
                                          "to spend building the distribution.", min=1)
                        ] = ODDS_WORK,
) -> None:
    """Roll dice (die by die), or show their exact odds. A pool of negative dice only (it
    starts with '-') follows '--': fracas roll [OPTIONS] -- -CCD."""
    from fracas.cli import render
    from fracas.cli.jsonout import with_floats
    from fracas.dice import RandomRoller
    from fracas.dice.each import roll_each
    from fracas.dice.notation import exact_cost
    from fracas.odds.text import fraction_text

    var = _find_roll(expression)
    roller = RandomRoller(check_seed(seed))
    if joint and not (odds and hasattr(var, "odds_json")):
        raise InputError("--joint goes with --odds, for a pool", path="--joint",
                         allowed="fracas roll POOL --odds --joint")
    if hasattr(var, "odds_json"):  # a system's own notation
        if not odds:
            data = var.sample_json(roller)
        else:
            data = var.odds_json(joint=True) if joint else var.odds_json()
        if as_json:
            _print_json(data, "roll-pool-odds" if odds else "roll-pool")
        else:
            render.make_console().print(var.render(data) if hasattr(var, "render") else data)
        return
    if odds:
        cost = exact_cost(var)
        if cost > max_work:
            raise InputError(f"the exact odds of {expression} take about {cost:,} steps, more "
                             f"than the budget of {max_work:,}", path="--max-work",
                             allowed="a larger --max-work (it may take long), or fewer dice")
        dist = var.exact()
        data = {"expression": expression,
                "distribution": {str(k): fraction_text(p) for k, p in dist.probabilities().items()},
                "mean": fraction_text(dist.mean())}
        if as_json:
            _print_json(with_floats(data, ("distribution", "mean")), "roll-odds")
        else:
            console = render.make_console()
            console.print(render.distribution_table(dist, f"{expression}", "total"))
            console.print(f"mean {float(dist.mean()):.4f} ({fraction_text(dist.mean())}), "
                          f"standard deviation {float(dist.variance()) ** 0.5:.4f}")
        return
    value, thrown = roll_each(var, roller.rng)
    if as_json:
        _print_json({"expression": expression, "value": value,
                     "dice": [t.to_json() for t in thrown]}, "roll")
    else:
        shown = ", ".join(("" if t.sign > 0 else "-") + str(t.value)
                          + ("" if t.kept else " (dropped)") for t in thrown)
        render.make_console().print(f"{expression}: [bold]{value}[/]  ({shown})")


def _roller_for(scenario: Scenario, seed: int | None, dice: str | None) -> Roller:
    from fracas.dice import RandomRoller, ScriptedRoller

    if dice is not None:
        values = [v.strip() for v in dice.split(",") if v.strip()]
        pins = scenario.system.script({**scenario.raw, "dice": values})
        return ScriptedRoller(pins)
    pins = scenario.pins()
    if pins is not None and seed is None:
        return ScriptedRoller(pins)
    return RandomRoller(check_seed(seed))


def _require_attack(scenario: Scenario) -> None:
    if scenario.attack is None:
        raise InputError("this scenario has no attack: entry to resolve", file=scenario.path,
                         path="attack", allowed="attack: {attacker, defender, weapon, options}")


def attack_json(scenario: Scenario, result: Resolution) -> dict[str, Any]:
    """The JSON contract of ``fracas attack --json``."""
    from fracas.core.model import apply_events

    assert scenario.attack is not None
    after = apply_events(scenario.roster, result.events)
    target = scenario.attack.target
    defender: dict[str, Any] = {}
    if target is not None:
        c = after[target]
        defender = {"id": c.id, "name": c.name, **c.state_dict()}
    actor = after[scenario.attack.actor]
    attacker = {"id": actor.id, "name": actor.name, **actor.state_dict()}
    return {
        "system": scenario.system.id,
        "hit": result.hit,
        "outcome": result.outcome,
        "damage": result.damage,
        "taken_out": result.taken_out,
        "details": dict(result.details),
        "attacker": attacker,
        "defender": defender,
        "events": [e.to_dict() for e in result.events],
    }


@app.command()
def attack(
    file: FileArg,
    seed: SeedOpt = None,
    dice: Annotated[str | None, typer.Option("--dice", metavar="DICE",
                                             help="Pin the dice: 1,1,4.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Resolve the scenario's attack step by step (pinned dice if the file has them)."""
    from fracas.cli import render
    from fracas.core.model import apply_events
    from fracas.dice import ScriptedRoller
    from fracas.registry.scenarios import load_scenario

    scenario = load_scenario(file)
    _require_attack(scenario)
    assert scenario.attack is not None
    roller = _roller_for(scenario, seed, dice)
    if isinstance(roller, ScriptedRoller):
        try:
            result = roller.run(scenario.system.resolve, scenario.attack, scenario.roster)
        except InputError as err:
            raise err.located(file=str(file), prefix=err.path or "dice") from None
    else:
        result = scenario.system.resolve(roller, scenario.attack, scenario.roster)
    if as_json:
        _print_json(attack_json(scenario, result), "attack")
        return
    console = render.make_console()
    title = scenario.title or file.name
    console.print(f"[bold]{title}[/] — {scenario.system.title}")
    console.print(render.event_lines(result.events, say=render.teller(
        apply_events(scenario.roster, result.events), scenario.system.words)))
    after = apply_events(scenario.roster, result.events)
    for cid in (scenario.attack.actor, scenario.attack.target):
        if cid is not None:
            c = after[cid]
            console.print(render.combatant_line(c, *scenario.system.health(c)))


@app.command()
def odds(
    file: FileArg,
    as_json: JsonOpt = False,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE",
                                              help="Save a picture (.png or .svg)."
                                              )] = None,
    fight: Annotated[bool, typer.Option("--fight", help="Exact odds of the whole fight.")
                     ] = False,
    max_states: Annotated[int | None, typer.Option(
        "--max-states", metavar="N",
        help="With --fight: the most fight states to explore (default: "
        "1000000).", min=1)] = None,
    max_seconds: Annotated[float | None, typer.Option(
        "--max-seconds", metavar="SECONDS",
        help="With --fight: the most seconds to explore them (default: "
        "300).", min=0)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="With --fight: no progress "
                                        "on stderr.")] = False,
    at: Annotated[int | None, typer.Option(
        "--at", metavar="N", help="With --fight and a fight or play log as FILE: from after "
        "event N (a fight log) or input N (a play log); default: its end.",
        show_default=False)] = None,
) -> None:
    """Exact odds of the scenario's attack under the complete rules (or, with --fight, of
    the whole fight: who wins, in how many rounds; FILE may then be a fight or play log,
    read at --at)."""
    if fight:
        from fracas.cli.analysis import fight_odds

        fight_odds(file, as_json, plot, max_states or 1_000_000,
                   300.0 if max_seconds is None else max_seconds, quiet, at)
        return
    if at is not None:
        raise InputError("--at reads a moment of a log for the odds of the whole fight",
                         path="--at", allowed="--fight with a fight or play log, or no --at")
    for flag, given in (("--max-states", max_states), ("--max-seconds", max_seconds)):
        if given is not None:  # a budget of the whole fight's chain: one attack has none
            raise InputError(f"{flag} bounds the exact odds of a whole fight", path=flag,
                             allowed=f"--fight with {flag}, or no {flag}")
    if plot is not None:
        from fracas.analysis.plots import check_path

        check_path(plot)
    from fracas.cli import render
    from fracas.odds.attack import attack_odds
    from fracas.registry.scenarios import load_scenario

    scenario = load_scenario(file)
    _require_attack(scenario)
    assert scenario.attack is not None
    result = attack_odds(scenario.system, scenario.attack, scenario.roster)
    who = scenario.roster[scenario.attack.actor].name  # the sheets' names, not their ids
    if scenario.attack.target is not None:
        who += f" → {scenario.roster[scenario.attack.target].name}"
    title = f"{scenario.title or file.name}: {who}"
    words = scenario.system.words
    if plot is not None:
        from fracas.cli.analysis import odds_plot

        odds_plot(result, title, plot, words)
    if as_json:
        _print_json({"system": scenario.system.id, **result.to_json()}, "odds")
        return
    render.make_console().print(render.odds_view(result, title, words))


@app.command()
def demo(
    examples: Annotated[Path | None, typer.Option(
        metavar="FOLDER", help="The examples folder.")] = None,
) -> None:
    """A short narrated showcase of what the built-in systems can do."""
    from fracas.cli import render
    from fracas.cli.demo import run_demo

    run_demo(render.make_console(), examples)


def _mount_system_commands(argv: list[str]) -> None:
    """Mount each system's own commands (its ``commands`` hook) as ``fracas <id> ...``. Only
    the system named on the command line is imported; the other built-in ones are listed by
    id from the registry (``fracas <id> --help`` shows their commands)."""
    from fracas import registry

    words = [a for a in argv if not a.startswith("-")]
    wanted = words[0] if words else None
    for system_id, module in sorted(registry.COMMANDS.items()):
        if system_id == wanted:
            _mount(module, system_id, registry.get_system(system_id).title)
            continue
        placeholder = typer.Typer(help=f"Commands of the {system_id} system "
                                  f"(fracas {system_id} --help).")
        placeholder.callback(invoke_without_command=True)(lambda: None)
        app.add_typer(placeholder, name=system_id)
    commands = {c.name or (c.callback.__name__ if c.callback else "")
                for c in app.registered_commands}
    if wanted is not None and wanted not in registry.COMMANDS and wanted not in commands:
        plugin = registry.systems().get(wanted)  # a third-party system's own commands
        if plugin is not None and plugin.commands:
            _mount(plugin.commands, plugin.id, plugin.title)


def _mount(module_name: str, system_id: str, title: str) -> None:
    """Build a system's command app through its hook and mount it as ``fracas <id>``."""
    import importlib

    from fracas.cli.jsonout import print_json
    from fracas.core.system import CommandServices
    from fracas.registry.scenarios import load_scenario

    sub = importlib.import_module(module_name).build_app(
        CommandServices(print_json, load_scenario))
    app.add_typer(sub, name=system_id, help=f"Commands of the {title} system.")


def _load_commands() -> None:
    import fracas.cli.fights  # noqa: F401  (registers fight, replay, simulate)
    import fracas.cli.play  # noqa: F401  (registers play)
    from fracas.cli import analysis  # noqa: F401  (registers advise, sweep, report)
    from fracas.cli import balance as _balance  # (registers balance)
    from fracas.cli import formats as _formats  # (registers schema)
    from fracas.cli import scaffold as _scaffold  # (registers new-system)
    from fracas.cli import serve as _serve  # (registers serve)

    del _balance, _formats, _scaffold, _serve


def _dash_pool(argv: list[str]) -> None:
    """``fracas roll -CC`` reads ``-CC`` as options: say how to pass such a pool."""
    import re

    if not argv or argv[0] != "roll" or "--" in argv:
        return
    for word in argv[1:]:
        if re.fullmatch(r"-\s*(\d*[CDS])+", word):
            typer.echo(f"fracas: error: a pool of negative dice only starts with '-', which "
                       "reads as an option: put it after '--', options first: "
                       f"fracas roll [OPTIONS] -- {word}",
                       err=True)
            sys.exit(2)


def _text_only(argv: list[str]) -> None:
    """Arguments that are not UTF-8 text (bytes Python keeps as lone surrogates) are
    refused at once: no message could show them."""
    for word in argv:
        try:
            word.encode("utf-8")
        except UnicodeEncodeError:
            shown = word.encode("utf-8", "backslashreplace").decode("ascii")
            typer.echo(f"fracas: error: the argument {shown} is not UTF-8 text", err=True)
            sys.exit(2)


def main() -> None:
    """Entry point: user errors exit 2 with a short message, no traceback (unless --debug);
    Ctrl-C anywhere exits 130 with one line (Typer turns it into exit 130 inside a command,
    and this says so once for every path)."""
    _dash_pool(sys.argv[1:])
    _text_only(sys.argv[1:])
    try:
        try:
            _load_commands()
            _mount_system_commands(sys.argv[1:])
            app()  # standalone: usage errors exit 2 with Typer's own message
        except KeyboardInterrupt:
            sys.exit(130)
    except FracasError as err:
        if debugging():
            raise
        typer.echo(f"fracas: error: {err}", err=True)
        sys.exit(2)
    except Exception as err:  # a plug-in's own fault is named, not shown as a traceback
        from fracas.registry import blame

        told = None if debugging() else blame(err)
        if told is None:
            raise
        typer.echo(f"fracas: error: {told}", err=True)
        sys.exit(2)
    except SystemExit as done:
        if done.code == 130:
            typer.echo("fracas: interrupted", err=True)
        raise
