"""Step 2's defenses: Dodge, Block, Sponge (Sponge Checks) and Counter Attack (Parry).

Att's sword check is d20 + 4 (damage d6 + 1 melee bonus); Def's defense checks d20 + 3,
Def wears mail (DR 2, 6 HP), holds a spear (d8, block 1) and a shield (block 3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.dice import RandomRoller
from fracas.errors import InputError, RulesError
from fracas.systems.contest.damage import Guard, sponge
from fracas.systems.contest.events import ContestArmour
from tests.contest.helpers import DEFENDER, after, detail, run, scenario, sheet, texts

LOSE = [15, 5, 15, 5]  # Att 19 v Def 8, twice: Att wins 2-0
WIN = [5, 15, 5, 15]  # Att 9 v Def 18, twice: Def wins 2-0


# -- Dodge ------------------------------------------------------------------------------
def test_a_won_dodge_avoids_all_damage() -> None:
    result = run(scenario(defense="dodge"), WIN)
    assert (result.outcome, result.hit, result.damage) == ("dodged", False, 0)


def test_a_lost_dodge_takes_the_full_damage() -> None:
    result = run(scenario(defense="dodge"), [*LOSE, 6])
    assert (result.outcome, result.hit, result.damage) == ("hit", True, 7)


# -- Block ------------------------------------------------------------------------------
def test_a_won_block_reduces_damage_by_the_best_blocking_item() -> None:
    result = run(scenario(defense="block"), [*WIN, 6])
    assert (result.outcome, result.damage) == ("blocked", 7 - 3)  # the shield's 3
    assert not result.hit  # the attacker did not win the contest


def test_block_with_a_named_item_uses_its_block_value() -> None:
    result = run(scenario(defense="block", block_item="spear"), [*WIN, 6])
    assert result.damage == 7 - 1


def test_a_lost_block_takes_the_full_damage() -> None:
    result = run(scenario(defense="block"), [*LOSE, 6])
    assert (result.outcome, result.damage) == ("hit", 7)


def test_block_needs_a_blocking_item() -> None:
    bare = sheet(DEFENDER, weapons=[{"name": "spear", "skill": "spear", "damage": "d8"}])
    with pytest.raises(InputError, match="blocking item") as err:
        scenario(defender=bare, defense="block")
    assert err.value.path == "attack.options.defense"


# -- Sponge -----------------------------------------------------------------------------
def test_a_lost_sponge_still_hits_and_the_armour_does_not_help() -> None:
    s = scenario(defense="sponge")
    result = run(s, [*LOSE, 6])
    assert (result.outcome, result.hit, result.damage) == ("hit", True, 7)
    assert after(s, result)["def"].state.armour_hp == 6
    assert detail(result, "armour_hp_after") == 6


def test_a_won_sponge_reduces_by_dr_and_the_armour_absorbs_the_rest() -> None:
    s = scenario(defense="sponge")
    result = run(s, [*WIN, 6])  # 7 - 2 = 5, absorbed: 6 -> 1
    assert (result.outcome, result.hit, result.damage) == ("sponged", True, 0)
    assert after(s, result)["def"].state.armour_hp == 1


def test_armour_absorbs_only_as_many_points_as_it_has_left() -> None:
    worn = sheet(DEFENDER, armour={"name": "mail", "dr": 2, "hp": 6, "current": 1})
    s = scenario(defender=worn, defense="sponge")
    result = run(s, [*WIN, 6])  # 7 - 2 = 5: 1 absorbed, 4 through
    state = after(s, result)["def"].state
    assert (state.armour_hp, state.hp, result.damage) == (0, 16, 4)
    assert any("broken" in t for t in texts(result))


def test_broken_armour_cannot_sponge() -> None:
    broken = sheet(DEFENDER, armour={"name": "mail", "dr": 2, "hp": 6, "current": 0})
    with pytest.raises(InputError, match="sponge"):
        scenario(defender=broken, defense="sponge")
    s = scenario(defender=broken, defense="dodge")
    assert s.attack is not None
    action = s.attack.__class__(s.attack.actor, s.attack.target, s.attack.weapon, "attack",
                                s.attack.options.model_copy(update={"defense": "sponge"}))
    with pytest.raises(RulesError, match="broken"):
        s.system.resolve(RandomRoller(1), action, s.roster)


def test_critical_hit_damage_is_not_sponged_even_when_the_sponge_is_won() -> None:
    s = scenario(defense="sponge")
    result = run(s, [20, 5, 12, *WIN, 6])  # confirmed threat, then Def wins 2-1
    assert detail(result, "contest") == "defender"
    assert (result.outcome, result.damage) == ("critical", 12)
    assert after(s, result)["def"].state.armour_hp == 6


def test_a_confirmed_critical_sponge_halves_the_damage_after_dr() -> None:
    s = scenario(defense="sponge")
    result = run(s, [5, 20, 15, 6])  # Def's 23 threat, confirmation 18 beats 9
    armour = next(e for e in result.events if isinstance(e, ContestArmour))
    assert (armour.incoming, armour.dr, armour.halved, armour.absorbed) == (7, 2, 2, 2)
    assert after(s, result)["def"].state.armour_hp == 4


def test_the_halving_rounds_up_when_the_table_says_so() -> None:
    s = scenario(defense="sponge", rules={"sponge": {"rounding": "up"}})
    result = run(s, [5, 20, 15, 6])
    assert after(s, result)["def"].state.armour_hp == 6 - 3


@given(total=st.integers(0, 60), dr=st.integers(0, 10), armour=st.integers(0, 20),
       divisor=st.integers(1, 3))
def test_sponge_arithmetic_accounts_for_every_point(total: int, dr: int, armour: int,
                                                    divisor: int) -> None:
    after_dr, halved, absorbed, through = sponge(total, Guard("sponge", dr=dr,
                                                              divisor=divisor), armour)
    assert after_dr == max(0, total - dr)
    assert halved == after_dr // divisor
    assert absorbed == min(halved, armour) and absorbed + through == halved
    assert through >= 0


# -- Counter Attack ---------------------------------------------------------------------
def test_a_counter_attack_always_makes_all_three_rolls() -> None:
    result = run(scenario(defense="counter"), [*LOSE, 15, 5, 3])
    assert sum(1 for t in texts(result) if t.startswith("Roll 3 ·")) == 2
    assert (result.outcome, result.hit, result.damage) == ("hit", True, 4)
    assert detail(result, "counter_damage") == 0


def test_a_counter_attacker_who_wins_takes_the_hit_and_deals_its_weapon_damage() -> None:
    s = scenario(defense="counter")
    result = run(s, [*WIN, 5, 15, 3, 6])  # Att's d6 3 + 1; Def's spear d8 6 + 1
    roster = after(s, result)
    assert (result.outcome, result.damage) == ("hit", 4)
    assert detail(result, "counter_damage") == 7 and roster["att"].state.hp == 13


def test_all_three_rolls_even_after_the_attacker_confirms_a_threat() -> None:
    result = run(scenario(defense="counter"), [20, 5, 12, 3, 15, 3, 15, 4, 6])
    assert detail(result, "contest") == "defender"
    assert (result.outcome, result.damage) == ("critical", 8)
    assert detail(result, "counter_damage") == 7


def test_a_counter_attackers_threat_deals_damage_even_when_losing() -> None:
    # Def's 20 wins roll 1 (no double count for a counter), Att wins rolls 2 and 3
    result = run(scenario(defense="counter"), [15, 20, 2, *LOSE, 3, 4])
    assert detail(result, "contest") == "attacker"
    assert detail(result, "counter_damage") == 5


def test_parry_winning_counter_attacker_takes_no_damage() -> None:
    parrier = sheet(DEFENDER, traits=["parry"])
    result = run(scenario(defender=parrier, defense="counter"), [2, 15, 2, 15, 2, 15, 5])
    assert (result.outcome, result.damage) == ("parried", 0)
    assert detail(result, "counter_damage") == 6


def test_parry_does_not_stop_an_attackers_threat() -> None:
    parrier = sheet(DEFENDER, traits=["parry"])
    result = run(scenario(defender=parrier, defense="counter"), [20, 5, 3, 2, 15, 2, 15, 4, 5])
    assert detail(result, "contest") == "defender"
    assert (result.outcome, result.damage) == ("hit", 5)
    assert detail(result, "counter_damage") == 6


def test_a_losing_parrier_takes_the_hit() -> None:
    parrier = sheet(DEFENDER, traits=["parry"])
    result = run(scenario(defender=parrier, defense="counter"), [*LOSE, 15, 5, 2])
    assert (result.outcome, result.damage) == ("hit", 3)
