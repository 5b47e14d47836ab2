"""Exact odds: the exact roller's distribution against an independent brute-force count
over every d100 face, and random sampling against the exact distribution."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.core.scenario import Scenario
from fracas.dice import RandomRoller, ScriptedRoller
from fracas.odds.attack import attack_odds
from fracas.registry.scenarios import load_scenario

from .helpers import EXAMPLES, duel

PLAIN = sorted(p for p in EXAMPLES.glob("*.yaml") if not p.stem.endswith("-fight")
               and "surprise" not in (p.read_text(encoding="utf-8").split("attack:")[-1]))


def brute_force(s: Scenario, prefix: tuple[int, ...] = ()) -> dict[Any, Fraction]:
    """Every attack roll 1..100, each resolved with pinned dice, weighted 1/100."""
    assert s.attack is not None
    out: dict[Any, Fraction] = {}
    for roll in range(1, 101):
        result = ScriptedRoller([*prefix, roll]).run(s.system.resolve, s.attack, s.roster)
        key = result.summary()
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 100)
    return out


@pytest.mark.parametrize("path", PLAIN, ids=lambda p: Path(p).stem)
def test_exact_odds_equal_brute_force_over_every_d100_face(path: Path) -> None:
    s = load_scenario(path)
    assert s.attack is not None
    odds = attack_odds(s.system, s.attack, s.roster)
    assert odds.joint.probabilities() == brute_force(s)


def test_exact_odds_of_a_surprise_attack_equal_brute_force() -> None:
    s = load_scenario(EXAMPLES / "surprise_stealth.yaml")
    assert s.attack is not None
    mine, theirs = 65, 20  # Stealth 6 + Dexterity 7; Fitness 4 x 5
    classes: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
    for a, b in itertools.product(range(1, 101), repeat=2):
        ok = a <= mine and (b > theirs or mine - a > theirs - b)
        classes[ok].append((a, b))
    expected: dict[Any, Fraction] = {}
    for members in classes.values():
        weight = Fraction(len(members), 10_000)
        for key, p in brute_force(s, members[0]).items():
            expected[key] = expected.get(key, Fraction(0)) + weight * p
    odds = attack_odds(s.system, s.attack, s.roster)
    assert odds.joint.probabilities() == expected


def test_the_surprise_depends_only_on_whether_it_succeeded() -> None:
    s = load_scenario(EXAMPLES / "surprise_stealth.yaml")
    assert s.attack is not None
    seen: dict[bool, set[Any]] = {True: set(), False: set()}
    for a, b in ((1, 100), (30, 55), (65, 21), (10, 15), (66, 1), (40, 5), (100, 100)):
        result = ScriptedRoller([a, b, 40]).run(s.system.resolve, s.attack, s.roster)
        seen[dict(result.details)["surprise"]].add(result.summary())
    assert all(len(v) == 1 for v in seen.values())


def test_random_sampling_agrees_with_the_exact_odds_within_five_sigma() -> None:
    s = load_scenario(EXAMPLES / "regular_melee.yaml")
    assert s.attack is not None
    odds = attack_odds(s.system, s.attack, s.roster)
    rng = RandomRoller(20240601)
    n = 4000
    counts = Counter(s.system.resolve(rng, s.attack, s.roster).outcome for _ in range(n))
    for outcome, p in odds.outcomes.items():
        sigma = math.sqrt(n * float(p) * (1 - float(p)))
        assert abs(counts[outcome] - n * float(p)) <= 5 * sigma + 1, outcome
    assert set(counts) <= set(odds.outcomes)


@settings(max_examples=25, deadline=None)
@given(skill=st.integers(0, 14), dex=st.integers(1, 12), defense_dex=st.integers(1, 14),
       block=st.integers(0, 14), rating=st.integers(1, 10), absorption=st.integers(0, 8),
       controlled=st.booleans())
def test_exact_odds_equal_brute_force_for_any_ranks(skill: int, dex: int, defense_dex: int,
                                                    block: int, rating: int, absorption: int,
                                                    controlled: bool) -> None:
    weapon = {"name": "sword", "rating": rating, "blocking": True, "skill": "swords"}
    options = {"controlled": True, "effect": "prone"} if controlled else {}
    s = duel({"attributes": {"dexterity": dex}, "skills": {"swords": skill},
              "weapons": [weapon]},
             {"attributes": {"dexterity": defense_dex}, "skills": {"swords": block},
              "armor": {"absorption": absorption}},
             options=options)
    assert s.attack is not None
    odds = attack_odds(s.system, s.attack, s.roster)
    assert odds.joint.probabilities() == brute_force(s)
    assert sum(odds.joint.probabilities().values()) == 1
    target = min((skill + dex) * 5, 100)
    assert odds.outcomes.get("miss", Fraction(0)) == Fraction(100 - max(target, 0), 100)
