"""The screen and loop of ``fracas play``: a live fight at the table, in a terminal or
from a script (the command itself is declared, light, in :mod:`fracas.cli.play`).

The screen shows the turn order with health bars and the pending decision as a numbered
menu with the odds of each option; dice are typed (``3,5``) or rolled (``r``). Every
command is one line, so the same loop reads a terminal, a ``--script`` file or piped
stdin. The log is saved after every input when ``--log`` is given.
"""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from rich.console import Console, Group
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

from fracas.cli import gm as gm_commands
from fracas.cli import notes, render, status
from fracas.cli.base import command_name
from fracas.cli.menus import (
    Composer,
    answer_hint,
    decline_all,
    declined_by_all,
    dice_words,
    esc,
    may_pass,
    show_menu,
    show_options,
)
from fracas.cli.typed import typed_line
from fracas.core.events import (
    Event,
    FightEnded,
    Outcome,
    RoundStarted,
    TurnStarted,
)
from fracas.core.files import read_text
from fracas.core.nesting import MAX_DEPTH, json_depth
from fracas.core.words import count
from fracas.encounter.decisions import DiceRequest
from fracas.encounter.gm import field_labels as gm_field_labels
from fracas.encounter.gm import field_named as gm_find_field
from fracas.encounter.gm import told
from fracas.encounter.log import retold_warning
from fracas.encounter.narration import Names
from fracas.encounter.session import Session
from fracas.encounter.session_log import SessionLog, load_session
from fracas.encounter.typed_dice import dice_prompt
from fracas.encounter.who_rolls import ROLLERS, check_rollers, known_names
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

HELP = """\
An action, step by step (what, with what, at whom, then options):
  1, 2, ...              choose that entry (at the options: switch it on or off)
  Enter                  go with the action shown (→)
  a                      the usual attack (first weapon, the previous target)
  b  /  +                one step back / the next page of a long list
  n                      before a round's initiative: decline the choice for everybody
                         left (Zamani: nobody sacrifices)
  p                      with one thing to do: let the turn go by (gm skip: any turn)
A reaction or a choice:  1, 2, ...
Dice, as the table shows them:
  3,5  or  3 5           numbers (cards: 4S,10H; 00 on a d100 is 100)
  ss a t, 2s 1a, sat     Genesys symbols (s a t f h d, any case); Enter for none
  r                      roll it for me
At a dice prompt what you type is read as dice first: put / before a command
(/s, /u, /q) where its key is also a die's symbol.
  u [N]  /  redo [N]     undo the last input (or N) / put it back
  e                      explain the last turn in full, with the rules cited
  s                      the turn order and health again
  gm set ID FIELD VALUE  change a value by hand
                         (ID: a combatant's name or id, any case; FIELD: its word,
                         as the narration shows it: {fields}...)
  gm add {JSON}          bring in a combatant (a scenario entry)
  gm remove ID           take a combatant out
  gm end REASON          end the fight
  ?  /  q                this help / save and quit"""

COMMANDS = ("q", "quit", "?", "h", "help", "e", "s", "u", "undo", "redo", "gm", "w")


def order_view(session: Session, told: Sequence[Event] = ()) -> Group:
    """The status (:mod:`fracas.cli.status`): the round and whose turn, then the turn
    order with everybody's health and what the system's GM tracks; ``told``: the events
    just narrated (the fight's end among them is not said again)."""
    return status.view(session, told=any(isinstance(e, FightEnded) for e in told))


def names_of(session: Session) -> Names:
    """Every combatant's name by id (those who left the fight included)."""
    return Names(known_names(session))


def narrate(console: Console, events: tuple[Event, ...], verbose: bool,
            session: Session) -> None:
    """Print events: the brief lines a table reads aloud, or all of them with their rules
    (:mod:`fracas.cli.notes`); under a turn that waits for the table, its actor's status."""
    for line in notes.told(events, verbose, names_of(session), session.system.words,
                           health_field(session), session.events):
        notes.show(console, line, verbose)
        if isinstance(line.event, TurnStarted):
            status.turn_header(console, session, events[line.index + 1:], line.event)


