"""Exact fight odds: sums to one, agree with a brute-force recursion over the engine's own
`step`, and with simulation on every example duel."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from fracas.analysis.duel import LIMIT, NOBODY, duel_odds
from fracas.analysis.simulate import simulate
from fracas.core.scenario import read_yaml
from fracas.dice.rollers import ExactRoller, Roller
from fracas.encounter.engine import FightSetup, setup_from_scenario, step
from fracas.encounter.state import FightState
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario, scenario_from_mapping

EXAMPLES = Path(__file__).parents[2] / "examples"
DUELS = sorted(EXAMPLES.glob("*/duel-fight.yaml"))
Z = 4.0  # the stated interval: |exact - sampled| < 4 standard errors (false alarm ~6e-5)


def _next(roller: Roller, setup: FightSetup, state: FightState) -> FightState:
    return step(roller, setup, state)[0]


def brute_force(setup: FightSetup, state: FightState) -> dict[str, Fraction]:
    """Who wins, by recursion over the engine's step under the exact roller: the real
    round numbers and the engine's own round limit (no chain, no rounds kept outside)."""
    exact = ExactRoller()

    @cache
    def outcome(s: FightState) -> tuple[tuple[str, Fraction], ...]:
        if s.over:
            return (((s.winner or (LIMIT if s.round >= setup.max_rounds else NOBODY)),
                     Fraction(1)),)
        total: dict[str, Fraction] = {}
        for nxt, p in exact.distribution(_next, setup, s).probabilities().items():
            for who, q in outcome(nxt):
                total[who] = total.get(who, Fraction(0)) + p * q
        return tuple(total.items())

    return dict(outcome(state))


@pytest.mark.parametrize("max_rounds", [1, 2, 3])
def test_exact_odds_equal_a_brute_force_recursion(toy_dir: Path, max_rounds: int) -> None:
    data = read_yaml(toy_dir / "duel.yaml")
    data.pop("attack"), data.pop("dice")
    data["combatants"][1]["hp"] = 12
    data["max_rounds"] = max_rounds
    scenario = scenario_from_mapping(data)
    setup = setup_from_scenario(scenario)
    duel = duel_odds(setup, scenario.roster)
    expected = brute_force(setup, FightState(scenario.roster))
    assert {k: v for k, v in duel.outcomes.items() if v} == {k: v for k, v in expected.items()
                                                             if v}
    assert sum(duel.outcomes.values()) == 1
    assert sum(duel.rounds_distribution().values()) == 1
    assert max(duel.rounds_distribution()) <= max_rounds
    if max_rounds == 1:
        assert duel.outcomes[LIMIT] > 0


def test_a_state_budget_too_small_says_so(toy_dir: Path) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    with pytest.raises(InputError, match="more than 5 states"):
        duel_odds(setup_from_scenario(scenario), scenario.roster, max_states=5)


def _interval_check(exact: Any, fights: Any) -> None:
    n = fights.n
    for i, side in enumerate(fights.sides):
        p = float(exact.p_win(side))
        se = math.sqrt(max(p * (1 - p), 1 / n) / n)
        assert abs(float((fights.winner == i).mean()) - p) < Z * se, side
    mean = float(exact.mean_rounds())
    se = float(fights.rounds.std()) / math.sqrt(n)
    assert abs(float(fights.rounds.mean()) - mean) < Z * max(se, 1e-9)


@pytest.mark.parametrize("path", DUELS, ids=lambda p: p.parent.name)
def test_exact_duel_odds_agree_with_simulation(path: Path) -> None:
    """Every example duel: the exact odds are inside the stated interval (4 standard
    errors) of fights simulated step by step, with the rule code and a random roller."""
    scenario = load_scenario(path)
    assert len(scenario.roster) == 2
    setup = setup_from_scenario(scenario)
    exact = duel_odds(setup, scenario.roster)
    assert sum(exact.outcomes.values()) == 1
    fights = simulate(setup, scenario.roster, 600, seed=5, method="steps")
    _interval_check(exact, fights)


def test_every_system_has_an_example_duel() -> None:
    systems = {p.parent.name for p in DUELS}
    assert {"c22", "contest", "genesys", "tristat", "zamani"} <= systems


def test_a_time_budget_too_small_says_so() -> None:
    scenario = load_scenario(EXAMPLES / "tristat" / "duel-fight.yaml")
    with pytest.raises(InputError, match="take more than 0 s"):
        duel_odds(setup_from_scenario(scenario), scenario.roster, max_seconds=0)
