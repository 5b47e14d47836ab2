"""Fight hooks: initiative slots, actions, turn and round effects."""

from __future__ import annotations

from typing import Any

from fracas.core.model import Roster, apply_events
from fracas.dice import RandomRoller, ScriptedRoller
from fracas.registry.scenarios import scenario_from_mapping
from fracas.systems.genesys.rules import Genesys
from tests.genesys.helpers import pc

MINION = {"adversary": "minion", "group_size": 3,
          "characteristics": {"brawn": 2, "agility": 2, "intellect": 1, "cunning": 1,
                              "willpower": 1, "presence": 2},
          "skills": {"Melee": 0, "Cool": 0}, "soak": 3, "wound_threshold": 4,
          "weapons": [{"name": "club", "skill": "Melee", "damage": "+1", "crit": 4}]}


def roster(*entries: dict[str, Any], rules: dict[str, Any] | None = None
           ) -> tuple[Genesys, Roster]:
    sc = scenario_from_mapping({"system": "genesys", "rules": rules or {},
                                "combatants": list(entries)})
    assert isinstance(sc.system, Genesys)
    return sc.system, sc.roster


def test_initiative_orders_by_successes_then_advantage_in_pc_and_npc_slots() -> None:
    system, r = roster({"id": "ann", "side": "h", **pc()}, {"id": "bob", "side": "h", **pc()},
                       {"id": "gang", "side": "v", **MINION})
    # Cool: ann PA, bob PA (Presence 2, Cool 1); the gang: Presence 2, rank 2 -> PP
    slots, events = system.initiative(ScriptedRoller(["s", "ss a", "s aa"]), r, 1)
    assert [s.label for s in slots] == ["PC slot 1", "NPC slot 1", "PC slot 2"]
    assert slots[0].candidates == ("bob", "ann")  # any PC may take a PC slot
    assert slots[1].candidates == ("gang",)
    after = apply_events(r, events)
    assert [after[c].state.initiative for c in ("bob", "gang", "ann")] == [(1,), (2,), (3,)]


def test_initiative_ties_go_to_the_pc_by_default() -> None:
    system, r = roster({"id": "gang", "side": "v", **MINION}, {"id": "ann", "side": "h", **pc()})
    slots, _ = system.initiative(ScriptedRoller(["s a", "s a"]), r, 1)
    assert slots[0].label.startswith("PC slot")
    system, r = roster({"id": "gang", "side": "v", **MINION}, {"id": "ann", "side": "h", **pc()},
                       rules={"initiative_tie": "npc"})
    slots, _ = system.initiative(ScriptedRoller(["s a", "s a"]), r, 1)
    assert slots[0].label.startswith("NPC slot")


def test_initiative_is_rolled_once_then_kept() -> None:
    system, r = roster({"id": "ann", "side": "h", **pc()}, {"id": "gang", "side": "v", **MINION})
    slots, events = system.initiative(RandomRoller(1), r, 1)
    after = apply_events(r, events)
    again, more = system.initiative(ScriptedRoller([]), after, 2)  # no dice needed
    assert [s.label for s in again] == [s.label for s in slots]
    assert not [e for e in more if type(e).__name__ == "GenesysRolled"]


def test_surprised_rolls_vigilance() -> None:
    system, r = roster({"id": "ann", "side": "h", **pc(conditions=["surprised"])},
                       {"id": "gang", "side": "v", **MINION})
    _, events = system.initiative(RandomRoller(1), r, 1)
    assert any("Vigilance for initiative (surprised)" in e.text() for e in events)
    assert any("Willpower 2 and Vigilance 2" in e.text() for e in events)


def test_actions_are_attacks_per_enemy_and_weapon_then_guarded_stance() -> None:
    system, r = roster({"id": "ann", "side": "h", **pc()}, {"id": "gang", "side": "v", **MINION})
    acts = system.actions("ann", r)
    attacks = [a for a in acts if a.kind == "attack"]
    assert {(a.target, a.weapon) for a in attacks} == {("gang", "sword"), ("gang", "rifle")}
    assert acts[-1].kind == "guarded_stance" and not acts[-1].offensive
    res = system.resolve(RandomRoller(1), acts[-1], r)
    after = apply_events(r, res.events)
    assert "guarded:1" in after["ann"].state.conditions


def test_staggered_or_out_of_ammo_limits_the_actions() -> None:
    system, r = roster({"id": "ann", "side": "h", **pc(conditions=["staggered:1"])},
                       {"id": "gang", "side": "v", **MINION})
    assert [a.kind for a in system.actions("ann", r)] == ["guarded_stance"]
    system, r = roster({"id": "ann", "side": "h", **pc(conditions=["out_of_ammo:rifle"])},
                       {"id": "gang", "side": "v", **MINION})
    assert {a.weapon for a in system.actions("ann", r) if a.kind == "attack"} == {"sword"}


