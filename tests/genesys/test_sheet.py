"""Sheets, options and defaults: bad input names the field; conformance."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from fracas.errors import InputError
from fracas.systems.genesys import SYSTEM
from fracas.testing import check_system
from tests.genesys.helpers import EXAMPLES, pc, scenario


def bad(match: str, attacker: dict[str, Any] | None = None,
        defender: dict[str, Any] | None = None, **kw: Any) -> None:
    with pytest.raises(InputError, match=match):
        scenario(attacker or pc(), defender or pc(), **kw)


def test_conforms() -> None:
    check_system(SYSTEM, sorted(Path(EXAMPLES).glob("*.yaml")))


@settings(max_examples=25, deadline=None)
@given(hs.fixed_dictionaries({k: hs.integers(1, 6) for k in (
    "brawn", "agility", "intellect", "cunning", "willpower", "presence")}),
       hs.integers(0, 5), hs.integers(0, 10), hs.integers(1, 30))
def test_any_valid_sheet_builds_and_attacks(chars: dict[str, int], rank: int, soak: int,
                                           threshold: int) -> None:
    me = pc(characteristics=chars, skills={"Melee": rank}, soak=soak,
            wound_threshold=threshold)
    sc = scenario(me, pc())
    assert sc.roster["a"].state.wounds == 0 and sc.roster["a"].state.members == 1


def test_unknown_skill_is_named() -> None:
    bad(r"skills\.Piloting \(Space\): unknown skill", pc(skills={"Piloting (Space)": 1}))


def test_minion_rules() -> None:
    minion = pc(adversary="minion", strain_threshold=None, group_size=3, skills={"Melee": 0})
    scenario(minion, pc())
    bad("group skill with rank 0", {**minion, "skills": {"Melee": 2}})
    bad("needs its size", {**minion, "group_size": None})
    bad("no strain threshold", {**minion, "strain_threshold": 5})
    bad("only a minion group has a group size", pc(group_size=2))
    bad("needs a strain threshold", pc(strain_threshold=None))


def test_weapon_checks() -> None:
    bad("unknown quality", pc(weapons=[{"name": "x", "skill": "Melee", "damage": 3,
                                        "crit": 3, "qualities": ["Sharp 2"]}]))
    bad("Pierce needs a rating", pc(weapons=[{"name": "x", "skill": "Melee", "damage": 3,
                                              "crit": 3, "qualities": ["Pierce"]}]))
    bad("Auto-fire has no rating", pc(weapons=[{"name": "x", "skill": "Melee", "damage": 3,
                                                "crit": 3, "qualities": ["Auto-fire 2"]}]))
    bad("not a combat skill", pc(weapons=[{"name": "x", "skill": "Cool", "damage": 3,
                                           "crit": 3}]))
    bad("reaches only engaged", pc(weapons=[{"name": "x", "skill": "Melee", "damage": 3,
                                             "crit": 3, "range": "short"}]))
    bad(r"weapons\[0\]\.damage", pc(weapons=[{"name": "x", "skill": "Melee", "damage": "3d6",
                                              "crit": 3}]))
    qualities = pc(weapons=[{"name": "x", "skill": "Melee", "damage": 3, "crit": 3,
                             "qualities": {"Pierce": 2, "Vicious": 1}}], skills={"Melee": 1})
    sc = scenario(qualities, pc(), weapon="x")
    assert sc.roster["a"].sheet.weapons[0].rating("Vicious") == 1


def test_unknown_injury_or_condition() -> None:
    bad("unknown Critical Injury", defender=pc(critical_injuries=["Papercut"]))
    bad("unknown condition", defender=pc(conditions=["grumpy"]))


def test_option_checks() -> None:
    bad("reaches only long range", weapon="rifle", options={"range": "extreme"})
    bad("melee attack is made at engaged", options={"range": "short"})
    bad("no Auto-fire quality", weapon="rifle", options={"auto_fire": True})
    bad(r"spend\[0\]: unknown option", options={"spend": ["fireworks"]})
    bad(r"gm_spend\[0\]: unknown option", options={"gm_spend": ["critical"]})
    bad(r"extra_targets\[0\]", options={"extra_targets": ["nobody"]})
    bad("aim", options={"aim": 3})
    bad("not on a's sheet", weapon="axe")


def test_defaults_can_be_overridden_and_are_validated() -> None:
    sc = scenario(pc(), pc(), rules={"advantage_policy": "hits_first"})
    assert sc.system.defaults.advantage_policy == "hits_first"
    with pytest.raises(InputError, match=r"rules\.advantage_policy"):
        scenario(pc(), pc(), rules={"advantage_policy": "yolo"})


def test_incapacitated_attacker_cannot_attack() -> None:
    bad("incapacitated", pc(wounds=15))
