"""Bad sheets, options and actions get clear errors naming the field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.errors import InputError
from tests.tristat.util import make, person

SWORD = {"name": "sword", "damage": 8, "kind": "melee"}
GREAT = {"name": "greatsword", "damage": 12, "kind": "melee", "hands": 2}


def error(**kw: Any) -> InputError:
    with pytest.raises(InputError) as err:
        make(**kw)
    return err.value


@settings(deadline=None)
@given(st.sampled_from(["body", "mind", "soul"]), st.integers(max_value=0))
def test_a_stat_below_one_names_the_stat(stat: str, value: int) -> None:
    err = error(a=person("a", "x", **{stat: value}))
    assert err.path == f"combatants[0].{stat}"


def test_negative_skill_names_the_skill() -> None:
    err = error(a=person("a", "x", skills={"melee": -1}))
    assert err.path == "combatants[0].skills.melee"


def test_unknown_sheet_field() -> None:
    err = error(a=person("a", "x", strength=4))
    assert err.path == "combatants[0].strength"
    assert err.allowed and "body" in err.allowed


def test_unknown_option() -> None:
    err = error(attack={"options": {"called_shot": True}})
    assert err.path == "attack.options.called_shot"
    assert err.allowed is not None and "vital_target" in err.allowed


@settings(deadline=None)
@given(st.integers(max_value=-1))
def test_negative_trick_shot(value: int) -> None:
    assert error(attack={"options": {"trick_shot": value}}).path == "attack.options.trick_shot"


def test_weapon_not_on_the_sheet() -> None:
    err = error(a=person("a", "x", weapons=[SWORD]), attack={"weapon": "axe"})
    assert err.path == "attack.weapon" and err.allowed == "sword"


def test_two_weapons_with_one_hand_free() -> None:
    err = error(a=person("a", "x", weapons=[SWORD, GREAT]),
                attack={"weapon": "sword", "options": {"two_weapons": "same_target"}})
    assert err.path == "attack.options.two_weapons"
    assert "one-handed weapon in each hand" in err.message


def test_two_weapons_with_a_two_handed_weapon() -> None:
    err = error(a=person("a", "x", weapons=[SWORD, GREAT, SWORD | {"name": "dirk"}]),
                attack={"weapon": "greatsword", "options": {"two_weapons": "two_targets"}})
    assert err.path == "attack.options.two_weapons"


def test_bad_weapon_kind_and_hands() -> None:
    err = error(a=person("a", "x", weapons=[SWORD | {"kind": "thrown"}]))
    assert err.path == "combatants[0].weapons[0].kind"
    err = error(a=person("a", "x", weapons=[SWORD | {"hands": 3}]))
    assert err.path == "combatants[0].weapons[0].hands"


def test_duplicate_weapon_names() -> None:
    err = error(a=person("a", "x", weapons=[SWORD, SWORD]))
    assert err.path == "combatants[0].weapons[1].name"


def test_health_above_maximum() -> None:
    err = error(a=person("a", "x", health=51))
    assert err.path == "combatants[0].health" and "50" in err.message


def test_option_that_does_not_fit_the_action() -> None:
    err = error(b=person("b", "y", grappled_by="a"),
                attack={"action": "throw", "options": {"vital_target": True}})
    assert err.path == "attack.options.vital_target"


def test_unknown_action() -> None:
    err = error(attack={"action": "fireball"})
    assert err.path == "attack.action" and err.allowed and "grapple" in err.allowed


def test_chink_without_armor() -> None:
    assert error(attack={"options": {"chink": True}}).path == "attack.options.chink"


def test_grappling_with_a_weapon() -> None:
    err = error(a=person("a", "x", weapons=[SWORD]),
                attack={"action": "grapple", "weapon": "sword"})
    assert err.path == "attack.weapon"


def test_escape_when_not_held() -> None:
    assert error(attack={"action": "escape"}).path == "attack.defender"


def test_grappled_by_unknown_combatant() -> None:
    err = error(b=person("b", "y", grappled_by="zed"))
    assert err.path == "combatants[1].grappled_by"


def test_willpower_without_energy() -> None:
    err = error(a=person("a", "x", energy=4), attack={"options": {"willpower": True}})
    assert err.path == "attack.options.willpower"


def test_bad_table_default_override() -> None:
    err = error(rules={"multipliers": "square"})
    assert err.path == "rules.multipliers"
    assert error(rules={"no_such_rule": 1}).path == "rules.no_such_rule"


def test_kensei_levels_must_name_a_penalty() -> None:
    err = error(a=person("a", "x", attributes={"kensei": {"flying": 1}}))
    assert err.path is not None and err.path.startswith("combatants[0].attributes.kensei")
    err = error(a=person("a", "x", attributes={"kensei": 2}))
    assert err.path == "combatants[0].attributes.kensei"


def test_unconscious_attacker_cannot_act() -> None:
    assert error(a=person("a", "x", health=0)).path == "attack.attacker"
