"""How a fight step runs: the object :func:`fracas.encounter.engine.step` is given.

The stages of a step (start the fight and its rounds, seat the slot's actor, ask for the
action, react, resolve) are the same in every use; what differs is told by the mode:

* :class:`StepMode` (``NARRATED``, the default): a told fight, ``fracas fight`` and
  ``fracas demo``: every rule call made as it stands, every event kept, each action said
  in the data pack's words.
* :class:`Lean` (``LEAN``): the exact chain and the simulations: every rule call goes
  through ``roller.resolve`` (memoised by its arguments under the exact roller) and keeps
  only the events that change the fight, so outcomes that differ only in their narration
  merge; a steady policy's choices are remembered where the roller draws at random.
* :class:`Live`: a live session (:mod:`fracas.encounter.live`): some combatants' choices
  are people's, and each event is shown as it happens (a turn paused for an answer shows
  what happened so far).

A new mode is a subclass of :class:`StepMode` overriding the few methods that differ.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fracas.core.events import EFFECTS, Changed, Event
from fracas.core.model import Action, Roster, Slot
from fracas.core.recur import Trial, remember
from fracas.core.system import RuleSystem
from fracas.dice.rollers import Roller
from fracas.encounter.labels import action_words, reaction_words
from fracas.encounter.policies import POLICIES, Policy, exact_ranking_on
from fracas.encounter.state import FightState

if TYPE_CHECKING:
    from fracas.encounter.engine import FightSetup


class ChoiceMemo:
    """Where a mode keeps the choices it has seen made: this one keeps none."""

    def get(self, key: Hashable) -> Action | None:
        return None

    def put(self, key: Hashable, action: Action) -> None:
        return None


NO_MEMO = ChoiceMemo()


class StepMode:
    """How a step runs; as it stands, a told fight's way (``NARRATED``): rule calls as
    they stand, every event, the actions in words."""

    def policy(self, setup: FightSetup, cid: str) -> tuple[str, Policy]:
        """Who chooses for ``cid``: the policy's name and the policy."""
        name = setup.policy_of(cid)
        return name, POLICIES[name]

    def menu(self, actor: str, actions: Sequence[Action]) -> Sequence[Action]:
        """The actions as the actor's chooser is shown them."""
        return actions

    def rule(self, roller: Roller, fn: Callable[..., tuple[Event, ...]], *args: Any
             ) -> tuple[Event, ...]:
        """The events of a rule hook (start of the fight, of a turn, end of a round)."""
        return fn(roller, *args)

    def initiative(self, roller: Roller, system: RuleSystem, roster: Roster, number: int
                   ) -> tuple[tuple[Slot, ...], tuple[Event, ...]]:
        """Round ``number``'s slots and the events that set them."""
        return system.initiative(roller, roster, number)

    def react(self, roller: Roller, system: RuleSystem, action: Action, roster: Roster,
              reactor: Policy) -> tuple[Action, list[Action]]:
        """The action with the target's reaction, and the variants it was chosen from."""
        variants = system.reactions(action, roster)
        if len(variants) > 1:
            action = reactor.react(roller, system, variants, roster)
        return action, variants

    def words(self, chosen: Action, action: Action, variants: list[Action],
              roster: Roster, system: RuleSystem) -> tuple[str, str]:
        """The chosen action's description and what the table is told of it (with the
        reaction, when the target chose one)."""
        said = action_words(chosen, roster, system.words)
        if action != chosen and action.target is not None:
            said += (f"; {roster[action.target].name}: "
                     f"{reaction_words(action, chosen, system.words, variants)}")
        return action.describe(), said

    def resolve(self, roller: Roller, system: RuleSystem, action: Action, roster: Roster
                ) -> tuple[Event, ...]:
        """The events of resolving the action."""
        return system.resolve(roller, action, roster).events

    def record(self, state: FightState, events: list[Event], new: Sequence[Event]
               ) -> FightState:
        """Add ``new`` to ``events`` and return the state after them."""
        events.extend(new)
        return state.apply_all(new)

    def memo(self, roller: Roller, setup: FightSetup, chooser: Policy) -> ChoiceMemo:
        """Where the choices of ``chooser`` are remembered."""
        return NO_MEMO


