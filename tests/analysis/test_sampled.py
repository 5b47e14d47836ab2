"""The sampled path (each rule sub-step drawn from its cached exact distribution): its
cache, its roll trees, and its agreement with step by step on the test fight (on every
example fight, within 4 standard errors: tests/analysis/test_paths_every_fight.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fracas.analysis import paths
from fracas.analysis import simulate as sim
from fracas.analysis.sampled import ReadTracker, SamplingRoller, SubstepCache
from fracas.encounter.engine import setup_from_scenario
from fracas.registry.scenarios import load_scenario
from tests.encounter.test_simulate import agree


def test_the_cache_is_keyed_by_what_the_sub_step_read(toy_dir: Path) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    roster = scenario.roster
    first, second = list(roster)[:2]
    tracked = ReadTracker(roster)
    assert tracked[first] is roster[first] and tracked.reads == {first}
    assert len(tracked) == len(roster) and tracked.reads == {first}
    tracked.replace(roster[second])
    assert tracked.reads == {first}
    tracked.sides()
    assert "*" in tracked.reads


def test_the_cache_is_emptied_at_its_cap_and_the_fights_do_not_change(toy_dir: Path) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    setup = setup_from_scenario(scenario)
    roomy = sim.simulate(setup, scenario.roster, 40, seed=9, method="sampled")
    paths.CACHES.clear()
    tight = sim.simulate(setup, scenario.roster, 40, seed=9, method="sampled",
                         max_memory=4_000)
    assert any("--max-memory" in note for note in tight.notes)
    assert not roomy.notes
    assert np.array_equal(roomy.winner, tight.winner)
    assert np.array_equal(roomy.dealt, tight.dealt)
    cache = SubstepCache(4_000)
    rng = np.random.default_rng(1)
    for _ in range(5):
        paths.play_lean(setup, scenario.roster, SamplingRoller(rng, cache))
    assert cache.bytes <= 4_000 and cache.emptied > 0


def test_a_roll_tree_draws_what_playing_the_rule_draws() -> None:
    from fracas.analysis.trace import ReplayRoller, RollTree
    from fracas.dice.rollers import RandomRoller
    from fracas.dice.variables import nd

    def rule(roller: Any, target: int) -> tuple[int, int]:
        first = roller.roll(nd(2, 6))
        return (first, roller.roll(nd(1, 6)) if first <= target else 0)

    tree = RollTree()
    for seed in range(60):  # grow the tree from plays, as the sampled path does
        played = ReplayRoller(np.random.default_rng(seed), [])
        tree.add(played.path, rule(played, 7))
    stayed_in = 0
    for seed in range(200, 300):
        rng = np.random.default_rng(seed)
        stayed, got = tree.walk(rng)
        direct = rule(RandomRoller(rng=np.random.default_rng(seed)), 7)
        if not stayed:  # left the tree: replaying its draws and drawing on is the play
            got = rule(ReplayRoller(rng, got), 7)
        stayed_in += stayed
        assert got == direct
    assert stayed_in > 50


def test_sampled_and_step_by_step_agree_on_the_test_fight(toy_dir: Path) -> None:
    """|z| < 4.5 (``agree``), fixed seeds: the test duel's sampled path is checked, so auto
    may pick it (fracas.analysis.auto.VERIFIED)."""
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    setup = setup_from_scenario(scenario)
    sampled = sim.simulate(setup, scenario.roster, 200, seed=5, method="sampled")
    steps = sim.simulate(setup, scenario.roster, 200, seed=6, method="steps")
    agree(sampled, steps)


def test_auto_s_trial_of_learning_stops_at_its_cap(monkeypatch: Any) -> None:
    """Auto's trial of the sampled path's learning (issue 39) stops at its cap of
    enumeration runs, not up to a whole enumeration (1,000 runs) past it: the c22 deck
    brawl's first sub-step alone takes more runs than the cap allows."""
    from fracas.analysis.sampled import WorkCapReached

    made: list[SubstepCache] = []

    class Counted(SubstepCache):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(paths, "SubstepCache", Counted)
    scenario = load_scenario(Path(__file__).resolve().parents[2] / "examples" / "c22"
                             / "deck-brawl-fight.yaml")
    setup = setup_from_scenario(scenario)
    cap = 120
    with pytest.raises(WorkCapReached):
        paths.learn_played(setup, scenario.roster, 1, paths.MAX_MEMORY, max_work=cap)
    (cache,) = made
    assert cap < cache.runs + cache.traces <= cap + 2
