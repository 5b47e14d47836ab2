"""Builders for zamani tests: sheets as plain mappings, scenarios, pinned resolutions."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fracas.core.model import Action, Resolution, Roster, apply_events
from fracas.core.scenario import Scenario
from fracas.dice import ScriptedRoller
from fracas.registry.scenarios import scenario_from_mapping

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "zamani"


def sheet(cid: str, side: str, **fields: Any) -> dict[str, Any]:
    """A plain fighter: Dexterity 5, Fitness 5, Spirit 5, Swords 5, a blocking sword.

    ``attributes`` given are merged into these; any other field replaces the default."""
    base: dict[str, Any] = {
        "id": cid, "name": cid.capitalize(), "side": side,
        "attributes": {"dexterity": 5, "fitness": 5, "spirit": 5},
        "skills": {"swords": 5},
        "wounds": {"max": 20},
        "weapons": [{"name": "sword", "rating": 4, "kind": "melee", "blocking": True,
                     "skill": "swords"}],
    }
    for key, value in fields.items():
        if key == "attributes":
            base[key] = {**base[key], **value}
        else:
            base[key] = copy.deepcopy(value)
    return base


def scenario(combatants: Sequence[Mapping[str, Any]], attack: Mapping[str, Any] | None = None,
             rules: Mapping[str, Any] | None = None, dice: Sequence[int] | None = None
             ) -> Scenario:
    data: dict[str, Any] = {"system": "zamani", "combatants": list(combatants)}
    if attack is not None:
        data["attack"] = dict(attack)
    if rules:
        data["rules"] = dict(rules)
    if dice is not None:
        data["dice"] = list(dice)
    return scenario_from_mapping(data, file="test.yaml")


def duel(attacker: Mapping[str, Any] | None = None, defender: Mapping[str, Any] | None = None,
         weapon: str = "sword", options: Mapping[str, Any] | None = None,
         rules: Mapping[str, Any] | None = None, others: Sequence[Mapping[str, Any]] = ()
         ) -> Scenario:
    """Ann (attacker, side a) against Bob (defender, side b), plus any others."""
    a = sheet("ann", "a", **(attacker or {}))
    b = sheet("bob", "b", **(defender or {}))
    return scenario([a, b, *others], {"attacker": "ann", "defender": "bob", "weapon": weapon,
                                      "options": dict(options or {})}, rules)


def pinned(s: Scenario, dice: Sequence[int], action: Action | None = None,
           roster: Roster | None = None) -> Resolution:
    """Resolve with these d100 rolls, checking every one was used."""
    act = action if action is not None else s.attack
    assert act is not None
    return ScriptedRoller(list(dice)).run(s.system.resolve, act, roster or s.roster)


def after(s: Scenario, result: Resolution, roster: Roster | None = None) -> Roster:
    return apply_events(roster or s.roster, result.events)


def texts(result: Resolution) -> str:
    return "\n".join(e.text() for e in result.events)
