"""Who rolls which die at the table: a setting of the table, read by the session.

By default the players type (or tap) their own combatants' dice and fracas rolls every
die of the combatants the GM runs, saying what it rolled. The GM may type the GM side's
dice too: for the whole encounter (``gm_dice``: ``typed``, or a :class:`DiceSet` with
no combatant) or per combatant (a :class:`DiceSet` naming it). A combatant a policy
decides for ("from now on") rolls its own dice, unless the GM said to type that
combatant's dice. A session without the setting
(``gm_dice`` None: every log written before it) asks a person for every die of an
action a person takes part in, as it always did, so such logs play back identically.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from fracas.core.events import Event
from fracas.dice.reading import Reading
from fracas.encounter.answers import parts_typed
from fracas.encounter.carried import Carried, carried
from fracas.encounter.decisions import Decision, DiceRequest
from fracas.encounter.gm_events import FRACAS, ROLLERS, RULE_GM, TYPED, CombatantAdded, DiceSet
from fracas.encounter.live import PERSON, Feed, whose_roll
from fracas.encounter.typed_dice import dice_prompt
from fracas.errors import InputError

if TYPE_CHECKING:
    from fracas.encounter.session import Session
    from fracas.encounter.state import FightState

__all__ = ["FRACAS", "ROLLERS", "TYPED", "DiceTurns", "check_dice_set", "check_rollers",
           "fracas_parts", "gm_side_parts", "known_names", "rollers_of", "rolls_itself",
           "shown_roll"]


def check_rollers(gm_dice: str | None, players: Collection[str],
                  roster: Mapping[str, Any], paths: tuple[str, str] = ("gm_dice", "players")
                  ) -> None:
    """The setting as given: ``gm_dice`` one of :data:`ROLLERS` (or None), ``players``
    combatants of the fight (an error names the field, ``paths``, and what is allowed)."""
    if gm_dice is not None and gm_dice not in ROLLERS:
        raise InputError(f"unknown setting {gm_dice!r} for who rolls the GM side's dice",
                         path=paths[0], allowed=", ".join(ROLLERS))
    for cid in players:
        if cid not in roster:
            raise InputError(f"no combatant with id {cid!r}", path=paths[1],
                             allowed=", ".join(roster))


def check_dice_set(event: DiceSet, roster: Mapping[str, Any]) -> None:
    """A :class:`DiceSet` read back: a known combatant (or none: the GM side) and roller."""
    if event.combatant and event.combatant not in roster:
        raise InputError(f"no combatant with id {event.combatant!r}", path="event",
                         allowed=", ".join(roster))
    if event.roller not in ROLLERS:
        raise InputError(f"unknown roller {event.roller!r}", path="event.roller",
                         allowed=", ".join(ROLLERS))


def rolls_itself(session: Session, who: str, held: Collection[str] = ()) -> bool:
    """Does fracas roll ``who``'s dice now (``gm``: the GM's own rolls)? ``held``: more
    players' combatants than the session has been told of (a player just invited)."""
    if session.gm_dice is None:
        return False
    chosen = session.dice_set.get(who)  # the GM's word for this combatant comes first
    if chosen is not None:
        return chosen == FRACAS
    if who != "gm" and session.current.get(who, PERSON) != PERSON:
        return True  # a policy decides for it: it rolls its own dice
    if who in session.players or who in held:
        return False
    return session.dice_set.get("", session.gm_dice) == FRACAS


def _parts(request: DiceRequest) -> list[tuple[int, str]]:
    """The parts of a roll of several people's dice still to give, with their owners."""
    return [(request.part, request.who), *request.rest]


def fracas_parts(session: Session, request: DiceRequest) -> list[int]:
    """What of the asked roll fracas rolls by itself now: the parts whose owners it rolls
    for (a roll of several people's dice), else ``[0]`` for the whole roll, or none."""
    if request.part:
        return [k for k, who in _parts(request) if rolls_itself(session, who)]
    return [0] if rolls_itself(session, request.who) else []


def gm_side_parts(session: Session, request: DiceRequest) -> list[int]:
    """The parts ``r`` rolls at a roll of several people's dice: the one asked and every
    other part no player holds (a player's own part is left to the player)."""
    return [k for k, who in _parts(request)
            if k == request.part or who not in session.players]


def typed_text(session: Session) -> str:
    """Who types which dice now, in words (for the GM's help and status)."""
    names = {cid: c.name for cid, c in session.state.roster.items()}
    typed = [names[cid] for cid in names if not rolls_itself(session, cid)]
    return ", ".join(typed) or "nobody: fracas rolls every die"


