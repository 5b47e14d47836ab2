"""Exact odds equal a brute-force enumeration of every d6 face (written independently here),
and random sampling agrees with them."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.core.scenario import Scenario
from fracas.dice import RandomRoller
from fracas.odds.attack import attack_odds
from tests.tristat.util import example, make, person

FACES = range(1, 7)
CRIT = {1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4}


def brute(n_dice: int, outcome_of: Any) -> dict[Any, Fraction]:
    """Every combination of n d6 faces, each equally likely."""
    counts: Counter[Any] = Counter(outcome_of(*faces) for faces in product(FACES, repeat=n_dice))
    total = 6 ** n_dice
    return {k: Fraction(v, total) for k, v in counts.items()}


def exact(scenario: Scenario, view: Any = lambda s: (s[0], s[2])) -> dict[Any, Fraction]:
    assert scenario.attack is not None
    odds = attack_odds(scenario.system, scenario.attack, scenario.roster)
    return odds.joint.map(view).probabilities()


def strike(attack_target: int, defense_target: int, damage: int, armor: int,
           vital: bool = False) -> Any:
    """The seed's attack, by hand: (outcome, damage) from five d6 faces."""
    def outcome(a1: int, a2: int, d1: int, d2: int, c: int) -> tuple[str, int]:
        roll = a1 + a2
        if roll > attack_target and roll != 2:
            return "miss", 0
        if d1 + d2 < defense_target or d1 + d2 == 2:  # snake eyes defends (table default)
            return "defended", 0
        dealt = max(0, damage - armor) * (2 if vital else 1)
        if roll == 2:
            return "critical", dealt * CRIT[c]
        return "hit", dealt
    return outcome


def test_vampire_exact_odds_equal_brute_force() -> None:
    assert exact(example("vampire.yaml")) == brute(5, strike(7, 6, 10, 3))


def test_called_shot_exact_odds_equal_brute_force() -> None:
    # target 6 + 3 − 1 − 2 − 1 = 5; defense 5 + 2 − 1 − 1 = 5; plate's chink: no armor; ×2
    assert exact(example("called_shot.yaml")) == brute(5, strike(5, 5, 16, 0, vital=True))


def test_two_weapons_exact_odds_equal_brute_force() -> None:
    assert exact(example("two_weapons.yaml")) == brute(5, strike(7, 5, 13, 4))


@settings(max_examples=25, deadline=None)
@given(stats=st.tuples(*[st.integers(1, 12)] * 6), skill=st.integers(0, 6),
       defense_skill=st.integers(0, 6), armor=st.integers(0, 12), weapon=st.integers(0, 15),
       trick=st.integers(0, 3), vital=st.booleans(), flanked=st.booleans())
def test_any_attack_exact_odds_equal_brute_force(stats: tuple[int, ...], skill: int,
                                                 defense_skill: int, armor: int, weapon: int,
                                                 trick: int, vital: bool, flanked: bool) -> None:
    b1, m1, s1, b2, m2, s2 = stats
    scenario = make(
        person("a", "x", body=b1, mind=m1, soul=s1, skills={"melee": skill},
               weapons=[{"name": "w", "damage": weapon, "kind": "melee"}]),
        person("b", "y", body=b2, mind=m2, soul=s2, skills={"melee": defense_skill},
               armor={"rating": armor}),
        {"weapon": "w", "options": {"trick_shot": trick, "vital_target": vital,
                                    "flanked": flanked}})
    cv_a, cv_b = (b1 + m1 + s1) // 3, (b2 + m2 + s2) // 3
    attack_target = cv_a + skill - trick - 4 * vital
    defense_target = cv_b + defense_skill - trick - flanked
    assert exact(scenario) == brute(5, strike(attack_target, defense_target, weapon + cv_a,
                                              armor, vital))


def test_grapple_exact_odds_equal_brute_force() -> None:
    def outcome(a1: int, a2: int, d1: int, d2: int) -> str:
        if a1 + a2 > 8 and a1 + a2 != 2:  # Brick: 5 + Brawl 3
            return "miss"
        return "defended" if d1 + d2 < 5 else "grappled"  # cultist: 4 + Brawl 1
    assert exact(example("grapple.yaml"), lambda s: s[0]) == brute(4, outcome)


def test_escape_exact_odds_equal_brute_force() -> None:
    def outcome(e1: int, e2: int, g1: int, g2: int) -> str:
        mine, theirs = 3 - (e1 + e2), 11 - (g1 + g2)  # 3 + 1 − 2 + 1 against 8 + 3
        return "escaped" if mine > theirs else "escaped_tie" if mine == theirs else "held"
    assert exact(example("escape.yaml"), lambda s: s[0]) == brute(4, outcome)


