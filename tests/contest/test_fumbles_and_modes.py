"""Critical failures (Step 3) and the attack types of Step 1: fight normally, called shot,
fight defensively; boons and banes netted per side (table default)."""

from __future__ import annotations

import pytest

from fracas.dice import RandomRoller
from fracas.errors import InputError
from fracas.systems.contest.checks import FIGHTING_DEFENSIVELY
from fracas.systems.contest.events import ContestBoons, ContestCheck
from tests.contest.helpers import after, detail, run, scenario, texts


def _checks(result: object, who: str) -> list[ContestCheck]:
    return [e for e in result.events  # type: ignore[attr-defined]
            if isinstance(e, ContestCheck) and e.who == who and e.check != "weapon roll"]


# -- critical failures ------------------------------------------------------------------
def test_a_critically_failed_dodge_knocks_the_defender_prone() -> None:
    s = scenario(defense="dodge")
    result = run(s, [15, 1, 15, 5, 2])
    assert "prone" in after(s, result)["def"].state.conditions
    assert detail(result, "defender_fumble") == "prone"


@pytest.mark.parametrize("defense", ["block", "sponge"])
def test_a_critically_failed_block_or_sponge_knocks_one_cell_back(defense: str) -> None:
    s = scenario(defense=defense)
    result = run(s, [15, 1, 15, 5, 2])
    assert any("knocked one cell backwards, if physically possible" in t
               for t in texts(result))
    assert detail(result, "defender_fumble") == "knocked back"
    assert after(s, result)["def"].state.conditions == ()


def test_a_critically_failed_attack_needs_a_weapon_roll_or_is_disarmed() -> None:
    s = scenario(defense="dodge")
    # roll 1: Att's 1, weapon roll 6 + 4 = 10 meets 10 (kept); roll 2: 1 again, 5 + 4 = 9
    result = run(s, [1, 10, 6, 1, 10, 5])
    assert after(s, result)["att"].state.dropped == ("sword",)
    assert detail(result, "attacker_fumble") == "disarmed"
    assert any("meets 10: keeps the sword" in t for t in texts(result))


def test_a_disarmed_attacker_makes_no_further_weapon_roll() -> None:
    result = run(scenario(defense="dodge"), [1, 10, 2, 15, 5, 1, 10])
    assert any("already disarmed" in t for t in texts(result))


def test_a_critically_failed_counter_attack_needs_a_weapon_roll() -> None:
    s = scenario(defense="counter")
    result = run(s, [15, 1, 3, 15, 5, 15, 5, 2])  # Def's weapon roll 3 + 3 = 6 < 10
    assert after(s, result)["def"].state.dropped == ("spear",)
    assert detail(result, "defender_fumble") == "disarmed"


def test_the_weapon_roll_difficulty_is_table_data() -> None:
    s = scenario(defense="dodge", rules={"weapon_roll": {"difficulty": 5}})
    result = run(s, [1, 10, 1, 1, 10, 1])  # 1 + 4 = 5 meets 5, twice
    assert after(s, result)["att"].state.dropped == ()


def test_a_critical_failure_is_a_natural_on_the_kept_die() -> None:
    # two boons: 3d20 keep highest; a 1 among the dice that is not kept is no failure
    result = run(scenario(defense="dodge", boons=2), [1, 1, 15, 5, 1, 1, 15, 5, 3])
    assert detail(result, "attacker_fumble") == "none" and result.outcome == "hit"


# -- attack types -----------------------------------------------------------------------
def test_fighting_defensively_puts_a_bane_on_the_attack() -> None:
    s = scenario(defense="dodge", mode="defensive")
    result = run(s, [15, 3, 10, 15, 3, 10])  # keeps 3: 7 v 13, twice
    assert [c.natural for c in _checks(result, "Att")] == [3, 3]
    assert _checks(result, "Att")[0].dice == "2d20kl1"
    assert result.outcome == "dodged"
    assert FIGHTING_DEFENSIVELY in after(s, result)["att"].state.conditions