def roller_named(said: str) -> str:
    """``typed`` or ``fracas`` as the GM says it (an error lists what is allowed)."""
    key = said.strip().lower()
    if key not in ROLLERS:
        raise InputError(f"{said!r}: say who rolls", path="roller",
                         allowed="typed (at the table) or fracas (fracas rolls)")
    return key


def dice_set(session: Session, cid: str | None, roller: str) -> DiceSet:
    """The GM's edit: ``roller`` rolls ``cid``'s dice from now on (None: the GM side)."""
    roller = roller_named(roller)
    if session.gm_dice is None:
        raise InputError("this fight was started before fracas could roll the GM side's "
                         "dice: every die is asked at the table", path="dice",
                         allowed="a fight started anew")
    if cid is None:
        return DiceSet(RULE_GM, "", "", roller)
    if cid not in session.state.roster:
        raise InputError(f"no combatant with id {cid!r}", path="combatant",
                         allowed=", ".join(session.state.roster))
    return DiceSet(RULE_GM, cid, session.state.roster[cid].name, roller)


def rolled_line(request: DiceRequest, values: str, names: Collection[str] = ()) -> str:
    """What fracas says of a roll it made: ``fracas rolls Gorr's attack: 2d6 → 7`` (the
    table's own roll, ``names`` not at its start, mid-sentence in lower case)."""
    what = request.what
    if request.who == "gm" and not any(what.startswith(n) for n in names):
        what = what[:1].lower() + what[1:]  # the table's roll, mid-sentence
    rolled = request.die if request.die.lower().startswith(what.lower()) else (
        f"{what}: {request.die}")
    return f"fracas rolls {rolled} → {values}"


def shown_roll(value: Any, names: Mapping[str, str]) -> str:
    """A die's value as the table reads it (several dice: one after another; an order of
    combatants, as a roll-off's: by their names)."""
    if isinstance(value, Reading):  # what the rules read from it: the dice behind it
        return shown_roll(value.face, names)
    if isinstance(value, tuple | list):
        return ", ".join(shown_roll(v, names) for v in value)
    describe = getattr(value, "describe", None)  # a system's own result (a dice pool's)
    if callable(describe):
        return str(describe())
    return names.get(value, str(value)) if isinstance(value, str) else str(value)


def rollers_of(header: Mapping[str, Any], roster: Mapping[str, Any], file: str | None
               ) -> tuple[str | None, frozenset[str], dict[str, str]]:
    """The setting a log's header holds: ``gm_dice`` (None in older logs), the players'
    combatants, and who rolls each combatant's dice as set at the start."""
    gm_dice = header.get("gm_dice")
    chosen = None if gm_dice is None else str(gm_dice)
    players = frozenset(str(p) for p in header.get("players") or ())
    each = {str(k): str(v) for k, v in dict(header.get("dice") or {}).items()}
    try:
        check_rollers(chosen, [*players, *each], roster)
        for cid, roller in each.items():
            check_rollers(roller, (), roster, (f"dice.{cid}", "dice"))
    except InputError as err:
        raise InputError(err.message, file=file, path=f"record 1.{err.path}",
                         allowed=err.allowed) from None
    return chosen, players, each


def known_names(session: Any) -> dict[str, str]:  # a Session
    """Every combatant the fight has known, by id (those added and removed included)."""
    names = {cid: c.name for cid, c in session.scenario.roster.items()}
    names.update(carried(session, "added", _added_names).over(session.events))
    names.update({cid: c.name for cid, c in session.state.roster.items()})
    return names


def _added_names() -> Carried[dict[str, str]]:
    """The combatants brought into the fight so far (id -> name), read on from the last
    call (:mod:`fracas.encounter.carried`)."""
    def step(names: dict[str, str], event: Event) -> None:
        if isinstance(event, CombatantAdded):
            entry = dict(event.entry)
            names[str(entry.get("id"))] = str(entry.get("name") or entry.get("id"))

    return Carried(dict, step, dict)


