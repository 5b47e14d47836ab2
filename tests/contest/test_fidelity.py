"""Issue 15 (contest, seed 001): disarmed mid-contest, the two open readings as table
options, starting conditions in a scenario; proven through the fight loop or ``attack``."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.dice import ScriptedRoller
from fracas.encounter.engine import Encounter
from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping
from fracas.systems.contest.events import ContestBoons
from tests.contest.helpers import ATTACKER, DEFENDER, after, run, scenario, sheet, texts


def _fight(defender: dict[str, Any] | None = None, **rules: Any) -> Any:
    return scenario_from_mapping({"system": "contest", "rules": rules,
                                  "combatants": [ATTACKER, defender or DEFENDER]})


# -- disarmed mid-contest: no damage with the dropped weapon ------------------------------
def test_an_attacker_disarmed_mid_contest_deals_no_damage_in_a_fight() -> None:
    # initiative 20 v 1: Att first; Def dodges (the default reaction). Roll 1: Att's
    # natural 1, weapon roll 2 + 4 = 6 < 10: the sword is dropped; rolls 2 and 3 go to Att
    # (15 + 4 v 5 + 3), who wins 2-1 but holds no sword: the d6 is never rolled.
    roller = ScriptedRoller([20, 1, 1, 10, 2, 15, 5, 15, 5, 4])
    fight = Encounter(_fight(), roller=roller)
    fight.step()
    state = fight.state.roster
    assert state["att"].state.dropped == ("sword",)
    assert state["def"].state.hp == 20
    assert roller.leftover() == {"dice": [4]}
    assert any("deals no damage with the dropped weapon" in e.text() for e in fight.events)


def test_a_counter_attacker_disarmed_mid_contest_deals_no_damage_in_a_fight() -> None:
    # Def (random policy) picks its 4th reaction, the counter attack. Roll 1: Def's natural
    # 1, weapon roll 2 + 3 = 5 < 10: the spear is dropped; Def wins rolls 2 and 3. Att hits
    # anyway (a counter is always hit): d6 shows 3, +1 strength; the spear's d8 is never rolled.
    defender = sheet(DEFENDER, policy="random")
    roller = ScriptedRoller({"dice": [20, 1, 15, 1, 2, 5, 15, 5, 15, 3, 6], "policy": [3]})
    fight = Encounter(_fight(defender), roller=roller)
    fight.step()
    state = fight.state.roster
    assert state["def"].state.dropped == ("spear",)
    assert state["def"].state.hp == 20 - (3 + 1)  # d6 + melee bonus (strength)
    assert state["att"].state.hp == 20
    assert roller.leftover() == {"dice": [6]}


def test_the_dropped_weapon_still_deals_damage_when_the_table_says_so() -> None:
    roller = ScriptedRoller([20, 1, 1, 10, 2, 15, 5, 15, 5, 4])
    fight = Encounter(_fight(disarm={"dropped_weapon_deals_damage": True}), roller=roller)
    fight.step()
    assert fight.state.roster["def"].state.hp == 20 - (4 + 1)  # d6 + melee bonus
    assert roller.leftover() == {}


def test_a_disarmed_attacker_turns_to_another_weapon_on_its_next_turn() -> None:
    # after the fumble above, Def's turn (its spear attack is dodged 2-0), then Att's
    # turn: the sword is on the ground, so Att attacks with the bow (hits 2-0, d6 shows 5)
    roller = ScriptedRoller([20, 1, 1, 10, 2, 15, 5, 15, 5,
                             2, 15, 2, 15,
                             15, 2, 15, 2, 5])
    fight = Encounter(_fight(), roller=roller)
    fight.step()
    fight.step()
    events = fight.step()
    assert any("with the bow" in e.text() for e in events)
    assert roller.leftover() == {}


# -- two open readings as table options ----------------------------------------------------
def _critical_block(**rules: Any) -> Any:
    # roll 1: Att's natural 20, confirmed (15 + 4 = 19 beats 5 + 3 = 8); rolls 2 and 3 go
    # to Def's block (15 + 3 v 2 + 4); the critical d6 shows 4: 4 x 2 = 8
    s = scenario(defense="block", rules=rules)
    return s, run(s, [20, 5, 15, 2, 15, 2, 15, 4])


def test_a_won_block_reduces_critical_hit_damage_by_default() -> None:
    s, result = _critical_block()
    assert result.outcome == "critical"
    assert after(s, result)["def"].state.hp == 20 - (8 - 3)
    assert any("reduces the Critical Hit's damage too" in t for t in texts(result))


def test_a_won_block_does_not_reduce_a_critical_when_the_table_says_so() -> None:
    s, result = _critical_block(block={"reduces_critical": False})
    assert after(s, result)["def"].state.hp == 20 - 8
    assert any("not reduced by a block" in t for t in texts(result))


def test_a_defensive_fighters_counter_attack_takes_the_boon_only_by_default() -> None:
    s = scenario(defender=sheet(DEFENDER, conditions=["fighting defensively"]),
                 defense="counter")
    # Def rolls 2d20 (one boon) per check: 5/5, 15/15, 15/15 -> wins 2-1
    result = run(s, [15, 5, 5, 5, 15, 15, 5, 15, 15, 3, 4])
    boons = [e for e in result.events if isinstance(e, ContestBoons) and e.who == "Def"]
    assert [b.net for b in boons] == [1]


def test_a_defensive_fighters_counter_attack_takes_the_bane_when_the_table_says_so() -> None:
    s = scenario(defender=sheet(DEFENDER, conditions=["fighting defensively"]),
                 defense="counter", rules={"fight_defensively": {"counter_takes_bane": True}})
    # boon and bane cancel: one d20 per check: 5, 15, 15 -> Def wins 2-1
    result = run(s, [15, 5, 5, 15, 5, 15, 3, 4])
    boons = [e for e in result.events if isinstance(e, ContestBoons) and e.who == "Def"]
    assert [b.net for b in boons] == [0]
    assert any("takes the bane as well as the boon" in t for t in texts(result))


# -- starting conditions --------------------------------------------------------------------
def test_a_scenario_can_start_a_defender_fighting_defensively() -> None:
    s = scenario(defender=sheet(DEFENDER, conditions=["fighting_defensively"]),
                 defense="dodge")
    assert s.roster["def"].state.conditions == ("fighting defensively",)
    # Att 15 + 4 = 19; Def keeps the higher of 2d20: 3/18 + 3 = 21 wins, twice
    result = run(s, [15, 3, 18, 15, 18, 3])
    assert result.outcome == "dodged"


def test_a_scenario_can_start_a_combatant_prone_and_disarmed() -> None:
    s = scenario(attacker=sheet(ATTACKER, conditions=["prone"], disarmed=["sword"]),
                 weapon="bow", defense="dodge")
    me = s.roster["att"]
    assert me.state.conditions == ("prone",) and me.state.dropped == ("sword",)
    kinds = [(a.kind, a.weapon) for a in s.system.actions("att", s.roster)
             if not a.offensive]
    assert kinds == [("stand_up", None), ("recover_weapon", "sword")]
    with pytest.raises(InputError) as err:
        scenario(attacker=sheet(ATTACKER, disarmed=["sword"]), weapon="sword",
                 defense="dodge")
    assert err.value.path == "attack.weapon"


@pytest.mark.parametrize(("change", "path"), [
    ({"conditions": ["asleep"]}, "combatants[0].conditions"),
    ({"disarmed": ["axe"]}, "combatants[0].disarmed[0]"),
])
def test_a_bad_starting_condition_names_the_field(change: dict[str, Any], path: str) -> None:
    with pytest.raises(InputError) as err:
        scenario(attacker=sheet(ATTACKER, **change), defense="dodge")
    assert err.value.path is not None and err.value.path.startswith(path)
