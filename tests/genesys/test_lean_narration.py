"""Under a roller that does not narrate (the simulation's, see
:func:`fracas.dice.rollers.narrated`) the Genesys rules build the changes and outcomes
alone: the same dice drawn, the same changes and outcome, in the same order, and no
event that only tells. The caches keep the two apart: a narrating roller that meets the
same attack, roster and dice after a lean one gets the whole narration, as it does with
the caches emptied (and the other way round)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from fracas.core.events import EFFECTS, Event, Outcome
from fracas.core.model import Resolution, apply_events
from fracas.dice import RandomRoller
from fracas.encounter.engine import setup_from_scenario, step
from fracas.encounter.modes import LEAN
from fracas.encounter.state import FightState
from fracas.registry.scenarios import load_scenario
from fracas.systems.genesys import attack, check, harm, rolled
from fracas.systems.genesys.events import GenesysCriticalInjury
from fracas.testing import QuietRoller
from tests.genesys.helpers import EXAMPLES, FIGHTS, attacks_of, pc
from tests.genesys.test_fight import MINION
from tests.genesys.test_fight import roster as make_roster

ATTACKS = sorted(p for p in EXAMPLES.glob("*.yaml") if p not in FIGHTS)


def effects(events: Iterable[Event]) -> tuple[Event, ...]:
    return tuple(e for e in events if isinstance(e, EFFECTS))


def empty_caches() -> None:
    """Every cache of the attack that keeps events."""
    for cached in (attack._plan, attack._settle, harm._injury_events, rolled.rolled,
                   rolled.advantage_spent, rolled.threat_spent, check._simple_pool):
        cached.cache_clear()


def draws(roller: RandomRoller) -> dict[str, Any]:
    """Where the roller's stream stands: equal after the same number of draws."""
    return roller.rng.bit_generator.state


def resolved_both_ways(system: Any, action: Any, roster: Any, seed: int
                       ) -> tuple[Resolution, Resolution]:
    """The attack resolved without narration, then with it, then without it again, by
    the same dice; each checked against the other and against an empty cache."""
    quiet_roller, told_roller = QuietRoller(seed), RandomRoller(seed)
    quiet = system.resolve(quiet_roller, action, roster)
    told = system.resolve(told_roller, action, roster)
    assert draws(quiet_roller) == draws(told_roller)  # the same dice, as many
    assert quiet.events == effects(told.events)  # nothing that only tells, nothing less
    assert quiet.summary() == told.summary()
    assert system.resolve(QuietRoller(seed), action, roster).events == quiet.events
    empty_caches()
    fresh = system.resolve(RandomRoller(seed), action, roster)
    assert told.events == fresh.events  # the whole narration, as made afresh
    assert told.summary() == fresh.summary()
    return quiet, told


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.stem)
def test_a_narrating_roller_after_a_lean_one_gets_the_whole_narration(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = attacks_of(path, range(4), monkeypatch)
    injuries = told_more = 0
    for i, (system, action, roster) in enumerate(seen):
        quiet, told = resolved_both_ways(system, action, roster, i)
        told_more += len(told.events) > len(quiet.events)
        injuries += any(isinstance(e, GenesysCriticalInjury) for e in told.events)
    assert told_more == len(seen)  # every attack tells more than it changes
    if path.stem != "duel-fight":  # lone minions: no Critical Injury table
        assert injuries  # the injury events' cache was met too


@pytest.mark.parametrize("path", ATTACKS, ids=lambda p: p.stem)
def test_each_example_attack_changes_the_same_without_narration(path: Path) -> None:
    """Pierce, Breach, Vicious, Auto-fire, minion groups, long range..."""
    sc = load_scenario(path)
    assert sc.attack is not None
    for seed in range(40):
        resolved_both_ways(sc.system, sc.attack, sc.roster, seed)


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.stem)
def test_a_narrated_step_after_a_lean_one_is_the_step_played_afresh(path: Path) -> None:
    """Through the engine: from each state of a fight, a lean step without narration,
    then the narrated step by the same dice, equal to that step with the caches empty."""
    sc = load_scenario(path)
    setup = setup_from_scenario(sc)
    attacks = 0
    for fight in range(3):
        state, seed = FightState(sc.roster), 100 * fight
        while not state.over:
            seed += 1
            lean_state, lean = step(QuietRoller(seed), setup, state, LEAN)
            after, events = step(RandomRoller(seed), setup, state)
            assert effects(lean) == effects(events) and lean_state.roster == after.roster
            empty_caches()
            assert step(RandomRoller(seed), setup, state) == (after, events)
            attacks += sum(isinstance(e, Outcome) and e.outcome != "guarded stance"
                           for e in events)
            state = after
    assert attacks >= 6


def test_the_turn_and_round_hooks_and_the_stance_change_the_same_without_narration(
        ) -> None:
    system, r = make_roster({"id": "ann", "side": "h",
                        **pc(conditions=["prone", "burning:2:19", "dying:0"],
                             critical_injuries=["Bleeding Out"], wounds=10)},
                       {"id": "gang", "side": "v", **MINION, "conditions": ["dying:1"]})
    for seed in range(8):
        quiet, told = QuietRoller(seed), RandomRoller(seed)
        turn = system.start_turn(quiet, "ann", r)
        assert turn == effects(system.start_turn(told, "ann", r))
        assert draws(quiet) == draws(told)
        assert len(turn) >= 6  # stood up, burnt past the threshold, bled
        after = apply_events(r, turn)
        assert after["ann"].state.critical_injuries[:1] == ("Bleeding Out",)
        assert len(after["ann"].state.critical_injuries) >= 2  # one more rolled
        for roll in (1, 2):
            end = system.end_round(quiet, after, roll)
            assert end == effects(system.end_round(told, after, roll))
            after = apply_events(after, end)
        assert draws(quiet) == draws(told)
    assert system.start_fight(QuietRoller(1), r) == ()
    stance = system.actions("ann", r)[-1]
    told_stance = system.resolve(RandomRoller(1), stance, r)
    assert system.resolve(QuietRoller(1), stance, r).events == effects(told_stance.events)
    assert len(told_stance.events) > len(effects(told_stance.events))
