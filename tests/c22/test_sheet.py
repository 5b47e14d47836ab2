"""The sheet, the options and the table defaults: bad input names its field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.errors import InputError
from fracas.systems.c22 import SYSTEM
from tests.c22.util import make, person


@pytest.mark.parametrize(("sheet", "path", "words"), [
    ({"skills": {"block": -1}}, "combatants[1].skills", "whole number >= 0"),
    ({"avoidance": -2}, "combatants[1].avoidance", ""),
    ({"armour": 3}, "combatants[1].armour", ""),
    ({"trained": ["axe"]}, "combatants[1].trained[0]", "not among the weapons"),
    ({"weapons": [{"name": "x", "damage": 1}, {"name": "x", "damage": 2}]},
     "combatants[1].weapons[1].name", "two weapons"),
    ({"weapons": [{"name": "x", "damage": 1, "pierce": -1}]},
     "combatants[1].weapons[0].pierce", ""),
    ({"position": [1]}, "combatants[1].position", ""),
])
def test_bad_sheet_fields_are_named(sheet: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(InputError) as err:
        make(b=person("b", "y", **sheet))
    assert (err.value.path or "").startswith(path)
    assert words in str(err.value)


def test_bad_table_default_override_names_the_rules_key() -> None:
    with pytest.raises(InputError) as err:
        make(rules={"grid": "triangle"})
    assert err.value.path == "rules.grid"


def test_an_attack_needs_a_weapon_from_the_sheet_and_another_combatant() -> None:
    with pytest.raises(InputError) as err:
        make(weapon="laser")
    assert err.value.path == "attack.weapon" and err.value.allowed == "blade"


def test_unknown_action_kind_is_refused() -> None:
    with pytest.raises(InputError) as err:
        make(action="grapple")
    assert err.value.path == "attack.action"


def test_the_shipped_defaults_validate_and_name_every_maneuver() -> None:
    d = SYSTEM().defaults
    assert set(d.maneuvers) == {"fish_in_a_barrel", "heavy_swing", "evasive", "dash"}
    assert d.maneuvers["fish_in_a_barrel"].base.pierce == 3  # the seed
    assert d.trained_damage_bonus == 2 and d.reactions.block.armor == 2


values = st.one_of(st.integers(-5, 40), st.text(max_size=4), st.none(), st.booleans(),
                   st.lists(st.integers(-3, 3), max_size=3))


@settings(max_examples=150, deadline=None)
@given(field=st.sampled_from(["avoidance", "armor", "health", "skills", "trained",
                              "weapons", "deck", "position", "player"]), value=values)
def test_any_sheet_value_loads_or_is_an_input_error(field: str, value: object) -> None:
    try:
        s = make(b=person("b", "y", **{field: value}))
    except InputError as err:
        assert err.path  # always says where
    else:
        assert s.roster["b"].state.health >= 1


@settings(max_examples=100, deadline=None)
@given(card=st.text(min_size=1, max_size=4))
def test_any_card_text_is_a_card_or_an_input_error(card: str) -> None:
    try:
        s = make(person("a", "x", deck=[card, "4S"]))
    except InputError as err:
        assert err.path == "combatants[0].deck[0]"
    else:
        assert len(s.roster["a"].state.draw_pile) == 2
