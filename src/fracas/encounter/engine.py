"""Running a fight: one pure :func:`step` per turn, and :class:`Encounter`, which keeps the
event log (undo, save, load, replay).

:func:`step` takes a roller and a :class:`FightState` and returns the next state with
the events that led there, asking the system for initiative, turn effects, the
actions on offer and their resolution, and the policies for choices. Because it is
pure, the same function runs a narrated fight (random roller), and, under the exact
roller, gives the exact distribution of the next state: the fast simulation path
and the exact duel odds are built on that.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fracas.core.errors import InputError
from fracas.core.events import (
    ActionChosen,
    Changed,
    Event,
    FightEnded,
    Note,
    Outcome,
    RoundStarted,
    SlotPassed,
    TurnStarted,
    event_from_dict,
)
from fracas.core.model import Action, Roster, Slot
from fracas.core.scenario import Scenario, scenario_from_mapping
from fracas.core.system import RuleSystem
from fracas.dice.rollers import RandomRoller, Roller
from fracas.encounter.policies import DEFAULT_POLICY, POLICIES, Policy
from fracas.encounter.state import FightState, fold, slots_to_data

RULE_FIGHT = "fracas · fight loop"
LOG_VERSION = 1


@dataclass(frozen=True)
class FightSetup:
    """What stays fixed during a fight: the system, each combatant's policy, the round limit."""

    system: RuleSystem
    policies: tuple[tuple[str, str], ...]
    max_rounds: int = 50

    def policy_of(self, cid: str) -> str:
        return dict(self.policies).get(cid, DEFAULT_POLICY)


def setup_from_scenario(scenario: Scenario, max_rounds: int | None = None,
                        policy: str | None = None) -> FightSetup:
    """Check that the scenario can be fought and fix its policies (errors name the entry)."""
    sides = scenario.roster.sides()
    if len(sides) < 2:
        only = next(iter(sides))
        raise InputError(f"a fight needs at least two sides; every combatant is on {only!r}",
                         file=scenario.path, path="combatants",
                         allowed="combatants on two or more sides")
    allowed = ", ".join(POLICIES)
    if policy is not None and policy not in POLICIES:
        raise InputError(f"unknown policy {policy!r}", path="--policy", allowed=allowed)
    chosen = []
    for i, (cid, c) in enumerate(scenario.roster.items()):
        name = policy or c.policy or DEFAULT_POLICY
        if name not in POLICIES:
            raise InputError(f"unknown policy {name!r}", file=scenario.path,
                             path=f"combatants[{i}].policy", allowed=allowed)
        chosen.append((cid, name))
    return FightSetup(scenario.system, tuple(chosen), max_rounds or scenario.max_rounds)


def standing_sides(system: RuleSystem, roster: Roster) -> list[str]:
    """Sides with at least one combatant able to act."""
    return [side for side, members in roster.sides().items()
            if any(system.is_active(c) for c in members)]


def _ended(system: RuleSystem, state: FightState) -> FightEnded | None:
    standing = standing_sides(system, state.roster)
    if len(standing) > 1:
        return None
    if standing:
        return FightEnded(RULE_FIGHT, standing[0], state.round,
                          f"{standing[0]} win: nobody else can act")
    return FightEnded(RULE_FIGHT, "", state.round, "nobody is left able to act")


def _effects(roller: Roller, system: RuleSystem, action: Action, roster: Roster
             ) -> tuple[Event, ...]:
    """A resolution reduced to what changes the fight: state changes and outcomes."""
    return tuple(e for e in system.resolve(roller, action, roster).events
                 if isinstance(e, Changed | Outcome))


def _keep_effects(roller: Roller, fn: Callable[..., tuple[Event, ...]], *args: Any
                  ) -> tuple[Event, ...]:
    return tuple(e for e in fn(roller, *args) if isinstance(e, Changed | Outcome))


