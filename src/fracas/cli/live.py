"""The screen and loop of ``fracas play``: a live fight at the table, in a terminal or
from a script (the command itself is declared, light, in :mod:`fracas.cli.play`).

The screen shows the turn order with health bars and the pending decision as a numbered
menu with the odds of each option; dice are typed (``3,5``) or rolled (``r``). Every
command is one line, so the same loop reads a terminal, a ``--script`` file or piped
stdin. The log is saved after every input when ``--log`` is given.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from fracas.cli import gm as gm_commands
from fracas.cli import render
from fracas.core.events import (
    ActionChosen,
    Event,
    FightEnded,
    Outcome,
    Rolled,
    RoundStarted,
    TurnStarted,
)
from fracas.core.scenario import load_scenario
from fracas.encounter.gm import marks as gm_marks
from fracas.encounter.session import RULE_GM, CombatantAdded, CombatantRemoved, Session
from fracas.encounter.session_log import SessionLog
from fracas.errors import InputError

HELP = """\
  1, 2, ...              choose that option
  3,5  or  3 5           the dice on the table (cards: 4S,10H; Genesys: ss a t)
  r                      roll it for me
  u [N]  /  redo [N]     undo the last input (or N) / put it back
  e                      explain the last turn in full, with the rules cited
  s                      the turn order and health again
  gm set ID FIELD VALUE  change a value by hand (health, strain, conditions...)
  gm add {JSON}          bring in a combatant (a scenario entry)
  gm remove ID           take a combatant out
  gm end REASON          end the fight
  ?  /  q                this help / save and quit"""

BRIEF = (RoundStarted, TurnStarted, ActionChosen, Rolled, Outcome, FightEnded,
         CombatantAdded, CombatantRemoved)


def order_view(session: Session) -> Table:
    """The round's turn order (the current slot marked) and everybody's health."""
    state, system = session.state, session.system
    table = Table(show_header=False, show_edge=False, box=None, padding=(0, 1))
    placed: list[str] = []
    for index, slot in enumerate(state.slots):
        for cid in slot.candidates:
            if cid not in placed and cid in state.roster:
                placed.append(cid)
        mark = "▶" if index == state.next_slot - 1 and not state.over else " "
        if mark == "▶":
            current = [c for c in slot.candidates if c == state.actor] or list(slot.candidates)
            placed = [c for c in placed if c not in current] + current
    rest = [cid for cid in state.roster if cid not in placed]
    marks = gm_marks(session.events, state.round)
    for cid in [*placed, *rest]:
        c = state.roster[cid]
        current, maximum = system.health(c)
        who = "by hand" if session.is_person(cid) else session.current.get(cid, "")
        mark = "▶" if cid == state.actor and not state.over else " "
        held = ", ".join(f"{n} ({left} rd)" if left else n for n, left in marks.get(cid, []))
        table.add_row(mark, c.name, f"[dim]{c.side}[/]", render.health_bar(current, maximum),
                      "" if system.is_active(c) else "[red]out[/]", f"[dim]{who}[/]",
                      escape(held))
    return table


def narrate(console: Console, events: tuple[Event, ...], verbose: bool) -> None:
    """Print events: the brief lines a table reads aloud, or all of them with their rules."""
    for e in events:
        if isinstance(e, RoundStarted):
            console.print(Rule(f"[bold]Round {e.round}[/]"))
            console.print(Text(e.text(), style="dim"), highlight=False)
            continue
        if not verbose and not isinstance(e, BRIEF) and e.rule != RULE_GM:
            continue
        style = {"TurnStarted": "bold", "Outcome": "bold", "Changed": "yellow",
                 "ActionChosen": "magenta", "Rolled": "cyan", "FightEnded": "bold"}.get(
                     e.type, "")
        line = Text(("" if isinstance(e, TurnStarted | FightEnded) else "  ") + e.text(),
                    style=style)
        if verbose:
            line.append(f"  [{e.rule}]", style="dim")
        console.print(line, highlight=False)


def show_pending(console: Console, session: Session, full: bool = True) -> None:
    """The decision asked now: a numbered menu with odds, or the dice prompt (``full``
    False: the question only, after a command that changed nothing)."""
    p = session.pending
    if p is None:
        return
    who = "" if p.who == "gm" else f" [dim]({p.who})[/]"
    console.print(Text.from_markup(f"[bold]? {_esc(p.prompt)}[/]{who}"), highlight=False)
    if not full:
        return
    if p.kind == "dice" and p.dice is not None:
        console.print(f"  [dim]allowed: {_esc(p.dice.allowed)}[/]")
        example = ("4H,2S" if "card" in p.dice.die else "ss a" if p.dice.die.startswith("pool")
                   else "3,5")
        console.print(f"  type what the table shows ({example}) or press r to roll",
                      highlight=False)
        return
    for option in p.options:
        odds = f"  [dim]{option.odds.short()}[/]" if option.odds is not None else ""
        console.print(f"  {option.id:>2}. {_esc(option.label)}{odds}", highlight=False)


def _esc(text: str) -> str:
    return text.replace("[", r"\[")


def last_turn(session: Session) -> tuple[Event, ...]:
    """The events of the last turn that did something (the one going on, if it has an
    outcome yet, else the one before it, up to now)."""
    events = session.events
    starts = [i for i, e in enumerate(events) if isinstance(e, TurnStarted)]
    if not starts:
        return tuple(events)
    begin = starts[-1]
    if len(starts) > 1 and not any(isinstance(e, Outcome) for e in events[begin:]):
        begin = starts[-2]
    return tuple(events[begin:])


def _lines(script: Path | None) -> Iterator[tuple[int, str]]:
    if script is not None:
        try:
            text = script.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError("no such file", file=str(script), path="--script") from None
        yield from enumerate(text.splitlines(), start=1)
        return
    number = 0
    while True:
        try:
            line = input("> ") if sys.stdin.isatty() else sys.stdin.readline()
        except EOFError:
            return
        if not sys.stdin.isatty() and line == "":
            return
        number += 1
        yield number, line.rstrip("\n")


def command(session: Session, line: str, console: Console, verbose: bool
            ) -> tuple[Event, ...] | str | None:
    """Carry out one command line: the events it made, ``"quit"``, or None (shown only)."""
    words = line.split()
    if not words:
        return None
    head = words[0].lower()
    if head in ("q", "quit"):
        return "quit"
    if head in ("?", "h", "help"):
        console.print(HELP + "\n" + gm_commands.HELP, highlight=False, markup=False)
        return None
    if head == "e":
        console.print(Rule("[dim]the last turn in full[/]"))
        console.print(render.event_lines(last_turn(session)))
        return None
    if head == "s":
        console.print(order_view(session))
        return None
    if head in ("u", "undo", "redo"):
        steps = int(words[1]) if len(words) > 1 and words[1].isdigit() else 1
        before = len(session.events)
        (session.redo if head == "redo" else session.undo)(steps)
        console.print(f"[dim]{'redid' if head == 'redo' else 'undid'} {steps} step(s)[/]")
        return tuple(session.events[before:]) if head == "redo" else ()
    if head == "gm":
        return _gm(session, words[1:], line)
    pending = session.pending
    if pending is None:
        raise InputError("the fight is over", path="input", allowed="u, e, s, q")
    if pending.kind == "dice":
        if head in ("r", "roll"):
            return session.decide({"roll": True})
        return session.decide({"dice": line.replace(",", " ").split()})
    return session.decide({"option": head})


def _gm(session: Session, words: list[str], line: str) -> tuple[Event, ...]:
    done = gm_commands.command(session, words, line)
    if done is not None:
        return done
    what = words[0].lower() if words else ""
    if what == "set" and len(words) >= 4:
        return (session.adjust(words[1], words[2], " ".join(words[3:])),)
    if what == "remove" and len(words) == 2:
        return (session.remove_combatant(words[1]),)
    if what == "end":
        return (session.end_fight(" ".join(words[1:]) or "no reason given"),)
    if what == "add" and len(words) >= 2:
        text = line.split("add", 1)[1].strip()
        try:
            entry = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"not JSON: {err.msg}", path="gm add",
                             allowed='a scenario entry: {"id": ..., "side": ..., ...}') from None
        return (session.add_combatant(entry),)
    raise InputError(f"unknown GM command {line.strip()!r}", path="gm",
                     allowed="gm set ID FIELD VALUE, gm remove ID, gm add {JSON}, "
                             "gm end REASON, gm auto, gm skip, gm do, gm init, gm hurt, "
                             "gm heal, gm cond, gm join (? for help)")


def _controllers(values: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values or []:
        cid, sep, name = value.partition("=")
        if not sep or not cid or not name:
            raise InputError(f"{value!r} is not ID=CONTROLLER", path="--control",
                             allowed="ID=person or ID=<policy>, e.g. vampire=cautious")
        out[cid] = name
    return out


def run(file: Path | None, log: Path | None, resume: Path | None, seed: int | None,
        script: Path | None, verbose: bool, control: list[str] | None, roll_all: bool) -> None:
    """The ``fracas play`` command (see :func:`fracas.cli.play.play` for the options)."""
    console = render.make_console()
    journal: SessionLog | None = None
    if resume is not None:
        journal, session = SessionLog.resume(resume)
        if log is not None and log != resume:
            journal.detach()
            journal = SessionLog.create(log, session)
        log = log or resume
    else:
        if file is None:
            raise InputError("give a fight file (or --resume LOG)", path="FILE",
                             allowed="a scenario YAML file")
        scenario = load_scenario(file)
        # the GM decides for everybody no policy is named for, and spends threat and
        # despair by hand (seed 004 · Step 5)
        people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
        people.update(_controllers(control))
        session = Session.start(scenario, seed=seed, controllers=people, roll_all=roll_all)
        if log is not None:
            journal = SessionLog.create(log, session)
    title = session.scenario.title or (file.name if file else "fight")
    console.print(f"[bold]{title}[/] — {session.system.title} (seed {session.seed}); "
                  "? for help")
    narrate(console, tuple(session.events), verbose)
    console.print(order_view(session))
    echo = script is not None or not sys.stdin.isatty()
    try:
        _loop(session, console, _lines(script), verbose, echo,
              (lambda: journal.sync(session)) if journal is not None else None)
    finally:
        if journal is not None:
            journal.sync(session)
            journal.detach()
    if log is not None:
        # one line whatever the width, so the command can be copied as it stands
        where = escape(str(log))
        console.print(f"[dim]log saved to {where}; go on with: fracas play --resume {where}[/]",
                      soft_wrap=True)


def _loop(session: Session, console: Console, lines: Iterator[tuple[int, str]],
          verbose: bool, echo: bool, save: Callable[[], None] | None) -> None:
    show_pending(console, session)
    for number, line in lines:
        if echo:  # a transcript shows what was typed
            console.print(f"> {line}", highlight=False)
        try:
            result = command(session, line, console, verbose)
        except InputError as err:  # nothing changed: say why and ask again
            console.print(f"[red]error[/] (input {number}): {_esc(str(err))}",
                          highlight=False, soft_wrap=True)
            show_pending(console, session)
            continue
        if result == "quit":
            return
        if save is not None:
            save()
        if result is None:
            show_pending(console, session, full=False)
            continue
        if isinstance(result, tuple):
            narrate(console, result, verbose)
            if any(isinstance(e, RoundStarted | FightEnded) for e in result):
                console.print(order_view(session))
        show_pending(console, session)
    if session.pending is not None:
        console.print("[dim]input ended with a decision pending[/]")
