"""seed 002 · Defense and Guarding: which ranks pick the action table's column."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.errors import InputError
from fracas.systems.zamani.state import ZamaniDefense, ZamaniLookup

from .helpers import after, duel, pinned, sheet, texts

SWORD = {"name": "sword", "rating": 4, "kind": "melee", "blocking": True, "skill": "swords"}
GREATSWORD = {"name": "greatsword", "rating": 6, "kind": "melee", "hands": 2,
              "blocking": True, "skill": "swords"}
BOW = {"name": "bow", "rating": 4, "kind": "missile", "hands": 2, "skill": "swords"}
PISTOL = {"name": "pistol", "rating": 5, "kind": "firearm", "skill": "swords"}
BLASTER = {"name": "blaster", "rating": 5, "kind": "energy", "skill": "swords"}
GRENADE = {"name": "grenade", "rating": 5, "kind": "area", "skill": "swords"}
KNIFE = {"name": "knife", "rating": 2, "kind": "missile", "skill": "swords"}


def defense(result: Any) -> ZamaniDefense:
    return next(e for e in result.events if isinstance(e, ZamaniDefense))


def column_ranks(result: Any) -> int:
    return next(e.defense for e in result.events if isinstance(e, ZamaniLookup))


def attack_with(weapon: dict[str, Any], defender: dict[str, Any] | None = None,
                options: dict[str, Any] | None = None, others: Any = ()) -> Any:
    return duel({"weapons": [weapon]}, defender, weapon=weapon["name"], options=options,
                others=others)


def test_dexterity_ranks_are_the_minimum_defense() -> None:
    s = duel(defender={"skills": {"swords": 2}})
    result = pinned(s, [10])
    assert column_ranks(result) == 5
    assert defense(result).basis == "Dexterity"
    assert after(s, result)["bob"].state.blocks_used == ()


def test_a_chosen_defense_lower_than_dexterity_falls_back_to_dexterity() -> None:
    s = duel(defender={"skills": {"swords": 2}}, options={"defense": "block"})
    result = pinned(s, [10])
    assert column_ranks(result) == 5
    assert "no better than Dexterity (5), the minimum defense" in texts(result)


def test_a_blocking_weapon_uses_its_skill() -> None:
    s = duel(defender={"skills": {"swords": 8}})
    result = pinned(s, [10])
    assert column_ranks(result) == 8
    assert after(s, result)["bob"].state.blocks_used == ("sword",)


def test_a_weapon_blocks_only_one_attack_per_round() -> None:
    s = duel(defender={"skills": {"swords": 8}})
    first = after(s, pinned(s, [10]))
    second = pinned(s, [10], roster=first)
    assert column_ranks(second) == 5


def test_a_weapon_and_a_shield_block_one_attack_each() -> None:
    s = duel(defender={"skills": {"swords": 8, "shield": 7}, "shield": {}})
    one = pinned(s, [10])
    r1 = after(s, one)
    two = pinned(s, [10], roster=r1)
    r2 = after(s, two, r1)
    three = pinned(s, [10], roster=r2)
    assert [column_ranks(x) for x in (one, two, three)] == [8, 7, 5]
    assert r2["bob"].state.blocks_used == ("sword", "shield")


@pytest.mark.parametrize("weapon", [PISTOL, BLASTER])
def test_bullets_and_energy_cannot_be_blocked_by_weapon_or_shield(weapon: Any) -> None:
    s = attack_with(weapon, {"skills": {"swords": 9, "shield": 9}, "shield": {}})
    assert column_ranks(pinned(s, [10])) == 5
    with pytest.raises(InputError, match="cannot be blocked"):
        attack_with(weapon, {"skills": {"swords": 9}}, {"defense": "block"})


def test_shields_stop_missiles_blocking_weapons_do_not() -> None:
    blocker = attack_with(KNIFE, {"skills": {"swords": 9}})
    assert column_ranks(pinned(blocker, [10])) == 5
    shield = attack_with(KNIFE, {"skills": {"shield": 8}, "shield": {}, "weapons": []})
    assert column_ranks(pinned(shield, [10])) == 8
    with pytest.raises(InputError, match="do not stop arrows or thrown weapons"):
        attack_with(KNIFE, {"skills": {"swords": 9}}, {"defense": "block"})


def test_acrobatics_may_be_the_defense() -> None:
    s = duel(defender={"skills": {"acrobatics": 8}, "weapons": []})
    result = pinned(s, [10])
    assert column_ranks(result) == 8
    assert after(s, result)["bob"].state.acrobatics_used


def test_acrobatics_works_against_one_attack_per_round() -> None:
    s = duel(defender={"skills": {"acrobatics": 8}, "weapons": [],
                       "armor": {"absorption": 20, "physical": False}})
    first = after(s, pinned(s, [10]))
    assert column_ranks(pinned(s, [10], roster=first)) == 5


def test_acrobatics_is_lost_after_a_wound_that_round() -> None:
    s = duel(defender={"skills": {"acrobatics": 8}, "weapons": []})
    wounded = s.roster.replace(s.roster["bob"].evolve(wounded_this_round=True))
    result = pinned(s, [10], roster=wounded)
    assert column_ranks(result) == 5
    with pytest.raises(InputError, match="lost after a wound"):
        s.system.parse_action(wounded, "ann", "bob", "sword", {"defense": "acrobatics"})


@pytest.mark.parametrize("defender,why", [
    ({"weapons": [GREATSWORD], "skills": {"acrobatics": 8}}, "two-handed weapon"),
    ({"weapons": [SWORD], "shield": {}, "skills": {"acrobatics": 8}},
     "both a weapon and a shield"),
    ({"weapons": [], "skills": {"acrobatics": 8}, "conditions": ["casting"]},
     "spellcasting"),
])
def test_acrobatics_restrictions(defender: dict[str, Any], why: str) -> None:
    s = duel(defender=defender)
    assert column_ranks(pinned(s, [10])) == 5
    with pytest.raises(InputError, match=why):
        duel(defender=defender, options={"defense": "acrobatics"})


def test_no_blocking_while_spellcasting() -> None:
    s = duel(defender={"skills": {"swords": 9, "shield": 9}, "shield": {},
                       "conditions": ["casting"]})
    assert column_ranks(pinned(s, [10])) == 5


def test_physical_armor_costs_a_rank_of_dexterity_per_two_points() -> None:
    for absorption, ranks in ((1, 5), (2, 4), (4, 3), (5, 3), (6, 2)):
        s = duel(defender={"armor": {"absorption": absorption}, "skills": {}})
        assert column_ranks(pinned(s, [10])) == ranks, absorption


def test_physical_armor_also_hampers_acrobatics_not_blocking() -> None:
    acro = duel(defender={"armor": {"absorption": 4}, "skills": {"acrobatics": 8},
                          "weapons": []})
    assert column_ranks(pinned(acro, [10])) == 6
    block = duel(defender={"armor": {"absorption": 4}, "skills": {"swords": 8}})
    assert column_ranks(pinned(block, [10])) == 8


def test_magical_or_natural_armor_does_not_hamper_dexterity() -> None:
    s = duel(defender={"armor": {"absorption": 6, "physical": False}, "skills": {}})
    assert column_ranks(pinned(s, [10])) == 5


def test_area_weapons_face_raw_dexterity_and_defensive_traits_only() -> None:
    s = attack_with(GRENADE, {"skills": {"acrobatics": 9, "shield": 9}, "shield": {},
                              "weapons": [], "armor": {"absorption": 2},
                              "traits": [{"name": "Combat Luck", "defense": 2}]})
    result = pinned(s, [10])
    assert column_ranks(result) == 5 - 1 + 2
    used = after(s, result)["bob"].state
    assert used.blocks_used == () and not used.acrobatics_used


def test_area_weapons_ignore_guarding_and_cover() -> None:
    s = attack_with(GRENADE, {"skills": {}}, {"guard": "self", "cover": True})
    assert column_ranks(pinned(s, [10])) == 5


def test_defensive_traits_add_ranks() -> None:
    s = duel(defender={"skills": {}, "traits": [{"name": "Combat Luck", "defense": 2}]})
    assert column_ranks(pinned(s, [10])) == 7


@pytest.mark.parametrize("weapon", [PISTOL, KNIFE])
def test_cover_adds_four_ranks_against_firearms_and_missiles(weapon: Any) -> None:
    s = attack_with(weapon, {"skills": {}}, {"cover": True})
    assert column_ranks(pinned(s, [10])) == 9


def test_cover_does_not_help_against_melee() -> None:
    s = duel(defender={"skills": {}}, options={"cover": True})
    result = pinned(s, [10])
    assert column_ranks(result) == 5
    assert "only against firearm and missile" in texts(result)


def test_cover_is_not_combined_with_a_shield_or_acrobatics() -> None:
    s = attack_with(KNIFE, {"skills": {"shield": 12, "acrobatics": 12}, "shield": {},
                            "weapons": []}, {"cover": True})
    result = pinned(s, [10])
    assert column_ranks(result) == 9
    assert after(s, result)["bob"].state.blocks_used == ()
    with pytest.raises(InputError, match="cannot be combined with hiding behind cover"):
        attack_with(KNIFE, {"skills": {"shield": 12}, "shield": {}},
                    {"cover": True, "defense": "shield"})


def test_standing_guard_adds_five_ranks() -> None:
    s = duel(defender={"skills": {}}, options={"guard": "self"})
    assert column_ranks(pinned(s, [10])) == 10
    guarding = s.roster.replace(s.roster["bob"].evolve(guarding="self"))
    plain = duel(defender={"skills": {}})
    assert column_ranks(pinned(plain, [10], roster=guarding)) == 10


def test_standing_guard_needs_a_shield_or_blocking_weapon() -> None:
    with pytest.raises(InputError, match="shield or a blocking weapon") as err:
        duel(defender={"weapons": [], "skills": {}}, options={"guard": "self"})
    assert err.value.path == "attack.options.guard"


def test_a_guard_within_reach_substitutes_their_defense_without_a_bonus() -> None:
    guard = sheet("cy", "b", skills={"shield": 8}, weapons=[], shield={})
    s = duel(defender={"skills": {}, "attributes": {"dexterity": 2}},
             options={"guard": "cy"}, others=[guard])
    result = pinned(s, [10])
    assert column_ranks(result) == 8
    assert "Cy stands guard over Bob" in texts(result)
    assert after(s, result)["cy"].state.blocks_used == ("shield",)


def test_a_guard_set_in_the_fight_protects_an_unconscious_ward() -> None:
    guard = sheet("cy", "b", skills={"shield": 8}, weapons=[], shield={})
    s = duel(defender={"skills": {}, "conditions": ["stunned"]}, others=[guard])
    alone = pinned(s, [10])
    assert column_ranks(alone) == 0
    guarded = s.roster.replace(s.roster["cy"].evolve(guarding="bob"))
    assert column_ranks(pinned(s, [10], roster=guarded)) == 8


def test_a_guard_without_shield_or_blocking_weapon_in_hand_cannot_guard() -> None:
    guard = sheet("cy", "b", skills={"shield": 8}, weapons=[], shield={})
    s = duel(defender={"skills": {}}, others=[guard])
    roster = s.roster.replace(s.roster["cy"].evolve(guarding="bob", in_hand=()))
    result = pinned(s, [10], roster=roster)
    assert column_ranks(result) == 5
    assert "Cy cannot guard Bob" in texts(result)


def test_the_attacker_cannot_be_the_guard() -> None:
    with pytest.raises(InputError, match="cannot guard the defender"):
        duel(options={"guard": "ann"})


@pytest.mark.parametrize("condition", ["stunned", "unconscious"])
def test_stunned_or_unconscious_characters_lose_even_dexterity(condition: str) -> None:
    s = duel(defender={"skills": {"swords": 9}, "conditions": [condition]})
    result = pinned(s, [10])
    assert column_ranks(result) == 0
    assert "the first column" in texts(result)


def test_an_unseen_attack_meets_no_defense() -> None:
    s = duel(defender={"skills": {"swords": 9}}, options={"unseen": True})
    assert column_ranks(pinned(s, [10])) == 0


def test_reactions_offer_the_attack_as_declared_then_each_available_defense() -> None:
    """Each defense that comes to something the ones before it do not: the best here is
    the block (6 ranks, the first of the best), so 'block' is not offered again; the
    shield (6 too, but another item used up) is."""
    s = duel(defender={"skills": {"swords": 6, "shield": 6}, "shield": {}})
    assert s.attack is not None
    choices = [a.options.defense for a in s.system.reactions(s.attack, s.roster)]  # type: ignore[union-attr]
    assert choices == ["best", "dexterity", "shield"]
    gun = attack_with(PISTOL, {"skills": {"swords": 6, "shield": 6}, "shield": {}})
    assert gun.attack is not None  # against a bullet only Dexterity: nothing to choose
    assert [a.options.defense for a in gun.system.reactions(gun.attack, gun.roster)  # type: ignore[union-attr]
            ] == ["best"]


@pytest.mark.parametrize("defender", [
    {"skills": {"swords": 6, "acrobatics": 2}},  # a block and Acrobatics below Dexterity
    {"skills": {"swords": 9}, "conditions": ["stunned"]},  # no defense at all
])
def test_no_defense_to_choose_when_every_one_comes_to_the_same(defender: dict[str, Any]
                                                              ) -> None:
    """Seed 002 · Defense: a character gets at minimum its Dexterity ranks (a block or
    Acrobatics below it defends with Dexterity), and a stunned one not even that: the
    defender is not asked to choose between defenses that come to the same."""
    s = duel(defender={"attributes": {"dexterity": 12}, **defender})
    assert s.attack is not None
    assert len(s.system.reactions(s.attack, s.roster)) == 1