class DiceTurns:
    """The rolls of a turn that are not one person's answer, for the session that mixes
    them in: the dice fracas rolls by itself, told as they are rolled, and a roll's parts
    typed on one line."""

    if TYPE_CHECKING:
        pending: Any
        entries: list[dict[str, Any]]
        events: list[Event]
        told: list[tuple[dict[str, Any], str]]
        _values: dict[int, Any]
        asked: dict[int, tuple[dict[str, Any], Callable[[], DiceRequest]]]
        _turn_start: int

        setup: Any
        current: dict[str, str]
        _base: FightState

        def draw(self) -> int: ...
        def decide(self, answer: Mapping[str, Any], *, by: str = "gm",
                   group: int | None = None) -> tuple[Event, ...]: ...
        def _stamp(self) -> int: ...
        def _delegated(self) -> None: ...
        def _add(self, added: list[dict[str, Any]], keep_redo: bool = False
                 ) -> Any: ...

        @property
        def turn_events(self) -> tuple[Event, ...]: ...

    def _pair_typed(self, pending: Decision, values: list[Any], by: str,
                    group: int | None) -> tuple[Event, ...] | None:
        """The dice of a part of a roll of several people's dice typed with the parts after
        it (:func:`~fracas.encounter.answers.parts_typed`), each its own input, all one undo
        step; None when the values are for the pending part alone."""
        entries = parts_typed(pending, values, by, self.draw)
        if entries is None:
            return None
        step, stamp = len(self.entries) if group is None else group, self._stamp()
        for i, entry in enumerate(entries):
            entry.update(n=stamp + i, group=step)
        cut = len(self.events)
        self._add(entries)
        self._delegated()
        self.roll_gm_side()
        return tuple(self.events[cut:])

    def roll_gm_side(self) -> None:
        """Roll, as they are asked, the dice fracas rolls by itself (see
        :mod:`fracas.encounter.who_rolls`): each a numbered draw, as ``r`` is, logged as
        the session's own (``auto``); the turn's ``Rolled`` events tell their results."""
        while self.pending is not None and self.pending.dice is not None:
            request = self.pending.dice
            parts = fracas_parts(cast("Session", self), request)
            if not parts:
                return
            if request.part:
                shared = request.shared if request.shared is not None else self.draw()
                added = [{"kind": "dice", "part": k, "rolled": shared, "by": "fracas",
                          "auto": True} for k in parts]
            else:
                added = [{"kind": "dice", "rolled": self.draw(), "by": "fracas",
                          "auto": True, "owner": request.asked_of()}]
            self._add(added, keep_redo=True)
            names = known_names(self)
            asked = {r.part: r for r in (request, *request.then)}
            for entry in added:  # each part told as its owner's roll, with its own die
                said = asked.get(entry.get("part", 0), request)
                value = shown_roll(self._values.get(id(entry)), names)
                self.told.append((entry, rolled_line(said, value, names.values())))

    def _said(self, entries: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str, str]]:
        """Of the pending turn's ``entries``, those fracas rolled by itself, each with
        whose roll it is and its line: the roll as its owner would have been asked it."""
        names = known_names(self)
        out = []
        for entry in entries:
            kept = self.asked.get(id(entry))
            if kept is None or kept[0] is not entry:  # typed, or not fracas's own
                continue
            request = kept[1]()
            out.append((entry, request.asked_of(), rolled_line(
                request, shown_roll(self._values.get(id(entry)), names), names.values())))
        return out

    def _unshown(self) -> list[dict[str, Any]]:
        """The dice of the turn still waiting whose rolls its events do not show yet (a
        finished turn's narration tells its rolls)."""
        waiting = [e for e in self.entries[self._turn_start:] if e["kind"] == "dice"
                   ] if self.pending is not None else []
        shown = sum(e.rolled_by() is not None for e in self.turn_events)  # told already
        return waiting[shown:]

    def untold(self) -> list[str]:
        """What fracas rolled by itself in the turn still waiting, said once each: ``fracas
        rolls Gorr's attack: 2d6 → 7`` (a finished turn's narration tells its rolls)."""
        unshown = self._unshown()
        lines = [line for entry, line in self.told if any(entry is e for e in unshown)]
        self.told.clear()
        return lines

    def rolling(self) -> list[tuple[str, str]]:
        """Every roll fracas made by itself in the turn still waiting that its events do
        not show yet, as :meth:`untold` says it, each with whose roll it is: for a screen,
        which shows them every time it is drawn (and a session read back from its log)."""
        return [(who, line) for _, who, line in self._said(self._unshown())]

    def _named(self, decision: Decision, feed: Feed) -> Decision:
        """A dice request naming who rolls, where a trial run of the turn can tell."""
        if decision.dice is None or decision.dice.part:  # a part names its owner
            return decision
        who = whose_roll(self.setup, self._base, feed, self.current)
        if who is None or who == decision.who:
            return decision
        name = self._base.roster[who].name
        request = replace(decision.dice, who=who, what=f"{decision.dice.what} ({name})",
                          owner=decision.dice.who)
        return replace(decision, who=who, prompt=dice_prompt(request), dice=request)

    def play_first(self, limit: int) -> int:
        """Answer up to ``limit`` decisions with their first option (a die: rolled), as
        nobody at a table would: a fight played through to warm a server up or in a test.
        How many were answered."""
        for done in range(limit):
            pending = self.pending
            if pending is None:
                return done
            self.decide({"option": pending.options[0].id} if pending.options
                        else {"roll": True}, by="gm")
        return limit