#: where in an answer an error of play was found: the name of a field of the answer, which
#: the table never typed (the message says what was wrong with what it typed)
ANSWER_FIELDS = frozenset({"dice", "option", "input", "decide", "field", "combatant",
                           "condition"})


def error_text(err: InputError) -> str:
    """An error of an input as the table reads it: the message and what is allowed, without
    the answer's field name (``dice:``) where that is all its place says."""
    if err.file is None and err.path in ANSWER_FIELDS:
        return err.message + (f" (allowed: {err.allowed})" if err.allowed else "")
    return str(err)


def help_text(session: Session) -> str:
    """The help of ``?`` with this fight's own words: the fields of its first combatant a
    GM may set (``wounds, most wounds, conditions`` in Zamani)."""
    first = next(iter(session.state.roster), None)
    shown = gm_field_labels(session, first).split(", ")[:3] if first is not None else []
    from fracas.cli.winning import HELP as winning_help  # who's winning (issue 37)

    return (HELP.replace("{fields}", ", ".join(shown) or "health") + "\n" + gm_commands.HELP
            + "\n" + winning_help)


def health_field(session: Session) -> Callable[[str], str | None]:
    """The state field a combatant's health bar shows (None: nobody of that id now)."""
    def field(cid: str) -> str | None:
        c = session.state.roster.get(cid)
        return None if c is None else session.system.harm_by_hand(c, 0)[0]
    return field


def show_pending(console: Console, session: Session, composer: Composer,
                 full: bool = True) -> None:
    """The decision asked now: the action's step, a numbered list with odds, or the dice
    prompt (``full`` False: the question only, after a command that changed nothing)."""
    p = session.pending
    if p is None:
        return
    console.print(Text.from_markup(f"[bold]? {_esc(p.prompt)}[/]"), highlight=False)
    if not full:
        return
    if p.kind == "dice" and p.dice is not None:
        if p.dice.typed == "symbols":
            console.print("  type the symbols the dice show (ss a t, 2s 1a, sat; Enter for "
                          "none) or r to roll", highlight=False)
        else:
            # as many values as the rules read (count None): one now, more asked if needed
            example = "4H,2S" if "card" in p.dice.die else "3,5" if (
                p.dice.count or 1) > 1 else "3"
            draw = "draw" if "card" in p.dice.die else "roll"
            for later in p.dice.then:  # the roll's other parts, typed on the same line too
                console.print(Text.from_markup(f"  [bold]then {_esc(dice_prompt(later))}[/]"),
                              highlight=False)
            both = together(p.dice)
            console.print(f"  type what the table shows ({example}){both} or r to {draw}",
                          highlight=False)
        console.print(f"  [dim]allowed: {_esc(p.dice.allowed)}[/]")
        return
    if p.menu is not None:
        show_menu(console, session, composer)
        return
    composer.current(session)
    show_options(console, p.options, composer.page)


_esc = esc


def together(asked: DiceRequest) -> str:
    """How a roll's parts are typed on one line (``, both at once (3 5: Rosa's, then
    Grub's)``), where the rest of the roll is asked after this part ("" for a roll alone)."""
    if not asked.then or asked.count is None or any(r.count is None for r in asked.then):
        return ""
    values = " ".join(["3", "5", "4", "6", "2", "1"][:asked.count + sum(
        r.count or 0 for r in asked.then)])
    whose = ", then ".join(name_of(r.what) for r in (asked, *asked.then))
    word = "both" if len(asked.then) == 1 else "all"
    return f", {word} at once ({values}: {whose})"


def name_of(what: str) -> str:
    """Whose a roll is, from what it is for: ``Rosa's`` of ``Rosa's sword attack``."""
    head, sep, _ = what.partition("'s ")
    return head + "'s" if sep else what


def tell_rolls(console: Console, session: Session) -> None:
    """What fracas rolled by itself since it was last told (each roll with its result)."""
    for line in session.untold():
        console.print(f"  [dim]{_esc(line)}[/]", highlight=False)


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
    """The lines of ``script`` (read now: a path that is no text file is refused before
    anything else), or those typed."""
    if script is not None:
        text = read_text(script, "a text file of lines as typed at the prompt", where="--script")
        return enumerate(text.splitlines(), start=1)
    return _typed()


