"""Step 2: assembling the dice pool."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from fracas.systems.genesys.attack import plan_attack
from fracas.systems.genesys.check import downgrade, upgrade
from fracas.systems.genesys.dice import PoolSpec
from tests.genesys.helpers import pc, scenario


def pool(attacker: dict[str, Any] | None = None, defender: dict[str, Any] | None = None,
         weapon: str = "sword", rules: dict[str, Any] | None = None, **options: Any) -> str:
    sc = scenario(attacker or pc(), defender or pc(), weapon, options, rules=rules)
    assert sc.attack is not None
    return plan_attack(sc.system, sc.attack, sc.roster).spec.notation()


@settings(max_examples=30, deadline=None)
@given(hs.integers(1, 6), hs.integers(0, 5))
def test_larger_is_the_pool_size_smaller_the_upgrades(char: int, rank: int) -> None:
    me = pc(characteristics={"brawn": char, "agility": 2, "intellect": 2, "cunning": 2,
                             "willpower": 2, "presence": 2}, skills={"Melee": rank})
    spec = PoolSpec.parse(pool(me).split("-")[0])
    assert spec.proficiency + spec.ability == max(char, rank)
    assert spec.proficiency == min(char, rank)


def test_melee_difficulty_is_always_average() -> None:
    assert pool() == "PPA-DD"  # Brawn 3, Melee 2; the defender has no defense


@pytest.mark.parametrize(("band", "difficulty"), [
    ("engaged", "D"), ("short", "D"), ("medium", "DD"), ("long", "DDD"), ("extreme", "DDDD")])
def test_ranged_difficulty_by_range_band(band: str, difficulty: str) -> None:
    me = pc(weapons=[{"name": "rifle", "skill": "Ranged (Heavy)", "damage": 8, "crit": 3,
                      "range": "extreme"}])
    assert pool(me, weapon="rifle", range=band) == f"PPA-{difficulty}"


def test_ranged_band_default_is_a_table_default() -> None:
    assert pool(weapon="rifle") == "PPA-D"  # ranged_band: short
    assert pool(weapon="rifle", rules={"ranged_band": "long"}) == "PPA-DDD"


def test_defense_adds_setback_melee_or_ranged() -> None:
    target = pc(defense={"melee": 2, "ranged": 1})
    assert pool(defender=target) == "PPA-DDSS"
    assert pool(defender=target, weapon="rifle", range="medium") == "PPA-DDS"


def test_defensive_and_deflection_raise_defense_up_to_the_cap() -> None:
    target = pc(defense={"melee": 3, "ranged": 0}, weapons=[
        {"name": "shield", "skill": "Melee", "damage": "+0", "crit": 5,
         "qualities": ["Defensive 2", "Deflection 1"]}])
    assert pool(defender=target) == "PPA-DDSSSS"  # 3 + 2 capped at 4 (max_defense)
    assert pool(defender=target, rules={"max_defense": 5}) == "PPA-DD5S"
    assert pool(defender=target, weapon="rifle") == "PPA-DS"


def test_accurate_and_inaccurate() -> None:
    me = pc(weapons=[{"name": "sword", "skill": "Melee", "damage": "+2", "crit": 3,
                      "qualities": ["Accurate 2", "Inaccurate 1"]}])
    assert pool(me) == "PPABB-DDS"


def test_aim_and_given_boost_and_setback() -> None:
    assert pool(aim=2) == "PPABB-DD"
    assert pool(boost=1, setback=2) == "PPAB-DDSS"


def test_upgrades_and_downgrades_from_options() -> None:
    assert pool(upgrade_ability=1) == "PPP-DD"
    assert pool(upgrade_ability=2) == "PPPA-DD"  # no ability left: one is added
    assert pool(upgrade_difficulty=1) == "PPA-CD"
    assert pool(downgrade_difficulty=1) == "PPA-DD"  # no challenge die: no effect (default)
    assert pool(downgrade_difficulty=1, rules={"downgrade_without_die": "remove_die"}) == (
        "PPA-D")
    assert pool(downgrade_ability=1) == "PAA-DD"


def test_upgrade_and_downgrade_helpers() -> None:
    spec = PoolSpec(ability=1, difficulty=0)
    assert upgrade(spec, 2, True) == PoolSpec(proficiency=1, ability=1)
    assert upgrade(spec, 1, False) == PoolSpec(ability=1, difficulty=1)
    assert downgrade(PoolSpec(challenge=1), 2, False, "ignore") == PoolSpec(difficulty=1)
    assert downgrade(PoolSpec(challenge=1), 2, False, "remove_die") == PoolSpec()


def test_auto_fire_makes_the_check_harder() -> None:
    me = pc(weapons=[{"name": "repeater", "skill": "Ranged (Heavy)", "damage": 8, "crit": 3,
                      "range": "long", "qualities": ["Auto-fire"]}])
    assert pool(me, weapon="repeater", range="short") == "PPA-DD"
    assert pool(me, weapon="repeater", range="short", auto_fire=False) == "PPA-D"


def test_prone_target_melee_boost_ranged_setback() -> None:
    target = pc(conditions=["prone"])
    assert pool(defender=target) == "PPAB-DD"
    assert pool(defender=target, weapon="rifle", range="short") == "PPA-DS"


def test_critical_injury_effects_add_dice_to_own_checks() -> None:
    assert pool(pc(critical_injuries=["Compromised"])) == "PPA-DDD"
    assert pool(pc(critical_injuries=["Head Ringer"])) == "PPA-DD"  # Intellect/Cunning only
    assert pool(pc(critical_injuries=["Agonizing Wound"])) == "PPA-DDD"  # Brawn checks
    assert pool(pc(critical_injuries=["Blinded"])) == "PPA-CC"
    assert pool(pc(critical_injuries=["Maimed"])) == "PPA-DDS"
    assert pool(pc(critical_injuries=["Scattered Senses"]), aim=2) == "PPA-DD"


def test_horrific_injury_lowers_the_characteristic() -> None:
    assert pool(pc(critical_injuries=["Horrific Injury (Brawn)"])) == "PP-DD"


def test_conditions_disoriented_and_guarded_add_setback() -> None:
    assert pool(pc(conditions=["disoriented:1"])) == "PPA-DDS"
    assert pool(pc(conditions=["guarded:1"])) == "PPA-DDS"
    assert pool(defender=pc(conditions=["guarded:1"])) == "PPA-DDS"  # +1 melee defense


def test_minion_group_rolls_with_its_size_minus_one() -> None:
    minions = {"adversary": "minion", "group_size": 4,
               "characteristics": {"brawn": 2, "agility": 2, "intellect": 1, "cunning": 1,
                                   "willpower": 1, "presence": 1},
               "skills": {"Melee": 0}, "soak": 3, "wound_threshold": 5,
               "weapons": [{"name": "sword", "skill": "Melee", "damage": "+2", "crit": 3}]}
    assert pool(minions) == "PPA-DD"  # rank 3 vs Brawn 2
    no_skill = {**minions, "skills": {}}
    assert pool(no_skill) == "AA-DD"
    hurt = {**minions, "wounds": 11}  # two of the four are down
    assert pool(hurt) == "PA-DD"


def test_negated_defense_and_bought_defense() -> None:
    assert pool(defender=pc(defense={"melee": 2}, conditions=["exposed:0"])) == "PPA-DD"
    assert pool(defender=pc(defense={"melee": 1}, conditions=["defended:1"])) == "PPA-DDSS"


def test_auto_fire_by_default_is_a_table_default() -> None:
    me = pc(weapons=[{"name": "repeater", "skill": "Ranged (Heavy)", "damage": 8, "crit": 3,
                      "range": "long", "qualities": ["Auto-fire"]}])
    assert pool(me, weapon="repeater", range="short", rules={"auto_fire": False}) == "PPA-D"
    sc = scenario(me, pc(), "repeater", {"range": "short"})
    assert sc.attack is not None
    events = plan_attack(sc.system, sc.attack, sc.roster).events
    assert any("table default · auto_fire" in e.text() for e in events)
