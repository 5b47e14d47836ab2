"""Running a fight: one pure :func:`step` per turn, and :class:`Encounter`, which keeps the
event log (undo, save, load, replay).

:func:`step` takes a roller and a :class:`FightState` and returns the next state with
the events that led there, asking the system for initiative, turn effects, the
actions on offer and their resolution, and the policies for choices. Its stages are
small functions below it; how they run (a told fight, the exact chain and the
simulations, a live session) is the mode object it is given
(:mod:`fracas.encounter.modes`). Because it is pure, the same function runs a narrated
fight (random roller), and, under the exact roller, gives the exact distribution of the
next state: the fast simulation path and the exact duel odds are built on that.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fracas.core.choices import Choice, ask
from fracas.core.events import (
    ActionChosen,
    Event,
    FightEnded,
    Note,
    RoundStarted,
    SlotAdded,
    SlotPassed,
    TurnStarted,
)
from fracas.core.model import DELAY, PASS, Action, Roster, Slot
from fracas.core.scenario import Scenario
from fracas.core.system import RuleSystem
from fracas.dice.rollers import RandomRoller, Roller, ScriptedRoller
from fracas.encounter.log import (
    FIGHT_LOG,
    FightLog,
    FightLogData,
    log_words,
    read_fight_log,
    replay_checked,
    text_retold,
)
from fracas.encounter.modes import NARRATED, StepMode
from fracas.encounter.narration import teller
from fracas.encounter.policies import DEFAULT_POLICY, POLICIES
from fracas.encounter.state import FightState, fold, slots_to_data
from fracas.encounter.words_mark import mark_of, refuse_edited
from fracas.errors import FracasError, InputError, RulesError
from fracas.registry.scenarios import scenario_from_mapping

RULE_FIGHT = "fracas · fight loop"
MAX_ROUNDS = 100_000  # the scenario's own cap (core.scenario)
MAX_CHOICE_PASSES = 8  # passes of round_choices over the roster before a round
DELAYED = "(delayed)"  # a delayed slot's label ends so


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


def _asks_round_choices(system: RuleSystem) -> bool:
    """Whether the system offers choices before initiative (it overrides the hook, whose
    default offers none): the fight loop asks nobody otherwise."""
    return type(system).round_choices is not RuleSystem.round_choices


def step(roller: Roller, setup: FightSetup, state: FightState, mode: StepMode = NARRATED
         ) -> tuple[FightState, tuple[Event, ...]]:
    """Advance the fight by one slot (starting rounds as needed); pure.

    A combatant's *turn* spans all of its slots in a round (extra attacks, a second
    weapon, extra segments, slots added by :class:`SlotAdded`): ``start_turn`` runs at the
    first of them only, so "until its next turn" effects last through its own slots.

    The stages, in order: the fight's start and each round's (:func:`_begin_round`:
    choices before initiative, then the order), the end of a round (:func:`_end_round`),
    who takes the slot (:func:`_seat`), the turn (:func:`_turn`: its start, the actions
    offered and chosen, then :func:`_take`: the reaction, the words, the resolution).
    ``mode`` (:mod:`fracas.encounter.modes`) says how: a told fight (``NARRATED``), the
    exact chain and the simulations (``LEAN``), or a live session (:class:`Live`).
    """
    if state.over:
        return state, ()
    s = _Step(roller, setup, mode, state)
    if not state.started:
        s.emit(mode.rule(roller, s.system.start_fight, state.roster))
        if _begin_round(s, 1):
            return s.done()
    while not s.ended():
        if s.state.next_slot >= len(s.state.slots):
            if _end_round(s):
                return s.done()
            continue
        actor = _seat(s)
        if actor is not None:
            _turn(s, actor)
            return s.done()
    return s.done()


class _Step:
    """One call of :func:`step`: its inputs, the fight as it stands, the events so far."""

    __slots__ = ("events", "mode", "roller", "setup", "state", "system")

    def __init__(self, roller: Roller, setup: FightSetup, mode: StepMode, state: FightState
                 ) -> None:
        self.roller, self.setup, self.mode, self.state = roller, setup, mode, state
        self.system = setup.system
        self.events: list[Event] = []

    def emit(self, new: Sequence[Event]) -> None:
        """The events happen: recorded, and the state moves on."""
        self.state = self.mode.record(self.state, self.events, new)

    def ended(self) -> bool:
        """Has the fight ended (then its end is emitted)?"""
        end = _ended(self.system, self.state)
        if end is not None:
            self.emit([end])
        return end is not None

    def done(self) -> tuple[FightState, tuple[Event, ...]]:
        return self.state, tuple(self.events)


def _begin_round(s: _Step, number: int) -> bool:
    """Choices made before initiative (:meth:`RuleSystem.round_choices`), then the
    round's slots. True when a choice ended the fight."""
    if _asks_round_choices(s.system) and _round_choices(s, number):
        return True
    slots, init_events = s.mode.initiative(s.roller, s.system, s.state.roster, number)
    s.emit(init_events)
    s.emit([RoundStarted(RULE_FIGHT, number, slots_to_data(slots))])
    return False