def _typed() -> Iterator[tuple[int, str]]:
    number = 0
    while True:
        try:
            line = typed_line("> ") if sys.stdin.isatty() else sys.stdin.readline()
        except EOFError:
            return
        if not sys.stdin.isatty() and line == "":
            return
        number += 1
        yield number, line.rstrip("\n")


def command(session: Session, line: str, console: Console, verbose: bool,
            composer: Composer | None = None) -> tuple[Event, ...] | str | None:
    """Carry out one command line: the events it made, ``"quit"``, or None (shown only).
    At a dice prompt the line is read as dice first (a command then needs a ``/``)."""
    composer = composer if composer is not None else Composer()
    pending = session.pending
    if line.startswith("/"):
        return _command(session, line[1:], console)
    if pending is not None and pending.kind == "dice" and pending.dice is not None:
        head = line.strip().lower()
        if head in ("r", "roll"):
            return session.decide({"roll": True})
        values = dice_words(line, pending.dice.typed)
        if not values:
            return None
        try:
            return session.decide({"dice": values})
        except InputError:
            if _command_shaped(head.split()):
                return _command(session, line, console)
            raise
    first = line.split()[0].lower() if line.split() else ""
    if pending is not None and pending.menu is None and first == "+":
        composer.current(session)
        composer.page += 1
        return None
    if first == "n" and not composer.current(session)[1].taken and declined_by_all(
            session) is not None:
        return decline_all(session)
    if first == "p" and may_pass(session):
        return session.decide({"skip": True})
    if pending is not None and pending.menu is not None and first not in COMMANDS:
        option = composer.key(session, line)
        return None if option is None else session.decide({"option": option})
    return _command(session, line, console)


def _command_shaped(words: list[str]) -> bool:
    """Is a line that is no roll a command as typed (``u 2``, ``gm ...``, ``q``), not a
    roll mistyped (``s s s s s``: too many successes, which must be refused as dice)?"""
    if not words or words[0] not in COMMANDS:
        return False
    if words[0] == "gm" or (words[0] == "w" and words[1:2] == ["if"]):  # w: who's winning
        return True
    if words[0] in ("u", "undo", "redo"):
        return len(words) == 1 or (len(words) == 2 and words[1].isdigit())
    return len(words) == 1


def _command(session: Session, line: str, console: Console
             ) -> tuple[Event, ...] | str | None:
    words = line.split()
    if not words:
        return None
    head = words[0].lower()
    if head in ("q", "quit"):
        return "quit"
    if head in ("?", "h", "help"):
        console.print(help_text(session), highlight=False, markup=False)
        return None
    if head == "e":
        console.print(Rule("[dim]the last turn in full[/]"))
        names, words = names_of(session), session.system.words
        shown = told(last_turn(session))
        console.print(render.event_lines(shown, say=notes.in_full(shown, names, words)))
        return None
    if head == "s":
        console.print(order_view(session))
        return None
    if head in ("u", "undo", "redo"):
        if len(words) > 2 or (len(words) == 2 and not words[1].isdigit()):
            raise InputError(f"{' '.join(words[1:])!r} is not a number of steps", path=head,
                             allowed=f"{head} or {head} N (N a whole number)")
        steps = int(words[1]) if len(words) > 1 else 1
        before = list(session.events)
        (session.redo if head == "redo" else session.undo)(steps)
        console.print(f"[dim]{'redid' if head == 'redo' else 'undid'} {count(steps, 'step')}[/]")
        return _added(before, session.events) if head == "redo" else ()
    if head == "gm":
        return _gm(session, words[1:], line)
    if head == "w":  # who's winning (issue 37): fracas.cli.winning, shown only
        from fracas.cli.winning import command as winning

        winning(session, words[1:], console)
        return None
    pending = session.pending
    if pending is None:
        raise InputError("the fight is over", path="input", allowed="u, e, s, q")
    return session.decide({"option": head})