class Lean(StepMode):
    """The exact chain's and the simulations' step: only the events that change the
    fight, each rule call through ``roller.resolve``, no words."""

    def rule(self, roller: Roller, fn: Callable[..., tuple[Event, ...]], *args: Any
             ) -> tuple[Event, ...]:
        return roller.resolve(_keep_effects, fn, *args)

    def initiative(self, roller: Roller, system: RuleSystem, roster: Roster, number: int
                   ) -> tuple[tuple[Slot, ...], tuple[Event, ...]]:
        slots, evs = roller.resolve(system.initiative, roster, number)
        return slots, tuple(e for e in evs if isinstance(e, Changed))

    def react(self, roller: Roller, system: RuleSystem, action: Action, roster: Roster,
              reactor: Policy) -> tuple[Action, list[Action]]:
        if reactor.takes_first_reaction:  # nobody reads the other variants
            return system.first_reaction(action, roster), []
        return super().react(roller, system, action, roster, reactor)

    def words(self, chosen: Action, action: Action, variants: list[Action],
              roster: Roster, system: RuleSystem) -> tuple[str, str]:
        return "", ""

    def resolve(self, roller: Roller, system: RuleSystem, action: Action, roster: Roster
                ) -> tuple[Event, ...]:
        return roller.resolve(_effects, system, action, roster)

    def memo(self, roller: Roller, setup: FightSetup, chooser: Policy) -> ChoiceMemo:
        if getattr(roller, "kind", "") == "random" and chooser.steady:
            return _choices(setup)
        return NO_MEMO


class Live(StepMode):
    """A live session's step: ``controllers`` in place of some combatants' policies (the
    people at the table), and ``watch`` shown each event as it happens."""

    def __init__(self, controllers: Mapping[str, Policy],
                 watch: Callable[[Event], None] = lambda e: None) -> None:
        self.controllers = controllers
        self.watch = watch

    def policy(self, setup: FightSetup, cid: str) -> tuple[str, Policy]:
        if cid in self.controllers:
            return self.controllers[cid].name, self.controllers[cid]
        return super().policy(setup, cid)

    def menu(self, actor: str, actions: Sequence[Action]) -> Sequence[Action]:
        if actor in self.controllers:
            return list(actions)  # a person's menu lists them all
        return actions

    def record(self, state: FightState, events: list[Event], new: Sequence[Event]
               ) -> FightState:
        for e in new:
            events.append(e)
            state = state.apply(e)
            self.watch(e)
        return state


NARRATED = StepMode()
LEAN = Lean()


def _effects(roller: Roller, system: RuleSystem, action: Action, roster: Roster
             ) -> tuple[Event, ...]:
    """A resolution reduced to what changes the fight: state changes and outcomes."""
    return tuple(e for e in system.resolve(roller, action, roster).events
                 if isinstance(e, EFFECTS))


def _keep_effects(roller: Roller, fn: Callable[..., tuple[Event, ...]], *args: Any
                  ) -> tuple[Event, ...]:
    return tuple(e for e in fn(roller, *args) if isinstance(e, EFFECTS))


class _Choices(Trial, ChoiceMemo):
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


def retry_choices(setup: FightSetup) -> None:
    """A simulation of ``setup`` from a new state: its memos of choices are tried afresh
    (one given up where the last start's states seldom recurred may pay from this one)."""
    for (known, _), memo in _CHOICES.items():
        if known == setup:
            memo.retry()


def forget_choices() -> None:
    """Empty the memos of steady policies' choices (a cold start: benchmarks/)."""
    _CHOICES.clear()
    _LAST_CHOICES[0] = None


def _choices(setup: FightSetup) -> ChoiceMemo:
    """The memo of ``setup``'s choices (none kept: given up); the last one asked for is
    found again without hashing the setup (one tuple, replaced whole: safe across
    threads)."""
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
    return memo if memo.on else NO_MEMO
