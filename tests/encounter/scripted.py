"""A test policy that takes the actions a test names, in order (a stand-in for a person)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from fracas.core.events import Event
from fracas.core.model import Action, Roster
from fracas.core.scenario import Scenario
from fracas.core.system import RuleSystem
from fracas.dice.rollers import Roller, ScriptedRoller
from fracas.encounter import policies
from fracas.encounter.engine import FightSetup, step
from fracas.encounter.policies import Aggressive
from fracas.encounter.state import FightState

Want = Mapping[str, Any]


def matches(action: Action, want: Want) -> bool:
    """``kind``, ``target`` and ``weapon`` compare with the action; other keys with its
    options (an option left out must keep its default)."""
    for key, value in want.items():
        if key in ("kind", "target", "weapon"):
            if getattr(action, key) != value:
                return False
        elif getattr(action.options, key, object()) != value:
            return False
    return True


class Scripted(Aggressive):
    """Takes, for each actor, the next action matching its list when one of the actions on
    offer matches it; otherwise (or once the list is used up) chooses as aggressive does.
    Tests assert the choices made (``ActionChosen``)."""

    name = "scripted"

    def __init__(self, plan: Mapping[str, list[Want]]):
        self.plan = {k: list(v) for k, v in plan.items()}

    def choose(self, roller: Roller, system: RuleSystem, actor: str, actions: list[Action],
               roster: Roster) -> Action:
        wanted = self.plan.get(actor)
        if not wanted:
            return super().choose(roller, system, actor, actions, roster)
        found = [a for a in actions if matches(a, wanted[0])]
        if not found:
            return super().choose(roller, system, actor, actions, roster)
        wanted.pop(0)
        return found[0]


@contextmanager
def scripted(plan: Mapping[str, list[Want]]) -> Iterator[None]:
    old = policies.POLICIES.get("scripted")
    policies.POLICIES["scripted"] = Scripted(plan)
    try:
        yield
    finally:
        if old is None:
            del policies.POLICIES["scripted"]
        else:
            policies.POLICIES["scripted"] = old


def fight(scenario: Scenario, dice: list[int], plan: Mapping[str, list[Want]],
          steps: int, max_rounds: int = 50) -> tuple[FightState, list[Event]]:
    """``steps`` slots of a fight with these dice, every combatant on the scripted policy."""
    setup = FightSetup(scenario.system, tuple((cid, "scripted") for cid in scenario.roster),
                       max_rounds)
    roller = ScriptedRoller(dice)
    state = FightState(scenario.roster)
    events: list[Event] = []
    with scripted(plan):
        for _ in range(steps):
            state, new = step(roller, setup, state)
            events += new
            if state.over:
                break
    return state, events