def _added(before: list[Event], after: list[Event]) -> tuple[Event, ...]:
    """The events ``after`` holds that ``before`` did not, in order: what a redo put back
    (a GM edit goes in before the pending turn, not at the end)."""
    same = 0  # the fight before the pending turn is as it was: compare only the rest
    while same < min(len(before), len(after)) and before[same] == after[same]:
        same += 1
    before, after = before[same:], after[same:]
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    return tuple(e for tag, _, _, start, end in matcher.get_opcodes()
                 if tag in ("insert", "replace") for e in after[start:end])


def _gm(session: Session, words: list[str], line: str) -> tuple[Event, ...]:
    done = gm_commands.command(session, words, line)
    if done is not None:
        return done
    what = words[0].lower() if words else ""
    if what == "set" and len(words) >= 4:
        cid, rest = gm_commands.split_who(session, words[1:], 2)
        for k in range(len(rest) - 1, 0, -1):  # the field by its label: ``most health``
            field = gm_find_field(session, cid, " ".join(rest[:k]))
            if field is not None:
                before = list(session.events)
                session.adjust(cid, field, " ".join(rest[k:]))
                return _added(before, session.events)
        if rest[0].lower().startswith("initiative"):  # the reason it cannot be set
            session.adjust(cid, rest[0].lower(), " ".join(rest[1:]))
        raise InputError(f"{session.state.roster[cid].name} has no value {rest[0]!r}",
                         path="field", allowed=gm_field_labels(session, cid))
    if what == "remove" and len(words) >= 2:
        cid, rest = gm_commands.split_who(session, words[1:])
        if not rest:
            return (session.remove_combatant(cid),)
    if what == "end":
        return (session.end_fight(" ".join(words[1:]) or "no reason given"),)
    if what == "add" and len(words) >= 2:
        text = line.split("add", 1)[1].strip()
        if json_depth(text.encode()) > MAX_DEPTH:
            raise InputError(f"lists and objects nested more than {MAX_DEPTH} levels deep",
                             path="gm add", allowed="a scenario entry: "
                             '{"id": ..., "side": ..., ...}')
        try:
            entry = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"not JSON: {err.msg}", path="gm add",
                             allowed='a scenario entry: {"id": ..., "side": ..., ...}') from None
        return (session.add_combatant(entry),)
    form = gm_commands.usage("hold" if what == "delay" else what, HELP)
    if form is not None:  # a command the table knows, typed without what it needs
        raise InputError(f"{line.strip()!r} is not how gm {what} is typed", path="gm",
                         allowed=f"{form} (? for help)")
    raise InputError(f"unknown GM command {line.strip()!r}", path="gm",
                     allowed=f"{gm_commands.commands(HELP)} (? for help)")


