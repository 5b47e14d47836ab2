"""Issue 35, item 2: the fast, sampled and step paths each agree with the exact fight odds
within 4 standard errors, in every system, on its example duel cut to two rounds (where
the exact chain is quick; the chain itself equals a brute force: tests/properties). Every
example fight is checked path against path in tests/encounter/test_simulate.py and
tests/analysis/test_sampled.py; auto picks only the paths checked here
(fracas.analysis.auto.VERIFIED)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from fracas.analysis.auto import VERIFIED
from fracas.analysis.duel import LIMIT, NOBODY, duel_odds
from fracas.analysis.simulate import Fights, simulate
from fracas.encounter.engine import setup_from_scenario
from fracas.registry.scenarios import load_scenario

EXAMPLES = Path(__file__).parents[2] / "examples"
SYSTEMS = ("c22", "contest", "genesys", "tristat", "zamani")
#: fights a path plays: the fast path is cheap, the others play each rule
FIGHTS = {"fast": 4000, "sampled": 300, "steps": 300}


def within_four_se(fights: Fights, exact: dict[str, Fraction]) -> None:
    """Each side's share of wins, and the share with no winner, within 4 standard errors
    of the exact chance (fixed seeds: the test is deterministic; a false alarm has a
    chance of about 6e-5 per figure)."""
    shares = {side: float((fights.winner == i).sum()) / fights.n
              for i, side in enumerate(fights.sides)}
    shares[""] = float((fights.winner < 0).sum()) / fights.n
    for side, share in shares.items():
        p = float(exact.get(side, Fraction(0)))
        se = math.sqrt(p * (1 - p) / fights.n)
        assert abs(share - p) <= max(4 * se, 0.5 / fights.n), (fights.method, side, share, p)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_path_agrees_with_the_exact_odds(system: str) -> None:
    scenario = load_scenario(EXAMPLES / system / "duel-fight.yaml")
    setup = setup_from_scenario(scenario, max_rounds=2)
    odds = duel_odds(setup, scenario.roster).outcomes
    exact = {k: v for k, v in odds.items() if k not in (LIMIT, NOBODY)}
    exact[""] = sum((v for k, v in odds.items() if k in (LIMIT, NOBODY)), Fraction(0))
    for seed, (method, n) in enumerate(FIGHTS.items()):
        fights = simulate(setup, scenario.roster, n, seed=seed, method=method)  # type: ignore[arg-type]
        assert fights.method == method
        within_four_se(fights, exact)


def test_auto_may_pick_only_paths_checked_for_the_system() -> None:
    """Every system in VERIFIED has its paths checked above and its exact chain checked
    against a brute force in tests/properties; the test system (tests/conftest.py) is
    checked on its own duel in test_simulate and test_sampled."""
    from tests.properties.test_exact_fights import SYSTEMS as BRUTE

    built_in = set(VERIFIED) - {"testduel"}
    assert built_in <= set(SYSTEMS)
    assert built_in <= {*BRUTE, "c22"}  # c22: tests/properties/test_c22_exact.py
    assert all(paths <= set(FIGHTS) for paths in VERIFIED.values())
