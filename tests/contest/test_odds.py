"""Exact odds (``fracas odds``) against an independent brute-force enumeration, and
random sampling against the exact distribution.

The reference below re-states the rules in the plainest way: every face of every die
rolled (itertools.product), a contest of up to three rolls, then every damage face."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from fracas.core.scenario import Scenario
from fracas.dice import RandomRoller
from fracas.odds.attack import attack_odds
from fracas.registry.scenarios import load_scenario
from tests.contest.helpers import EXAMPLES, scenario
from tests.foundation.stats import chi_square, chi_square_critical

Key = tuple[Any, ...]


class Ref:
    """The rules, brute force: A/D are the check bonuses, W the weapon-roll bonuses."""

    def __init__(self, n: int, kind: str, a: int, d: int, *, rolls: int = 3, need: int = 2,
                 a_net: int = 0, d_net: int = 0, difficulty: int = 10, parry: bool = False,
                 called: bool = False, dmg: int = 3, ctr: int = 3, mult: int = 2,
                 bonus: int = 0, ctr_bonus: int = 0, hp_t: int = 4, hp_a: int = 3,
                 dr: int = 1, armour: int = 2, block: int = 1, threat_ends: bool = False):
        self.n, self.kind, self.A, self.D = n, kind, a, d
        self.rolls, self.need, self.a_net, self.d_net = rolls, need, a_net, d_net
        self.difficulty, self.parry, self.called = difficulty, parry, called
        self.dmg, self.ctr, self.mult, self.bonus = dmg, ctr, mult, bonus
        self.ctr_bonus = ctr_bonus  # (melee) bonuses are not added to a critical's roll
        self.hp_t, self.hp_a, self.dr, self.armour, self.block = hp_t, hp_a, dr, armour, block
        self.threat_ends = threat_ends  # the option: an attacker's threat ends the contest

    def check(self, net: int) -> list[tuple[int, Fraction]]:
        """Every way to roll a check: each face of each d20, keeping the best or worst."""
        dice = 1 + abs(net)
        w = Fraction(1, self.n ** dice)
        return [(max(f) if net >= 0 else min(f), w)
                for f in product(range(1, self.n + 1), repeat=dice)]

    def maybe(self, rolled: bool, net: int = 0) -> list[tuple[int | None, Fraction]]:
        return self.check(net) if rolled else [(None, Fraction(1))]

    def contest(self) -> Counter[Key]:
        out: Counter[Key] = Counter()
        counter = self.kind == "counter"
        n = self.n

        def go(i: int, aw: int, dw: int, ac: int, dc: int, af: int, df: int, outright: bool,
               p: Fraction) -> None:
            for a, pa in self.check(self.a_net):
                for d, pd in self.check(self.d_net):
                    at, dt = a + self.A, d + self.D
                    for conf_a, p1 in self.maybe(a == n, self.a_net):
                        for conf_d, p2 in self.maybe(d == n, self.d_net):
                            for wa, p3 in self.maybe(a == 1 and af < 2):
                                for wd, p4 in self.maybe(d == 1 and counter and df < 2):
                                    q = p * pa * pd * p1 * p2 * p3 * p4
                                    step(i, aw, dw, ac, dc, af, df, outright, q,
                                         (a, at, d, dt, conf_a, conf_d, wa, wd))

        def step(i: int, aw: int, dw: int, ac: int, dc: int, af: int, df: int,
                 outright: bool, q: Fraction, r: tuple[Any, ...]) -> None:
            a, at, d, dt, conf_a, conf_d, wa, wd = r
            if d == n and not counter:
                dw += 2
            elif dt >= at:
                dw += 1
            else:
                aw += 1
            if a == n:
                ac = max(ac, 2 if conf_a + self.A > dt else 1)
            if d == n:
                confirmed = conf_d + self.D >= at
                dc = max(dc, 2 if confirmed else 1)
                outright = outright or (confirmed and not counter)
            if a == 1:
                af = max(af, 1 if wa is None or wa + self.A >= self.difficulty else 2)
            if d == 1:
                df = max(df, 1 if wd is None or wd + self.D >= self.difficulty else 2)
            if counter:
                stop = i == self.rolls
            else:
                stop = (outright or (self.threat_ends and a == n) or aw >= self.need
                        or dw >= self.need or i == self.rolls)
            if not stop:
                go(i + 1, aw, dw, ac, dc, af, df, outright, q)
                return
            winner = ("defender" if outright else "attacker" if aw > dw
                      else "defender" if dw > aw else "deadlock")
            out[(winner, ac, dc, af, df)] += q

        go(1, 0, 0, 0, 0, 0, 0, False, Fraction(1))
        return out

    def attack(self) -> Counter[Key]:
        out: Counter[Key] = Counter()
        crit = ("none", "threat", "confirmed")
        for (winner, ac, dc, af, df), p in self.contest().items():
            threat, critical = ac > 0, ac == 2
            parried = self.kind == "counter" and self.parry and winner == "defender" and not threat
            dropped = af == 2  # a weapon dropped during the contest deals no damage
            if dropped:
                deals = False
            elif self.kind in ("sponge", "counter"):
                deals = not parried
            else:
                deals = winner == "attacker" or threat or (self.kind == "block" and
                                                           winner == "defender")
            d_fumble = ("none" if not df else "prone" if self.kind == "dodge" else
                        "knocked back" if self.kind in ("block", "sponge") else
                        ("weapon kept", "disarmed")[df - 1])
            base = (winner, crit[ac], crit[dc], ("none", "weapon kept", "disarmed")[af],
                    d_fumble)
            hits = [(0, self.armour, "", Fraction(1))]
            if deals:
                hits = []
                for roll in range(1, self.dmg + 1):
                    total = roll * self.mult if critical else roll + self.bonus
                    armour = self.armour
                    if self.kind == "block" and winner == "defender":
                        through, name = max(0, total - self.block), "blocked"
                    elif self.kind == "sponge" and winner == "defender" and not critical:
                        reduced = max(0, total - (0 if self.called else self.dr))
                        if dc == 2:
                            reduced //= 2
                        taken = min(reduced, armour)
                        through, armour, name = reduced - taken, armour - taken, "sponged"
                    else:
                        through = total
                        name = ("threat" if winner != "attacker" and self.kind in (
                            "dodge", "block") else "hit")
                    hits.append((min(through, self.hp_t), armour,
                                 "critical" if critical else name, Fraction(1, self.dmg)))
            counters: list[tuple[int | None, Fraction]] = [(None, Fraction(1))]
            if self.kind == "counter":
                counters = [(0, Fraction(1))]
                if (winner == "defender" or dc > 0) and df < 2:
                    counters = [(min(r * self.mult if dc == 2 else r + self.ctr_bonus,
                                     self.hp_a), Fraction(1, self.ctr))
                                for r in range(1, self.ctr + 1)]
            for lost, armour, name, ph in hits:
                if not deals:
                    name = ("disarmed" if dropped else "parried" if parried
                            else "dodged" if winner == "defender" else "deadlock")
                for back, pc in counters:
                    key = (name, lost, lost >= self.hp_t, *base, back,
                           armour if self.kind == "sponge" else None)
                    out[key] += p * ph * pc
        return out


def engine(s: Scenario) -> dict[Key, Fraction]:
    assert s.attack is not None
    odds = attack_odds(s.system, s.attack, s.roster)

    def key(summary: Any) -> Key:
        outcome, _hit, damage, out, details = summary
        d = dict(details)
        return (outcome, damage, out, d["contest"], d["attacker_critical"],
                d["defender_critical"], d["attacker_fumble"], d["defender_fumble"],
                d.get("counter_damage"), d.get("armour_hp_after"))

    return odds.joint.map(key).probabilities()


def small(kind: str, parry: bool = False, mode: str = "normal", threat_ends: bool = False
          ) -> Scenario:
    """d3 checks (3 threatens, 1 fails), all bonuses +1, d3 weapons: small enough to
    enumerate every face of every die of a three-roll contest."""
    attacker = {"id": "att", "name": "Att", "side": "a", "skills": {"blade": 1, "bow": 1},
                "attributes": {"strength": 0, "agility": 0}, "hp": 3,
                "weapons": [{"name": "blade", "skill": "blade", "damage": "d3"},
                            {"name": "bow", "skill": "bow", "damage": "d3",
                             "kind": "ranged"}]}
    defender = {"id": "def", "name": "Def", "side": "b",
                "skills": {"dodge": 1, "block": 1, "sponge": 1, "spear": 1},
                "attributes": {"agility": 0, "strength": 0, "endurance": 0}, "hp": 4,
                "armour": {"dr": 1, "hp": 2}, "traits": ["parry"] if parry else [],
                "weapons": [{"name": "spear", "skill": "spear", "damage": "d3", "block": 1}]}
    rules = {"check": {"die": 3, "critical_threat": 3}, "weapon_roll": {"difficulty": 3},
             "called_shot": {"banes": 0},
             "contest": {"attacker_threat_ends_contest": threat_ends}}
    weapon = "bow" if mode == "called_shot" else "blade"
    return scenario(attacker, defender, weapon=weapon, rules=rules, defense=kind, mode=mode)


@pytest.mark.parametrize(("kind", "parry", "ends"), [
    ("dodge", False, False), ("block", False, False), ("sponge", False, False),
    ("counter", False, False), ("counter", True, False),
    ("dodge", False, True), ("block", False, True), ("sponge", False, True)])
def test_exact_odds_equal_brute_force_over_a_three_roll_contest(kind: str, parry: bool,
                                                                ends: bool) -> None:
    expected = Ref(3, kind, 1, 1, difficulty=3, parry=parry, threat_ends=ends).attack()
    s = small(kind, parry, threat_ends=ends)
    assert engine(s) == {k: v for k, v in expected.items() if v}


def test_exact_odds_of_a_called_shot_ignoring_dr_equal_brute_force() -> None:
    # the banes of a called shot are set to 0 here, so only the DR rule is at stake
    expected = Ref(3, "sponge", 1, 1, difficulty=3, called=True).attack()
    assert engine(small("sponge", mode="called_shot")) == dict(expected)


@pytest.mark.parametrize("kind", ["dodge", "block", "sponge", "counter"])
def test_exact_odds_of_one_d20_roll_equal_brute_force(kind: str) -> None:
    """One-roll contests at full size: d20 checks, d6 and d8 damage, 20 HP each."""
    s = scenario(defense=kind, rules={"contest": {"rolls": 1, "wins_needed": 1}})
    expected = Ref(20, kind, 4, 3, rolls=1, need=1, dmg=6, ctr=8, bonus=1, ctr_bonus=1,
                   hp_t=20, hp_a=20, dr=2, armour=6, block=3).attack()
    assert engine(s) == dict(expected)


def test_exact_odds_with_boons_and_banes_equal_brute_force() -> None:
    s = scenario(defense="dodge", boons=1, defender_banes=1,
                 rules={"contest": {"rolls": 1, "wins_needed": 1},
                        "check": {"die": 6, "critical_threat": 6}})
    expected = Ref(6, "dodge", 4, 3, rolls=1, need=1, a_net=1, d_net=-1, dmg=6, bonus=1,
                   hp_t=20).attack()
    assert engine(s) == dict(expected)


@pytest.mark.parametrize("name", ["tony.yaml", "counter-parry.yaml"])
def test_random_sampling_agrees_with_the_exact_odds(name: str) -> None:
    """Pearson's chi-square at significance 0.001 (fixed seed: the test is repeatable)."""
    s = load_scenario(EXAMPLES / name)
    assert s.attack is not None
    exact = attack_odds(s.system, s.attack, s.roster).joint
    rng = RandomRoller(20240601)
    samples = [s.system.resolve(rng, s.attack, s.roster).summary() for _ in range(3000)]
    stat, df = chi_square(samples, exact)  # type: ignore[arg-type]
    assert stat < chi_square_critical(df)


