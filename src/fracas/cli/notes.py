"""The fight as the table heard it: the lines of the brief narration of ``fracas play``
(or all of them with their rules), for the terminal as the fight goes, and for a whole
fight afterwards (``fracas replay LOG --narrate``, ``--format md|html`` for session
notes).

:func:`told` picks and words the lines once; the terminal, Markdown and HTML only lay
them out.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from fracas.cli import status
from fracas.core.events import Event, FightEnded, Outcome, RoundStarted, TurnStarted
from fracas.core.words import Words
from fracas.encounter.gm_events import RULE_GM
from fracas.encounter.narration import Names, health_besides, is_brief, say, unhurt_hits

STYLES = {"TurnStarted": "bold", "Outcome": "bold", "Changed": "yellow",
          "ActionChosen": "magenta", "Rolled": "cyan", "FightEnded": "bold"}


@dataclass(frozen=True)
class Told:
    """One line of the narration: the event (``index`` in the events told), its words,
    and whether it is told beside an outcome (a change the outcome's line leaves out)."""

    index: int
    event: Event
    text: str
    besides: bool = False

    @property
    def style(self) -> str:
        if self.besides:
            return "yellow"
        kind = self.event.type
        return STYLES.get(kind, "cyan" if kind.endswith("Rolled") else "")

    @property
    def heading(self) -> bool:
        """A line that starts something (a round, a turn, the end), not indented."""
        return isinstance(self.event, RoundStarted | TurnStarted | FightEnded)


def told(events: Sequence[Event], verbose: bool, names: Names, words: Words,
         health_field: Callable[[str], str | None], history: Sequence[Event] = ()
         ) -> Iterator[Told]:
    """The lines the table hears of ``events`` (all of them when ``verbose``), in order:
    the round's order, whose turn, the action, each roll, the outcome (``loses nothing``
    where armour stopped a hit), the changes an outcome's line leaves out told after it
    (damage to another, a condition put on), every change by hand, the end.
    ``health_field``: the field of a combatant's health; ``history``: the fight's events
    so far, where an earlier part of a turn was told."""
    events, history = by_id(events, names), by_id(history, names)
    later: dict[int, list[int]] = {}
    unhurt = unhurt_hits(events, history)
    if not verbose:
        for i, at in health_besides(list(events), health_field, RULE_GM).items():
            later.setdefault(at, []).append(i)
    effects: list[str] = []  # what a declared effect did, told in its outcome's line
    for i, e in enumerate(events):
        if isinstance(e, TurnStarted):
            effects = []
        if e.with_outcome:
            effects.append(say(e, names, words))
            if not verbose:  # told in full, it has its own line too
                continue
        if not (verbose or isinstance(e, RoundStarted) or is_brief(e, words) or e.rule == RULE_GM
                or later.get(i) == [i]):
            continue
        text = say(e, names, words)
        if i in unhurt and isinstance(e, Outcome):
            text += f"; {names(e.target)} loses nothing"
        if effects and isinstance(e, Outcome):
            head, sep, tail = text.partition("; ")
            text, effects = f"{head}: {'; '.join(effects)}{sep}{tail}", []
        yield Told(i, e, text)
        for j in later.get(i, []) if isinstance(e, Outcome) else []:
            yield Told(j, events[j], say(events[j], names, words), besides=True)


def in_full(events: Sequence[Event], names: Names, words: Words) -> Callable[[Event], str]:
    """Each event's line for the full explanation (``e``), an outcome's with what its
    declared effect did (``controlled hit: Obi is knocked prone; Obi loses 4``), as the
    brief narration tells it."""
    lines = {id(line.event): line.text for line in told(events, True, names, words,
                                                        lambda cid: None)}
    return lambda event: lines.get(id(event)) or say(event, names, words)


def by_id(events: Sequence[Event], names: Names) -> list[Event]:
    """``events`` with each outcome's actor and target by id where a system gave their
    names (Tri-Stat's and c22's outcomes), so an outcome is matched with the changes it
    made to its target."""
    ids = {name: cid for cid, name in names.names.items()}
    return [replace(e, actor=ids.get(e.actor, e.actor), target=ids.get(e.target, e.target))
            if isinstance(e, Outcome) and (e.actor not in names.names or (
                e.target and e.target not in names.names)) else e for e in events]


def show(console: Console, line: Told, verbose: bool) -> None:
    """One line on the terminal, as ``fracas play`` prints it (a round under a rule)."""
    e = line.event
    if isinstance(e, RoundStarted):
        console.print(Rule(f"[bold]Round {e.round}[/]"))
        console.print(Text(line.text, style="dim"), highlight=False)
        return
    text = Text(("" if line.heading else "  ") + line.text, style=line.style)
    if verbose and not line.besides:
        text.append(f"  [{e.rule}]", style="dim")
    console.print(text, highlight=False)


# -- session notes ---------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """A combatant in a round's status, for notes."""

    name: str
    side: str
    current: int
    maximum: int
    active: bool
    glanced: str

    def words(self) -> tuple[str, str, str, str]:
        return (self.name, self.side, f"{self.current}/{self.maximum}"
                + ("" if self.active else " (out)"), self.glanced)


@dataclass(frozen=True)
class Table:
    """The status at a round's start, for notes: a row per combatant in turn order."""

    rows: tuple[Row, ...]

    def view(self) -> RichTable:
        """The status as ``fracas play`` shows it (health bars)."""
        from fracas.cli import render

        table = RichTable(show_header=False, show_edge=False, box=None, padding=(0, 1))
        for r in self.rows:
            table.add_row(" ", escape(r.name), f"[dim]{escape(r.side)}[/]",
                          render.health_bar(r.current, r.maximum),
                          "" if r.active else "[red]out[/]", escape(r.glanced))
        return table


NoteLine = Told | Table | str  # a narrated line, a round's status, a heading of the notes


def markdown(title: str, lines: Sequence[NoteLine], summary: Sequence[str]) -> str:
    """Session notes in Markdown: a heading a round, its status as a table, turns in
    bold, the rest as a list, the end and its summary."""
    out = [f"# {_md(title)}", ""]
    for line in lines:
        if isinstance(line, str):
            out += [f"_{_md(line)}_", ""]
        elif isinstance(line, Table):
            out += ["| combatant | side | health | at a glance |", "|---|---|---|---|",
                    *("| " + " | ".join(_md(c) for c in row.words()) + " |"
                      for row in line.rows), ""]
        elif isinstance(line.event, RoundStarted):
            out += [f"## Round {line.event.round}", "", _md(line.text), ""]
        elif isinstance(line.event, TurnStarted):
            out += ["", f"**{_md(line.text)}**", ""]
        elif isinstance(line.event, FightEnded):
            out += ["", "## The end", "", f"**{_md(line.text)}**", ""]
        else:
            out.append(f"- {_md(line.text)}")
    if summary:
        out += ["", *(f"- {_md(s)}" for s in summary)]
    return "\n".join(out).rstrip() + "\n"


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace(
        "_", "\\_")


def html_page(title: str, lines: Sequence[NoteLine], summary: Sequence[str]) -> str:
    """Session notes as one HTML page (no script, no outside file)."""
    e = html.escape
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(title)}</title>",
           "<style>body{font:16px/1.45 system-ui,sans-serif;max-width:50em;margin:1em auto;"
           "padding:0 1em}table{border-collapse:collapse;margin:.5em 0}td{padding:.1em .6em;"
           "border-bottom:1px solid #ddd}ul{margin:.2em 0}.turn{font-weight:bold;"
           "margin:.8em 0 .2em}.order,.note{color:#555}</style></head><body>",
           f"<h1>{e(title)}</h1>"]
    items: list[str] = []

    def flush() -> None:
        if items:
            out.append("<ul>" + "".join(f"<li>{x}</li>" for x in items) + "</ul>")
            items.clear()

    for line in lines:
        if isinstance(line, Told) and not line.heading:
            items.append(e(line.text))
            continue
        flush()
        if isinstance(line, str):
            out.append(f'<p class="note">{e(line)}</p>')
        elif isinstance(line, Table):
            out.append("<table>" + "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row.words())
                                           + "</tr>" for row in line.rows) + "</table>")
        elif isinstance(line.event, RoundStarted):
            out.append(f"<h2>Round {line.event.round}</h2>"
                       f'<p class="order">{e(line.text)}</p>')
        elif isinstance(line.event, FightEnded):
            out.append(f"<h2>The end</h2><p><strong>{e(line.text)}</strong></p>")
        else:
            out.append(f'<p class="turn">{e(line.text)}</p>')
    flush()
    if summary:
        out.append("<ul>" + "".join(f"<li>{e(s)}</li>" for s in summary) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def rows(state: Any, system: Any, events: Sequence[Event], names: Names) -> Table:
    """A round's status as words (:func:`fracas.cli.status.glanced`), for notes."""
    out = []
    for cid in status.in_order(state):
        c = state.roster[cid]
        current, maximum = system.health(c)
        out.append(Row(c.name, c.side, current, maximum, system.is_active(c),
                       " · ".join(status.glanced(state, system, events, cid, names))))
    return Table(tuple(out))


def fight_lines(fight: Any) -> Iterator[tuple[NoteLine, Any]]:
    """A whole fight (an :class:`~fracas.encounter.engine.Encounter` read from a fight log,
    or a :class:`~fracas.encounter.session.Session` from a play log) as the table heard
    it: each line of the brief narration, with each round's status after its order, each
    given with the fight's state at that point."""
    from fracas.encounter.edits import apply_live
    from fracas.encounter.state import FightState
    from fracas.encounter.who_rolls import known_names

    scenario, system = fight.scenario, fight.setup.system
    events = list(fight.events)
    names = Names(known_names(fight))
    final = fight.state

    def health_field(cid: str) -> str | None:
        c = final.roster.get(cid) or scenario.roster.get(cid)
        return None if c is None else str(system.harm_by_hand(c, 0)[0])

    state, done = FightState(scenario.roster), 0
    for line in told(events, False, names, system.words, health_field):
        if isinstance(line.event, RoundStarted):
            for e in events[done:line.index + 1]:
                state = apply_live(scenario, state, e)
            done = line.index + 1
            yield line, state
            yield rows(state, system, events[:done], names), state
            continue
        yield line, state

