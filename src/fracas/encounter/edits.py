"""GM edits as a live fight reads them back: the state after one (a combatant added or
removed included), a session's state folded from its events alone, and the checks an edit
read from a session's inputs or a log is held to, the same as one made at the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from fracas.core.events import Changed, Event
from fracas.core.model import Roster
from fracas.core.scenario import Scenario
from fracas.encounter.gm_events import CombatantAdded, CombatantRemoved, Reordered
from fracas.encounter.hand import field_hints, hand_value, hint_words, shown
from fracas.encounter.state import FightState, slots_from_data, slots_to_data
from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping


def _entry_mapping(entry: Any) -> dict[str, Any]:
    """A combatant entry back from its frozen (tuple of pairs) form."""
    if isinstance(entry, Mapping):
        return {k: _entry_mapping(v) if isinstance(v, Mapping) else v for k, v in entry.items()}
    out: dict[str, Any] = {}
    for key, value in entry:
        out[key] = _thaw(value)
    return out


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple) and value and all(
            isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) for p in value):
        return {k: _thaw(v) for k, v in value}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def apply_live(scenario: Scenario, state: FightState, event: Event) -> FightState:
    """The state after one event, GM edits included (a combatant added or removed)."""
    if isinstance(event, CombatantAdded):
        entry = _entry_mapping(event.entry)
        raw = dict(scenario.raw)
        raw["combatants"] = [entry]
        raw.pop("attack", None)
        raw.pop("dice", None)
        built = scenario_from_mapping(raw).roster[str(entry["id"])]
        return replace(state, roster=Roster([*state.roster.values(), built]))
    if isinstance(event, CombatantRemoved):
        gone = event.combatant
        slots = slots_from_data((tuple(x for x in data[0] if x != gone), *data[1:])
                                for data in slots_to_data(state.slots))
        return replace(state, roster=Roster(c for c in state.roster.values() if c.id != gone),
                       slots=slots, acted=tuple(a for a in state.acted if a != gone),
                       actor=None if state.actor == gone else state.actor)
    if isinstance(event, Reordered) and event.round > state.round:
        # the round begins in the pending turn: its slots are ordered as they are set
        # (after an order given before for the same round)
        before = state.arranged[1] if state.arranged and state.arranged[0] == event.round \
            else None
        order = tuple(event.order) if before is None else tuple(before[i] for i in event.order)
        return replace(state, arranged=(event.round, order))
    if isinstance(event, Reordered):
        done, rest = state.slots[:state.next_slot], state.slots[state.next_slot:]
        moved = [rest[i] for i in event.order]
        if len(event.labels) == len(moved):  # the places they show, renumbered
            moved = [replace(slot, label=str(label))
                     for slot, label in zip(moved, event.labels, strict=True)]
        return replace(state, slots=(*done, *moved))
    return state.apply(event)


def fold_live(scenario: Scenario, events: Sequence[Event]) -> FightState:
    """A live fight's state from its events alone (the check on a session's log)."""
    state = FightState(scenario.roster)
    for event in events:
        state = apply_live(scenario, state, event)
    return state


GM_EVENTS = ("Changed", "CombatantAdded", "CombatantRemoved", "FightEnded", "ControllerSet",
             "DiceSet", "GmAction", "GmRoll", "ConditionSet", "ConditionCleared", "Joined",
             "Reordered")


def check_gm(state: FightState, event: Event) -> None:
    """A GM edit read back (from the session's inputs or a log) is held to the same checks
    as one made at the table: a known combatant, a field that can be set by hand, a value
    of that field's type."""
    if event.type not in GM_EVENTS:
        raise InputError(f"a {event.type} event is not a GM edit", path="event.type",
                         allowed=", ".join(GM_EVENTS))
    named = {"Changed": "target", "CombatantRemoved": "combatant", "ControllerSet": "combatant",
             "GmAction": "actor", "ConditionSet": "combatant", "ConditionCleared": "combatant"}
    if event.type in named:
        cid = getattr(event, named[event.type])
        if cid not in state.roster:
            raise InputError(f"no combatant with id {cid!r}", path="event",
                             allowed=", ".join(state.roster))
    if isinstance(event, Reordered) and event.round <= state.round and sorted(
            event.order) != list(
            range(len(state.slots) - state.next_slot)):
        raise InputError("a new order that is not one of this round's slots still to come",
                         path="event.order", allowed=f"the numbers 0 to "
                         f"{len(state.slots) - state.next_slot - 1}, each once")
    if isinstance(event, Reordered) and event.round > state.round + 1:
        raise InputError(f"an order for round {event.round} in round {state.round}",
                         path="event.round", allowed=f"{state.round} or {state.round + 1}")
    if isinstance(event, Changed):
        now = state.roster[event.target].state
        if hand_value(type(now), event.field, event.after, strict=True) != event.after:
            raise InputError(f"{shown(event.after)} does not fit {event.field}",
                             path="event.after",
                             allowed=hint_words(field_hints(type(now))[event.field]))