def test_melee_disarm_exact_odds_equal_brute_force() -> None:
    def outcome(a1: int, a2: int, d1: int, d2: int, b1: int, b2: int) -> str:
        if a1 + a2 > 9 and a1 + a2 != 2:  # Vex: 6 + 3, Kensei cancels the −2
            return "miss"
        if d1 + d2 < 7:  # the ogre: 5 + 1 + 1 (two hands on the maul)
            return "defended"
        return "weapon_kept" if b1 + b2 <= 9 else "disarmed"  # Body 9
    assert exact(example("disarm.yaml"), lambda s: s[0]) == brute(6, outcome)


def test_ranged_disarm_exact_odds_equal_brute_force() -> None:
    def outcome(a1: int, a2: int, d1: int, d2: int) -> str:
        if a1 + a2 > 5 and a1 + a2 != 2:
            return "miss"
        return "defended" if d1 + d2 < 5 else "disarmed"
    assert exact(example("disarm_ranged.yaml"), lambda s: s[0]) == brute(4, outcome)


def test_throw_exact_odds_equal_brute_force() -> None:
    def outcome(a1: int, a2: int, d1: int, d2: int, c: int) -> tuple[str, int, int | None]:
        roll = a1 + a2  # Brick: 5 + 3 + 2 = 10
        if roll > 10 and roll != 2:
            return "miss", 0, None
        if d1 + d2 < 3:  # cultist: 4 + 1 − 2 (held)
            return "defended", 0, None
        squares = 10 - roll
        wall = 5 * min(3, max(0, squares - 1))  # a wall after 1 square
        dealt = 10 * (CRIT[c] if roll == 2 else 1)
        return "thrown", dealt + wall, squares
    def view(s: Any) -> tuple[str, int, int | None]:
        return s[0], s[2], dict(s[4]).get("squares")

    assert exact(example("throw.yaml"), view) == brute(5, outcome)


def test_strangle_exact_odds_equal_brute_force() -> None:
    def outcome(d1: int, d2: int) -> tuple[str, int]:
        return ("defended", 0) if d1 + d2 < 3 else ("hit", 5)
    assert exact(example("strangle.yaml")) == brute(2, outcome)


def test_random_sampling_matches_exact_odds_within_five_sigma() -> None:
    scenario = example("vampire.yaml")
    assert scenario.attack is not None
    probabilities = exact(scenario, lambda s: s[0])
    n = 4000
    rng = RandomRoller(20240601)
    seen = Counter(scenario.system.resolve(rng, scenario.attack, scenario.roster).outcome
                   for _ in range(n))
    assert set(seen) <= set(probabilities)
    for name, p in probabilities.items():
        mean = n * float(p)
        sigma = math.sqrt(n * float(p) * (1 - float(p)))
        assert abs(seen[name] - mean) <= 5 * sigma + 1, (name, seen[name], mean)


def test_rolls_read_by_result_give_the_face_by_face_odds_in_fewer_runs(
        monkeypatch: Any) -> None:
    """The attack and defense 2d6 are read as success/critical/defended, so the exact
    roller branches once per result; read face by face instead (every face its own
    result), every example's odds and every option of the alley fight's opening are the
    same, and the enumeration takes fewer runs."""
    from pathlib import Path

    from fracas.dice import TWO_D6, ExactRoller, Mapped
    from fracas.registry.scenarios import load_scenario
    from fracas.systems.tristat import steps

    def face_by_face(*_: object) -> Mapped[int, steps.Reading]:
        return Mapped(TWO_D6, lambda roll: steps.Reading((roll,), roll))

    examples = Path(__file__).parents[2] / "examples" / "tristat"
    cases = []
    for path in sorted(examples.glob("*.yaml")):
        s = load_scenario(path)
        if s.attack is not None:
            cases.append((s, s.attack))
    alley = load_scenario(examples / "alley-fight.yaml")
    cases += [(alley, a) for cid in alley.roster
              for a in alley.system.actions(cid, alley.roster) if a.target]
    assert len(cases) > 60
    read, runs_read = [], 0
    for s, action in cases:
        ex = ExactRoller(summaries_only=True)
        read.append(attack_odds(s.system, action, s.roster, ex).joint)
        runs_read += ex.runs
    monkeypatch.setattr(steps, "attack_2d6", face_by_face)
    monkeypatch.setattr(steps, "defense_2d6", face_by_face)
    runs_faces = 0
    for (s, action), got in zip(cases, read, strict=True):
        ex = ExactRoller(summaries_only=True)
        assert attack_odds(s.system, action, s.roster, ex).joint == got, action.describe()
        runs_faces += ex.runs
    assert runs_read * 5 < runs_faces
