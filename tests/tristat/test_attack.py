"""Attack, defense, damage and criticals (seed 003 · How to Attack / Defend, Damage)."""

from __future__ import annotations

import pytest

from fracas.core.scenario import Scenario
from fracas.dice import ScriptedRoller
from tests.tristat.util import after, make, person, run, texts

KNIFE = {"name": "knife", "damage": 5, "kind": "melee"}


def duel(**attack: object) -> Scenario:
    return make(person("a", "x", skills={"melee": 2}, weapons=[KNIFE]),
                person("b", "y", skills={"melee": 1}),
                attack={"weapon": "knife", **attack})


def test_attack_succeeds_on_2d6_equal_to_combat_value_plus_skill() -> None:
    result = run(duel(), [3, 4, 6, 6])  # 7 <= 5 + 2; defense 12 fails
    assert result.hit and result.outcome == "hit"
    assert "roll 7 ≤ attack target 7: the attack succeeds" in texts(result)


def test_attack_fails_on_2d6_above_the_target() -> None:
    result = run(duel(), [4, 4])  # 8 > 7
    assert (result.outcome, result.hit, result.damage) == ("miss", False, 0)


def test_defense_needs_strictly_less_than_its_target() -> None:
    equal = run(duel(), [3, 3, 3, 3])  # defense target 5 + 1 = 6; 6 is not < 6
    assert equal.outcome == "hit"
    under = run(duel(), [3, 3, 2, 3])  # 5 < 6
    assert (under.outcome, under.damage) == ("defended", 0)


def test_damage_is_base_plus_combat_value() -> None:
    result = run(duel(), [3, 3, 6, 6])
    assert result.damage == 5 + 5


def test_unarmed_strike_has_base_damage_zero() -> None:
    scenario = make(person("a", "x", skills={"brawl": 2}), person("b", "y"))
    result = run(scenario, [3, 3, 6, 6])
    assert result.damage == 0 + 5
    assert "damage: 0 (unarmed base) + 5 (Combat Value) = 5" in texts(result)


def test_focused_damage_adds_five_a_level() -> None:
    scenario = make(person("a", "x", skills={"melee": 2}, weapons=[KNIFE],
                           attributes={"focused_damage": 2}),
                    attack={"weapon": "knife"})
    assert run(scenario, [3, 3, 6, 6]).damage == 5 + 5 + 10


def test_armor_subtracts_and_cannot_make_damage_negative() -> None:
    light = make(person("a", "x", skills={"melee": 2}, weapons=[KNIFE]),
                 person("b", "y", armor={"rating": 4}),
                 attack={"weapon": "knife"})
    assert run(light, [3, 3, 6, 6]).damage == 6
    heavy = make(person("a", "x", skills={"melee": 2}, weapons=[KNIFE]),
                 person("b", "y", armor={"rating": 30}),
                 attack={"weapon": "knife"})
    result = run(heavy, [3, 3, 6, 6])
    assert (result.outcome, result.hit, result.damage) == ("hit", True, 0)


@pytest.mark.parametrize(("face", "factor"), [(1, 2), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4)])
def test_critical_die_multiplies_damage_after_armor(face: int, factor: int) -> None:
    scenario = make(person("a", "x", weapons=[KNIFE]), person("b", "y", armor={"rating": 3}),
                    attack={"weapon": "knife"})
    result = run(scenario, [1, 1, 6, 6, face])
    assert result.outcome == "critical"
    assert result.damage == (5 + 5 - 3) * factor
    assert dict(result.details) == {"critical": f"x{factor}"}


def test_a_critical_can_still_be_defended_by_default() -> None:
    result = run(duel(), [1, 1, 1, 2])  # snake eyes, then defense 3 < 6
    assert result.outcome == "defended"


def test_an_undefendable_critical_when_the_table_says_so() -> None:
    scenario = make(person("a", "x", weapons=[KNIFE]), attack={"weapon": "knife"},
                    rules={"critical_defendable": False})
    result = run(scenario, [1, 1, 2])  # no defense dice
    assert result.damage == 20
    assert "a critical cannot be defended (table rule)" in texts(result)


def test_snake_eyes_succeeds_even_below_a_target_of_two_by_default() -> None:
    scenario = make(person("a", "x", weapons=[KNIFE]),
                    attack={"weapon": "knife", "options": {"trick_shot": 4}})  # target 1
    result = run(scenario, [1, 1, 6, 6, 1])
    assert result.outcome == "critical"
    strict = make(person("a", "x", weapons=[KNIFE]),
                  attack={"weapon": "knife", "options": {"trick_shot": 4}},
                  rules={"snake_eyes_always_succeeds": False})
    assert run(strict, [1, 1]).outcome == "miss"


@pytest.mark.parametrize(("number", "target"), [(1, 6), (2, 4), (3, 2), (4, 0)])
def test_first_defense_free_then_minus_two_cumulative(number: int, target: int) -> None:
    result = run(duel(options={"defense_number": number}), [3, 3, 6, 6])
    totals = [t.split(";")[0] for t in texts(result) if t.startswith("B's defense target")]
    assert totals and totals[0].endswith(f"= {target}")


def test_defenses_used_this_round_sets_the_penalty_from_state() -> None:
    scenario = duel()
    first = run(scenario, [3, 3, 5, 6])
    roster = after(scenario, first)
    assert roster["b"].state.defenses_used == 1
    second = scenario.system.resolve(ScriptedRoller([3, 3, 1, 4]), scenario.attack,
                                     roster.replace(roster["a"].evolve(attacks_used=0)))
    # defense target 6 − 2 = 4; a roll of 5 no longer defends
    assert second.outcome == "hit"
    assert any("defense #2 this round" in t for t in texts(second))


def test_extra_attacks_give_more_optimal_defenses() -> None:
    scenario = make(person("a", "x", skills={"melee": 2}, weapons=[KNIFE]),
                    person("b", "y", skills={"melee": 1}, attributes={"extra_attacks": 1}),
                    attack={"weapon": "knife", "options": {"defense_number": 2}})
    assert run(scenario, [3, 3, 2, 3]).outcome == "defended"  # 5 < 6: no penalty


def test_multipliers_multiply_together_by_default_or_add_when_told() -> None:
    opts = {"weapon": "knife", "options": {"vital_target": True}}
    times = make(person("a", "x", skills={"melee": 6}, weapons=[KNIFE]), attack=opts)
    assert run(times, [1, 1, 6, 6, 4]).damage == 10 * 2 * 3
    plus = make(person("a", "x", skills={"melee": 6}, weapons=[KNIFE]), attack=opts,
                rules={"multipliers": "add"})
    assert run(plus, [1, 1, 6, 6, 4]).damage == 10 * 4


def test_the_skill_a_weapon_names_is_used() -> None:
    bow = {"name": "bow", "damage": 6, "kind": "ranged", "skill": "archery"}
    scenario = make(person("a", "x", skills={"archery": 3, "ranged": 0}, weapons=[bow]),
                    attack={"weapon": "bow"})
    assert any(t.startswith("A's attack target: 5 (Combat Value) + 3 (Archery) = 8")
               for t in texts(run(scenario, [4, 4, 6, 6])))
