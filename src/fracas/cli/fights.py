"""``fracas fight``, ``fracas simulate`` and ``fracas replay``: whole fights from the CLI."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fracas.cli.analysis import AtOpt, fight_start, start_note
from fracas.cli.base import (
    FileArg,
    JsonOpt,
    MemoryOpt,
    SeedOpt,
    app,
    check_run,
    check_seed,
    command_name,
)
from fracas.cli.progress import QuietOpt, progress
from fracas.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from fracas.core.events import Event
    from fracas.encounter.engine import Encounter
    from fracas.encounter.session import Session
    from fracas.encounter.state import FightState

# The policies' names, for the help text without importing the rules (a test checks them).
POLICY_NAMES = ("aggressive", "cautious", "random", "best-odds")


def _roster_view(fight: Encounter | Session, state: FightState) -> Table:
    from rich.table import Table

    from fracas.cli import render

    table = Table(show_header=False, show_edge=False, box=None, padding=(0, 1))
    system = fight.setup.system
    for c in state.roster.values():
        current, maximum = system.health(c)
        status = "" if system.is_active(c) else "[red]out[/]"
        table.add_row(f"{c.name}", f"[dim]{c.side}[/]", render.health_bar(current, maximum),
                      status)
    return table


def narrate(console: Console, fight: Encounter, events: tuple[Event, ...],
            state_before: FightState) -> None:
    """Print one step's events, with the health of everyone at each new round."""
    from rich.rule import Rule
    from rich.text import Text

    from fracas.cli import render
    from fracas.core.events import FightEnded, RoundStarted

    state = state_before
    tell = render.teller(state_before.roster, fight.setup.system.words)
    for e in events:
        state = state.apply(e)
        if isinstance(e, RoundStarted):
            console.print(Rule(f"[bold]Round {e.round}[/]"))
            console.print(_roster_view(fight, state))
            console.print(Text(tell(e), style="dim"), highlight=False)
            continue
        if isinstance(e, FightEnded):
            console.print(Rule("[bold]The end[/]"))
            console.print(Text(tell(e), style="bold"), highlight=False)
            console.print(_roster_view(fight, state))
            continue
        style = {"TurnStarted": "bold", "Outcome": "bold", "Changed": "yellow",
                 "ActionChosen": "magenta"}.get(e.type, "")
        indent = "" if e.type == "TurnStarted" else "  "
        console.print(Text(indent + tell(e), style=style), highlight=False)


def fight_json(fight: Encounter | Session) -> dict[str, Any]:
    state = fight.state
    system = fight.setup.system
    return {
        "system": system.id,
        "seed": fight.seed,
        "winner": state.winner,
        "rounds": state.round,
        "combatants": {cid: {"name": c.name, "side": c.side, "active": system.is_active(c),
                             "health": list(system.health(c)), **c.state_dict()}
                       for cid, c in state.roster.items()},
        "events": [e.to_dict() for e in fight.events],
    }


PolicyOpt = Annotated[str | None, typer.Option(
    "--policy", metavar="POLICY",
    help=f"One policy for everybody ({', '.join(POLICY_NAMES)}); default: each "
    "combatant's own, else aggressive.")]
RoundsOpt = Annotated[int | None, typer.Option("--max-rounds", metavar="N",
                                               help="Round limit.", min=1)]


