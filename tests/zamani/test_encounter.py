"""The zamani hooks under the encounter layer: whole fights, replay, and the fast chain."""

from __future__ import annotations

from collections import Counter

import pytest

from fracas.analysis.simulate import simulate
from fracas.core.events import ActionChosen, Outcome, RoundStarted
from fracas.encounter.engine import Encounter, setup_from_scenario
from fracas.registry.scenarios import load_scenario

from .helpers import EXAMPLES, scenario, sheet


@pytest.mark.parametrize("name", ["regular_melee", "guard_another", "surprise_stealth",
                                  "ambush_skill", "focus_sacrifice"])
def test_a_whole_fight_ends_and_replays_from_its_log(name: str) -> None:
    s = load_scenario(EXAMPLES / f"{name}.yaml")
    fight = Encounter(s, seed=7)
    final = fight.run()
    assert final.over
    assert fight.replayed() == final


def test_one_offensive_action_per_countdown_in_a_fight() -> None:
    fast = sheet("ann", "a", attributes={"dexterity": 21}, wounds={"max": 60})
    s = scenario([fast, sheet("bob", "b", wounds={"max": 60})])
    fight = Encounter(s, seed=3)
    fight.run()
    attacks: Counter[tuple[int, str]] = Counter()
    current = 0
    for e in fight.events:
        if isinstance(e, RoundStarted):
            current = e.round
        elif isinstance(e, Outcome) and e.outcome not in (
                "guarding", "focusing", "moved", "readied", "stood", "sacrificed",
                "focus_declared", "waited"):
            attacks[(current, e.actor)] += 1
    assert attacks and max(attacks.values()) == 1
    first = next(e for e in fight.events if isinstance(e, RoundStarted))
    # the one attack may be on any of the three segments: each slot may hold it
    assert [(label, offensive) for who, label, offensive, _ in first.slots if who == ("ann",)] == [
        ("countdown 10", True), ("countdown 9 (extra)", True), ("countdown 1 (extra)", True)]


def test_a_surprise_attack_opens_a_fight_before_initiative() -> None:
    s = load_scenario(EXAMPLES / "surprise_stealth.yaml")
    fight = Encounter(s, seed=1)
    events = fight.step()
    kinds = [type(e).__name__ for e in events]
    opened = next(i for i, e in enumerate(events) if isinstance(e, ActionChosen)
                  and "surprise=stealth" in e.detail)
    assert opened < kinds.index("ZamaniInitiative") < kinds.index("RoundStarted")


def test_the_fast_simulation_chain_runs_zamani_fights() -> None:
    s = load_scenario(EXAMPLES / "firearm_cover.yaml")
    fights = simulate(setup_from_scenario(s), s.roster, 200, seed=1, method="fast")
    assert fights.method == "fast"
    assert len(fights.winner) == 200
