"""The shipped conformance kit, on every tristat example."""

from __future__ import annotations

from fracas.dice import ScriptedRoller
from fracas.registry.scenarios import load_scenario
from fracas.systems.tristat import SYSTEM
from fracas.testing import check_system
from tests.tristat.util import EXAMPLES


def test_conforms() -> None:
    check_system(SYSTEM, sorted(EXAMPLES.glob("*.yaml")))


def test_every_attack_example_pins_dice_that_resolve_exactly() -> None:
    for path in sorted(p for p in EXAMPLES.glob("*.yaml") if not p.stem.endswith("-fight")):
        scenario = load_scenario(path)
        assert scenario.attack is not None and scenario.pins() is not None, path
        ScriptedRoller(scenario.pins()).run(scenario.system.resolve, scenario.attack,
                                            scenario.roster)


def test_demo_examples_exist_worked_example_first() -> None:
    assert SYSTEM.demo_examples[0] == "vampire.yaml"
    for name in SYSTEM.demo_examples:
        assert (EXAMPLES / name).exists()