def test_fighting_defensively_gives_a_boon_on_reactions_until_the_next_turn() -> None:
    s = scenario(defense="dodge")
    defensive = s.roster["def"].evolve(conditions=(FIGHTING_DEFENSIVELY,))
    roster = s.roster.replace(defensive)
    assert s.attack is not None
    from fracas.dice import ScriptedRoller

    result = ScriptedRoller([15, 3, 17, 15, 3, 17]).run(s.system.resolve, s.attack, roster)
    assert [(c.dice, c.natural) for c in _checks(result, "Def")] == [("2d20kh1", 17)] * 2
    assert result.outcome == "dodged"
    ended = s.system.start_turn(RandomRoller(1), "def", roster)
    assert [getattr(e, "after", None) for e in ended][-1] == ()


def test_a_called_shot_takes_two_banes_and_ignores_dr_on_a_hit() -> None:
    s = scenario(defense="sponge", mode="called_shot", weapon="bow")
    # Att keeps the lowest of three: 5 + 4 = 9 v 18, twice; Def wins the sponge
    result = run(s, [5, 6, 7, 15, 5, 6, 7, 15, 4])
    assert _checks(result, "Att")[0].dice == "3d20kl1"
    assert after(s, result)["def"].state.armour_hp == 6 - 4  # no DR: all 4 absorbed
    boons = next(e for e in result.events if isinstance(e, ContestBoons))
    assert boons.sources == (("called shot", -2),) and boons.net == -2


def test_a_called_shot_needs_a_ranged_weapon() -> None:
    with pytest.raises(InputError, match="ranged") as err:
        scenario(defense="dodge", mode="called_shot", weapon="sword")
    assert err.value.path == "attack.options.mode"


def test_fighting_defensively_needs_a_melee_weapon() -> None:
    with pytest.raises(InputError, match="melee") as err:
        scenario(defense="dodge", mode="defensive", weapon="bow")
    assert err.value.path == "attack.options.mode"


def test_boons_and_banes_cancel_one_for_one() -> None:
    result = run(scenario(defense="dodge", boons=2, banes=1, defender_banes=1),
                 [3, 15, 5, 9, 3, 15, 5, 9, 2])
    assert _checks(result, "Att")[0].dice == "2d20kh1"
    assert [c.natural for c in _checks(result, "Att")] == [15, 15]
    assert [(c.dice, c.natural) for c in _checks(result, "Def")] == [("2d20kl1", 5)] * 2


def test_melee_bonus_damage_is_for_melee_weapons_only() -> None:
    result = run(scenario(defense="dodge", weapon="bow"), [15, 5, 15, 5, 4])
    assert result.damage == 4


# -- which numbers a check adds (table defaults) -----------------------------------------
def test_an_untrained_defense_uses_the_table_rank_and_says_so() -> None:
    from tests.contest.helpers import DEFENDER, sheet

    clumsy = sheet(DEFENDER, skills={"spear": 2, "shield": 0})
    result = run(scenario(defender=clumsy, defense="dodge",
                          rules={"check": {"untrained_rank": 2}}), [15, 5, 15, 5, 2])
    assert _checks(result, "Def")[0].parts == (("dodge, untrained", 2), ("agility", 1))
    assert any("no dodge skill on the sheet, rank 2 (untrained)" in t for t in texts(result))


def test_a_missing_attribute_uses_the_table_modifier_and_says_so() -> None:
    from tests.contest.helpers import ATTACKER, sheet

    plain = sheet(ATTACKER, attributes={})
    result = run(scenario(attacker=plain, defense="dodge",
                          rules={"attributes": {"missing_modifier": -1}}), [15, 5, 15, 5, 2])
    assert _checks(result, "Att")[0].parts == (("sword", 3), ("strength, not on the sheet", -1))
    assert result.damage == 2  # no strength on the sheet: no melee bonus


def test_a_sheet_can_say_which_attribute_a_skill_uses() -> None:
    from tests.contest.helpers import ATTACKER, sheet

    finesse = sheet(ATTACKER, skill_attributes={"sword": "agility"},
                    attributes={"strength": 1, "agility": 3})
    result = run(scenario(attacker=finesse, defense="dodge"), [15, 5, 15, 5, 2])
    assert _checks(result, "Att")[0].parts == (("sword", 3), ("agility", 3))


def test_a_critical_says_the_melee_bonus_is_left_off() -> None:
    result = run(scenario(defense="dodge"), [20, 5, 12, 15, 5, 5])
    assert any("no melee bonus (strength)" in t for t in texts(result))
