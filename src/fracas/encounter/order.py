"""The GM's hand on the turn order: move a combatant before or after another in this
round's order, hold (delay) the acting combatant's turn, and re-sort the round when an
initiative is set by hand. Each change is one :class:`~fracas.encounter.gm_events.Reordered`
GM edit (with, where the rules keep an order from round to round, the combatants' places
set to match): logged, replayed, undone like every other hand edit.

What a change lasts: where every combatant's state keeps its place in the order (Tri-Stat,
the skill contest: initiative rolled once a fight), the places are renumbered and the
change holds from now on; where the rules set the order again each round (Zamani's
countdown, c22's initiative cards) or a slot is a side's, not a combatant's (Genesys), it
holds for this round, and the edit says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.core.events import Changed, Event
from fracas.core.model import Slot, apply_events
from fracas.core.words import plain
from fracas.dice.rollers import ScriptedRoller
from fracas.encounter.gm_events import RULE_GM, Reordered
from fracas.errors import FracasError, InputError

if TYPE_CHECKING:
    import contextlib
    from typing import Protocol

    from fracas.encounter.state import FightState

    class _Editing(Protocol):
        """What the order tools need of a session (a structural type)."""

        state: FightState
        pending: Any

        @property
        def system(self) -> Any: ...

        @property
        def turn_base(self) -> FightState: ...

        def record(self, event: Event, group: int | None = None) -> Event: ...

        def one_step(self) -> contextlib.AbstractContextManager[int]: ...

PLACE = "initiative"  # the state field where the rules keep a combatant's place, if any
UNDER_WAY = "once the order is set, from the round's first turn on"
MOVE = "a move in this round's order (gm move ID before|after ID2; ↑ ↓ on the GM desk)"


@dataclass(frozen=True)
class ToCome:
    """This round's slots still to come, as a GM's edit made now sees them: ``slots``
    (the current one first), in ``blocks`` (a combatant's consecutive slots, its attacks
    of one turn, move together); ``round``: the round they are of; ``begins``: the round
    begins with the pending turn (its order is set inside it: the edit orders it as it
    is set); ``roster``: where the places are read."""

    slots: tuple[Slot, ...]
    blocks: list[list[int]]
    round: int
    begins: bool
    roster: Any
    kept: Any  # the roster the edit goes in at (before the pending turn)

    def block_of(self, cid: str) -> int | None:
        return next((k for k, b in enumerate(self.blocks)
                     if cid in self.slots[b[0]].candidates), None)

    def names(self, blocks: Sequence[list[int]] | None = None) -> str:
        return ", ".join(" or ".join(self.roster[c].name for c in
                                     self.slots[b[0]].candidates if c in self.roster)
                         for b in (self.blocks if blocks is None else blocks))


def to_come(session: _Editing) -> ToCome:
    """This round's slots still to come (refused while the round's order is not set)."""
    base, now = session.turn_base, session.state
    begins = now.started and (now.round != base.round or not base.started)
    under_way = now.round == base.round and base.started and base.next_slot < len(base.slots)
    if now.over or not (begins or under_way):
        raise InputError("this round's order is still being rolled", path="order",
                         allowed=UNDER_WAY)
    slots = now.slots if begins else base.slots[base.next_slot:]
    blocks: list[list[int]] = []
    for i, slot in enumerate(slots):
        if blocks and slots[blocks[-1][-1]].candidates == slot.candidates and len(
                slot.candidates) == 1:
            blocks[-1].append(i)
        else:
            blocks.append([i])
    return ToCome(slots, blocks, now.round, begins, now.roster, base.roster)


def order_to_come(session: _Editing) -> list[str]:
    """Who takes each turn of this round still to come (the first of a slot's
    candidates), in order, the pending turn first; empty while the order cannot be changed
    (the round's order is being set, or the fight is over)."""
    try:
        come = to_come(session)
    except InputError:
        return []
    return [come.slots[b[0]].candidates[0] for b in come.blocks]


def under_way(session: _Editing, come: ToCome) -> bool:
    """The pending turn is past the choice of its action (a reaction, a roll of it is
    asked): it stays where it is, the first of the turns to come; a re-sort or a move
    orders only the turns after it (it is never put off half played)."""
    pending, actor = session.pending, session.state.actor
    return not come.begins and pending is not None and actor is not None and not (
        pending.kind == "slot" or (pending.kind == "action" and pending.who == actor))


def move(session: _Editing, cid: str, where: str, other: str) -> tuple[Event, ...]:
    """Move ``cid``'s next turn of this round ``where`` (``before`` or ``after``)
    ``other``'s next turn; one undo step. Refused with the reason when either has no turn
    left this round, or nothing would change."""
    if where not in ("before", "after"):
        raise InputError(f"{where!r}: say before or after", path="where",
                         allowed="before, after")
    come = to_come(session)
    for who in (cid, other):
        if who not in come.roster:
            raise InputError(f"no combatant with id {who!r}", path="combatant",
                             allowed=", ".join(come.roster))
    name, other_name = come.roster[cid].name, come.roster[other].name
    if cid == other:
        raise InputError(f"{name} cannot move {where} itself", path="combatant",
                         allowed="another combatant")
    mine, theirs = come.block_of(cid), come.block_of(other)
    for who, k in ((name, mine), (other_name, theirs)):
        if k is None:
            raise InputError(f"{who} has no turn left this round", path="combatant",
                             allowed=f"those still to act: {come.names()}")
    assert mine is not None and theirs is not None
    if mine == theirs:
        raise InputError(f"{name} and {other_name} share this slot: it is one turn",
                         path="combatant", allowed="a combatant of another slot")
    blocks = [b for k, b in enumerate(come.blocks) if k != mine]
    blocks.insert(blocks.index(come.blocks[theirs]) + (where == "after"), come.blocks[mine])
    if under_way(session, come) and blocks[0] != come.blocks[0]:
        acting = come.names([come.blocks[0]])
        raise InputError(f"{acting}'s turn is under way (its action chosen): it is played "
                         "out first", path="order",
                         allowed=f"a move among the turns after {acting}'s")
    if blocks == come.blocks:
        raise InputError(f"{name} already acts right {where} {other_name}",
                         path="order", allowed="another place")
    return _record(session, come, blocks, f"{name} now acts {where} {other_name}",
                   (cid, other))


def hold(session: _Editing, after: str | None = None) -> tuple[Event, ...]:
    """The turn now asked for is held (a delay): at its action decision (or, where a
    slot is a side's, at the choice of who takes it) the slot passes after the next one
    somebody else able to act takes (``after``: after that combatant's next turn)."""
    pending = session.pending
    if pending is None or pending.kind not in ("action", "slot"):
        raise InputError("a turn is held when it comes", path="hold",
                         allowed="at its action decision, or at the choice of who takes "
                                 "a slot")
    come = to_come(session)
    if pending.kind == "action":
        if after is not None:
            return move(session, pending.who, "after", after)
        mine = come.block_of(pending.who) or 0
    else:
        mine = 0
    held = set(come.slots[come.blocks[mine][0]].candidates)
    if after is not None:
        theirs = come.block_of(after)
        if theirs is None or theirs <= mine:
            raise InputError(f"{come.roster[after].name if after in come.roster else after} "
                             "has no turn left after this one", path="hold",
                             allowed=f"those still to act: {come.names()}")
    else:
        theirs = next((k for k in range(mine + 1, len(come.blocks)) if any(
            c in come.roster and c not in held and session.system.is_active(come.roster[c])
            for c in come.slots[come.blocks[k][0]].candidates)), None)
    if theirs is None:
        raise InputError("this is the round's last turn of anybody able to act: there is "
                         "no later turn to hold it for", path="hold", allowed="acting now")
    blocks = [b for k, b in enumerate(come.blocks) if k != mine]
    blocks.insert(blocks.index(come.blocks[theirs]) + 1, come.blocks[mine])
    first = come.slots[come.blocks[mine][0]]
    who = come.roster[pending.who].name if pending.kind == "action" else (
        first.label or come.names([come.blocks[mine]]))
    named = (*come.slots[come.blocks[mine][0]].candidates,
             *come.slots[come.blocks[theirs][0]].candidates)
    return _record(session, come, blocks,
                   f"{who} holds the turn until after {come.names([come.blocks[theirs]])}",
                   named)


def check_place(session: _Editing, field: str) -> ToCome:
    """Setting an initiative by hand: allowed where every combatant of this round's order
    keeps a place the rules read again next round, one slot a combatant; otherwise
    refused with the reason (the order is set again each round, or a slot is a side's)."""
    if field != PLACE:
        label = plain(session.system.words.field(field))
        raise InputError(f"{label} is drawn again when the rules set the order: set by hand "
                         "it would not change the order", path="field",
                         allowed=MOVE)
    come = to_come(session)
    if any(len(s.candidates) > 1 for s in come.slots):
        raise InputError("a slot of this order is a side's, not one combatant's (any of "
                         "the side may take it): an initiative set by hand would move no "
                         "slot", path="field", allowed=MOVE)
    if not all(getattr(c.state, PLACE, None) for c in come.kept.values()):
        raise InputError("the places were rolled as part of this turn, which is not over: "
                         "a place set now goes in before the turn and its roll would "
                         "replace it", path="field",
                         allowed=f"{MOVE}, or set it once the next turn is under way")
    return come


def make_room(roster: Any, edit: Changed) -> list[Changed]:
    """An initiative place set by hand (``edit``) onto a place another holds: the GM
    means that combatant to act there, so whoever holds it moves one place on, and so on
    while a place is taken (no tie the rules would break silently by roster order)."""
    held = {getattr(c.state, PLACE, None): c.id for c in roster.values()
            if c.id != edit.target}
    out, place = [], edit.after
    while isinstance(place, int) and place in held:
        out.append(Changed(RULE_GM, held[place], PLACE, place, place + 1))
        place += 1
    return out


def resort(session: _Editing, come: ToCome, group: int, edits: Sequence[Changed]
           ) -> tuple[Event, ...]:
    """After an initiative place set by hand (``edits``: it and the places it moved on,
    :func:`make_room`): this round's slots still to come
    in the order of the places, with the labels the rules give them now (``initiative
    place 9``); none when order and labels already are so, or when the round begins in
    the pending turn (the rules then order and label it by the places)."""
    if come.begins:
        return ()
    roster = session.turn_base.roster

    def place(block: list[int]) -> Any:
        return getattr(roster[come.slots[block[0]].candidates[0]].state, PLACE)

    first = 1 if under_way(session, come) else 0  # a turn half played stays first
    ordered = [*come.blocks[:first], *sorted(come.blocks[first:], key=place)]
    new = [come.slots[i] for b in ordered for i in b]
    labels = _labels(session, come, new, edits) or tuple(slot.label for slot in new)
    if ordered == come.blocks and labels == tuple(slot.label for slot in new):
        return ()
    return (session.record(Reordered(RULE_GM, tuple(i for b in ordered for i in b),
                                     f"the order from now on: {come.names(ordered)}",
                                     come.round, tuple(come.slots[b[0]].candidates[0]
                                                       for b in ordered), labels), group),)


def _record(session: _Editing, come: ToCome, blocks: Sequence[list[int]], said: str,
            who: tuple[str, ...]) -> tuple[Event, ...]:
    """The new order (and the places that keep it, where the rules keep places), as one
    undo step. As a round begins, with places kept, the places alone order it (the rules
    set the round's order from them)."""
    base = session.turn_base
    new = [come.slots[i] for b in blocks for i in b]
    kept = _places(come.kept, [*(() if come.begins else base.slots[:base.next_slot]), *new])
    said += " (from now on)" if kept else " (this round only)"
    order = tuple(i for b in blocks for i in b)
    if come.begins and kept:
        order = tuple(range(len(order)))
    labels = () if come.begins or not kept else _labels(session, come, new, kept)
    with session.one_step() as group:
        out = [session.record(Reordered(RULE_GM, order, said, come.round, who, labels),
                              group)]
        out += [session.record(e, group) for e in kept]
    return tuple(out)


def _labels(session: _Editing, come: ToCome, slots: Sequence[Slot],
            places: Sequence[Changed]) -> tuple[str, ...]:
    """The labels the rules give ``slots`` (this round's still to come, in their new
    order) once the places are renumbered: the rules' order worked out again from the
    places kept (no die rolled; none when the rules would roll)."""
    roster = apply_events(come.kept, places)
    try:
        ruled, _ = session.system.initiative(ScriptedRoller([]), roster, come.round)
    except FracasError:
        return ()
    by: dict[tuple[str, ...], list[str]] = {}
    for slot in ruled:
        by.setdefault(slot.candidates, []).append(slot.label)
    seen: dict[tuple[str, ...], int] = {}  # the turns taken this round use the first labels
    taken = len(session.turn_base.slots) - len(come.slots)
    for slot in session.turn_base.slots[:taken]:
        seen[slot.candidates] = seen.get(slot.candidates, 0) + 1
    out = []
    for slot in slots:
        k = seen.get(slot.candidates, 0)
        labels = by.get(slot.candidates, [])
        out.append(labels[k] if k < len(labels) else slot.label)
        seen[slot.candidates] = k + 1
    return tuple(out)


def _places(roster: Any, slots: Sequence[Slot]) -> list[Changed]:
    """Where every combatant of the order keeps its place in its state (one slot a
    combatant), the places renumbered to follow ``slots``: the order holds in later
    rounds; none otherwise."""
    if any(len(s.candidates) != 1 for s in slots):
        return []
    order = list(dict.fromkeys(s.candidates[0] for s in slots if s.candidates[0] in roster))
    values: list[Any] = [getattr(roster[c].state, PLACE, None) for c in order]
    if not values or not all(type(v) is int for v in values):
        return []
    return [Changed(RULE_GM, c, PLACE, old, new)
            for c, old, new in zip(order, values, sorted(values), strict=True) if old != new]
