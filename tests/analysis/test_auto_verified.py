"""auto picks only the paths checked against the step path for the fight's system
(fracas.analysis.auto.VERIFIED; issue 35): a system not listed is played step by step."""

from __future__ import annotations

from pathlib import Path

from fracas.analysis.auto import VERIFIED, verified
from fracas.analysis.simulate import simulate
from fracas.encounter.engine import setup_from_scenario
from fracas.registry.scenarios import load_scenario


def test_every_built_in_system_lists_its_checked_paths() -> None:
    assert set(VERIFIED) == {"c22", "contest", "zamani", "tristat", "genesys"}
    assert all("steps" in paths for paths in VERIFIED.values())


def test_a_system_without_checked_paths_is_played_step_by_step(toy_dir: Path) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    assert verified(scenario.system.id) == {"steps"}
    fights = simulate(setup_from_scenario(scenario), scenario.roster, 500, seed=1,
                      method="auto")
    assert fights.method == "steps"
    assert "not checked against it" in fights.notes[0]
