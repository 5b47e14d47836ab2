"""Property (issue 35): in Zamani, Tri-Stat, Genesys and contest, the exact fight odds
(the chain, its rolls read once per meaning and its states merged) equal an independent
brute force over every outcome (tests/properties/brute.py: every face of numbered dice
counted here, the plain step-by-step fight played once per path) on small random fights.

Contest's fights check mostly on a small die (d3 to d5, threat on its top face, critical
failure on 1: the scenario overrides the table's d20, as a table may): at d20 a contest of
up to three rolls, each with its threats and the totals their confirmations must beat,
takes a one-round duel past 20,000 paths (measured: 15,212 paths even for one-roll
contests both ways), where the small die keeps a fight within a few thousand. Contests of
two or three rolls, and d20 ones (one roll: some 340 paths), are played one-sided (the
second fighter starts disarmed: one contest in the round); one-roll contests on the small
die both ways, counter attacks too. Initiative roll-offs come up often (ties on a d4) and
the brute force works them out itself (see brute.py)."""

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

#: Each system's small fights, the paths its brute force may take (an example past them
#: is skipped, and counted: the test asserts that most examples are compared) and how
#: many examples it plays.
SYSTEMS: dict[str, tuple[st.SearchStrategy[dict[str, Any]], int, int]] = {
    "zamani": (fights.zamani(), 3_000, 5),
    "tristat": (fights.tristat(), 8_000, 5),
    "genesys": (fights.genesys(), 8_000, 5),
    "contest": (fights.contest(), 8_000, 15),
}


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
    strategy, max_paths, examples = SYSTEMS[system]
    done: list[bool] = []

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(strategy)
    def check(data: dict[str, Any]) -> None:
        done.append(compared(data, max_paths))

    start = time.process_time()
    check()
    assert sum(done) * 2 > len(done), f"{sum(done)} of {len(done)} fights compared"
    print(f"{system}: {sum(done)} of {len(done)} fights compared, "
          f"{time.process_time() - start:.1f} s CPU")