def test_burning_hurts_at_the_start_of_each_turn_then_ends() -> None:
    system, r = roster({"id": "ann", "side": "h", **pc(conditions=["burning:1:7"])},
                       {"id": "gang", "side": "v", **MINION})
    events = system.start_turn(RandomRoller(1), "ann", r)
    after = apply_events(r, events)
    assert after["ann"].state.wounds == 7 - 3
    assert after["ann"].state.conditions == ()


def test_prone_stands_up_at_the_start_of_the_turn() -> None:
    system, r = roster({"id": "ann", "side": "h", **pc(conditions=["prone"])},
                       {"id": "gang", "side": "v", **MINION})
    after = apply_events(r, system.start_turn(RandomRoller(1), "ann", r))
    assert "prone" not in after["ann"].state.conditions


def test_bleeding_out_costs_a_wound_and_a_strain_each_turn() -> None:
    system, r = roster({"id": "ann", "side": "h", **pc(critical_injuries=["Bleeding Out"])},
                       {"id": "gang", "side": "v", **MINION})
    after = apply_events(r, system.start_turn(RandomRoller(1), "ann", r))
    assert (after["ann"].state.wounds, after["ann"].state.strain) == (1, 1)


def test_bleeding_out_adds_an_injury_every_five_wounds_past_threshold() -> None:
    """Incapacitated (no turns), the character bleeds at the end of each round."""
    system, r = roster({"id": "ann", "side": "h",
                        **pc(critical_injuries=["Bleeding Out"], wounds=18)},
                       {"id": "gang", "side": "v", **MINION})
    assert not system.is_active(r["ann"])
    events = system.end_round(ScriptedRoller([3]), r, 1)
    after = apply_events(r, events)
    assert after["ann"].state.wounds == 19
    assert after["ann"].state.critical_injuries[-1] == "Sudden Jolt"  # 3 + 10 untreated


def test_round_end_counts_conditions_down_and_the_end_is_nigh_comes_due() -> None:
    system, r = roster({"id": "ann", "side": "h",
                        **pc(conditions=["staggered:1", "exposed:0", "dying:1"])},
                       {"id": "gang", "side": "v", **MINION})
    r = apply_events(r, system.end_round(RandomRoller(1), r, 1))
    assert r["ann"].state.conditions == ("staggered:0", "dying:0")
    r = apply_events(r, system.end_round(RandomRoller(1), r, 2))
    assert "dead" in r["ann"].state.conditions and not system.is_active(r["ann"])


def test_health_of_a_minion_group_is_its_summed_threshold() -> None:
    system, r = roster({"id": "gang", "side": "v", **MINION, "wounds": 5},
                       {"id": "ann", "side": "h", **pc()})
    assert system.health(r["gang"]) == (12 - 5, 12)
    assert r["gang"].state.members == 2
    assert system.is_active(r["gang"])


def test_start_fight_says_initiative_is_kept() -> None:
    system, r = roster({"id": "ann", "side": "h", **pc()}, {"id": "gang", "side": "v", **MINION})
    assert "rolled once" in system.start_fight(RandomRoller(1), r)[0].text()


def _with_ann_down(rules: dict[str, Any] | None = None) -> list[str]:
    """Slots of round 2 after round 1's initiative (ann PC slot 1, gang NPC slot 1, bob PC
    slot 2), once ann is incapacitated."""
    from fracas.core.events import Changed

    system, r = roster({"id": "ann", "side": "h", **pc()}, {"id": "bob", "side": "h", **pc()},
                       {"id": "gang", "side": "v", **MINION}, rules=rules)
    _, events = system.initiative(ScriptedRoller(["ss a", "s", "s aa"]), r, 1)
    after = apply_events(r, (*events, Changed("test", "ann", "incapacitated", False, True)))
    slots, _ = system.initiative(ScriptedRoller([]), after, 2)
    return [s.label for s in slots]


def test_an_incapacitated_characters_slot_leaves_the_order_by_default() -> None:
    """Table default incapacitated_slot: drop (a reading: the rules are silent)."""
    assert _with_ann_down() == ["NPC slot 1", "PC slot 1"]


def test_an_incapacitated_characters_slot_stays_when_the_table_keeps_it() -> None:
    assert _with_ann_down({"incapacitated_slot": "keep"}) == ["PC slot 1", "NPC slot 1",
                                                               "PC slot 2"]