def test_odds_report_each_critical_case_and_the_armour_left() -> None:
    s = load_scenario(EXAMPLES / "tony.yaml")
    assert s.attack is not None
    odds = attack_odds(s.system, s.attack, s.roster)
    assert set(odds.detail("attacker_critical").outcomes()) == {"none", "threat", "confirmed"}
    # played to its end (threats do not stop it), a three-roll contest is never level
    assert set(odds.detail("contest").outcomes()) == {"attacker", "defender"}
    armour = odds.detail("armour_hp_after")
    assert set(armour.outcomes()) == set(range(0, 8))  # type: ignore[arg-type]
    assert sum(odds.outcomes.values()) == 1


def test_every_detail_from_one_pass_is_its_own_pass_over_the_joint_in_the_same_order() -> None:
    """AttackOdds finds all the details' distributions in one pass (counter-parry has
    several, with None where a result lacks one): each equals a pass of its own, values
    in the same order; a detail no result has is None throughout."""
    sc = load_scenario(EXAMPLES / "counter-parry.yaml")
    assert sc.attack is not None
    odds = attack_odds(sc.system, sc.attack, sc.roster)
    names = odds.detail_names()
    assert len(names) >= 2
    for name in names:
        alone = odds.joint.map(lambda s, name=name: dict(s[4]).get(name))
        assert list(odds.detail(name).probabilities().items()) == list(
            alone.probabilities().items())
    assert odds.detail("no such detail").probabilities() == {None: 1}
    assert odds.damage is odds.damage  # found once
