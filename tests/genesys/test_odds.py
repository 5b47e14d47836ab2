"""Exact odds of a whole attack against an independent brute-force enumeration, and
random sampling against the exact odds."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from fracas.dice import RandomRoller
from fracas.odds.attack import attack_odds
from tests.genesys.helpers import EXAMPLES, FACES, example, net, pc, scenario

SEVERITY = [(40, "Easy"), (90, "Average"), (125, "Hard"), (150, "Daunting")]


def severity(total: int) -> str:
    return next((name for top, name in SEVERITY if total <= top), "Dead")


def test_exact_attack_odds_equal_brute_force_over_every_face_and_d100() -> None:
    """PAA-DD sword attack (damage Brawn 3 + 2, Critical 3) against soak 3: the
    default policy spends advantage in threes on Critical rating triggers, else a
    triumph; each trigger past the first adds 10; Minor Nick and Bowled Over add
    1 strain to what the target loses."""
    attacker = pc(skills={"Melee": 1})
    defender = pc(wound_threshold=40, strain_threshold=40)
    sc = scenario(attacker, defender)
    assert sc.attack is not None
    odds = attack_odds(sc.system, sc.attack, sc.roster)

    pool = [FACES["proficiency"], FACES["ability"], FACES["ability"],
            FACES["difficulty"], FACES["difficulty"]]
    tally: Counter[tuple[int, int, int, int]] = Counter(
        net("".join(faces)) for faces in itertools.product(*pool))
    total = sum(tally.values())
    expected: dict[tuple[object, ...], Fraction] = {}

    def add(key: tuple[object, ...], p: Fraction) -> None:
        expected[key] = expected.get(key, Fraction(0)) + p

    for (s, a, t, _), count in tally.items():
        p = Fraction(count, total)
        if s < 1:
            add(("miss", False, 0, False, ()), p)
            continue
        wounds = max(0, 5 + s - 3)
        triggers = max(0, a) // 3 if wounds > 0 else 0
        if wounds > 0 and triggers == 0 and t:
            triggers = 1
        if not triggers:
            add(("plain hit", True, wounds, False, ()), p)
            continue
        for d100 in range(1, 101):
            roll = d100 + 10 * (triggers - 1)
            strain = 1 if roll <= 5 or 41 <= roll <= 45 else 0
            add(("critical injury", True, wounds + strain, False,
                 (("critical injury", severity(roll)),)), p / 100)
    assert odds.joint.probabilities() == expected


@pytest.mark.parametrize("name", ["brawl.yaml", "ranged_long.yaml", "autofire.yaml"])
def test_sampled_attacks_match_the_exact_odds(name: str) -> None:
    """5-sigma bound on P(hit) and on each outcome, 1,500 random attacks."""
    sc = example(name)
    assert sc.attack is not None
    odds = attack_odds(sc.system, sc.attack, sc.roster)
    rng = RandomRoller(99)
    n = 1500
    seen: Counter[str] = Counter()
    hits = 0
    for _ in range(n):
        res = sc.system.resolve(rng, sc.attack, sc.roster)
        assert res.summary() in odds.joint
        seen[res.outcome] += 1
        hits += res.hit
    for outcome, p in [*odds.outcomes.items(), ("hit", odds.p_hit)]:
        observed = (hits if outcome == "hit" else seen[outcome]) / n
        sigma = max((float(p) * (1 - float(p)) / n) ** 0.5, 1e-9)
        assert abs(observed - float(p)) <= 5 * sigma + 1e-12, outcome


def test_odds_report_hit_damage_injury_severity_and_incapacitation() -> None:
    sc = example("vicious_pierce.yaml")
    assert sc.attack is not None
    odds = attack_odds(sc.system, sc.attack, sc.roster)
    data = odds.to_json()
    assert set(data) >= {"p_hit", "damage", "p_taken_out", "details"}
    severities = set(data["details"]["critical injury"])
    assert {"Average", "Hard", "Daunting"} <= severities  # Vicious 3 and an old injury


def test_every_example_has_exact_odds_summing_to_one() -> None:
    for path in sorted(p for p in Path(EXAMPLES).glob("*.yaml") if not p.stem.endswith("-fight")):
        sc = example(path.name)
        assert sc.attack is not None
        odds = attack_odds(sc.system, sc.attack, sc.roster)
        assert sum(odds.joint.probabilities().values()) == 1


@pytest.mark.parametrize("name", ["ranged_long", "vicious_pierce", "minions"])
def test_odds_that_read_summaries_only_merge_early_and_equal_the_full_enumeration(
        name: str) -> None:
    """attack_odds enumerates with summaries_only: results with equal summaries (other
    injury rolls to the same outcome) merge inside the step, so the whole attack is run
    fewer times, and the joint distribution is the one of the full enumeration."""
    from fracas.dice.rollers import ExactRoller
    from fracas.systems.genesys import attack as genesys_attack

    sc = example(f"{name}.yaml")
    assert sc.attack is not None
    full, slim = ExactRoller(), ExactRoller(summaries_only=True)
    genesys_attack._settle.cache_clear()
    whole = attack_odds(sc.system, sc.attack, sc.roster, full)
    merged = attack_odds(sc.system, sc.attack, sc.roster, slim)
    assert merged.joint == whole.joint and merged.to_json() == whole.to_json()
    assert slim.runs < full.runs
    resolutions = ExactRoller().distribution(sc.system.resolve, sc.attack, sc.roster)
    assert all(r.events for r in resolutions)  # a resolution enumerated in full is narrated
