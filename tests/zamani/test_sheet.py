"""Sheets, options and defaults: bad input names the field and what is allowed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.errors import InputError
from fracas.systems.zamani import SYSTEM

from .helpers import duel, scenario, sheet


def load_error(**fields: Any) -> InputError:
    with pytest.raises(InputError) as err:
        scenario([sheet("ann", "a", **fields), sheet("bob", "b")])
    return err.value


def test_attributes_must_include_dexterity_fitness_and_spirit() -> None:
    err = load_error(attributes={"dexterity": 5, "fitness": 5, "spirit": 5, "luck": 40})
    assert "combatants[0].attributes" in str(err)
    with pytest.raises(InputError, match="must include spirit"):
        scenario([{"id": "x", "side": "a", "attributes": {"dexterity": 3, "fitness": 3},
                   "wounds": {"max": 5}}])


def test_unknown_sheet_fields_are_named() -> None:
    err = load_error(hitpoints=5)
    assert err.path == "combatants[0].hitpoints"
    assert "attributes" in (err.allowed or "")


def test_weapon_fields_are_checked() -> None:
    err = load_error(weapons=[{"name": "sword", "rating": 11}])
    assert err.path == "combatants[0].weapons[0].rating"
    err = load_error(weapons=[{"name": "gun", "rating": 5, "kind": "laser"}])
    assert err.path == "combatants[0].weapons[0].kind"


def test_only_melee_weapons_can_block() -> None:
    err = load_error(weapons=[{"name": "bow", "rating": 5, "kind": "missile", "blocking": True}])
    assert "only a melee weapon can block" in str(err)


def test_in_hand_must_name_weapons_and_fit_two_hands() -> None:
    great = {"name": "greatsword", "rating": 6, "hands": 2}
    err = load_error(weapons=[great], shield={}, in_hand=["greatsword", "shield"])
    assert err.path == "combatants[0].in_hand" and "3 hands" in str(err)
    err = load_error(in_hand=["axe"])
    assert err.path == "combatants[0].in_hand[0]"


def test_duplicate_weapon_names_and_unknown_conditions() -> None:
    sword = {"name": "sword", "rating": 4}
    assert load_error(weapons=[sword, sword]).path == "combatants[0].weapons[1].name"
    assert load_error(conditions=["sleepy"]).path == "combatants[0].conditions[0]"


def test_current_wounds_cannot_exceed_max() -> None:
    assert "exceed max" in str(load_error(wounds={"max": 5, "current": 9}))


def test_bad_options_are_named() -> None:
    with pytest.raises(InputError) as err:
        duel(options={"defence": "block"})
    assert err.value.path == "attack.options.defence"
    with pytest.raises(InputError) as err:
        duel(options={"surprise": "yes"})
    assert err.value.path == "attack.options.surprise"


def test_bad_rule_overrides_are_named() -> None:
    with pytest.raises(InputError) as err:
        duel(rules={"tie_die": 1})
    assert err.value.path == "rules.tie_die"
    with pytest.raises(InputError, match="must give L, M, H, X and C"):
        duel(rules={"multipliers": {"Q": 1}})


def test_defaults_come_from_the_data_pack() -> None:
    d = SYSTEM().defaults
    assert d.action_table == "default" and d.tie_die == 10
    assert d.multipliers == {"L": 1, "M": 2, "H": 3, "X": 4, "C": 5}


def test_initial_state_holds_wounds_and_what_is_in_hand() -> None:
    s = scenario([sheet("ann", "a", wounds={"max": 12, "current": 7}, shield={}),
                  sheet("bob", "b")])
    st_ = s.roster["ann"].state
    assert (st_.wounds, st_.max_wounds, st_.in_hand) == (7, 12, ("sword", "shield"))
    assert SYSTEM().health(s.roster["ann"]) == (7, 12)


@given(dex=st.integers(1, 30), fit=st.integers(0, 30), spi=st.integers(0, 30),
       skills=st.dictionaries(st.sampled_from(["swords", "stealth", "acrobatics", "shield"]),
                              st.integers(0, 30)))
def test_any_ranks_in_range_make_a_valid_sheet(dex: int, fit: int, spi: int,
                                               skills: dict[str, int]) -> None:
    s = scenario([sheet("ann", "a", attributes={"dexterity": dex, "fitness": fit, "spirit": spi},
                        skills=skills), sheet("bob", "b")])
    assert s.roster["ann"].sheet.attributes["dexterity"] == dex


@given(st.integers(-5, 40))
def test_ranks_out_of_range_are_rejected(rank: int) -> None:
    if 0 <= rank <= 30:
        return
    with pytest.raises(InputError, match="rank from 0 to 30"):
        scenario([sheet("ann", "a", skills={"swords": rank}), sheet("bob", "b")])
