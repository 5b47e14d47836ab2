"""Issue 35, item 2: on every example fight (examples/*/*-fight.yaml, all of them), the fast
and sampled paths agree with the step path within 4 standard errors, and every path agrees
with the exact chain where the chain is within reach.

Each fight is checked from a fixed point (:func:`last_round`): just before the last round of
its fight played from seed 1, cut at that round (``max_rounds``), where the step and
sampled paths take about a second and, for nine of the thirteen, the exact chain has under
a hundred states (every path is then also checked against it). The round still plays that
fight's rules from initiative on (its policies, targets and harm, with whoever stands),
though not every combatant's; the duels are checked from their start, cut at two rounds,
against the exact chain in tests/analysis/test_paths_agree.py. The fast path is left out
where even the last round is out of its reach (:data:`FAST_OUT_OF_REACH`). The
full-length fights from their start, every path, larger samples: ``FRACAS_NIGHTLY=1``
(:func:`test_full_length_paths_agree_with_the_step_path`).

Tolerance: 4 standard errors on each side's share of wins, the share with no winner and
the mean rounds: against the exact chain, the SE of the path's sample (its figure must
equal the chain's where that has no spread); path against path, a two-sample z (pooled
share; each sample's own variance for the mean). A false alarm has a chance of about 6e-5
per figure (about 1 % over the 160 or so figures here); the seeds are fixed, so the test
is deterministic.
"""

from __future__ import annotations

import math
import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from fracas.analysis.chain import ChainTooLarge
from fracas.analysis.duel import LIMIT, NOBODY, duel_odds
from fracas.analysis.fights import Fights, Start
from fracas.analysis.simulate import simulate
from fracas.encounter.engine import Encounter, FightSetup, setup_from_scenario
from fracas.registry.scenarios import load_scenario

EXAMPLES = Path(__file__).parents[2] / "examples"
NIGHTLY = os.environ.get("FRACAS_NIGHTLY") == "1"
FIGHTS = sorted(f"{p.parent.name}/{p.stem}" for p in EXAMPLES.glob("*/*-fight.yaml"))
Z = 4.0

SMALL = {"fast": 2000, "sampled": 300, "steps": 300}
LARGE = {"sampled": 100, "steps": 300}
FAST_STATES = 3_000  # the fast path's chain cap here: a cap on work, not on time
#: fights whose fast path is out of reach even from their last round (measured: 300
#: states of three-vs-three's chain took 9 CPU-seconds, and it passed 1 GB at 37,610;
#: boarding's first 300 did not end in 3 minutes): the fast path is compared with steps
#: on them in the nightly run only. (Whether auto's probe ever picks it there is not
#: checked here.)
FAST_OUT_OF_REACH = {"c22/boarding-fight", "c22/deck-brawl-fight", "contest/gate-fight",
                     "genesys/three-vs-three-fight"}
#: per fight: whether the exact chain is within reach from its last round
#: (:func:`last_round`), and the fights each path plays
WHERE: dict[str, tuple[bool, dict[str, int]]] = {
    **{name: (True, SMALL) for name in (
        "c22/duel-fight", "contest/duel-fight", "genesys/duel-fight", "tristat/duel-fight",
        "zamani/duel-fight", "tristat/alley-fight", "tristat/warehouse-fight",
        "zamani/river-ambush-fight", "zamani/river-crossing-fight")},
    **{name: (False, LARGE) for name in FAST_OUT_OF_REACH},
}


def figures(fights: Fights) -> dict[str, np.ndarray]:
    """Per fight, 0/1 for each side's win and for no winner; and the rounds."""
    out = {side: (fights.winner == i).astype(float) for i, side in enumerate(fights.sides)}
    out[""] = (fights.winner < 0).astype(float)
    out["rounds"] = fights.rounds.astype(float)
    return out


