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

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fracas.core.choices import Choice, ask
from fracas.core.events import (
    EFFECTS,
    ActionChosen,
    Changed,
    Event,
    FightEnded,
    Note,
    RoundStarted,
    SlotAdded,
    SlotPassed,
    TurnStarted,
)
from fracas.core.model import DELAY, PASS, Action, Roster, Slot
from fracas.core.recur import Trial, remember
from fracas.core.scenario import Scenario
from fracas.core.system import RuleSystem
from fracas.dice.rollers import RandomRoller, Roller, ScriptedRoller
from fracas.encounter.labels import action_words, reaction_words
from fracas.encounter.log import (
    FIGHT_LOG,
    FightLog,
    FightLogData,
    log_words,
    read_fight_log,
    replay_checked,
)
from fracas.encounter.narration import teller
from fracas.encounter.policies import DEFAULT_POLICY, POLICIES, Policy, exact_ranking_on
from fracas.encounter.state import FightState, fold, slots_to_data
from fracas.errors import FracasError, InputError, RulesError
from fracas.registry.scenarios import scenario_from_mapping

RULE_FIGHT = "fracas · fight loop"
MAX_ROUNDS = 100_000  # the scenario's own cap (core.scenario)
MAX_CHOICE_PASSES = 8  # passes of round_choices over the roster before a round


@dataclass(frozen=True)
class FightSetup:
    """What stays fixed during a fight: the system, each combatant's policy, the round limit."""

    system: RuleSystem
    policies: tuple[tuple[str, str], ...]
    max_rounds: int = 50

    def policy_of(self, cid: str) -> str:
        return self._named.get(cid, DEFAULT_POLICY)

    @functools.cached_property
    def _named(self) -> dict[str, str]:
        return dict(self.policies)


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
    if max_rounds is not None and not 1 <= max_rounds <= MAX_ROUNDS:
        raise InputError(f"a round limit of {max_rounds:,}", path="--max-rounds",
                         allowed=f"a whole number from 1 to {MAX_ROUNDS:,}")
    return FightSetup(scenario.system, tuple(chosen), max_rounds or scenario.max_rounds)


def standing_sides(system: RuleSystem, roster: Roster) -> list[str]:
    """Sides with at least one combatant able to act (in the roster's order of sides)."""
    sides: list[str] = []
    standing: set[str] = set()
    for c in roster.combatants():
        if c.side not in sides:
            sides.append(c.side)
        if c.side not in standing and system.is_active(c):
            standing.add(c.side)
    return [side for side in sides if side in standing]


#: The last (system, roster) found with two sides or more standing: a step looks again at
#: the roster the step before it ended on (one tuple, replaced whole: safe across threads).
_GOING: list[tuple[RuleSystem, Roster] | None] = [None]


def _ended(system: RuleSystem, state: FightState) -> FightEnded | None:
    roster = state.roster
    going = _GOING[0]
    if going is not None and going[1] is roster and going[0] is system:
        return None
    standing = standing_sides(system, roster)
    if len(standing) > 1:
        _GOING[0] = (system, roster)
        return None
    if standing:
        return FightEnded(RULE_FIGHT, standing[0], state.round,
                          f"{standing[0]} win: nobody else can act")
    return FightEnded(RULE_FIGHT, "", state.round, "nobody is left able to act")


def _effects(roller: Roller, system: RuleSystem, action: Action, roster: Roster
             ) -> tuple[Event, ...]:
    """A resolution reduced to what changes the fight: state changes and outcomes."""
    return tuple(e for e in system.resolve(roller, action, roster).events
                 if isinstance(e, EFFECTS))


def _keep_effects(roller: Roller, fn: Callable[..., tuple[Event, ...]], *args: Any
                  ) -> tuple[Event, ...]:
    return tuple(e for e in fn(roller, *args) if isinstance(e, EFFECTS))


class _Choices(Trial):
    """The lean loop's memo of steady policies' choices (:attr:`Policy.steady`) for one
    setup and ranking mode: (actor, policy, slot, last slot?, roster) -> action. A steady
    policy's choice depends on nothing else, so a simulation whose states recur (a duel)
    makes each choice once. Where they seldom do (see :class:`~fracas.core.recur.Trial`),
    it is given up and its choices let go."""

    TRIAL = 2_000
    MIN_FOUND = 0.2
    SIZE = 50_000  # choices kept at most (then emptied)

    def __init__(self) -> None:
        super().__init__()
        self.known: dict[Any, Action] = {}

    def get(self, key: Any) -> Action | None:
        found = self.known.get(key)
        self.count(found is not None)
        if not self.on:
            self.known.clear()
        return found

    def put(self, key: Any, action: Action) -> None:
        if self.on:
            remember(self.known, key, action, self.SIZE)


