"""Helpers for the tristat tests: build scenarios from short dicts, resolve with pinned dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.core.model import Resolution, Roster, apply_events
from fracas.core.scenario import Scenario
from fracas.dice import ScriptedRoller
from fracas.registry.scenarios import load_scenario, scenario_from_mapping

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tristat"


def person(cid: str, side: str, **sheet: Any) -> dict[str, Any]:
    """A combatant entry: Body, Mind, Soul 5 unless given (Combat Value 5, Health 50)."""
    entry: dict[str, Any] = {"id": cid, "name": cid.title(), "side": side,
                             "body": 5, "mind": 5, "soul": 5}
    entry.update(sheet)
    return entry


def make(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None,
         attack: dict[str, Any] | None = None, rules: dict[str, Any] | None = None,
         others: tuple[dict[str, Any], ...] = ()) -> Scenario:
    """A scenario of attacker ``a`` (id a) against defender ``b`` (id b)."""
    data: dict[str, Any] = {
        "system": "tristat",
        "combatants": [a or person("a", "x"), b or person("b", "y"), *others],
        "attack": {"attacker": "a", "defender": "b", **(attack or {})},
    }
    if rules:
        data["rules"] = rules
    return scenario_from_mapping(data)


def run(scenario: Scenario, dice: list[int]) -> Resolution:
    """Resolve the scenario's action with exactly these dice (all must be used)."""
    assert scenario.attack is not None
    return ScriptedRoller(dice).run(scenario.system.resolve, scenario.attack, scenario.roster)


def texts(result: Resolution) -> list[str]:
    return [e.text() for e in result.events]


def after(scenario: Scenario, result: Resolution) -> Roster:
    return apply_events(scenario.roster, result.events)


def example(name: str) -> Scenario:
    return load_scenario(EXAMPLES / name)