@app.command()
def fight(
    file: FileArg,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    log: Annotated[Path | None, typer.Option("--log", metavar="FILE",
                                             help="Save the event log (JSON Lines).")
                   ] = None,
    policy: PolicyOpt = None,
    max_rounds: RoundsOpt = None,
) -> None:
    """Run the scenario's fight to its end, narrated round by round (with --log, each turn
    is appended to the log as it is played)."""
    from fracas.cli import render
    from fracas.cli.jsonout import print_json
    from fracas.encounter.engine import Encounter, setup_from_scenario
    from fracas.encounter.log import FightLog
    from fracas.registry.scenarios import load_scenario

    scenario = load_scenario(file)
    setup = setup_from_scenario(scenario, max_rounds, policy)
    encounter = Encounter(scenario, setup, seed=check_seed(seed))
    console = render.make_console()
    record = FightLog.create(log, encounter.header()) if log is not None else None
    try:
        if not as_json:
            console.print(f"[bold]{scenario.title or file.name}[/] — {scenario.system.title}"
                          + (f" (seed {seed})" if seed is not None else ""))
        while not encounter.state.over:
            before = encounter.state
            events = encounter.step()
            if record is not None:
                record.turn(events)
            if not as_json:
                narrate(console, encounter, events, before)
        if record is not None:
            record.close()
    finally:
        if record is not None:
            record.detach()
    if log is not None and not as_json:
        from rich.markup import escape

        console.print(f"[dim]Event log saved to {escape(str(log))} "
                      f"({len(encounter.events)} events).[/]", soft_wrap=True)
    if as_json:
        print_json("fight", fight_json(encounter))


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(
        metavar="LOG", help="A log saved by fight --log or play --log.")],
    undo: Annotated[int, typer.Option("--undo", metavar="N",
                                      help="Take back the last N turns (of a "
                                      "play --log session: the last N inputs).", min=0)
                    ] = 0,
    as_json: JsonOpt = False,
    narrate: Annotated[bool, typer.Option(
        "--narrate", help="Print the whole fight as the table heard it: the brief "
        "narration of play, each round's status, the summary at the end.")] = False,
    form: Annotated[str, typer.Option(
        "--format", metavar="text|md|html", help="With --narrate: text (the terminal), "
        "md (Markdown) or html (one page), for session notes.")] = "text",
) -> None:
    """Rebuild a fight's state from its saved log (optionally undoing the last turns) and
    say which kind of log it read: a fight log (fight --log) or a live session's log
    (play --log). The log is verified line by line and its inputs are played again
    through the rules: an event the rules did not produce is refused, naming its line. A
    log that stops early is replayed up to its last whole turn, with a warning saying
    where it stops. --narrate prints the whole fight instead, as the table heard it."""
    from fracas.encounter.log import log_kind
    from fracas.encounter.session_log import KIND as SESSION

    if form not in ("text", "md", "html"):
        raise InputError(f"no format {form!r}", path="--format", allowed="text, md, html")
    if form != "text" and not narrate:
        raise InputError("--format is for --narrate's notes", path="--format",
                         allowed="--narrate --format md|html")
    if narrate and as_json:
        raise InputError("--narrate tells the fight in words; --json gives its data",
                         path="--narrate", allowed="one of --narrate, --json")
    if log_kind(log) == SESSION:
        _replay_session(log, undo, as_json, form if narrate else None)
        return

    from fracas.cli.jsonout import print_json
    from fracas.core.words import count
    from fracas.encounter.engine import Encounter

    encounter = Encounter.load(log)
    _warn_retold(log, encounter.retold)
    turns = len(encounter.marks)
    if undo > turns:
        raise InputError(f"cannot undo {undo:,} {'turn' if undo == 1 else 'turns'}: the log "
                         f"holds {turns}",
                         path="--undo", allowed=f"0 to {turns}")
    for _ in range(undo):
        encounter.undo()
    if encounter.stopped is not None:
        typer.echo(f"fracas: warning: {log}: the log is incomplete ({encounter.stopped}); "
                   f"replaying its {count(turns, 'whole turn')}", err=True)
    if as_json:
        data = fight_json(encounter)
        data["log"] = {"kind": "fight", "complete": encounter.stopped is None,
                       "stopped": encounter.stopped, "turns": turns}
        print_json("replay", data)
        return
    if narrate:
        _narrated(encounter, form)
        return
    _show_replayed(encounter, f"{log}: a fight log (fracas fight --log)",
                   f", undid {count(undo, 'turn')}" if undo else "")


def _show_replayed(fight: Encounter | Session, title: str, undone: str) -> None:
    """What ``fracas replay`` prints: the log read, where the fight stands, the whole
    table (:mod:`fracas.cli.status`: the order, health, what the GM tracks, conditions
    with rounds left) and the last events."""
    from typing import cast

    from rich.markup import escape
    from rich.text import Text

    from fracas.cli import render, status
    from fracas.encounter.narration import Names
    from fracas.encounter.who_rolls import known_names

    console = render.make_console()
    state = fight.state
    where = "over" if state.over else f"round {state.round}"
    console.print(f"[bold]{escape(title)}[/]: {len(fight.events)} events, {where}{undone}",
                  highlight=False, soft_wrap=True)
    names = Names(known_names(cast("Session", fight)))
    console.print(Text(status.heading(state, names, fight.events), style="bold"), highlight=False)
    console.print(status.status_table(state, fight.setup.system, fight.events, names))
    # in the table's words, every combatant the fight began or ended with by name
    say = render.teller({**dict(fight.scenario.roster.items()), **dict(state.roster.items())},
                        fight.scenario.system.words)
    for e in fight.events[-6:]:
        console.print(Text("  " + say(e), style="dim"), highlight=False)


