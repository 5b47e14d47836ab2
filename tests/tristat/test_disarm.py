"""Disarming by Brawl or Melee, and by Ranged Attacks (seed 003)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.core.model import Action, apply_events
from fracas.dice import ScriptedRoller
from fracas.errors import InputError
from fracas.systems.tristat.sheet import Options
from tests.tristat.util import after, example, make, person, run, texts

SWORD = {"name": "sword", "damage": 8, "kind": "melee"}
GREATSWORD = {"name": "greatsword", "damage": 12, "kind": "melee", "hands": 2}
GUN = {"name": "gun", "damage": 8, "kind": "ranged"}


def total(result: Any, prefix: str) -> int:
    line = next(t for t in texts(result) if prefix in t)
    return int(line.split(";")[0].rsplit("= ", 1)[1])


def disarm(weapon: str | None = "sword", victim_weapons: tuple[dict[str, Any], ...] = (SWORD,),
           options: dict[str, Any] | None = None, **attrs: Any) -> Any:
    a = person("a", "x", skills={"melee": 4, "ranged": 4, "brawl": 4},
               weapons=[SWORD, GUN], attributes=attrs)
    b = person("b", "y", skills={"melee": 2, "ranged": 2, "brawl": 2},
               weapons=list(victim_weapons))
    attack: dict[str, Any] = {"action": "disarm", "options": options or {}}
    if weapon:
        attack["weapon"] = weapon
    return make(a, b, attack)


def test_melee_disarm_is_at_minus_two() -> None:
    assert total(run(disarm(), [6, 6]), "disarm target") == 9 - 2


def test_unarmed_disarm_uses_brawl_at_minus_two() -> None:
    assert total(run(disarm(None), [6, 6]), "disarm target") == 9 - 2


def test_kensei_reduces_the_melee_disarm_penalty() -> None:
    assert total(run(disarm(kensei={"disarm": 1}), [6, 6]), "disarm target") == 9


def test_two_hands_on_the_weapon_give_plus_one_to_the_defense() -> None:
    result = run(disarm(victim_weapons=(GREATSWORD,)), [2, 2, 6, 6, 6, 6])
    assert total(result, "defense target") == 5 + 2 + 1
    one_hand = run(disarm(), [2, 2, 6, 6, 6, 6])
    assert total(one_hand, "defense target") == 5 + 2


def test_failed_body_check_disarms() -> None:
    scenario = disarm()
    result = run(scenario, [2, 2, 6, 6, 3, 3])  # Body check 6 > 5
    assert result.outcome == "disarmed"
    assert after(scenario, result)["b"].state.disarmed == ("sword",)


def test_passed_body_check_keeps_the_weapon_at_minus_two_until_end_of_its_turn() -> None:
    scenario = disarm()
    result = run(scenario, [2, 2, 6, 6, 2, 3])  # Body check 5 <= 5
    assert result.outcome == "weapon_kept"
    roster = after(scenario, result)
    assert roster["b"].state.loosened == "sword"
    system = scenario.system
    # b's turn begins: the penalty applies on this turn
    roster = apply_events(roster, system.start_turn(ScriptedRoller([]), "b", roster))
    strike = Action("b", "a", "sword", "attack", Options())
    hit = ScriptedRoller([6, 6]).run(system.resolve, strike, roster)
    assert total(hit, "attack target") == 5 + 2 - 2
    # the next turn (anyone's) begins: b's turn is over and the grip is firm again
    roster = apply_events(roster, system.start_turn(ScriptedRoller([]), "a", roster))
    assert roster["b"].state.loosened is None


def test_body_check_modifier_and_denied_check() -> None:
    penalised = run(disarm(options={"body_check_modifier": -2}), [2, 2, 6, 6, 2, 2])
    assert penalised.outcome == "disarmed"  # 4 > 5 − 2
    denied = run(disarm(options={"no_body_check": True}), [2, 2, 6, 6])
    assert denied.outcome == "disarmed"
    assert "B is denied a Body check" in texts(denied)


def test_body_check_modifier_table_default() -> None:
    a = person("a", "x", skills={"melee": 4}, weapons=[SWORD])
    b = person("b", "y", weapons=[SWORD])
    scenario = make(a, b, {"action": "disarm", "weapon": "sword"},
                    rules={"body_check_modifier": 1})
    assert run(scenario, [2, 2, 6, 6, 3, 3]).outcome == "weapon_kept"  # 6 <= 5 + 1


def test_ranged_disarm_is_at_minus_four_and_knocks_the_weapon_away() -> None:
    scenario = disarm("gun", victim_weapons=(GREATSWORD,))
    result = run(scenario, [2, 2, 6, 6])  # no Body check, no two-hand bonus
    assert total(result, "disarm target") == 9 - 4
    assert total(result, "defense target") == 5 + 2
    assert result.outcome == "disarmed"
    assert after(scenario, result)["b"].state.disarmed == ("greatsword",)


def test_gun_bunny_reduces_the_ranged_disarm_penalty() -> None:
    scenario = disarm("gun", gun_bunny={"disarm": 1})
    assert total(run(scenario, [6, 6]), "disarm target") == 9 - 1


def test_a_disarmed_weapon_cannot_attack() -> None:
    scenario = example("disarm.yaml")
    roster = after(scenario, run(scenario, [3, 4, 5, 3, 6, 5]))
    actions = scenario.system.actions("ogre", roster)
    assert actions and all(a.weapon != "maul" for a in actions)
    with pytest.raises(ValueError, match="disarmed of the maul"):
        scenario.system.resolve(ScriptedRoller([6, 6]),
                                Action("ogre", "vex", "maul", "attack", Options()), roster)


def test_target_weapon_must_be_held() -> None:
    with pytest.raises(InputError) as err:
        disarm(options={"target_weapon": "axe"})
    assert err.value.path == "attack.options.target_weapon"
