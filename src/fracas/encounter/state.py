"""The state of a fight, and how it is rebuilt from the event log.

:class:`FightState` is immutable and hashable: the roster, the round, the round's
slots, the next slot, who has acted this round, and whether the fight is over.
:func:`fold` rebuilds it from the initial roster and the events, which is what
replay, undo and loading a saved log rest on.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from fracas.core.events import (
    Changed,
    Event,
    FightEnded,
    RoundStarted,
    SlotAdded,
    SlotPassed,
    TurnStarted,
)
from fracas.core.model import Roster, Slot, apply_event, changed
from fracas.frozen import replaced


def slots_to_data(slots: Iterable[Slot]) -> tuple[tuple[Any, ...], ...]:
    """Slots as plain tuples, to be carried by a :class:`RoundStarted` event."""
    return tuple((s.candidates, s.label, s.offensive, s.extra) for s in slots)


def slots_from_data(data: Iterable[tuple[Any, ...]]) -> tuple[Slot, ...]:
    out = []
    for item in data:
        candidates, label, offensive = item[:3]
        extra = tuple(tuple(pair) for pair in item[3]) if len(item) > 3 else ()
        out.append(Slot(tuple(candidates), str(label), bool(offensive), extra))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _cached_slots(data: tuple[tuple[Any, ...], ...]) -> tuple[Slot, ...]:
    return slots_from_data(data)


def _slots_of(data: Iterable[tuple[Any, ...]]) -> tuple[Slot, ...]:
    """A round's slots from its event's data, made once per distinct data (the same
    slots come back round after round); data that cannot be hashed is read afresh."""
    try:
        return _cached_slots(data)  # type: ignore[arg-type]
    except TypeError:
        return slots_from_data(data)


@dataclass(frozen=True)
class FightState:
    """Where a fight stands (all of it folded from events)."""

    roster: Roster
    round: int = 0
    slots: tuple[Slot, ...] = ()
    next_slot: int = 0
    acted: tuple[str, ...] = ()
    actor: str | None = None
    over: bool = False
    winner: str | None = None
    started: bool = False
    arranged: tuple[int, tuple[int, ...]] | None = None  # (round, order): the GM's order


    def apply(self, event: Event) -> FightState:
        """The state after one event."""
        if isinstance(event, Changed):
            return replaced(self, roster=apply_event(self.roster, event))
        if isinstance(event, RoundStarted):
            slots = _slots_of(event.slots)
            if self.arranged is not None and self.arranged[0] == event.round and sorted(
                    self.arranged[1]) == list(range(len(slots))):
                slots = tuple(slots[i] for i in self.arranged[1])  # the GM's order
            return replaced(self, round=event.round, slots=slots, next_slot=0, acted=(),
                            actor=None, started=True, arranged=None)
        if isinstance(event, TurnStarted):
            return replaced(self, next_slot=event.slot_index + 1,
                            acted=(*self.acted, event.actor), actor=event.actor)
        if isinstance(event, SlotAdded):
            return replaced(self, slots=self._with_slot(event))
        if isinstance(event, SlotPassed):
            return replaced(self, next_slot=event.slot_index + 1, actor=None)
        if isinstance(event, FightEnded):
            return replaced(self, over=True, winner=event.winner or None)
        return self

    def apply_all(self, events: Iterable[Event]) -> FightState:
        """The state after these events, as :meth:`apply` one by one gives it; each run of
        :class:`Changed` events is applied to the roster at once (one new state per
        combatant changed, one new roster), the fight loop's cheap path."""
        state = self
        pending: dict[str, dict[str, Any]] = {}
        for event in events:
            if isinstance(event, Changed):
                pending.setdefault(event.target, {})[event.field] = event.after
                continue
            if pending:
                state = replaced(state, roster=changed(state.roster, pending))
                pending = {}
            state = state.apply(event)
        if pending:
            state = replaced(state, roster=changed(state.roster, pending))
        return state

    def _with_slot(self, event: SlotAdded) -> tuple[Slot, ...]:
        """The round's slots with ``event``'s slot put ``event.after`` slots after the
        current one (at most at the end of the round)."""
        current = self.slots[self.next_slot - 1] if 0 < self.next_slot <= len(self.slots) \
            else None
        extra = current.extra if current is not None and event.after else ()
        slot = Slot((event.actor,), event.label, event.offensive, extra)
        at = min(self.next_slot + event.after, len(self.slots))
        return (*self.slots[:at], slot, *self.slots[at:])


def fold(roster: Roster, events: Iterable[Event]) -> FightState:
    """The fight's state after ``events``, starting from ``roster``."""
    state = FightState(roster)
    for event in events:
        state = state.apply(event)
    return state
