"""Helpers for the c22 tests: build scenarios from short dicts, resolve with pinned cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.core.events import Event
from fracas.core.model import Resolution, Roster, apply_events
from fracas.core.scenario import Scenario
from fracas.dice import ScriptedRoller
from fracas.registry.scenarios import load_scenario, scenario_from_mapping

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "c22"


def person(cid: str, side: str, **sheet: Any) -> dict[str, Any]:
    """A combatant: Avoidance 5, Armor 0, Health 30, one weapon "blade" of 10 damage."""
    entry: dict[str, Any] = {"id": cid, "name": cid.title(), "side": side, "avoidance": 5,
                             "health": 30, "weapons": [{"name": "blade", "damage": 10}]}
    entry.update(sheet)
    return entry


def make(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None,
         options: dict[str, Any] | None = None, rules: dict[str, Any] | None = None,
         others: tuple[dict[str, Any], ...] = (), weapon: str = "blade",
         action: str = "attack", cards: dict[str, list[str]] | None = None) -> Scenario:
    """A scenario of attacker ``a`` (id a) against defender ``b`` (id b)."""
    attack: dict[str, Any] = {"attacker": "a", "options": options or {}, "action": action}
    if action == "attack":
        attack.update(defender="b", weapon=weapon)
    data: dict[str, Any] = {"system": "c22",
                            "combatants": [a or person("a", "x"), b or person("b", "y"),
                                           *others],
                            "attack": attack}
    if rules:
        data["rules"] = rules
    if cards:
        data["cards"] = cards
    return scenario_from_mapping(data)


def run(scenario: Scenario, cards: dict[str, list[str]]) -> Resolution:
    """Resolve the scenario's action with exactly these cards (all must be used)."""
    assert scenario.attack is not None
    return ScriptedRoller(cards).run(scenario.system.resolve, scenario.attack, scenario.roster)


def example(name: str) -> Scenario:
    return load_scenario(EXAMPLES / name)


def pinned(scenario: Scenario) -> Resolution:
    """The scenario's action with its own pinned cards."""
    assert scenario.attack is not None
    return ScriptedRoller(scenario.pins()).run(scenario.system.resolve, scenario.attack,
                                               scenario.roster)


def after(scenario: Scenario, result: Resolution) -> Roster:
    return apply_events(scenario.roster, result.events)


def texts(events: tuple[Event, ...]) -> list[str]:
    return [e.text() for e in events]


def of_type(events: tuple[Event, ...], name: str) -> list[Any]:
    return [e for e in events if e.type == name]