def _round_choices(s: _Step, number: int) -> bool:
    """The passes of :meth:`RuleSystem.round_choices` over the roster until nobody has
    one left; True when a choice ended the fight."""
    system = s.system
    for _ in range(MAX_CHOICE_PASSES):
        asked = False
        for cid in s.state.roster:
            if not system.is_active(s.state.roster[cid]):
                continue
            choices = [a for a in system.round_choices(cid, s.state.roster, number)
                       if a.kind != DELAY]  # no slot to delay before initiative
            if choices:
                asked = True
                _take(s, cid, _decide(s, cid, choices, early=True))
                if s.ended():
                    return True
        if not asked:
            return False
    raise RulesError(f"{system.id}: round_choices still offers a choice after "
                     f"{MAX_CHOICE_PASSES} passes (a choice made must not be offered "
                     "again)")


def _end_round(s: _Step) -> bool:
    """The round's end (:meth:`RuleSystem.end_round`), the round limit, the next round's
    start. True when the fight ended."""
    state, system = s.state, s.system
    s.emit(s.mode.rule(s.roller, system.end_round, state.roster, state.round))
    end = _ended(system, s.state)
    if end is None and s.state.round >= s.setup.max_rounds:
        end = FightEnded(RULE_FIGHT, "", s.state.round,
                         f"round limit of {s.setup.max_rounds} reached with "
                         f"{' and '.join(standing_sides(system, s.state.roster))} "
                         "still standing: nobody could finish the fight")
    if end is not None:
        s.emit([end])
        return True
    return _begin_round(s, s.state.round + 1)


def _seat(s: _Step) -> str | None:
    """Who takes the next slot (any of its candidates able to act: their controllers
    choose, where the roller asks); None when nobody can (the slot passes)."""
    state = s.state
    index = state.next_slot
    slot = state.slots[index]
    many = len(slot.candidates) > 1
    takers = [c for c in slot.candidates
              if s.system.is_active(state.roster[c]) and not (many and c in state.acted)]
    if not takers:
        s.emit([SlotPassed(RULE_FIGHT, slot.label, index, "nobody able to act")])
        return None
    if len(takers) > 1 and getattr(s.roller, "choose", None) is not None:
        # a roller that asks nobody takes the first, the default
        names = tuple(state.roster[c].name for c in takers)
        return takers[ask(s.roller, Choice(
            "slot", takers[0], f"Who takes {slot.label or 'this slot'}?", names,
            among=tuple(takers)))]
    return takers[0]


def _turn(s: _Step, actor: str) -> None:
    """The actor's turn in the next slot: its start, the action chosen (or remembered,
    :meth:`StepMode.memo`) and taken, and the fight's end if it ended there."""
    index = s.state.next_slot
    slot = s.state.slots[index]
    # a turn spans all of the actor's slots in a round: it begins at the first of them
    begins = actor not in s.state.acted
    s.emit([TurnStarted(RULE_FIGHT, actor, slot.label, index)])
    if begins:
        s.emit(s.mode.rule(s.roller, s.system.start_turn, actor, s.state.roster))
    if not s.system.is_active(s.state.roster[actor]):
        s.emit([Note(RULE_FIGHT, f"{actor} cannot act")])
        return
    # the last slot for a delay: nobody else able to act comes later in the round
    last = s.state.next_slot >= len(s.state.slots) or not _delay_after(s, actor)
    chooser = s.mode.policy(s.setup, actor)[1]
    memo = s.mode.memo(s.roller, s.setup, chooser)
    key = (actor, chooser, slot, last, s.state.roster)
    chosen = memo.get(key)
    if chosen is None:
        actions = _offered(s, actor, slot, last)
        if not actions:
            name = s.state.roster[actor].name
            s.emit([Note(RULE_FIGHT, f"{name} has nothing to do in this slot")])
            return
        chosen = _decide(s, actor, actions)
        memo.put(key, chosen)
    _take(s, actor, chosen)
    s.ended()


