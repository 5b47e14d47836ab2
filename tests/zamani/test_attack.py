"""Skill rolls, the action table, damage, controlled attacks, strike effects, focus,
sacrifice and movement with attacks (seed 002; table defaults)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.errors import InputError
from fracas.systems.zamani.state import ZamaniDamage, ZamaniLookup, ZamaniTarget

from .helpers import after, duel, pinned, texts

# Ann hits on 100% (Swords 10 + Dexterity 10), so a roll of 100 - m has margin m;
# Bob's Dexterity 1 puts every attack on the first column (0-2).
SURE: dict[str, Any] = {"attributes": {"dexterity": 10}, "skills": {"swords": 10}}
EASY: dict[str, Any] = {"attributes": {"dexterity": 1}, "wounds": {"max": 60},
                        "weapons": []}


def target_of(result: Any) -> int:
    return next(e.value for e in result.events if isinstance(e, ZamaniTarget))


def lookup_of(result: Any) -> ZamaniLookup:
    return next(e for e in result.events if isinstance(e, ZamaniLookup))


def test_skill_target_is_skill_plus_attribute_ranks_times_five() -> None:
    s = duel({"attributes": {"dexterity": 6}, "skills": {"swords": 7}})
    result = pinned(s, [99])
    assert target_of(result) == 65
    assert "Ann's Swords target: (Swords 7 + Dexterity 6) × 5 = 65%" in texts(result)


def test_an_untrained_skill_counts_rank_zero_and_says_so() -> None:
    s = duel({"skills": {}})
    result = pinned(s, [99])
    assert target_of(result) == 25
    assert "untrained: rank 0" in texts(result)


def test_the_attribute_comes_from_the_weapon_then_the_sheet_then_the_defaults() -> None:
    weapon = [{"name": "sword", "rating": 4, "skill": "swords", "attribute": "fitness"}]
    by_weapon = duel({"attributes": {"fitness": 8}, "weapons": weapon})
    assert target_of(pinned(by_weapon, [99])) == (5 + 8) * 5
    by_sheet = duel({"attributes": {"spirit": 9}, "skill_attributes": {"swords": "spirit"}})
    assert target_of(pinned(by_sheet, [99])) == (5 + 9) * 5
    by_rules = duel({"attributes": {"strength": 2}}, rules={"skill_attribute": "strength"})
    assert target_of(pinned(by_rules, [99])) == (5 + 2) * 5


def test_a_roll_at_the_target_succeeds_with_margin_zero_and_above_it_misses() -> None:
    s = duel()
    hit = pinned(s, [50])
    assert lookup_of(hit).margin == 0
    miss = pinned(s, [51])
    assert (miss.outcome, miss.hit, miss.damage) == ("miss", False, 0)
    assert not any(isinstance(e, ZamaniLookup) for e in miss.events)
    assert after(s, miss)["bob"].state.wounds == 20


def test_margin_picks_the_row_and_defense_ranks_the_column() -> None:
    s = duel()  # target 50; Bob defends with Dexterity 5: column 5-6
    result = pinned(s, [5])
    look = lookup_of(result)
    assert (look.margin, look.row, look.defense, look.column, look.code) == (
        45, "40-49", 5, "5-6", "M")
    assert (result.outcome, result.damage) == ("medium", 8)  # rating 4 x 2


def test_damage_is_rating_times_multiplier_less_armor() -> None:
    s = duel(defender={"armor": {"absorption": 3, "physical": False}})
    result = pinned(s, [5])
    assert result.damage == 4 * 2 - 3
    dmg = next(e for e in result.events if isinstance(e, ZamaniDamage))
    assert dmg.text() == "Damage: sword rating 4 × 2 (medium) = 8 − 3 (armor) = 5"
    assert after(s, result)["bob"].state.wounds == 15


def test_armor_can_absorb_all_the_damage() -> None:
    s = duel(defender={"armor": {"absorption": 9, "physical": False}})
    result = pinned(s, [5])
    assert (result.outcome, result.hit, result.damage) == ("medium", True, 0)


@pytest.mark.parametrize("margin,code,multiplier", [
    (5, "L", 1), (25, "M", 2), (45, "H", 3), (65, "X$", 4), (85, "CR", 5)])
def test_each_grade_multiplies_the_rating(margin: int, code: str, multiplier: int) -> None:
    s = duel(SURE, EASY)
    result = pinned(s, [100 - margin])
    assert lookup_of(result).code == code
    assert result.damage == 4 * multiplier


def test_multipliers_are_overridable_table_defaults() -> None:
    s = duel(SURE, EASY, rules={"multipliers": {"L": 1, "M": 3, "H": 3, "X": 4, "C": 6}})
    assert pinned(s, [75]).damage == 12


def test_result_R_bypasses_armor() -> None:
    s = duel(SURE, {**EASY, "armor": {"absorption": 5, "physical": False}})
    result = pinned(s, [10])
    assert lookup_of(result).code == "CR"
    assert result.damage == 20
    assert "armor 5 bypassed" in texts(result)


def test_result_A_is_avoided_without_damage() -> None:
    s = duel(defender={"attributes": {"dexterity": 9}})
    result = pinned(s, [45])  # margin 5 vs column 9-10
    assert lookup_of(result).code == "A"
    assert (result.outcome, result.hit, result.damage) == ("avoided", False, 0)


def test_table_effect_P_knocks_the_defender_prone() -> None:
    s = duel(SURE, EASY)
    result = pinned(s, [45])  # margin 55: HP
    assert "prone" in after(s, result)["bob"].state.conditions


def test_table_effect_limb_strike_costs_a_rank_of_defense_and_attack_for_the_combat() -> None:
    s = duel(SURE, {"attributes": {"dexterity": 4}, "skills": {"swords": 3},
                    "wounds": {"max": 60}})
    result = pinned(s, [30])  # margin 70 vs defense 4 (3-4): X$
    assert lookup_of(result).code == "X$"
    hurt = after(s, result)
    assert hurt["bob"].state.limb_strikes == 1
    back = s.system.parse_action(hurt, "bob", "ann", "sword", {})
    riposte = pinned(s, [99], back, hurt)
    assert target_of(riposte) == (3 + 4) * 5 - 5
    again = pinned(s, [51], roster=hurt)
    assert lookup_of(again).defense == 3  # Dexterity 4 - 1 limb strike


def test_table_effect_D_disarms_the_weapon_in_hand() -> None:
    s = duel(SURE, {"attributes": {"dexterity": 1}, "skills": {}, "wounds": {"max": 60}})
    result = pinned(s, [25])  # margin 75: XD
    assert lookup_of(result).code == "XD"
    assert after(s, result)["bob"].state.in_hand == ()
    assert "Bob drops the sword" in texts(result)


def test_controlled_attack_needs_H_X_or_C_else_misses_as_A() -> None:
    s = duel(SURE, EASY, options={"controlled": True, "effect": "limb"})
    result = pinned(s, [75])  # margin 25: M
    assert (result.outcome, result.hit, result.damage) == ("avoided", False, 0)
    assert "as if it were A" in texts(result)
    assert after(s, result)["bob"].state.limb_strikes == 0


def test_controlled_attack_applies_its_effect_not_the_tables_and_deals_light_damage() -> None:
    s = duel(SURE, EASY, options={"controlled": True, "effect": "limb"})
    result = pinned(s, [45])  # margin 55: HP
    bob = after(s, result)["bob"].state
    assert (result.outcome, result.damage) == ("controlled", 4)
    assert bob.limb_strikes == 1 and "prone" not in bob.conditions
    assert ("effect", "limb") in result.details


@pytest.mark.parametrize("effect,check", [
    ("prone", lambda st: "prone" in st.conditions),
    ("disarm", lambda st: st.in_hand == ()),
    ("blinded", lambda st: "blinded" in st.conditions),
])
def test_controlled_attack_standard_and_own_effects(effect: str, check: Any) -> None:
    s = duel(SURE, {"attributes": {"dexterity": 1}, "skills": {}, "wounds": {"max": 60}},
             options={"controlled": True, "effect": effect})
    result = pinned(s, [15])  # margin 85: CR, whose own effect is ignored
    assert check(after(s, result)["bob"].state)
    assert result.damage == 4


def test_controlled_slip_past_armor_deals_light_damage_through_armor() -> None:
    s = duel(SURE, {**EASY, "armor": {"absorption": 3, "physical": False}},
             options={"controlled": True, "effect": "armor"})
    assert pinned(s, [45]).damage == 4
    plain = duel(SURE, {**EASY, "armor": {"absorption": 3, "physical": False}},
                 options={"controlled": True, "effect": "limb"})
    assert pinned(plain, [45]).damage == 1


@pytest.mark.parametrize("attacker,options,path", [
    ({"weapons": [{"name": "sword", "rating": 4, "kind": "missile"}]},
     {"controlled": True, "effect": "limb"}, "attack.options.controlled"),
    ({}, {"controlled": True}, "attack.options.effect"),
    ({}, {"effect": "limb"}, "attack.options.effect"),
    ({}, {"controlled": True, "effect": "limb", "surprise": "stealth"},
     "attack.options.surprise"),
    ({}, {"controlled": True, "effect": "limb", "move": "half_after"}, "attack.options.move"),
])
def test_controlled_attack_restrictions_are_input_errors(attacker: Any, options: Any,
                                                         path: str) -> None:
    with pytest.raises(InputError) as err:
        duel(attacker, options=options)
    assert err.value.path == path


def test_wounds_at_zero_put_the_character_out() -> None:
    s = duel(SURE, {"attributes": {"dexterity": 1}, "wounds": {"max": 30, "current": 5},
                    "weapons": []})
    result = pinned(s, [55])  # margin 45: H, 12 damage
    bob = after(s, result)["bob"]
    assert result.damage == 5 and result.taken_out
    assert bob.state.wounds == 0 and "unconscious" in bob.state.conditions
    assert not s.system.is_active(bob)


def test_sacrifice_takes_five_percent_per_rank_from_rolled_skills() -> None:
    s = duel({"sacrifice": 2})  # the sheet's sacrifice for this Turn
    assert target_of(pinned(s, [99])) == 40
    by_sheet = duel({"sacrifice": 3})
    assert target_of(pinned(by_sheet, [99])) == 35


def test_sacrifice_does_not_touch_passive_defense() -> None:
    s = duel(defender={"sacrifice": 4})
    assert lookup_of(pinned(s, [5])).defense == 5


def test_focus_for_effectiveness_adds_25_percent_and_is_used_up() -> None:
    s = duel(options={"focus": "effect"})
    assert target_of(pinned(s, [99])) == 75
    focused = s.roster.replace(s.roster["ann"].evolve(focus="effect"))
    plain = duel()
    result = pinned(plain, [99], roster=focused)
    assert target_of(result) == 75
    assert after(plain, result, focused)["ann"].state.focus == ""


def test_focus_is_lost_when_knocked_prone_before_acting() -> None:
    s = duel(SURE, EASY)
    focused = s.roster.replace(s.roster["bob"].evolve(focus="focusing:effect"))
    result = pinned(s, [45], roster=focused)  # HP
    assert after(s, result, focused)["bob"].state.focus == ""
    assert "loses the focus benefit (knocked prone)" in texts(result)


def test_focus_is_lost_when_stunned_before_acting() -> None:
    s = duel(SURE, EASY, options={"controlled": True, "effect": "stunned"})
    focused = s.roster.replace(s.roster["bob"].evolve(focus="effect"))
    result = pinned(s, [45], roster=focused)
    bob = after(s, result, focused)["bob"].state
    assert "stunned" in bob.conditions and bob.focus == ""
    assert s.system.actions("bob", after(s, result, focused)) == []


def test_a_limb_strike_on_the_attacker_costs_five_percent() -> None:
    s = duel()
    hurt = s.roster.replace(s.roster["ann"].evolve(limb_strikes=2))
    assert target_of(pinned(s, [99], roster=hurt)) == 40


def test_half_move_then_attack() -> None:
    s = duel(options={"move": "half_before"})
    result = pinned(s, [99])
    assert after(s, result)["ann"].state.half_moves == 1


def test_half_move_after_only_a_successful_regular_attack() -> None:
    s = duel(options={"move": "half_after"})
    hit = pinned(s, [5])
    assert after(s, hit)["ann"].state.half_moves == 1
    missed = pinned(s, [90])
    assert after(s, missed)["ann"].state.half_moves == 0
    assert "cannot move afterwards" in texts(missed)
    avoided = duel(defender={"attributes": {"dexterity": 9}}, options={"move": "half_after"})
    result = pinned(avoided, [45])
    assert result.outcome == "avoided"
    assert after(avoided, result)["ann"].state.half_moves == 0


def test_an_attack_spends_the_countdowns_offensive_action() -> None:
    s = duel()
    state = after(s, pinned(s, [90]))["ann"].state
    assert state.offensive_used and state.segments_used == 1


def test_the_weapon_must_be_in_hand() -> None:
    bow = {"name": "bow", "rating": 4, "kind": "missile", "hands": 2, "skill": "bows"}
    sword = {"name": "sword", "rating": 4, "skill": "swords"}
    with pytest.raises(InputError, match="not in hand") as err:
        duel({"weapons": [sword, bow]}, weapon="bow")
    assert err.value.path == "attack.weapon"
    s = duel({"weapons": [sword, bow], "in_hand": ["bow"]}, weapon="bow")
    assert s.attack is not None