def _controllers(values: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values or []:
        cid, sep, name = value.partition("=")
        if not sep or not cid or not name:
            raise InputError(f"{value!r} is not ID=CONTROLLER", path="--control",
                             allowed="ID=person or ID=POLICY, e.g. vampire=cautious")
        out[cid] = name
    return out


def _rollers(values: list[str]) -> tuple[str, dict[str, str]]:
    """``--gm-dice``: who rolls the GM side's dice (default fracas), and per combatant."""
    side, each = "fracas", {}
    for value in values:
        cid, sep, roller = value.rpartition("=")
        if roller not in ROLLERS or (sep and not cid):
            raise InputError(f"{value!r} is not WHO or ID=WHO", path="--gm-dice",
                             allowed="fracas, typed, ID=fracas or ID=typed")
        if sep:
            each[cid] = roller
        else:
            side = roller
    return side, each


def run(file: Path | None, log: Path | None, resume: Path | None, seed: int | None,
        script: Path | None, verbose: bool, control: list[str] | None, roll_all: bool,
        players: list[str] | None = None, gm_dice: list[str] | None = None) -> None:
    """The ``fracas play`` command (see :func:`fracas.cli.play.play` for the options)."""
    console = render.make_console()
    journal: SessionLog | None = None
    lines = _lines(script)
    if resume is not None:
        if log is not None and log != resume:  # the old log is only read (it may be cut)
            session = load_session(resume)
            journal = SessionLog.create(log, session)
        else:
            journal, session = SessionLog.resume(resume)
        warned = retold_warning(resume, session.retold)
        if warned:
            print(f"fracas: warning: {warned}", file=sys.stderr)
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
        # who rolls which die: players type their own, fracas rolls the GM side's (or the
        # GM types them too: --gm-dice typed)
        held = [cid for cid, c in scenario.roster.items() if getattr(c.sheet, "player", False)]
        for said in players or []:
            held += [p.strip() for p in said.split(",") if p.strip()]
        side, each = _rollers(gm_dice or [])
        check_rollers(side, held, scenario.roster, ("--gm-dice", "--player"))
        check_rollers(None, each, scenario.roster, ("--gm-dice", "--gm-dice"))
        session = Session.start(scenario, seed=seed, controllers=people, roll_all=roll_all,
                                gm_dice=side, players=held, dice=each)
        if log is not None:
            journal = SessionLog.create(log, session)
    title = session.scenario.title or (file.name if file else "fight")
    console.print(f"[bold]{title}[/] — {session.system.title} (seed {session.seed}); "
                  "? for help")
    narrate(console, tuple(session.events), verbose, session)
    tell_rolls(console, session)
    console.print(order_view(session, session.events))
    echo = script is not None or not sys.stdin.isatty()
    try:
        _loop(session, console, lines, verbose, echo,
              (lambda: journal.sync(session)) if journal is not None else None)
    except KeyboardInterrupt:
        console.print()  # off the prompt's line
        raise
    finally:  # Ctrl-C included: the log is saved, and the GM is told how to go on
        if journal is not None:
            journal.sync(session)
            journal.detach()
        if log is not None:
            # one line whatever the width, so the command can be copied as it stands
            where = escape(str(log))
            console.print(f"[dim]log saved to {where}; go on with: "
                          f"{escape(command_name())} play --resume {where}[/]", soft_wrap=True)


def _loop(session: Session, console: Console, lines: Iterator[tuple[int, str]],
          verbose: bool, echo: bool, save: Callable[[], None] | None) -> None:
    composer = Composer()
    show_pending(console, session, composer)
    for number, line in lines:
        if echo:  # a transcript shows what was typed
            console.print(f"> {line}", highlight=False)
        over = session.state.over
        try:
            result = command(session, line, console, verbose, composer)
        except InputError as err:  # nothing changed: say why and ask again
            where = f" (input {number})" if echo else ""  # a script's line; not at a terminal
            console.print(f"[red]error[/]{where}: {_esc(error_text(err))}",
                          highlight=False, soft_wrap=True)
            show_pending(console, session, composer)
            continue
        if result == "quit":
            return
        if save is not None:
            save()
        if result is None:  # a step of the action taken, or a command that shows only
            first = line.strip().lstrip("/").split()[:1]
            pending = session.pending
            if not first and pending is not None and pending.menu is None and (
                    pending.kind != "dice"):  # Enter alone at a reaction or a choice
                show_pending(console, session, composer, full=False)
                console.print(f"  [dim]{answer_hint(pending.options)}[/]", highlight=False)
                continue
            show_pending(console, session, composer,
                         full=not first or first[0].lower() not in COMMANDS)
            continue
        if isinstance(result, tuple):
            if session.state.over and not over and not any(
                    isinstance(e, FightEnded) for e in result):
                # a GM edit that ends the fight (the last of a side taken out): its end
                # comes from the turn played again after the edit
                result = (*result, *(e for e in session.events[-1:]
                                     if isinstance(e, FightEnded)))
            narrate(console, result, verbose, session)
            tell_rolls(console, session)
            if any(isinstance(e, RoundStarted | FightEnded) for e in result):
                console.print(order_view(session, result))
        show_pending(console, session, composer)
    if session.pending is not None:
        console.print("[dim]input ended with a decision pending[/]")