def _narrated(fight: Encounter | Session, form: str) -> None:
    """``fracas replay --narrate``: the whole fight as the table heard it, on the terminal
    or as session notes (Markdown, HTML) on stdout."""
    from rich.markup import escape

    from fracas.cli import notes, render, status

    title = f"{fight.scenario.title or 'A fight'} — {fight.setup.system.title}"
    lines = [line for line, _ in notes.fight_lines(fight)]
    summary = status.summary_lines(fight)
    if form == "md":
        typer.echo(notes.markdown(title, lines, summary), nl=False)
        return
    if form == "html":
        typer.echo(notes.html_page(title, lines, summary), nl=False)
        return
    console = render.make_console()
    console.print(f"[bold]{escape(title)}[/]", highlight=False)
    for line in lines:
        if isinstance(line, notes.Table):
            console.print(line.view())
        elif isinstance(line, notes.Told):
            notes.show(console, line, False)
    for text in summary:
        console.print(f"  {escape(text)}", highlight=False)


def _warn_retold(log: Path, retold: list[tuple[int, str]]) -> None:
    from fracas.encounter.log import retold_warning

    warned = retold_warning(log, retold)
    if warned:
        typer.echo(f"fracas: warning: {warned}", err=True)


def _replay_session(log: Path, undo: int, as_json: bool, form: str | None) -> None:
    """``fracas replay`` of a live session's log (``fracas play --log``)."""
    from fracas.cli.jsonout import print_json
    from fracas.core.words import count
    from fracas.encounter.log import read_log
    from fracas.encounter.session_log import KIND, load_session

    session = load_session(log)
    _warn_retold(log, session.retold)
    stopped = read_log(log, KIND).stopped
    inputs = sum(not e.get("auto") for e in session.entries)
    if undo > inputs:
        raise InputError(f"cannot undo {undo:,} {'input' if undo == 1 else 'inputs'}: the log "
                         f"holds {inputs}",
                         path="--undo", allowed=f"0 to {inputs}")
    if undo:
        session.undo(undo)
    cut = stopped is not None and "cut short" in stopped
    if cut:  # a session log is left open: only a cut line makes it incomplete
        typer.echo(f"fracas: warning: {log}: the log is incomplete ({stopped}); replaying "
                   "its whole lines", err=True)
    if as_json:
        data = fight_json(session)
        # a play log stays open for --resume; its fight is complete once it is over
        data["log"] = {"kind": "session", "complete": session.state.over and not cut,
                       "stopped": stopped if cut or not session.state.over else None,
                       "inputs": inputs,
                       "pending": session.pending.prompt if session.pending else None}
        print_json("replay", data)
        return
    if form is not None:
        _narrated(session, form)
        return
    _show_replayed(session, f"{log}: a live session's log (fracas play --log): "
                   f"{count(inputs, 'input')}", f", undid {count(undo, 'input')}" if undo else "")
    if session.state.over:
        typer.echo("the fight is complete")
    elif session.pending is not None:
        typer.echo(f"waiting for: {session.pending.prompt} (go on with: {command_name()} "
                   f"play --resume {log})")


