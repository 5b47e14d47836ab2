"""A wounded character can be written down in every system, one documented way each
(docs/scenarios.md · Current health): the scenario starts with that health."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fracas.registry.scenarios import load_scenario
from tests.formats.conftest import Run, example, write

Wound = Callable[[dict[str, Any]], None]

# system example, how the GM writes "this one is hurt", (current, maximum) expected
CASES: list[tuple[str, Wound, tuple[int, int]]] = [
    ("c22/one-tough-lizard", lambda c: c.update(health=30, current_health=9), (9, 30)),
    ("tristat/vampire", lambda c: c.update(health=12), (12, 60)),
    ("contest/dodge", lambda c: c.update(hp={"max": 7, "current": 3}), (3, 7)),
    ("zamani/regular_melee", lambda c: c.update(wounds={"max": 20, "current": 5}), (5, 20)),
    ("genesys/brawl", lambda c: c.update(wound_threshold=14, wounds=10), (4, 14)),
]


@pytest.mark.parametrize(("name", "wound", "expected"), CASES, ids=[c[0] for c in CASES])
def test_a_wounded_character_starts_wounded(tmp_path: Path, name: str, wound: Wound,
                                            expected: tuple[int, int]) -> None:
    data = example(name)
    index = 1 if name != "genesys/brawl" else 0
    wound(data["combatants"][index])
    scenario = load_scenario(write(tmp_path, data))
    combatant = list(scenario.roster.values())[index]
    assert scenario.system.health(combatant) == expected


def test_c22_current_health_carries_into_the_attack(run: Run, tmp_path: Path) -> None:
    """Seed 000 · One Tough Lizard: the lizard loses 4 either way; wounded, it ends lower."""
    fresh = json.loads(run("attack", str(write(tmp_path, example("c22/one-tough-lizard"),
                                               "fresh.yaml")), "--json")[1])
    data = example("c22/one-tough-lizard")
    data["combatants"][1]["current_health"] = 10
    code, out, _ = run("attack", str(write(tmp_path, data)), "--json")
    hurt = json.loads(out)
    assert code == 0 and hurt["damage"] == fresh["damage"] == 4
    assert fresh["defender"]["health"] == 30 - 4
    assert hurt["defender"]["health"] == 10 - 4 and hurt["defender"]["max_health"] == 30


def test_c22_current_health_above_health_is_an_error(run: Run, tmp_path: Path) -> None:
    data = example("c22/one-tough-lizard")
    data["combatants"][1]["current_health"] = 31
    code, _, err = run("attack", str(write(tmp_path, data)), "--json")
    assert code == 2
    assert "combatants[1]: current_health 31 is above Health 30" in err