def exact_figures(setup: FightSetup, start: Start) -> dict[str, tuple[float, float]]:
    """The exact chain's mean and variance of each of :func:`figures`."""
    odds = duel_odds(setup, start)
    none = (LIMIT, NOBODY)
    shares: dict[str, Fraction] = {k: v for k, v in odds.outcomes.items() if k not in none}
    shares[""] = sum((v for k, v in odds.outcomes.items() if k in none), Fraction(0))
    out = {k: (float(p), float(p * (1 - p))) for k, p in shares.items()}
    mean = sum((p * r for (_, r), p in odds.rounds.items()), Fraction(0))
    square = sum((p * r * r for (_, r), p in odds.rounds.items()), Fraction(0))
    out["rounds"] = (float(mean), float(square - mean * mean))
    return out


def near_exact(fights: Fights, exact: dict[str, tuple[float, float]]) -> None:
    for name, values in figures(fights).items():
        mean, var = exact.get(name, (0.0, 0.0))
        se = math.sqrt(var / fights.n)
        assert abs(values.mean() - mean) <= max(Z * se, 1e-9), (fights.method, name,
                                                                values.mean(), mean, se)


def near_each_other(one: Fights, other: Fights) -> None:
    a, b = figures(one), figures(other)
    for name in a:
        x, y = a[name], b[name]
        if name == "rounds":
            se = math.sqrt(x.var() / x.size + y.var() / y.size)
        else:
            pooled = (x.sum() + y.sum()) / (x.size + y.size)
            se = math.sqrt(pooled * (1 - pooled) * (1 / x.size + 1 / y.size))
        assert abs(x.mean() - y.mean()) <= max(Z * se, 1e-9), (one.method, other.method, name,
                                                               x.mean(), y.mean(), se)


def last_round(name: str) -> tuple[FightSetup, Start]:
    """The fight from just before the last round of its seed-1 fight begins, cut at that
    round."""
    scenario = load_scenario(EXAMPLES / f"{name}.yaml")
    fight = Encounter(scenario, seed=1)
    before = [fight.state]
    while not fight.state.over:
        fight.step()
        before.append(fight.state)
    last = max(s.round for s in before)
    state = [s for s in before if s.round < last][-1]
    return setup_from_scenario(scenario, max_rounds=last), state


@pytest.mark.parametrize("name", FIGHTS)
def test_every_path_agrees_on_every_example_fight(name: str) -> None:
    exact, sizes = WHERE[name]
    setup, start = last_round(name)
    played = {}
    for seed, (method, n) in enumerate(sizes.items(), start=21):
        played[method] = simulate(setup, start, n, seed=seed, method=method,  # type: ignore[arg-type]
                                  max_states=FAST_STATES)
        assert played[method].method == method
    assert ("fast" in played) is (name not in FAST_OUT_OF_REACH)
    for method in ("fast", "sampled"):
        if method in played:
            near_each_other(played[method], played["steps"])
    if exact:
        reference = exact_figures(setup, start)
        for fights in played.values():
            near_exact(fights, reference)


@pytest.mark.skipif(not NIGHTLY, reason="nightly (FRACAS_NIGHTLY=1): the full-length fights")
@pytest.mark.parametrize("name", FIGHTS)
def test_full_length_paths_agree_with_the_step_path(name: str) -> None:
    """The whole fights, from their start, no cut: 2,000 fights of each path (the fast
    path's chain within its default caps), 4 standard errors as above. Where the fast
    path is out of reach (:data:`FAST_OUT_OF_REACH`) its chain is capped at
    :data:`FAST_STATES`: it either agrees or stops with its budget's message, never a
    figure unchecked."""
    scenario = load_scenario(EXAMPLES / f"{name}.yaml")
    setup = setup_from_scenario(scenario)
    steps = simulate(setup, scenario.roster, 2000, seed=31, method="steps")
    for seed, method in enumerate(("fast", "sampled"), start=32):
        capped = name in FAST_OUT_OF_REACH
        try:
            fights = simulate(setup, scenario.roster, 2000, seed=seed, method=method,  # type: ignore[arg-type]
                              max_states=FAST_STATES if capped else 1_000_000)
        except ChainTooLarge as err:
            assert method == "fast" and capped, (name, method, err)  # a state or memory cap
            continue
        near_each_other(fights, steps)
