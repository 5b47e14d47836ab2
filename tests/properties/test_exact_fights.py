"""Property (issue 35): in Zamani, Tri-Stat and Genesys, the exact fight odds (the
chain, its rolls read once per meaning and its states merged) equal an independent brute
force over every outcome (tests/properties/brute.py: every face of numbered dice counted
here, the plain step-by-step fight played once per path) on small random fights.

Contest is not here yet: one attack's contest alone has some forty outcomes the rules
tell apart, and a roll again on a tie, so even a one-round duel at 1 hit point passes
20,000 paths (measured); its exact odds are checked against the step path instead
(tests/analysis/test_paths_agree.py)."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.analysis.duel import LIMIT, NOBODY, duel_odds
from fracas.encounter.engine import setup_from_scenario
from fracas.registry.scenarios import scenario_from_mapping
from tests.properties import fights
from tests.properties.brute import Budget, fight_outcomes

#: Each system's small fights and the paths its brute force may take (an example past
#: them is skipped; the test asserts that most examples are compared).
SYSTEMS: dict[str, tuple[st.SearchStrategy[dict[str, Any]], int]] = {
    "zamani": (fights.zamani(), 3_000),
    "tristat": (fights.tristat(), 8_000),
    "genesys": (fights.genesys(), 8_000),
}
EXAMPLES = 5


def sides(odds: dict[str, Fraction]) -> dict[str, Fraction]:
    """The exact odds as the brute force counts them: each side, ``""`` for no winner."""
    out = {k: v for k, v in odds.items() if v and k not in (LIMIT, NOBODY)}
    rest = sum((v for k, v in odds.items() if k in (LIMIT, NOBODY)), Fraction(0))
    if rest:
        out[""] = rest
    return out


def compared(data: dict[str, Any], max_paths: int) -> bool:
    """Assert the exact odds of ``data`` equal the brute force's; False when the brute
    force passed its budget."""
    sc = scenario_from_mapping(data)
    setup = setup_from_scenario(sc)
    try:
        truth = fight_outcomes(setup, sc.roster, max_paths=max_paths)
    except Budget:
        return False
    assert sides(duel_odds(setup, sc.roster).outcomes) == {k: v for k, v in truth.items()
                                                             if v}, data
    return True


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_fight_odds_equal_a_brute_force_over_every_outcome(system: str) -> None:
    strategy, max_paths = SYSTEMS[system]
    done: list[bool] = []

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(strategy)
    def check(data: dict[str, Any]) -> None:
        done.append(compared(data, max_paths))

    start = time.process_time()
    check()
    assert sum(done) * 2 > len(done), f"{sum(done)} of {len(done)} fights compared"
    print(f"{system}: {sum(done)} of {len(done)} fights compared, "
          f"{time.process_time() - start:.1f} s CPU")
