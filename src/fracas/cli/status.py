"""The table at a glance: the status a GM reads in ``fracas play`` (``s``, each round's
header, the line under each turn) and in ``fracas replay``.

One row a combatant in turn order: the mark of who acts, name, side, health, where in the
order it acts (its initiative place, countdown segment or slot), what the system's GM
glances for (the system's ``glance`` hook: armour HP, guard, focus, sacrifice, cards
left, from its data pack's words), its conditions with the rounds left, and who decides.
Nothing here knows a rule: the values and their words come from the system.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from fracas.cli import render
from fracas.core.events import Event, FightEnded, TurnStarted
from fracas.encounter.gm import marks as gm_marks
from fracas.encounter.narration import Names, in_names
from fracas.encounter.state import FightState
from fracas.encounter.who_rolls import known_names

if TYPE_CHECKING:
    from fracas.encounter.session import Session


def in_order(state: FightState) -> list[str]:
    """The combatants' ids in the round's turn order (the one acting now first among those
    sharing its slot), then those with no place in it."""
    placed: list[str] = []
    for index, slot in enumerate(state.slots):
        for cid in slot.candidates:
            if cid not in placed and cid in state.roster:
                placed.append(cid)
        if index == state.next_slot - 1 and not state.over:
            current = [c for c in slot.candidates if c == state.actor] or list(slot.candidates)
            placed = [c for c in placed if c not in current] + current
    return [*placed, *(cid for cid in state.roster if cid not in placed)]


def places(state: FightState, cid: str) -> str:
    """Where ``cid`` acts in what is left of the round: its own slots' labels (``countdown
    7, 2``, ``initiative 6D``) and the next slot it may take of those several may
    (``PC slot 2``); its place this round once it acted and has none left; nothing once
    the fight is over."""
    if state.over:
        return ""
    start = max(state.next_slot - 1, 0)
    ahead = [slot.label for slot in state.slots[start:]
             if slot.candidates == (cid,) and slot.label]
    shared = [slot.label for slot in state.slots[start:]  # a slot several may take
              if len(slot.candidates) > 1 and cid in slot.candidates and slot.label
              and cid not in state.acted]
    ahead += shared[:1]  # the next one open to it
    if not ahead:
        ahead = [slot.label for slot in state.slots if slot.candidates == (cid,)
                 and slot.label]
    return _shared_head(list(dict.fromkeys(ahead)))


def _shared_head(labels: list[str]) -> str:
    """Labels with their shared first word said once: ``countdown 10, 2 (extra)``."""
    heads = {label.split(" ", 1)[0] for label in labels}
    if len(labels) < 2 or len(heads) != 1 or any(" " not in label for label in labels):
        return ", ".join(labels)
    return ", ".join([labels[0], *(label.split(" ", 1)[1] for label in labels[1:])])


def conditions(state: FightState, system: Any, events: Sequence[Event], cid: str) -> str:
    """A combatant's conditions: those the GM put on with the rounds left (``blinded (2
    rd)``), then those the rules put on, by the data pack's words."""
    marked = gm_marks(events, state.round).get(cid, [])
    words = system.words
    ruled = [words.condition(n) for n in getattr(state.roster[cid].state, "conditions", ())
             if isinstance(n, str)]
    named = {m for m, _ in marked}
    return ", ".join([f"{n} ({left} rd)" if left else n for n, left in marked]
                     + [n for n in ruled if n not in named])


def glanced(state: FightState, system: Any, events: Sequence[Event], cid: str,
            names: Names, place: bool = True) -> list[str]:
    """What the GM glances for beside ``cid``'s health, in the table's words: its place in
    the order (unless ``place`` is False), the system's own values, its conditions."""
    seen = system.glance(state.roster[cid], names.names)
    held = conditions(state, system, events, cid)
    return [p for p in (places(state, cid) if place else "", *seen, held) if p]


def status_table(state: FightState, system: Any, events: Sequence[Event], names: Names,
                 decides: Callable[[str], str] | None = None) -> Table:
    """The round's turn order (the one acting marked ▶) with everybody's health and what
    the system's GM tracks; ``decides``: who decides for a combatant (a live session)."""
    table = Table(show_header=False, show_edge=False, box=None, padding=(0, 1))
    for cid in in_order(state):
        c = state.roster[cid]
        current, maximum = system.health(c)
        mark = "▶" if cid == state.actor and not state.over else " "
        row: list[Any] = [mark, escape(c.name), f"[dim]{escape(c.side)}[/]",
               render.health_bar(current, maximum),
               "" if system.is_active(c) else "[red]out[/]"]
        if decides is not None:
            row.append(f"[dim]{escape(decides(cid))}[/]")
        row.append(escape(" · ".join(glanced(state, system, events, cid, names))))
        table.add_row(*row)
    return table


def heading(state: FightState, names: Names, events: Sequence[Event]) -> str:
    """The line above the status: the round and whose turn it is, or how the fight ended
    (the end's own line, as the narration told it)."""
    if state.over:
        ended = next((e for e in reversed(events) if isinstance(e, FightEnded)), None)
        if ended is not None:
            return in_names(ended, names).text()
        return f"Fight over after round {state.round}" + (
            f": {state.winner} win" if state.winner else "")
    if not state.started:
        return "Before the first round"
    turn = f" · {names(state.actor)}'s turn" if state.actor else ""
    return f"Round {state.round}{turn}"


def turn_line(state: FightState, system: Any, events: Sequence[Event], cid: str,
              names: Names) -> str:
    """The header under a turn's first line (which says its slot): the actor's health and
    what the GM tracks for it (``Kofi: 14/20 · focus ready · prone``)."""
    c = state.roster[cid]
    current, maximum = system.health(c)
    return " · ".join([f"{names(cid)}: {current}/{maximum}",
                       *glanced(state, system, events, cid, names, place=False)])


def view(session: Session, told: bool = False) -> Group:
    """The status of a live session (``s``, each round's header): the heading, then the
    table with who decides for each combatant; ``told``: the narration has just said how
    the fight ended, so the heading is not said twice."""
    state, names = session.state, Names(known_names(session))

    def decides(cid: str) -> str:
        return "by hand" if session.is_person(cid) else session.current.get(cid, "")

    shown: list[Any] = [] if told and state.over else [
        Text(heading(state, names, session.events), style="bold")]
    shown.append(status_table(state, session.system, session.events, names, decides))
    if state.over:  # the end-of-fight summary, its first line said by the heading
        shown += [Text("  " + line) for line in summary_lines(session)[1:]]
    return Group(*shown)


def turn_header(console: Console, session: Session, rest: Sequence[Event],
                started: TurnStarted) -> None:
    """Under the line of a turn that waits for the table (the last begun in ``rest``'s
    batch, its actor's now): that actor's health and what the GM tracks for it."""
    state = session.state
    if state.over or started.actor != state.actor or started.actor not in state.roster or any(
            isinstance(e, TurnStarted) for e in rest):
        return
    line = turn_line(state, session.system, session.events, started.actor,
                     Names(known_names(session)))
    console.print(Text("  " + line, style="dim"), highlight=False)


def summary_lines(fight: Any) -> list[str]:
    """The end-of-fight summary (:func:`fracas.encounter.summary.summarize`, the one every
    screen shows) as lines: who won after how many rounds, then each combatant's damage
    dealt and taken and when it went down."""
    from fracas.encounter.summary import summarize

    return summarize(fight.scenario, fight.setup.system, fight.events).lines()
