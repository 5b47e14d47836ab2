"""Seed 003's worked example: Joe's knife, snake eyes, critical die 4, the vampire's armor 3."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.core.events import Changed
from tests.tristat.util import EXAMPLES, after, example, run, texts


def test_vampire_takes_21_damage_as_the_seed_computes() -> None:
    scenario = example("vampire.yaml")
    result = run(scenario, [1, 1, 3, 4, 4])
    assert (result.outcome, result.hit, result.damage) == ("critical", True, 21)
    assert dict(result.details) == {"critical": "x3"}
    assert after(scenario, result)["vampire"].state.health == 60 - 21


def test_vampire_events_read_like_the_seed() -> None:
    lines = texts(run(example("vampire.yaml"), [1, 1, 3, 4, 4]))
    expected = [
        "Joe rolls 2d6: 2 (snake eyes: a critical success)",
        "roll 7 ≥ defense target 6: the defense fails (it must roll under)",
        "Joe rolls the critical die (d6): 4 (triple damage)",
        "damage: 5 (knife base) + 5 (Combat Value) = 10",
        "after armor: 10 (damage) − 3 (the vampire's tough hide) = 7",
        "damage after multipliers: 7 × 3 (critical) = 21",
        "vampire: health 60 → 39",
        "Joe → the vampire: critical; the vampire loses 21",
    ]
    positions = [lines.index(line) for line in expected]
    assert positions == sorted(positions)


def test_cli_attack_json_gives_damage_21() -> None:
    out = CliRunner().invoke(app, ["attack", str(EXAMPLES / "vampire.yaml"), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["damage"] == 21 and data["outcome"] == "critical"
    assert data["defender"]["health"] == 39
    assert all(e["rule"] for e in data["events"])
    assert any(e["type"] == "TristatMultiplied" and e["value"] == 21 for e in data["events"])


def test_worked_example_changes_state_only_through_changed_events() -> None:
    scenario = example("vampire.yaml")
    result = run(scenario, [1, 1, 3, 4, 4])
    changed = {(e.target, e.field) for e in result.events if isinstance(e, Changed)}
    assert changed == {("joe", "attacks_used"), ("vampire", "defenses_used"),
                       ("vampire", "health")}