def _offered(s: _Step, actor: str, slot: Slot, last: bool) -> Sequence[Action]:
    """The actions the actor may take in this slot (checked when looked at)."""
    actions = s.system.legal_actions(actor, s.state.roster, slot)
    if not slot.offensive:
        actions = actions.where(lambda a: not a.offensive)
    if last:  # nobody else left to act this round: nothing to delay past
        actions = actions.where(lambda a: a.kind != DELAY)
    return actions


def _delay_after(s: _Step, actor: str) -> int:
    """How many of the round's slots still to come a delayed action lets go first: up to
    and including the next one somebody else able to act takes (seed 002: a delay waits
    for another character's action; a slot of somebody who is out passes, and waiting
    behind it would give the turn straight back). 0: nobody else able to act comes."""
    state = s.state
    roster, at = state.roster, state.next_slot
    for k in range(at, len(state.slots)):
        if any(c != actor and c in roster and s.system.is_active(roster[c])
               for c in state.slots[k].candidates):
            return k - at + 1
    return 0


def _decide(s: _Step, actor: str, actions: Sequence[Action], early: bool = False
            ) -> Action:
    """The actor's chooser picks one of ``actions`` (``early``: a choice before the
    round's initiative)."""
    policy = s.mode.policy(s.setup, actor)[1]
    choose = policy.choose_before_round if early else policy.choose
    return choose(s.roller, s.system, actor, s.mode.menu(actor, actions), s.state.roster)


def _take(s: _Step, actor: str, chosen: Action) -> None:
    """The chosen action is taken: the target's chooser picks the reaction, the choice
    is told, and the action is resolved (a delay adds a slot; a pass resolves nothing)."""
    system, roster = s.system, s.state.roster
    action, variants = chosen, list[Action]()
    if action.target is not None and action.target in roster:
        reactor = s.mode.policy(s.setup, action.target)[1]
        action, variants = s.mode.react(s.roller, system, action, roster, reactor)
    describe, said = s.mode.words(chosen, action, variants, roster, system)
    s.emit([ActionChosen(RULE_FIGHT, actor, action.kind, action.target or "", describe,
                         s.mode.policy(s.setup, actor)[0], said)])
    if action.kind == DELAY:
        slot = s.state.slots[s.state.next_slot - 1]
        label = slot.label if slot.label.endswith(DELAYED) else f"{slot.label} {DELAYED}"
        s.emit([SlotAdded(RULE_FIGHT, actor, label, max(1, _delay_after(s, actor)),
                          slot.offensive)])
    elif action.kind != PASS:  # a pass: the turn passes, nothing to resolve
        s.emit(s.mode.resolve(s.roller, system, action, s.state.roster))


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
                told = text_retold(data.texts[index] if data.texts else None, logged, mine)
                if told is not None and (upto is None or data.lines[index] < upto):
                    refuse_edited(data.header.get("words"), fight.setup.system, told,
                                  data.path, data.lines[index])
                    fight.retold.append((data.lines[index], told))
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
    still plays again; what was chosen, by whom and on whom is compared. An event type
    made since as a kind of the logged one (a contest's pair of checks, once a
    :class:`~fracas.core.events.Compared`) is the same event when its fields are."""
    kin = isinstance(a, type(b)) or isinstance(b, type(a))
    return kin and _facts(a) == _facts(b)


def _facts(event: Event) -> str:
    """What an event says happened, its wording aside (and its type: :func:`_same` says
    which types are the same event): a chosen action's ``said`` and a note's message (a
    rule told in words, no value of the fight) may be reworded between versions of
    fracas, and a log written before still plays again."""
    data = event.to_dict()
    data.pop("type", None)
    if isinstance(event, ActionChosen):
        data.pop("said", None)
    if isinstance(event, Note):
        data.pop("message", None)
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
        self.retold: list[tuple[int, str]] = []  # (line, how): texts not in fracas's words

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
                  "scenario": dict(self.scenario.raw), "words": mark_of(self.setup.system)}
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
        if seed is not None and (type(seed) is not int or seed < 0):
            raise InputError("the seed must be a whole number (0 or more) or null",
                             file=where, path="seed", allowed="a seed fracas fight drew")
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