_CHOICES: dict[tuple[FightSetup, bool], _Choices] = {}


_LAST_CHOICES: list[tuple[FightSetup, bool, _Choices] | None] = [None]


def _choices(setup: FightSetup) -> _Choices | None:
    """The memo of ``setup``'s choices (None: given up); the last one asked for is found
    again without hashing the setup (one tuple, replaced whole: safe across threads)."""
    exact = exact_ranking_on()
    last = _LAST_CHOICES[0]
    if last is not None and last[0] is setup and last[1] is exact:
        memo = last[2]
    else:
        key = (setup, exact)
        found = _CHOICES.get(key)
        if found is None:
            if len(_CHOICES) >= 16:
                _CHOICES.clear()
            found = _CHOICES[key] = _Choices()
        memo = found
        _LAST_CHOICES[0] = (setup, exact, memo)
    return memo if memo.on else None


def _asks_round_choices(system: RuleSystem) -> bool:
    """Whether the system offers choices before initiative (it overrides the hook, whose
    default offers none): the fight loop asks nobody otherwise."""
    return type(system).round_choices is not RuleSystem.round_choices


def step(roller: Roller, setup: FightSetup, state: FightState, lean: bool = False,
         controllers: Mapping[str, Policy] | None = None,
         watch: Callable[[Event], None] | None = None
         ) -> tuple[FightState, tuple[Event, ...]]:
    """Advance the fight by one slot (starting rounds as needed); pure.

    A combatant's *turn* spans all of its slots in a round (extra attacks, a second
    weapon, extra segments, slots added by :class:`SlotAdded`): ``start_turn`` runs at the
    first of them only, so "until its next turn" effects last through its own slots.

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
        if watch is None:
            events.extend(new)
            state = state.apply_all(new)
            return
        for e in new:
            events.append(e)
            state = state.apply(e)
            watch(e)

    def take(actor: str, actions: Sequence[Action], chosen: Action | None = None,
             early: bool = False) -> None:
        """The actor's policy picks one of ``actions`` (unless it has: ``chosen``; ``early``:
        a choice before the round's initiative), its target's policy the reaction; the
        action is resolved."""
        policy_name, policy = controller(actor)
        if controllers is not None and actor in controllers:
            actions = list(actions)  # a person's menu lists them all
        if chosen is None:
            choose = policy.choose_before_round if early else policy.choose
            chosen = choose(roller, system, actor, actions, state.roster)
        action = chosen
        variants: list[Action] = []
        if action.target is not None and action.target in state.roster:
            reactor = controller(action.target)[1]
            if lean and reactor.takes_first_reaction:  # nobody reads the other variants
                action = system.first_reaction(action, state.roster)
            else:
                variants = system.reactions(action, state.roster)
                if len(variants) > 1:
                    action = reactor.react(roller, system, variants, state.roster)
        said = "" if lean else action_words(chosen, state.roster, system.words)
        if not lean and action != chosen and action.target is not None:
            said += (f"; {state.roster[action.target].name}: "
                     f"{reaction_words(action, chosen, system.words, variants)}")
        emit([ActionChosen(RULE_FIGHT, actor, action.kind, action.target or "",
                           "" if lean else action.describe(), policy_name, said)])
        if action.kind == DELAY:
            slot = state.slots[state.next_slot - 1]
            emit([SlotAdded(RULE_FIGHT, actor, f"{slot.label} (delayed)", 1, slot.offensive)])
        elif action.kind == PASS:
            return  # the turn passes: nothing to resolve
        elif lean:
            emit(roller.resolve(_effects, system, action, state.roster))
        else:
            emit(system.resolve(roller, action, state.roster).events)

    def round_choices(number: int) -> bool:
        """The passes of :meth:`RuleSystem.round_choices`; True when a choice ended the
        fight."""
        for _ in range(MAX_CHOICE_PASSES):
            asked = False
            for cid in state.roster:
                if not system.is_active(state.roster[cid]):
                    continue
                choices = [a for a in system.round_choices(cid, state.roster, number)
                           if a.kind != DELAY]  # no slot to delay before initiative
                if choices:
                    asked = True
                    take(cid, choices, early=True)
                    end = _ended(system, state)
                    if end is not None:
                        emit([end])
                        return True
            if not asked:
                return False
        raise RulesError(f"{system.id}: round_choices still offers a choice after "
                         f"{MAX_CHOICE_PASSES} passes (a choice made must not be offered "
                         "again)")

    def begin_round(number: int) -> bool:
        """Choices made before initiative (:meth:`RuleSystem.round_choices`), asked in
        passes over the roster until nobody has one left, then the round's slots. True when
        a choice ended the fight."""
        if _asks_round_choices(system) and round_choices(number):
            return True
        slots, init_events = initiative(number)
        emit(init_events)
        emit([RoundStarted(RULE_FIGHT, number, slots_to_data(slots))])
        return False

    if state.over:
        return state, ()
    if not state.started:
        emit(hook(system.start_fight, state.roster))
        if begin_round(1):
            return state, tuple(events)
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
            if begin_round(state.round + 1):
                return state, tuple(events)
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
        if len(takers) > 1 and getattr(roller, "choose", None) is not None:
            # any of them may take the slot: their controllers choose (a roller that asks
            # nobody takes the first, the default)
            names = tuple(state.roster[c].name for c in takers)
            actor = takers[ask(roller, Choice(
                "slot", takers[0], f"Who takes {slot.label or 'this slot'}?", names,
                among=tuple(takers)))]
        # a turn spans all of the actor's slots in a round: it begins at the first of them
        begins = actor not in state.acted
        emit([TurnStarted(RULE_FIGHT, actor, slot.label, index)])
        if begins:
            emit(hook(system.start_turn, actor, state.roster))
        if not system.is_active(state.roster[actor]):
            emit([Note(RULE_FIGHT, f"{actor} cannot act")])
            return state, tuple(events)
        last = state.next_slot >= len(state.slots)
        memo = key = None
        chooser = controller(actor)[1]
        if lean and getattr(roller, "kind", "") == "random" and chooser.steady:
            memo = _choices(setup)
        if memo is not None:
            key = (actor, chooser, slot, last, state.roster)
            found = memo.get(key)
            if found is not None:
                take(actor, (), found)
                end = _ended(system, state)
                if end is not None:
                    emit([end])
                return state, tuple(events)
        actions = system.legal_actions(actor, state.roster, slot)  # checked when looked at
        if not slot.offensive:
            actions = actions.where(lambda a: not a.offensive)
        if last:  # the last slot: nothing to delay past
            actions = actions.where(lambda a: a.kind != DELAY)
        if not actions:
            emit([Note(RULE_FIGHT, f"{state.roster[actor].name} has nothing to do in this slot")])
            return state, tuple(events)
        chosen = None
        if memo is not None:
            chosen = chooser.choose(roller, system, actor, actions, state.roster)
            memo.put(key, chosen)
        take(actor, actions, chosen)
        end = _ended(system, state)
        if end is not None:
            emit([end])
        return state, tuple(events)


def _played_again(data: FightLogData, fight: Encounter, upto: int | None = None) -> None:
    """Play a logged fight again from its inputs (the scenario, the policies, the round
    limit and the seed of its dice, or the dice themselves when they were pinned) through
    the rules, turn by turn, and refuse the first
    logged event the rules did not produce there, naming its line: a log whose hash chain
    was recomputed after an edit is refused as surely as a damaged one. ``upto``: only the
    events on the lines before that line are compared."""
    seed, dice = data.header.get("seed"), data.header.get("dice")
    if dice is not None:
        if not isinstance(dice, dict) or not all(
                isinstance(k, str) and isinstance(v, list) for k, v in dice.items()):
            raise InputError("pinned dice that are not streams of values", file=data.path,
                             path="line 1.dice", allowed="stream: [values...]")
        again = Encounter(fight.scenario, fight.setup, roller=ScriptedRoller(dice))
    elif seed is None:
        raise InputError("the log carries neither the seed of its dice nor the dice, so "
                         "its events cannot be checked against the rules", file=data.path,
                         path="line 1.seed", allowed="a log written by fracas fight --log")
    else:
        again = Encounter(fight.scenario, fight.setup, seed=seed)
    ends = [*data.marks[1:], len(data.events)] if data.marks else []
    for start, end in zip(data.marks, ends, strict=True):
        if upto is not None and data.lines[start] >= upto:
            return  # ``upto``: only the events on the lines before it
        try:
            played = again.step() if not again.state.over else ()
        except FracasError as err:
            line = data.lines[start]
            raise InputError(f"the log's inputs do not play again to this turn: {err}",
                             file=data.path, path=f"line {line}",
                             allowed=f"{log_words(FIGHT_LOG)}, unedited") from None
        for index in range(start, max(end, start + len(played))):
            mine = played[index - start] if index - start < len(played) else None
            logged = data.events[index] if index < end else None
            if mine is not None and logged is not None and _same(mine, logged):
                continue
            line = data.lines[index] if index < end else data.lines[end - 1] + 1
            if upto is not None and line >= upto:
                return
            tell = teller({cid: c.name for cid, c in fight.scenario.roster.items()},
                          fight.setup.system.words)
            said = (f"the log has {tell(logged)!r}" if logged is not None
                    else "the log's turn ends here")
            rules = (f"the rules give {tell(mine)!r}" if mine is not None
                     else "the rules give no more events in this turn"
                     if played else "the rules had ended the fight")
            raise InputError(f"an event the rules did not produce: {said}; played again "
                             f"from the log's inputs, {rules}", file=data.path,
                             path=f"line {line}",
                             allowed=f"{log_words(FIGHT_LOG)}, unedited")


def _same(a: Event, b: Event) -> bool:
    """The same event, wording aside: a chosen action's ``said`` (the action in the data
    pack's words) is how it was told, and a log written before a label was reworded
    still plays again; what was chosen, by whom and on whom is compared."""
    return _facts(a) == _facts(b)


def _facts(event: Event) -> str:
    data = event.to_dict()
    if isinstance(event, ActionChosen):
        data.pop("said", None)
    return json.dumps(data, sort_keys=True, default=str)


class Encounter:
    """A fight in progress: its setup, its event log, and the state folded from it."""

    def __init__(self, scenario: Scenario, setup: FightSetup | None = None,
                 roller: Roller | None = None, seed: int | None = None):
        self.scenario = scenario
        self.setup = setup or setup_from_scenario(scenario)
        if seed is None and roller is None:  # a seed always: a log can be played again
            import secrets

            seed = secrets.randbits(64)
        self.seed = seed
        self.roller = roller or RandomRoller(seed)
        self.initial = scenario.roster
        self.events: list[Event] = []
        self.marks: list[int] = []  # where each step's events begin
        self.state = FightState(self.initial)
        self.stopped: str | None = None  # where a loaded log that was not closed stops

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

    # -- saving (the format lives in fracas.encounter.log) --------------------------------
    def header(self) -> dict[str, Any]:
        """What a log needs besides the events to rebuild the fight."""
        header = {"system": self.setup.system.id, "seed": self.seed,
                  "max_rounds": self.setup.max_rounds, "policies": dict(self.setup.policies),
                  "scenario": dict(self.scenario.raw)}
        if isinstance(self.roller, ScriptedRoller) and self.roller.fallback is None:
            # the dice it was given, instead of a seed
            header["dice"] = self.roller.streams()
        return header

    def turns(self) -> list[tuple[Event, ...]]:
        """The log cut into turns (one per :meth:`step`)."""
        ends = [*self.marks[1:], len(self.events)]
        return [tuple(self.events[a:b]) for a, b in zip(self.marks, ends, strict=True)]

    def save(self, path: Path | str) -> None:
        """The whole log as a closed fight log (see :mod:`fracas.encounter.log`)."""
        log = FightLog.create(path, self.header())
        try:
            for turn in self.turns():
                log.turn(turn)
            log.close()
        finally:
            log.detach()

    @classmethod
    def load(cls, path: Path | str) -> Encounter:
        """A fight from a saved log, verified, its state replayed up to the last whole turn
        (``stopped`` says where a log that was not closed stops)."""
        data = read_fight_log(path)
        header = data.header
        where = f"{data.path}: line 1"
        scenario = scenario_from_mapping(header.get("scenario"), file=f"{where}: scenario")
        seed, limit, policies = header.get("seed"), header.get("max_rounds"), header.get(
            "policies")
        if seed is not None and type(seed) is not int:
            raise InputError("the seed must be a whole number or null", file=where,
                             path="seed")
        if type(limit) is not int or not 1 <= limit <= MAX_ROUNDS:
            raise InputError("a bad round limit", file=where, path="max_rounds",
                             allowed=f"a whole number from 1 to {MAX_ROUNDS:,}")
        if not isinstance(policies, dict) or any(
                k not in scenario.roster or not isinstance(v, str) or v not in POLICIES
                for k, v in policies.items()):
            raise InputError("bad policies", file=where, path="policies",
                             allowed=f"combatant id: {', '.join(POLICIES)}")
        if header.get("system") != scenario.system.id:
            raise InputError("the system does not match the scenario's", file=where,
                             path="system", allowed=repr(scenario.system.id))
        setup = FightSetup(scenario.system, tuple(policies.items()), limit)
        fight = cls(scenario, setup, seed=seed)
        try:
            fight.state = replay_checked(data, scenario.roster)
        except InputError as misfit:
            # an edited event is named at its own line, not where a later event stops
            # fitting the fight it changed: the rules are asked about the lines before
            line = (misfit.path or "").removeprefix("line ")
            _played_again(data, fight, int(line) if line.isdigit() else None)
            raise
        _played_again(data, fight)
        fight.events = list(data.events)
        fight.marks = list(data.marks)
        fight.stopped = data.stopped
        return fight
