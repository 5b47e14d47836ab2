"""Modifiers and complications (seed 003): trick shots, vital targets, chinks, flanking, two
weapons, drawing, total attack/defense, willpower, Kensei and Gun Bunny."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.core.model import Action, apply_events
from fracas.core.scenario import Scenario
from fracas.dice import ScriptedRoller
from fracas.errors import InputError
from fracas.systems.tristat.sheet import Options
from tests.tristat.util import after, make, person, run, texts

SWORD = {"name": "sword", "damage": 8, "kind": "melee"}
GUN = {"name": "gun", "damage": 8, "kind": "ranged"}
DAGGER = {"name": "dagger", "damage": 3, "kind": "melee"}


def attack_target(result: Any) -> int:
    line = next(t for t in texts(result) if "attack target:" in t)
    return int(line.split(";")[0].rsplit("= ", 1)[1])


def defense_target(result: Any) -> int:
    line = next(t for t in texts(result) if "defense target:" in t)
    return int(line.split(";")[0].rsplit("= ", 1)[1])


def fight(options: dict[str, Any], attacker: dict[str, Any] | None = None,
          defender: dict[str, Any] | None = None, weapon: str = "sword",
          rules: dict[str, Any] | None = None) -> Scenario:
    a = attacker or person("a", "x", skills={"melee": 4, "ranged": 4},
                           weapons=[SWORD, GUN, DAGGER])
    b = defender or person("b", "y", skills={"melee": 2, "ranged": 2},
                           armor={"rating": 6, "chink": "half"})
    return make(a, b, {"weapon": weapon, "options": options}, rules=rules)


# a roll of 3 + 3 = 6 succeeds at target 6 or more; then a defense of 6 + 6 always fails
HIT = [1, 1, 6, 6, 1]


def test_trick_shot_penalises_the_attack_and_then_the_defense() -> None:
    result = run(fight({"trick_shot": 3}), [2, 2, 6, 6])
    assert attack_target(result) == 5 + 4 - 3
    assert defense_target(result) == 5 + 2 - 3


def test_vital_target_is_minus_four_and_doubles_damage_after_armor() -> None:
    result = run(fight({"vital_target": True}), [2, 2, 6, 6])
    assert attack_target(result) == 5 + 4 - 4
    assert result.damage == (8 + 5 - 6) * 2


def test_chink_is_minus_two_and_armor_counts_half() -> None:
    result = run(fight({"chink": True}), [2, 2, 6, 6])
    assert attack_target(result) == 5 + 4 - 2
    assert result.damage == 8 + 5 - 3


def test_chink_in_armor_with_no_protection_ignores_it() -> None:
    defender = person("b", "y", armor={"rating": 6, "chink": "none"})
    assert run(fight({"chink": True}, defender=defender), [2, 2, 6, 6]).damage == 13


def test_chink_of_armor_that_does_not_say_uses_the_table_default() -> None:
    defender = person("b", "y", armor={"rating": 7})
    assert run(fight({"chink": True}, defender=defender), [2, 2, 6, 6]).damage == 13 - 3
    rounded_up = fight({"chink": True}, defender=defender,
                       rules={"half_armor_rounding": "up"})
    assert run(rounded_up, [2, 2, 6, 6]).damage == 13 - 4
    no_protection = fight({"chink": True}, defender=defender, rules={"chink": "none"})
    assert run(no_protection, [2, 2, 6, 6]).damage == 13


def test_flanked_defender_takes_minus_one() -> None:
    assert defense_target(run(fight({"flanked": True}), [2, 2, 6, 6])) == 5 + 2 - 1


@pytest.mark.parametrize(("mode", "penalty"), [("same_target", -4), ("two_targets", -6)])
def test_two_weapons_penalty_on_each_attack(mode: str, penalty: int) -> None:
    result = run(fight({"two_weapons": mode}), [1, 1, 6, 6, 1])
    assert attack_target(result) == 9 + penalty


def test_two_weapon_pair_gives_a_second_attack_with_the_other_hand() -> None:
    scenario = fight({"two_weapons": "same_target", "off_hand": "dagger"})
    first = run(scenario, [2, 2, 6, 6])
    roster = after(scenario, first)
    me = roster["a"].state
    assert (me.attacks_used, me.paired_target) == (1, "b")
    assert me.paired_weapon == "dagger"
    follow = [x for x in scenario.system.actions("a", roster) if x.weapon == "dagger"
              and x.options is not None and getattr(x.options, "two_weapons", None)]
    assert follow, "the other hand's attack is offered"

    second = ScriptedRoller([2, 2, 6, 6]).run(scenario.system.resolve, follow[0], roster)
    assert second.hit
    state = apply_events(roster, second.events)["a"].state
    assert (state.attacks_used, state.paired_weapon) == (1, None)  # the same action


def test_without_off_hand_the_next_one_handed_weapon_pairs() -> None:
    scenario = fight({"two_weapons": "same_target"})
    result = run(scenario, [2, 2, 6, 6])
    assert after(scenario, result)["a"].state.paired_weapon == "gun"
    assert any("the next one-handed weapon on the sheet" in t for t in texts(result))


def test_kensei_cuts_a_named_penalty_by_three_a_level() -> None:
    kensei = person("a", "x", skills={"melee": 4}, weapons=[SWORD, DAGGER],
                    attributes={"kensei": {"two_weapons": 1, "vital_target": 2}})
    assert attack_target(run(fight({"two_weapons": "two_targets"}, kensei),
                             HIT)) == 9 - 6 + 3
    # two levels on a −4: the penalty is gone, never a bonus
    assert attack_target(run(fight({"vital_target": True}, kensei), HIT)) == 9


def test_kensei_does_not_help_ranged_and_gun_bunny_does() -> None:
    kensei = person("a", "x", skills={"ranged": 4}, weapons=[GUN],
                    attributes={"kensei": {"vital_target": 1}})
    assert attack_target(run(fight({"vital_target": True}, kensei, weapon="gun"), HIT)) == 5
    bunny = person("a", "x", skills={"ranged": 4}, weapons=[GUN],
                   attributes={"gun_bunny": {"vital_target": 1}})
    assert attack_target(run(fight({"vital_target": True}, bunny, weapon="gun"), HIT)) == 8


def test_drawing_a_weapon_is_minus_three_unless_lightning_draw() -> None:
    assert attack_target(run(fight({"drawing": True}), HIT)) == 9 - 3
    quick = person("a", "x", skills={"melee": 4}, weapons=[SWORD],
                   attributes={"kensei": {"lightning_draw": 1}})
    assert attack_target(run(fight({"drawing": True}, quick), HIT)) == 9


def test_total_attack_gives_plus_one_and_no_defense_until_next_turn() -> None:
    scenario = fight({"total_attack": True})
    result = run(scenario, [2, 2, 6, 6])
    assert attack_target(result) == 10
    roster = after(scenario, result)
    assert roster["a"].state.total_attack
    # b strikes back: a may not defend (no defense dice are used)

    reply = Action("b", "a", None, "attack", Options())
    hit = ScriptedRoller([1, 2]).run(scenario.system.resolve, reply, roster)
    assert hit.hit and any("no defense rolls" in t for t in texts(hit))
    cleared = scenario.system.start_turn(None, "a", roster)  # type: ignore[arg-type]
    assert [(e.field, e.after) for e in cleared] == [("total_attack", False)]


def test_total_defense_gives_plus_two_and_forbids_attacks() -> None:
    assert defense_target(run(fight({"total_defense": True}), [2, 2, 6, 6])) == 5 + 2 + 2
    scenario = make(attack={"action": "total_defense", "defender": None})
    result = run(scenario, [])
    assert result.outcome == "total_defense"
    roster = after(scenario, result)
    assert roster["a"].state.total_defense
    attacks = [x for x in scenario.system.actions("a", roster) if x.offensive]
    assert attacks == []


def test_willpower_spends_five_energy_for_plus_one() -> None:
    scenario = fight({"willpower": True})
    result = run(scenario, [2, 2, 6, 6])
    assert attack_target(result) == 10
    assert after(scenario, result)["a"].state.energy == 50 - 5


def test_focus_raises_the_willpower_bonus() -> None:
    focused = person("a", "x", skills={"melee": 4}, weapons=[SWORD], attributes={"focus": 2})
    assert attack_target(run(fight({"willpower": True}, focused), [2, 2, 6, 6])) == 9 + 3


def test_defender_may_spend_willpower_on_its_defense() -> None:
    scenario = fight({"defense_willpower": True})
    result = run(scenario, [2, 2, 6, 6])
    assert defense_target(result) == 8
    assert after(scenario, result)["b"].state.energy == 45


def test_total_attack_bonus_lasts_for_every_attack_until_the_next_turn() -> None:
    twice = person("a", "x", skills={"melee": 4}, weapons=[SWORD],
                   attributes={"extra_attacks": 1})
    scenario = fight({"total_attack": True}, twice)
    roster = after(scenario, run(scenario, [2, 2, 6, 6]))

    second = ScriptedRoller([2, 2, 6, 6]).run(
        scenario.system.resolve, Action("a", "b", "sword", "attack", Options()), roster)
    assert attack_target(second) == 9 + 1


def test_grappled_target_cannot_be_grabbed_again() -> None:
    with pytest.raises(InputError, match="already held") as err:
        make(person("a", "x"), person("b", "y", grappled_by="c"), {"action": "grapple"},
             others=(person("c", "x"),))
    assert err.value.path == "attack.defender"
