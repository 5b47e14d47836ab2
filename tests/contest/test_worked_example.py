"""Seed 001's sponge example: Tony the Gate Guardsman, Big Angry Amy, Bigger Angrier Amanda."""

from __future__ import annotations

from fracas.core.events import Changed
from fracas.core.model import apply_events
from fracas.dice import ScriptedRoller
from fracas.registry.scenarios import load_scenario
from fracas.systems.contest.events import ContestArmour, ContestDamage
from tests.contest.helpers import EXAMPLES


def test_amys_crossbow_8_damage_dr_3_armour_absorbs_5_tony_unhurt() -> None:
    s = load_scenario(EXAMPLES / "tony.yaml")
    assert s.attack is not None
    result = ScriptedRoller(s.pins()).run(s.system.resolve, s.attack, s.roster)
    damage = next(e for e in result.events if isinstance(e, ContestDamage))
    armour = next(e for e in result.events if isinstance(e, ContestArmour))
    assert damage.total == 8
    assert (armour.incoming, armour.dr, armour.absorbed, armour.through) == (8, 3, 5, 0)
    assert (armour.armour_before, armour.armour_after) == (7, 2)
    tony = apply_events(s.roster, result.events)["tony"]
    assert (tony.state.armour_hp, tony.state.hp) == (2, 7)
    assert result.outcome == "sponged" and result.hit and result.damage == 0
    assert dict(result.details)["contest"] == "defender"  # Tony wins the sponge contest


def test_amandas_hand_axe_15_to_12_armour_2_to_0_ten_to_tony_dying() -> None:
    s = load_scenario(EXAMPLES / "tony-amanda.yaml")
    assert s.attack is not None
    result = ScriptedRoller(s.pins()).run(s.system.resolve, s.attack, s.roster)
    damage = next(e for e in result.events if isinstance(e, ContestDamage))
    armour = next(e for e in result.events if isinstance(e, ContestArmour))
    assert damage.total == 15
    assert armour.incoming - armour.dr == 12
    assert (armour.armour_before, armour.armour_after, armour.through) == (2, 0, 10)
    tony = apply_events(s.roster, result.events)["tony"]
    assert (tony.state.armour_hp, tony.state.hp) == (0, 0)
    assert "dying" in tony.state.conditions
    assert result.taken_out and result.damage == 7  # what Tony lost: 7 -> 0


def test_the_example_chains_through_the_fight_state() -> None:
    """Amy's attack, folded into the roster, leaves the chainmail at 2 HP: Amanda's attack
    from that state (same dice as tony-amanda.yaml) gives the same 7 -> 0."""
    first = load_scenario(EXAMPLES / "tony.yaml")
    second = load_scenario(EXAMPLES / "tony-amanda.yaml")
    assert first.attack is not None and second.attack is not None
    r1 = ScriptedRoller(first.pins()).run(first.system.resolve, first.attack, first.roster)
    roster = apply_events(first.roster, r1.events)
    action = first.system.parse_action(roster, "amanda", "tony", "hand axe",
                                       {"defense": "sponge"})
    r2 = ScriptedRoller(second.pins()).run(first.system.resolve, action, roster)
    changes = [(e.field, e.before, e.after) for e in r2.events if isinstance(e, Changed)]
    assert changes == [("armour_hp", 2, 0), ("hp", 7, 0), ("conditions", (), ("dying",))]