def step(roller: Roller, setup: FightSetup, state: FightState, lean: bool = False,
         controllers: Mapping[str, Policy] | None = None,
         watch: Callable[[Event], None] | None = None
         ) -> tuple[FightState, tuple[Event, ...]]:
    """Advance the fight by one turn (starting rounds as needed); pure.

    ``controllers`` puts a controller in place of some combatants' named policies (a
    live session's people, see :mod:`fracas.encounter.session`); ``watch`` sees each
    event as it happens (a live session shows a turn paused for an answer so far).

    ``lean`` is for the exact chain: every rule call goes through ``roller.resolve``
    (memoised by its arguments under the exact roller) and keeps only the events that
    change the fight, so outcomes that differ only in their narration merge.
    """
    system = setup.system
    events: list[Event] = []

    def hook(fn: Callable[..., tuple[Event, ...]], *args: Any) -> tuple[Event, ...]:
        if lean:
            return roller.resolve(_keep_effects, fn, *args)
        return fn(roller, *args)

    def initiative(round_number: int) -> tuple[tuple[Slot, ...], tuple[Event, ...]]:
        if lean:
            slots, evs = roller.resolve(system.initiative, state.roster, round_number)
            return slots, tuple(e for e in evs if isinstance(e, Changed))
        return system.initiative(roller, state.roster, round_number)

    def controller(cid: str) -> tuple[str, Policy]:
        if controllers is not None and cid in controllers:
            return controllers[cid].name, controllers[cid]
        name = setup.policy_of(cid)
        return name, POLICIES[name]

    def emit(new: tuple[Event, ...] | list[Event]) -> None:
        nonlocal state
        for e in new:
            events.append(e)
            state = state.apply(e)
            if watch is not None:
                watch(e)

    if state.over:
        return state, ()
    if not state.started:
        emit(hook(system.start_fight, state.roster))
        slots, init_events = initiative(1)
        emit(init_events)
        emit([RoundStarted(RULE_FIGHT, 1, slots_to_data(slots))])
    while True:
        end = _ended(system, state)
        if end is not None:
            emit([end])
            return state, tuple(events)
        if state.next_slot >= len(state.slots):
            emit(hook(system.end_round, state.roster, state.round))
            end = _ended(system, state)
            if end is None and state.round >= setup.max_rounds:
                end = FightEnded(RULE_FIGHT, "", state.round,
                                 f"round limit of {setup.max_rounds} reached with "
                                 f"{' and '.join(standing_sides(system, state.roster))} "
                                 "still standing: nobody could finish the fight")
            if end is not None:
                emit([end])
                return state, tuple(events)
            slots, init_events = initiative(state.round + 1)
            emit(init_events)
            emit([RoundStarted(RULE_FIGHT, state.round + 1, slots_to_data(slots))])
            continue
        index = state.next_slot
        slot = state.slots[index]
        many = len(slot.candidates) > 1
        takers = [c for c in slot.candidates
                  if system.is_active(state.roster[c]) and not (many and c in state.acted)]
        if not takers:
            emit([SlotPassed(RULE_FIGHT, slot.label, index, "nobody able to act")])
            continue
        actor = takers[0]
        emit([TurnStarted(RULE_FIGHT, actor, slot.label, index)])
        emit(hook(system.start_turn, actor, state.roster))
        if not system.is_active(state.roster[actor]):
            emit([Note(RULE_FIGHT, f"{actor} cannot act")])
            return state, tuple(events)
        actions = system.actions(actor, state.roster, slot)
        if not slot.offensive:
            actions = [a for a in actions if not a.offensive]
        if not actions:
            emit([Note(RULE_FIGHT, f"{actor} has nothing to do in this slot")])
            return state, tuple(events)
        policy_name, policy = controller(actor)
        action = policy.choose(roller, system, actor, actions, state.roster)
        if action.target is not None and action.target in state.roster:
            variants = system.reactions(action, state.roster)
            if len(variants) > 1:
                action = controller(action.target)[1].react(roller, system, variants, state.roster)
        emit([ActionChosen(RULE_FIGHT, actor, action.kind, action.target or "",
                           action.describe(), policy_name)])
        if lean:
            emit(roller.resolve(_effects, system, action, state.roster))
        else:
            emit(system.resolve(roller, action, state.roster).events)
        end = _ended(system, state)
        if end is not None:
            emit([end])
        return state, tuple(events)


