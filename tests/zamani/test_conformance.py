"""The conformance kit over every example, and the examples' pinned results."""

from __future__ import annotations

from fracas.dice import ScriptedRoller
from fracas.registry.scenarios import load_scenario
from fracas.systems.zamani import SYSTEM
from fracas.testing import check_system

from .helpers import EXAMPLES, after


def test_conforms() -> None:
    check_system(SYSTEM, sorted(EXAMPLES.glob("*.yaml")))


def test_every_demo_example_exists() -> None:
    for name in SYSTEM.demo_examples:
        assert (EXAMPLES / name).is_file(), name


# (file, outcome, damage lost by the defender, result code)
PINNED = {
    "regular_melee.yaml": ("medium", 4, "M"),
    "controlled_disarm.yaml": ("controlled", 3, "H"),
    "firearm_cover.yaml": ("light", 6, "L"),
    "surprise_stealth.yaml": ("medium", 5, "M"),
    "guard_another.yaml": ("light", 5, "L"),
    "area_grenade.yaml": ("light", 4, "L"),
    "ambush_skill.yaml": ("medium", 10, "M"),
    "focus_sacrifice.yaml": ("heavy", 12, "HP"),
    "gm_table.yaml": ("medium", 4, "M"),
}


def test_examples_pinned_results() -> None:
    attacks = [p.name for p in EXAMPLES.glob("*.yaml") if not p.stem.endswith("-fight")]
    assert sorted(PINNED) == sorted(attacks)
    for name, (outcome, damage, code) in PINNED.items():
        s = load_scenario(EXAMPLES / name)
        assert s.attack is not None
        result = ScriptedRoller(s.pins()).run(s.system.resolve, s.attack, s.roster)
        assert (result.outcome, result.damage, dict(result.details)["result"]) == (
            outcome, damage, code), name


def test_guard_example_spends_the_guards_shield_not_the_wards() -> None:
    s = load_scenario(EXAMPLES / "guard_another.yaml")
    assert s.attack is not None
    result = ScriptedRoller(s.pins()).run(s.system.resolve, s.attack, s.roster)
    state = after(s, result)
    assert state["ayo"].state.blocks_used == ("kite shield",)
    assert state["lulu"].state.wounds == 1
