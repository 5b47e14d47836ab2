"""Steps 1 to 6 of the combat check, with pinned dice (the symbols, then the d100s)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.core.events import Note
from fracas.core.model import Resolution, Roster, apply_events
from fracas.core.scenario import Scenario
from fracas.dice import ScriptedRoller
from fracas.errors import ScriptError
from fracas.systems.genesys.events import GenesysCriticalInjury, GenesysDamage, GenesysSpent
from tests.genesys.helpers import example, pc, scenario

SWORD = {"name": "sword", "skill": "Melee", "damage": "+2", "crit": 3}


def run(sc: Scenario) -> tuple[Resolution, Roster]:
    assert sc.attack is not None
    res = ScriptedRoller(sc.pins()).run(sc.system.resolve, sc.attack, sc.roster)
    return res, apply_events(sc.roster, res.events)


def attack(dice: list[Any], weapon: dict[str, Any] | None = None,
           defender: dict[str, Any] | None = None, attacker: dict[str, Any] | None = None,
           **kw: Any) -> tuple[Resolution, Roster]:
    me = attacker or pc(weapons=[weapon or SWORD])
    return run(scenario(me, defender or pc(), (weapon or SWORD)["name"], dice=dice, **kw))


def spent(res: Resolution) -> list[str]:
    return [e.text() for e in res.events if isinstance(e, GenesysSpent)]


def injuries(res: Resolution) -> list[GenesysCriticalInjury]:
    return [e for e in res.events if isinstance(e, GenesysCriticalInjury)]


def test_success_needs_at_least_one_net_success() -> None:
    res, _ = attack(["s f"])
    assert (res.outcome, res.hit, res.damage) == ("miss", False, 0)
    res, after = attack(["s"])
    assert res.hit and after["b"].state.wounds == 3  # Brawn 3 + 2, +1 success, soak 3


def test_each_net_success_adds_one_damage() -> None:
    res, after = attack(["ss ss"])
    assert after["b"].state.wounds == 5 + 4 - 3 and res.damage == 6


def test_soak_pierce_and_breach() -> None:
    pierce = {**SWORD, "qualities": ["Pierce 2"]}
    assert attack(["s"], pierce)[1]["b"].state.wounds == 6 - 1
    breach = {**SWORD, "qualities": ["Breach 1"]}
    assert attack(["s"], breach, defender=pc(soak=12))[1]["b"].state.wounds == 6 - 2


def test_no_wounds_when_soak_absorbs_it_all() -> None:
    res, after = attack(["s"], defender=pc(soak=9))
    assert after["b"].state.wounds == 0 and res.outcome == "plain hit"


def test_critical_rating_needs_damage_past_soak() -> None:
    res, _ = attack(["s aa a"], defender=pc(soak=6))  # damage 6, soak 6: nothing past it
    assert not injuries(res) and res.outcome == "plain hit"


def test_critical_rating_triggered_by_advantage() -> None:
    res, after = attack(["s aa a", 30])
    assert "spends aaa on Critical rating 3" in spent(res)[0]
    (roll,) = injuries(res)
    assert (roll.natural, roll.total, roll.injury, roll.severity) == (
        30, 30, "Discouraging Wound", "Easy")
    assert res.outcome == "critical injury" and dict(res.details)["critical injury"] == "Easy"
    assert after["b"].state.critical_injuries == ("Discouraging Wound",)


def test_a_triumph_inflicts_a_critical_injury_whatever_the_rating() -> None:
    weapon = {**SWORD, "crit": 5}
    res, after = attack(["t", 5], weapon)
    assert "spends t on Critical rating 5" in spent(res)[0]
    assert injuries(res)[0].injury == "Minor Nick"
    assert after["b"].state.strain == 1 and res.damage == 3 + 1  # wounds and strain lost


def test_each_extra_trigger_adds_ten_to_the_single_roll() -> None:
    weapon = {**SWORD, "crit": 2}
    res, after = attack(["aa aa s", 35], weapon)
    (roll,) = injuries(res)
    assert roll.parts == (("1 extra trigger", 10),) and roll.total == 45
    assert roll.injury == "Bowled Over"
    assert "prone" in after["b"].state.conditions and after["b"].state.strain == 1


def test_untreated_injuries_and_vicious_add_to_the_roll() -> None:
    weapon = {**SWORD, "qualities": ["Vicious 2"]}
    target = pc(critical_injuries=["Stinger", "Distracted"])
    res, after = attack(["s aa a", 21], weapon, target)
    (roll,) = injuries(res)
    assert roll.total == 21 + 20 + 20 and roll.injury == "Slightly Dazed"
    assert after["b"].state.critical_injuries == ("Stinger", "Distracted", "Slightly Dazed")


def test_horrific_injury_rolls_a_d10_for_the_characteristic() -> None:
    weapon = {**SWORD, "qualities": ["Vicious 6"]}
    res, after = attack(["s aa a", 50, 5], weapon)
    (roll,) = injuries(res)
    assert roll.total == 110 and roll.injury == "Horrific Injury (Agility)"
    assert after["b"].state.critical_injuries == ("Horrific Injury (Agility)",)


def test_dead_past_150() -> None:
    weapon = {**SWORD, "qualities": ["Vicious 6"]}
    res, after = attack(["s aa a", 100], weapon)
    assert injuries(res)[0].injury == "Dead" and res.taken_out
    assert "dead" in after["b"].state.conditions


def test_wounds_past_the_threshold_incapacitate_and_inflict_a_critical_injury() -> None:
    res, after = attack(["ss ss", 10], defender=pc(wound_threshold=5))
    assert after["b"].state.incapacitated and res.taken_out
    assert injuries(res)[0].injury == "Slowed Down"


def test_threshold_and_critical_rating_make_one_roll_with_extra_trigger() -> None:
    weapon = {**SWORD, "crit": 2}
    res, _ = attack(["ss ss aa", 10], weapon, pc(wound_threshold=5),
                    rules={"threshold_injury": "extra_trigger"})
    (roll,) = injuries(res)
    assert roll.total == 20  # one more trigger for the threshold
    assert any(isinstance(e, Note) and "threshold_injury=extra_trigger" in e.rule
               for e in res.events)


def test_threshold_injury_separate_makes_two_rolls() -> None:
    weapon = {**SWORD, "crit": 2}
    res, after = attack(["ss ss aa", 10, 10], weapon, pc(wound_threshold=5),
                        rules={"threshold_injury": "separate"})
    first, second = injuries(res)
    assert (first.total, second.total) == (10, 20)  # the second counts the first, untreated
    assert len(after["b"].state.critical_injuries) == 2


def test_rival_suffers_strain_as_wounds_and_falls_past_threshold() -> None:
    rival = pc(adversary="rival", strain_threshold=None, wound_threshold=6)
    weapon = {**SWORD, "qualities": ["Stun 2"]}
    res, after = attack(["ss aa"], weapon, rival)  # 4 wounds, then Stun 2 as wounds
    assert after["b"].state.wounds == 6 and not after["b"].state.incapacitated
    res, after = attack(["ss s aa"], weapon, rival)
    assert after["b"].state.wounds == 7 and res.taken_out


def test_strain_past_the_strain_threshold_incapacitates() -> None:
    weapon = {**SWORD, "qualities": ["Stun 3"]}
    res, after = attack(["s aa"], weapon, pc(strain_threshold=2))
    assert after["b"].state.strain == 3 and res.taken_out


def test_stun_damage_is_dealt_as_strain() -> None:
    weapon = {**SWORD, "qualities": ["Stun Damage"]}
    res, after = attack(["s"], weapon)
    assert (after["b"].state.wounds, after["b"].state.strain) == (0, 3)
    assert any(isinstance(e, GenesysDamage) and "strain" in e.unit for e in res.events)


MINIONS = {"adversary": "minion", "group_size": 3,
           "characteristics": {"brawn": 2, "agility": 2, "intellect": 1, "cunning": 1,
                               "willpower": 1, "presence": 1},
           "skills": {"Melee": 0}, "soak": 3, "wound_threshold": 4,
           "weapons": [SWORD]}


def test_minion_group_wounds_spill_over_the_members() -> None:
    _res, after = attack(["ss ss"], defender=MINIONS)  # 6 wounds: one of three falls
    assert (after["b"].state.wounds, after["b"].state.members) == (6, 2)
    _res, after = attack(["ss ss ss"], defender=MINIONS, attacker=pc(
        weapons=[SWORD], characteristics={"brawn": 3, "agility": 2, "intellect": 2,
                                          "cunning": 2, "willpower": 2, "presence": 2},
        skills={"Melee": 3}))
    # exactly two members' worth of wounds: the second falls only past it
    assert (after["b"].state.wounds, after["b"].state.members) == (8, 2)


def test_a_critical_injury_defeats_one_minion_by_default() -> None:
    res, after = attack(["s aa a"], defender=MINIONS)
    assert after["b"].state.members == 2 and not injuries(res)
    res, after = attack(["s aa a", 30], defender=MINIONS, rules={"minion_critical": "roll"})
    assert injuries(res)[0].injury == "Discouraging Wound"


def test_auto_fire_extra_hits_are_soaked_each() -> None:
    gun = {"name": "repeater", "skill": "Ranged (Heavy)", "damage": 6, "crit": 5,
           "range": "long", "qualities": ["Auto-fire"]}
    res, after = attack(["s aa aa"], gun, options={"range": "short"})
    hits = [e for e in res.events if isinstance(e, GenesysDamage)]
    assert len(hits) == 3 and after["b"].state.wounds == 3 * (6 + 1 - 3)


def test_linked_gives_at_most_its_rating_in_extra_hits() -> None:
    gun = {"name": "twin", "skill": "Ranged (Heavy)", "damage": 6, "crit": 5,
           "range": "long", "qualities": ["Linked 1"]}
    res, _after = attack(["s aa aa"], gun)
    assert len([e for e in res.events if isinstance(e, GenesysDamage)]) == 2


def test_extra_hits_can_go_to_other_targets_each_with_the_success_damage() -> None:
    gun = {"name": "repeater", "skill": "Ranged (Heavy)", "damage": 6, "crit": 5,
           "range": "long", "qualities": ["Auto-fire"]}
    other = {"id": "c", **pc()}
    _res, after = attack(["ss aa aa"], gun, options={"extra_targets": ["c"]}, others=[other])
    assert after["b"].state.wounds == 2 * (6 + 2 - 3)
    assert after["c"].state.wounds == 6 + 2 - 3


def test_knockdown_costs_more_against_larger_silhouettes() -> None:
    weapon = {**SWORD, "crit": 5, "qualities": ["Knockdown"]}
    _, after = attack(["s aa"], weapon)
    assert "prone" in after["b"].state.conditions
    _, after = attack(["s aa"], weapon, pc(silhouette=2))
    assert "prone" not in after["b"].state.conditions
    _, after = attack(["s aa a"], weapon, pc(silhouette=2))
    assert "prone" in after["b"].state.conditions


@pytest.mark.parametrize(("quality", "condition"), [
    ("Burn 2", "burning:2:5"), ("Ensnare 2", "immobilized:2"), ("Disorient 3", "disoriented:3")])
def test_active_qualities_leave_conditions(quality: str, condition: str) -> None:
    weapon = {**SWORD, "crit": 5, "qualities": [quality]}
    _, after = attack(["s aa"], weapon)
    assert condition in after["b"].state.conditions


def test_blast_hits_those_engaged_and_can_trigger_on_a_miss() -> None:
    grenade = {"name": "grenade", "skill": "Ranged (Light)", "damage": 8, "crit": 4,
               "range": "short", "qualities": ["Blast 5"]}
    me = pc(weapons=[grenade], skills={"Ranged (Light)": 2})
    other = {"id": "c", **pc()}
    res, after = attack(["s aa"], grenade, attacker=me, options={"blast_targets": ["c"]},
                        others=[other])
    assert after["c"].state.wounds == 5 + 1 - 3 and after["b"].state.wounds == 8 + 1 - 3
    res, after = attack(["aa a f"], grenade, attacker=me, options={"blast_targets": ["c"]},
                        others=[other])
    assert res.outcome == "blast" and not res.hit
    assert after["b"].state.wounds == after["c"].state.wounds == 5 - 3


def test_superior_adds_advantage_and_damage_inferior_the_reverse() -> None:
    sup = {**SWORD, "qualities": ["Superior"]}
    res, after = attack(["s aa", 50], sup)  # 2 + 1 automatic advantage: the crit of 3
    assert after["b"].state.wounds == 6 + 1 - 3 and injuries(res)
    inf = {**SWORD, "qualities": ["Inferior"]}
    _, after = attack(["s"], inf)
    assert after["b"].state.wounds == 6 - 1 - 3


def test_explicit_spending_choices_from_the_table() -> None:
    me = pc(weapons=[SWORD], strain=2)
    res, after = attack(["s aa aa a"], attacker=me, options={
        "spend": ["recover_strain", "negate_defense"], "advantage_policy": "none"})
    assert after["a"].state.strain == 1
    assert "exposed:0" in after["b"].state.conditions
    res, after = attack(["s aa"], options={"spend": ["setback_target"],
                                           "advantage_policy": "none"})
    assert after["b"].state.next_check == ("setback",)
    res, after = attack(["t"], options={"spend": ["upgrade_target", "critical"],
                                        "advantage_policy": "none"})
    assert after["b"].state.next_check == ("upgrade_difficulty",)
    assert any("not enough" in e.text() for e in res.events if isinstance(e, Note))


def test_explicit_choice_that_does_not_apply_is_skipped_with_a_note() -> None:
    res, _ = attack(["s f aa a"], options={"spend": ["critical"], "advantage_policy": "none"})
    assert any("needs a successful hit" in e.text() for e in res.events)


def test_policies_order_the_spending() -> None:
    gun = {"name": "repeater", "skill": "Ranged (Heavy)", "damage": 6, "crit": 2,
           "range": "long", "qualities": ["Auto-fire"]}
    res, _ = attack(["s aa aa", 20], gun, options={"range": "short"})
    assert [t.split(" on ")[1].split(":")[0] for t in spent(res)] == [
        "Critical rating 2", "Critical rating 2"]
    res, _ = attack(["s aa aa"], gun, options={"range": "short", "advantage_policy":
                                               "hits_first"})
    assert [t.split(" on ")[1].split(":")[0] for t in spent(res)] == ["Auto-fire", "Auto-fire"]


def test_gm_spends_threat_as_strain_and_despair_as_an_upgrade() -> None:
    _res, after = attack(["ss h h"])
    assert after["a"].state.strain == 2
    _res, after = attack(["ss ss d h"], options={"upgrade_difficulty": 1})
    assert after["a"].state.next_check == ("upgrade_difficulty",)


def test_gm_prone_first_and_out_of_ammo() -> None:
    _res, after = attack(["ss hh h"], options={"threat_policy": "prone_first"})
    assert "prone" in after["a"].state.conditions and after["a"].state.strain == 0
    rifle = {"name": "rifle", "skill": "Ranged (Heavy)", "damage": 8, "crit": 3,
             "range": "long"}
    _res, after = attack(["ss d"], rifle, options={"upgrade_difficulty": 1,
                                                   "gm_spend": ["out_of_ammo"]})
    assert "out_of_ammo:rifle" in after["a"].state.conditions


def test_next_check_effects_are_used_up_by_the_attack() -> None:
    me = pc(weapons=[SWORD])
    sc = scenario(me, pc(), dice=["s"])
    roster = sc.roster.replace(sc.roster["a"].evolve(next_check=("boost", "setback")))
    assert sc.attack is not None
    res = ScriptedRoller(["s"]).run(sc.system.resolve, sc.attack, roster)
    assert apply_events(roster, res.events)["a"].state.next_check == ()


def test_at_the_brink_costs_strain_to_act() -> None:
    _, after = attack(["s"], attacker=pc(weapons=[SWORD], critical_injuries=["At the Brink"]))
    assert after["a"].state.strain == 2


def test_pinned_dice_errors_name_the_die() -> None:
    with pytest.raises(ScriptError, match="d100"):
        attack(["s aa a"])  # a Critical Injury, but no d100 pinned
    with pytest.raises(ScriptError, match="left over"):
        attack(["s", 40])


def test_example_melee_brawl() -> None:
    res, after = run(example("brawl.yaml"))
    assert (res.outcome, res.damage) == ("plain hit", 1)
    assert after["bruiser"].state.conditions == ("disoriented:1",)


def test_example_vicious_and_pierce() -> None:
    res, after = run(example("vicious_pierce.yaml"))
    (roll,) = injuries(res)
    assert roll.total == 44 + 10 + 10 + 30 and roll.injury == "At the Brink"
    assert after["captain"].state.wounds == 8 - (5 - 2)


def test_example_minion_group_attacks() -> None:
    _res, after = run(example("minions.yaml"))
    assert after["kira"].state.wounds == 3 and after["deckhands"].state.wounds == 1


def test_example_auto_fire() -> None:
    _res, after = run(example("autofire.yaml"))
    assert after["deckhands"].state.wounds == 18 and after["deckhands"].state.members == 1


@pytest.mark.parametrize(("band", "difficulty"), [
    ("short", 1), ("medium", 2), ("long", 3), ("extreme", 4)])
def test_example_ranged_shot_at_each_band(band: str, difficulty: int) -> None:
    sc = example(f"ranged_{band}.yaml")
    res, _ = run(sc)
    rolled = next(e for e in res.events if type(e).__name__ == "GenesysRolled")
    assert rolled.pool.split("-")[1].count("D") == difficulty  # type: ignore[attr-defined]


@pytest.mark.parametrize(("key", "dice", "who", "field", "value"), [
    ("boost_self", "s aa", "a", "next_check", ("boost",)),
    ("upgrade_self", "t", "a", "next_check", ("upgrade_ability",)),
    ("defense", "s aa a", "a", "conditions", ("defended:1",)),
    ("setback_target", "s aa", "b", "next_check", ("setback",)),
])
def test_advantage_table_options_change_the_state(key: str, dice: str, who: str, field: str,
                                                  value: tuple[str, ...]) -> None:
    _, after = attack([dice], options={"spend": [key], "advantage_policy": "none"})
    assert getattr(after[who].state, field) == value


@pytest.mark.parametrize(("key", "dice", "who", "field", "value"), [
    ("boost_target", "ss hh", "b", "next_check", ("boost",)),
    ("setback_attacker", "ss hh", "a", "next_check", ("setback",)),
    ("prone", "ss hh h", "a", "conditions", ("prone",)),
])
def test_threat_table_options_change_the_state(key: str, dice: str, who: str, field: str,
                                               value: tuple[str, ...]) -> None:
    _, after = attack([dice], options={"gm_spend": [key], "threat_policy": "none"})
    assert getattr(after[who].state, field) == value


def test_narrative_options_are_told_not_applied() -> None:
    sc = scenario(pc(weapons=[SWORD]), pc(), dice=["s a"],
                  options={"spend": ["notice"], "advantage_policy": "none"})
    res, after = run(sc)
    assert any("notices one important point" in t for t in spent(res))
    assert after["a"].state == sc.roster["a"].state


def test_threat_policy_none_spends_nothing() -> None:
    _, after = attack(["ss hh h"], options={"threat_policy": "none"})
    assert after["a"].state.strain == 0 and after["a"].state.conditions == ()


def test_strain_first_and_qualities_first_policies() -> None:
    weapon = {**SWORD, "crit": 2, "qualities": ["Stun 1"]}
    me = pc(weapons=[weapon], strain=1)
    res, after = attack(["s aa aa", 50], weapon, attacker=me,
                        options={"advantage_policy": "strain_first"})
    assert after["a"].state.strain == 0  # one advantage recovers the strain first
    assert [t.split(" on ")[1].split(":")[0] for t in spent(res)] == [
        "recover strain", "Critical rating 2"]
    res, _ = attack(["s aa aa", 50], weapon, options={"advantage_policy": "qualities_first"})
    assert [t.split(" on ")[1].split(":")[0] for t in spent(res)] == [
        "Stun 1", "Critical rating 2"]


def test_blast_and_knockdown_are_not_bought_for_nothing() -> None:
    grenade = {"name": "grenade", "skill": "Ranged (Light)", "damage": 8, "crit": 4,
               "range": "short", "qualities": ["Blast 5", "Knockdown"]}
    me = pc(weapons=[grenade], skills={"Ranged (Light)": 2})
    res, _ = attack(["s aa"], grenade, attacker=me)  # no blast_targets: Knockdown instead
    assert [t.split(" on ")[1].split(":")[0] for t in spent(res)] == ["Knockdown"]
    res, _ = attack(["s aa"], grenade, pc(conditions=["prone"]), attacker=me,
                    options={"spend": ["Knockdown"], "advantage_policy": "none"})
    assert any("already prone" in e.text() for e in res.events)
