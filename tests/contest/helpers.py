"""Small rosters and runners shared by the contest tests."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from fracas.core.model import Resolution, Roster, apply_events
from fracas.core.scenario import Scenario
from fracas.dice import ScriptedRoller
from fracas.registry.scenarios import scenario_from_mapping

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "contest"

# Attack check with the sword: d20 + 3 (sword) + 1 (strength) = +4; bow: +3 + 1 (agility).
ATTACKER: dict[str, Any] = {
    "id": "att", "name": "Att", "side": "a",
    "skills": {"sword": 3, "bow": 3, "dodge": 0},
    "attributes": {"strength": 1, "agility": 1},
    "hp": 20,
    "weapons": [
        {"name": "sword", "skill": "sword", "damage": "d6", "crit_multiplier": 2},
        {"name": "bow", "skill": "bow", "damage": "d6", "crit_multiplier": 3,
         "kind": "ranged"},
    ],
}
# Every defense check: d20 + 2 (rank) + 1 (attribute) = +3.
DEFENDER: dict[str, Any] = {
    "id": "def", "name": "Def", "side": "b",
    "skills": {"dodge": 2, "block": 2, "sponge": 2, "spear": 2, "shield": 0},
    "attributes": {"agility": 1, "strength": 1, "endurance": 1},
    "hp": 20,
    "armour": {"name": "mail", "dr": 2, "hp": 6},
    "weapons": [
        {"name": "spear", "skill": "spear", "damage": "d8", "crit_multiplier": 2, "block": 1},
        {"name": "shield", "skill": "shield", "damage": "d4", "block": 3},
    ],
}


def sheet(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(base)
    out.update(changes)
    return out


def scenario(attacker: dict[str, Any] | None = None, defender: dict[str, Any] | None = None,
             weapon: str = "sword", rules: dict[str, Any] | None = None, **options: Any
             ) -> Scenario:
    a, d = attacker or ATTACKER, defender or DEFENDER
    return scenario_from_mapping({
        "system": "contest", "rules": rules or {}, "combatants": [a, d],
        "attack": {"attacker": a["id"], "defender": d["id"], "weapon": weapon,
                   "options": options}})


def run(s: Scenario, dice: list[int]) -> Resolution:
    """Resolve the scenario's attack with pinned dice (all of them must be used)."""
    assert s.attack is not None
    return ScriptedRoller(dice).run(s.system.resolve, s.attack, s.roster)


def after(s: Scenario, result: Resolution) -> Roster:
    return apply_events(s.roster, result.events)


def detail(result: Resolution, name: str) -> Any:
    return dict(result.details).get(name)


def texts(result: Resolution) -> list[str]:
    return [e.text() for e in result.events]