def simulation_view(summary: dict[str, Any], title: str) -> list[Any]:
    from rich.table import Table
    from rich.text import Text

    sides = Table(title=f"{title}: {summary['fights']:,} fights ({summary['method']} path)")
    sides.add_column("side")
    sides.add_column("wins", justify="right")
    sides.add_column("win probability", justify="right")
    sides.add_column("95% interval", justify="right")
    for side, s in summary["sides"].items():
        lo, hi = s["ci95"]
        sides.add_row(side, f"{s['wins']:,}", f"{s['p_win']:.2%}", f"{lo:.2%} – {hi:.2%}")
    nw = summary["no_winner"]
    if nw["count"]:
        sides.add_row("[dim]no winner[/]", f"{nw['count']:,}", f"{nw['p']:.2%}", "")
    r = summary["rounds"]
    rounds = Table(title=f"Rounds to the end: mean {r['mean']:.2f}; "
                   + ", ".join(f"{k} {v}" for k, v in r["quantiles"].items()))
    rounds.add_column("rounds", justify="right")
    rounds.add_column("fights", justify="right")
    rounds.add_column("", min_width=30)
    top = max(r["histogram"].values())
    for k, v in r["histogram"].items():
        rounds.add_row(k, f"{v:,}", "█" * max(1, round(30 * v / top)))
    people = Table(title="Per combatant")
    for col in ("combatant", "damage dealt (mean)", "damage taken (mean)", "survives"):
        people.add_column(col, justify="right" if col != "combatant" else "left")
    for c in summary["combatants"].values():
        people.add_row(c["name"], f"{c['damage_dealt_mean']:.2f}",
                       f"{c['damage_taken_mean']:.2f}", f"{c['survival']:.2%}")
    notes = [Text(note, style="yellow") for note in summary.get("notes", [])]
    return [sides, rounds, people, *notes]


@app.command("simulate")
def simulate_cmd(
    file: FileArg,
    n: Annotated[int, typer.Option("-n", metavar="N", help="How many fights.", min=1)] = 1000,
    seed: Annotated[int, typer.Option("--seed", metavar="N",
                                      help="Seed: same seed and n, same result.")
                    ] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", metavar="N",
                                             help="Processes to use (default: 1).",
                                             min=1)] = None,
    method: Annotated[str, typer.Option(
        "--method", help="auto (counts the work each path needs on seeded trials, never "
        "the time: the same file, seed and -n take the same path on any machine; says "
        "which and why), fast (the exact chain of fight states), sampled (each rule "
        "sub-step from its cached exact distribution), steps (every roll played).")
                    ] = "auto",
    max_memory: MemoryOpt = 1.0,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="URL", help="Play the fights on this existing Dask scheduler "
        "(tcp://HOST:PORT) instead of --jobs processes.")] = None,
    as_json: JsonOpt = False,
    policy: PolicyOpt = None,
    max_rounds: RoundsOpt = None,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE",
                                              help="Save a picture (.png or .svg)."
                                              )] = None,
    max_seconds: Annotated[float, typer.Option(
        "--max-seconds", metavar="SECONDS",
        help="Time budget of the fights, on every path (auto moves from "
        "the fast path to the steps one when the chain of states passes it).", min=0,
        max=1e9)] = 600.0,
    quiet: QuietOpt = False,
    at: AtOpt = None,
) -> None:
    """Simulate many fights: win probabilities, rounds, damage, survival (FILE: a scenario,
    or a fight or play log, from --at)."""
    from fracas.analysis.simulate import simulate, summarize
    from fracas.cli import render
    from fracas.cli.jsonout import print_json

    if method not in ("auto", "fast", "sampled", "steps"):
        raise InputError(f"unknown method {method!r}", path="--method",
                         allowed="auto, fast, sampled, steps")
    if plot is not None:
        from fracas.analysis.plots import check_path

        check_path(plot)
    check_run(seed, n, "-n", jobs, scheduler)
    position = fight_start(file, at, max_rounds, policy)
    setup, title = position.setup, position.title or file.name
    with progress("simulate", "fight{s}", n, quiet, as_json) as track:
        fights = simulate(setup, position.state, n, seed=seed, jobs=jobs or 1,
                          method=method,  # type: ignore[arg-type]
                          progress=track.advance, max_memory=int(max_memory * 2**30),
                          scheduler=scheduler, max_seconds=max_seconds)
    summary = summarize(fights, position.names)
    summary.update({"system": setup.system.id, "seed": seed})
    note = start_note(position)
    if note:
        summary["from"] = position.to_json()
    if plot is not None:
        from fracas.cli.analysis import simulation_plot

        simulation_plot(summary, title, plot)
    if as_json:
        print_json("simulate", summary)
        return
    console = render.make_console()
    for part in simulation_view(summary, title):
        console.print(part)
    if note:
        console.print(note, style="dim", highlight=False)
