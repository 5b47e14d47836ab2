"""Simulation: the fast path (exact chain) and the step-by-step path agree statistically;
the same seed and n give the same result for any number of jobs."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from fracas.analysis.simulate import Fights, simulate, summarize, wilson
from fracas.encounter.engine import setup_from_scenario
from fracas.registry.scenarios import load_scenario

EXAMPLES = Path(__file__).parents[2] / "examples"


def two_proportion_z(a: int, n: int, b: int, m: int) -> float:
    p = (a + b) / (n + m)
    if p in (0, 1):
        return 0.0
    return (a / n - b / m) / math.sqrt(p * (1 - p) * (1 / n + 1 / m))


def agree(fast: Fights, steps: Fights) -> None:
    """Tolerance: |z| < 4.5 for each side's win rate and for the mean rounds (a false
    alarm has probability about 7e-6 per comparison; seeds are fixed, so the test is
    deterministic)."""
    for i in range(len(fast.sides)):
        z = two_proportion_z(int((fast.winner == i).sum()), fast.n,
                             int((steps.winner == i).sum()), steps.n)
        assert abs(z) < 4.5, (fast.sides[i], z)
    se = math.sqrt(fast.rounds.var() / fast.n + steps.rounds.var() / steps.n)
    if se:
        assert abs(fast.rounds.mean() - steps.rounds.mean()) / se < 4.5
    for j in range(len(fast.ids)):
        se = math.sqrt(fast.dealt[:, j].var() / fast.n + steps.dealt[:, j].var() / steps.n)
        if se:
            assert abs(fast.dealt[:, j].mean() - steps.dealt[:, j].mean()) / se < 4.5


def test_fast_and_step_by_step_agree_on_the_test_fight(toy_dir: Path) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    setup = setup_from_scenario(scenario)
    fast = simulate(setup, scenario.roster, 4000, seed=1, method="fast")
    steps = simulate(setup, scenario.roster, 1000, seed=2, method="steps")
    assert fast.method == "fast" and steps.method == "steps"
    agree(fast, steps)


#: every system's example duel: auto may pick the fast path only for a system checked here
#: (fracas.analysis.auto.VERIFIED)
DUELS = [EXAMPLES / system / "duel-fight.yaml"
         for system in ("c22", "contest", "genesys", "tristat", "zamani")]


@pytest.mark.parametrize("path", DUELS, ids=lambda p: p.parent.name)
def test_fast_and_step_by_step_agree_on_example_duels(path: Path) -> None:
    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    fast = simulate(setup, scenario.roster, 20000, seed=3, method="fast")
    steps = simulate(setup, scenario.roster, 300, seed=4, method="steps")
    agree(fast, steps)


def test_same_seed_same_result_for_any_jobs(toy_dir: Path) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    setup = setup_from_scenario(scenario)
    for method in ("fast", "steps"):
        n = 3000 if method == "fast" else 120
        one = simulate(setup, scenario.roster, n, seed=11, jobs=1, method=method)  # type: ignore[arg-type]
        two = simulate(setup, scenario.roster, n, seed=11, jobs=2, method=method)  # type: ignore[arg-type]
        assert np.array_equal(one.winner, two.winner) and np.array_equal(one.dealt, two.dealt)
        assert np.array_equal(one.rounds, two.rounds)


def test_summary_reports_wins_rounds_and_damage(toy_dir: Path) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    fights = simulate(setup_from_scenario(scenario), scenario.roster, 500, seed=1,
                      method="fast")
    s = summarize(fights)
    total = sum(side["wins"] for side in s["sides"].values()) + s["no_winner"]["count"]
    assert total == 500
    lo, hi = s["sides"]["heroes"]["ci95"]
    assert lo <= s["sides"]["heroes"]["p_win"] <= hi
    assert sum(s["rounds"]["histogram"].values()) == 500
    assert s["rounds"]["quantiles"]["p5"] <= s["rounds"]["quantiles"]["p95"]
    assert set(s["combatants"]) == {"ann", "cid", "bob"}


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0


def test_alias_tables_give_each_branch_exactly_its_weight() -> None:
    from hypothesis import given
    from hypothesis import strategies as st

    from fracas.analysis.chain import alias_table

    @given(st.lists(st.integers(1, 10**12), min_size=1, max_size=12))
    def check(weights: list[int]) -> None:
        total, thresholds, aliases = alias_table(weights)
        k = len(weights)
        got = [0] * k
        for column in range(k):
            assert 0 <= thresholds[column] <= total
            got[column] += thresholds[column]
            got[aliases[column]] += total - thresholds[column]
        assert got == [w * k for w in weights]

    check()


def test_steps_fights_do_not_depend_on_the_split_into_tasks(toy_dir: Path) -> None:
    """Fight i is played on the seed (seed, i) whatever task holds it: simulate's tasks
    (a small first one, then CHUNK a task, from auto's trial on) play the fights one task
    of all of them plays."""
    from fracas.analysis.paths import forget_all, steps_chunk

    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    setup = setup_from_scenario(scenario)
    split = simulate(setup, scenario.roster, 90, seed=5, method="steps")
    forget_all()
    whole = steps_chunk((setup, scenario.roster, 5, 0, 90))
    assert np.array_equal(split.winner, whole.winner)
    assert np.array_equal(split.dealt, whole.dealt)


@pytest.mark.parametrize("n", [1, 4, 5])
def test_auto_with_no_fights_left_after_its_trial(n: int) -> None:
    """auto's first trial plays its fights step by step and keeps them: with ``n`` at or
    under that trial (4), no fight is left to run, and the run is the trial's (once a
    division by the empty task's size)."""
    scenario = load_scenario(EXAMPLES / "contest" / "duel-fight.yaml")
    setup = setup_from_scenario(scenario)
    auto = simulate(setup, scenario.roster, n, seed=7, method="auto", jobs=2)
    steps = simulate(setup, scenario.roster, n, seed=7, method="steps")
    assert auto.n == n and auto.method == "steps"
    assert np.array_equal(auto.winner, steps.winner)
