"""Honest figures (issue 37): for every example duel (every example fight with
``FRACAS_NIGHTLY=1``: the larger fights take some 40 CPU-minutes more), at its start and
at a mid-fight point, the live view's first figure (what the GM sees first: its method,
sample and 95 % interval) is checked against a large simulation from the same state,
played by another path with another seed, and, where the fight's chain is small, both
against the exact chain.

The tolerance is stated: 10 points (26 nightly), two or more sides each, at 95 % would
miss by chance now and then, so each check uses the same Wilson interval at z = 3.89 (99.99 %): the
exact figure lies in a sample's interval, and two samples' intervals overlap (each has
its own error: 400 of 400 and 1,599 of 1,600 agree though neither holds the other); the
seeds are fixed, so the test is deterministic. The run time is bounded: the large
simulation is :data:`LARGE` fights (four times the most the live figure plays: it stops
sooner once within 5 points; the whole test plays at most 2,000 fights per point), and the
exact chain is tried for the two-combatant fights only, within :data:`EXACT_STATES` states
and :data:`EXACT_SECONDS` (the fights of three or more pass 20,000 states: see
docs/analysis.md, "Which fights are small enough").
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from fracas.analysis.duel import LIMIT, NOBODY, duel_odds
from fracas.analysis.fights import wilson
from fracas.analysis.winning import (
    FIRST_FIGHTS,
    FIRST_TARGET,
    Position,
    from_fights,
    of_log,
    of_scenario,
    refine,
    simulate_fights,
)
from fracas.encounter.engine import Encounter
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[2]
NIGHTLY = os.environ.get("FRACAS_NIGHTLY") == "1"
FIGHTS = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(
    "examples/*/*-fight.yaml" if NIGHTLY else "examples/*/duel-fight.yaml"))
LARGE = 4 * FIRST_FIGHTS
Z = 3.8906  # two-sided 99.99 %
EXACT_STATES = 20_000
EXACT_SECONDS = 60.0


def position_at(name: str, at: str, tmp: Path) -> Position:
    scenario = load_scenario(ROOT / name)
    if at == "start":
        return of_scenario(scenario)
    fight = Encounter(scenario, seed=1)
    fight.run()
    log = tmp / "fight.log"
    fight.save(log)
    return of_log(log, at=fight.marks[len(fight.marks) // 2])


def _wide(p: float, n: int) -> tuple[float, float]:
    return wilson(round(p * n), n, Z)


@pytest.mark.parametrize("at", ["start", "mid"])
@pytest.mark.parametrize("name", FIGHTS)
def test_the_live_figure_holds_against_a_large_simulation_and_the_exact_chain(
        name: str, at: str, tmp_path: Path) -> None:
    position = position_at(name, at, tmp_path)
    live = next(refine(position))
    # the figure states its method, its sample and its interval: within 5 points, or
    # every fight of the first figure played
    assert live.method == "steps" and live.sample <= FIRST_FIGHTS and not live.exact
    assert live.half_width() <= FIRST_TARGET or live.sample == FIRST_FIGHTS
    assert f"{live.sample:,} fights simulated (steps path), 95 % intervals" in \
        live.method_words()
    for c in live.sides.values():
        assert c.lo <= c.p <= c.hi and c.exact is None
    large = from_fights(simulate_fights(position, LARGE, seed=99), position, 0.0)
    assert large.sample == LARGE
    for side, c in live.sides.items():  # two samples: their wide intervals overlap
        lo, hi = _wide(c.p, live.sample)
        big_lo, big_hi = _wide(large.sides[side].p, large.sample)
        assert lo <= big_hi and big_lo <= hi, (side, c, large.sides[side])
    if len(position.state.roster) > 2:
        return  # the chain is too large: the large simulation is the reference
    try:
        exact = duel_odds(position.setup, position.state, EXACT_STATES,
                          max_seconds=EXACT_SECONDS)
    except InputError:
        return  # too large for the chain: the simulation is the reference
    for side, c in live.sides.items():
        p = float(exact.outcomes.get(side, 0))
        for figure in (c, large.sides[side]):
            n = live.sample if figure is c else large.sample
            lo, hi = _wide(figure.p, n)
            assert lo <= p <= hi, (side, figure, p)
    none = sum(float(p) for k, p in exact.outcomes.items() if k in (LIMIT, NOBODY))
    assert math.isclose(sum(float(p) for p in exact.outcomes.values()), 1.0)
    assert live.no_winner.p <= _wide(none, live.sample)[1] + 1e-9