class Encounter:
    """A fight in progress: its setup, its event log, and the state folded from it."""

    def __init__(self, scenario: Scenario, setup: FightSetup | None = None,
                 roller: Roller | None = None, seed: int | None = None):
        self.scenario = scenario
        self.setup = setup or setup_from_scenario(scenario)
        self.seed = seed
        self.roller = roller or RandomRoller(seed)
        self.initial = scenario.roster
        self.events: list[Event] = []
        self.marks: list[int] = []  # where each step's events begin
        self.state = FightState(self.initial)

    def step(self) -> tuple[Event, ...]:
        """Play one turn; returns its events."""
        new, events = step(self.roller, self.setup, self.state)
        if events:
            self.marks.append(len(self.events))
            self.events.extend(events)
        self.state = new
        return events

    def run(self) -> FightState:
        """Play until the fight ends (a side wins, or the round limit)."""
        while not self.state.over:
            self.step()
        return self.state

    def undo(self) -> tuple[Event, ...]:
        """Take back the last turn: its events leave the log and the state is folded again."""
        if not self.marks:
            raise InputError("nothing to undo: the fight has not started")
        mark = self.marks.pop()
        removed = tuple(self.events[mark:])
        del self.events[mark:]
        self.state = fold(self.initial, self.events)
        return removed

    def replayed(self) -> FightState:
        """The state rebuilt from the log alone."""
        return fold(self.initial, self.events)

    # -- saving -------------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        return {"type": "FightLog", "version": LOG_VERSION, "system": self.setup.system.id,
                "seed": self.seed, "max_rounds": self.setup.max_rounds,
                "policies": dict(self.setup.policies), "scenario": dict(self.scenario.raw),
                "marks": self.marks}

    def save(self, path: Path | str) -> None:
        """The log as JSON Lines: a header (the scenario itself), then one event a line."""
        with Path(path).open("w", encoding="utf-8") as out:
            out.write(json.dumps(self.header(), ensure_ascii=False) + "\n")
            for event in self.events:
                out.write(json.dumps(event.to_dict(), ensure_ascii=False) + "\n")

    @classmethod
    def load(cls, path: Path | str) -> Encounter:
        """A fight from a saved log, its state replayed from the events."""
        p = Path(path)
        try:
            lines = p.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            raise InputError("no such file", file=str(p)) from None
        if not lines:
            raise InputError("an empty fight log", file=str(p), allowed="a log written by "
                             "fracas fight --log")
        try:
            header = json.loads(lines[0])
        except json.JSONDecodeError as err:
            raise InputError(f"not JSON: {err.msg}", file=str(p), path="line 1") from None
        if not isinstance(header, Mapping) or header.get("type") != "FightLog":
            raise InputError("the first line is not a fight log header", file=str(p),
                             path="line 1", allowed="a log written by fracas fight --log")
        scenario = scenario_from_mapping(header["scenario"], file=str(p))
        policies = tuple((str(k), str(v)) for k, v in dict(header.get("policies", {})).items())
        setup = FightSetup(scenario.system, policies, int(header.get("max_rounds", 50)))
        fight = cls(scenario, setup, seed=header.get("seed"))
        for number, line in enumerate(lines[1:], start=2):
            try:
                fight.events.append(event_from_dict(json.loads(line)))
            except json.JSONDecodeError as err:
                raise InputError(f"not JSON: {err.msg}", file=str(p),
                                 path=f"line {number}") from None
            except InputError as err:
                raise err.located(file=str(p), prefix=f"line {number}") from None
        fight.marks = [int(m) for m in header.get("marks", [])]
        fight.state = fight.replayed()
        return fight
