"""One possessive form in Genesys narration (a name ending in s takes 's, as everywhere
else: ``Tomas's turn``, ``Tomas's pool``), through the fight loop and its narration."""

from __future__ import annotations

from pathlib import Path

from fracas.encounter.engine import Encounter
from fracas.encounter.narration import teller
from fracas.registry.scenarios import load_scenario

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "genesys" / "three-vs-three-fight.yaml"


def test_tomas_has_one_possessive_form() -> None:
    scenario = load_scenario(EXAMPLE)
    fight = Encounter(scenario, seed=1)
    roster = fight.state.roster
    say = teller({c: roster[c].name for c in roster}, scenario.system.words)
    lines: list[str] = []
    while not fight.state.over and not any(line.startswith("Tomas's turn") for line in lines):
        lines += [say(e) for e in fight.step()]
    assert any(line.startswith("Tomas's turn") for line in lines)
    assert any(line.startswith("Tomas's pool: ") for line in lines)
    assert not any("Tomas' " in line for line in lines)
