"""Movement on the grid (seed 000 · Using a Grid): moving along a path, a move action,
and the legality check of a path."""

from __future__ import annotations

from fracas.core.events import Changed, Event, Note, Outcome
from fracas.core.model import Action, Combatant, Resolution, Roster
from fracas.core.words import count
from fracas.dice.rollers import Roller
from fracas.errors import InputError
from fracas.systems.c22.conf import Conf
from fracas.systems.c22.decks import Drawing
from fracas.systems.c22.events import C22Maneuver, C22Moved, C22Split, public, seed, table
from fracas.systems.c22.grid import Pos, check_path, walk
from fracas.systems.c22.sheet import Option, Options

GRID = seed("Using a Grid")
TURN = public("Turn: draw 2 cards")
MANEUVER = public("Maneuvers")


def occupied_by_others(roster: Roster, cid: str) -> set[Pos]:
    """The spaces other combatants stand in."""
    return {c.state.position for c in roster.values()
            if c.id != cid and c.state.position is not None}


def check_move(conf: Conf, roster: Roster, mover: Combatant, path: tuple[Pos, ...],
               option: Option | None, where: str) -> None:
    """Raise :class:`InputError` unless ``path`` is a legal move that the movement of
    ``option`` (Dash) or of the turn covers in full."""
    grid = conf.grid
    check_path(grid, mover.state.position, path, occupied_by_others(roster, mover.id), where,
               mover.name)
    if not path:
        return
    allowance = conf.allowance(option)
    done = walk(grid, mover.state.position, path, allowance)
    if done.stopped:
        raise InputError(
            f"illegal move: {mover.name} {done.stopped} after {len(done.path)} of "
            f"{count(len(path), 'space')}", path=where,
            allowed=f"{count(allowance.actions, 'movement action')} of "
                    f"{count(allowance.spaces_per_action, 'space')} "
                    f"({allowance.metres(grid)} m each) on the {grid.kind} grid")


def move_along(conf: Conf, mover: Combatant, path: tuple[Pos, ...], option: Option | None,
               roster: Roster, ev: list[Event]) -> Pos:
    """Move along ``path`` as far as the movement allows; say it; return where it ended."""
    grid = conf.grid
    start = mover.state.position
    if start is None:  # check_action rules this out
        raise InputError(f"{mover.name} has no position on the grid", path="options.path")
    allowance = conf.allowance(option)
    done = walk(grid, start, path, allowance)
    ev.append(C22Moved(GRID if not option or not option.movement_actions else conf.cite(option),
                       mover.name, done.path, len(done.path), done.metres, done.stopped))
    end = done.end or start
    if end != start:
        ev.append(Changed(GRID, mover.id, "position", start, end))
    return end


def resolve_move(conf: Conf, roller: Roller, action: Action, roster: Roster) -> Resolution:
    """A turn spent moving: draw the turn's two cards, play the maneuver (Dash gives two
    movement actions, Evasive Avoidance), then move along the path."""
    me = roster[action.actor]
    opts = action.options
    assert isinstance(opts, Options)
    maneuver = conf.maneuver(opts.maneuver)
    drawing = Drawing(roster, conf.cards)
    ev = drawing.events
    up = maneuver.raised if maneuver is not None and opts.raised else None
    hand = drawing.hand(roller, me.id, 2, "for the turn", TURN, ordered=False,
                        own=((up.suit, up.min_value),) if up else ())
    # the maneuver card: the card that raises the maneuver if one does, else the second
    raises = [up is not None and conf.values.meets(c, up.suit, up.min_value) for c in hand]
    m = 0 if raises[0] and not raises[1] else 1
    ev.append(C22Split(table("split policy"), me.name, hand[1 - m].label, hand[m].label,
                       "a move: the card that raises the maneuver, if one does, is the "
                       "maneuver card"))
    option: Option | None = None
    details: tuple[tuple[str, str], ...] = ()
    if maneuver is not None:
        option = maneuver.raised if raises[m] else maneuver.base
        word = "raised" if raises[m] else "base"
        why = (f"{hand[m].label} meets {maneuver.raised.needs()}" if raises[m] else
               "not raised, by choice" if not opts.raised else
               f"{hand[m].label} does not meet {maneuver.raised.needs()} to raise it")
        ev.append(C22Maneuver(conf.cite(option), me.name, maneuver.name, word, option.effects(),
                              why))
        details = (("maneuver", word),)
        if option.avoidance:
            ev.append(Changed(conf.cite(option), me.id, "avoidance_bonus", me.state.avoidance_bonus,
                              option.avoidance))
    else:
        ev.append(Note(MANEUVER, f"{me.name} plays no maneuver"))
    outcome = "stayed"
    if opts.path:
        end = move_along(conf, me, opts.path, option, roster, ev)
        outcome = "moved" if end == opts.path[-1] else "stopped"
    ev.append(Outcome(GRID, me.name, "", outcome, False, 0))
    drawing.finish()
    return Resolution(outcome, False, 0, tuple(ev), details=details)
