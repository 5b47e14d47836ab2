"""The shipped conformance kit on every contest example, and the CLI by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.registry import get_system
from fracas.systems.contest import SYSTEM
from fracas.testing import check_system
from tests.contest.helpers import EXAMPLES


def _examples() -> list[Path]:
    return sorted(EXAMPLES.glob("*.yaml"))


def test_conforms() -> None:
    check_system(SYSTEM, _examples())


def test_the_system_is_registered_with_its_demo_examples_on_disk() -> None:
    assert get_system("contest") is SYSTEM
    assert SYSTEM.demo_examples[0] == "tony.yaml"
    for name in SYSTEM.demo_examples:
        assert (EXAMPLES / name).exists()
    assert len(_examples()) >= 6


def test_attack_json_reproduces_the_seed_example() -> None:
    out = CliRunner().invoke(app, ["attack", str(EXAMPLES / "tony-amanda.yaml"), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["outcome"] == "sponged" and data["damage"] == 7 and data["taken_out"]
    assert data["defender"]["hp"] == 0 and data["defender"]["armour_hp"] == 0


def test_odds_json_gives_the_contest_and_the_armour_left() -> None:
    out = CliRunner().invoke(app, ["odds", str(EXAMPLES / "tony.yaml"), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    # a sponged attack always hits, unless the attacker drops its weapon during the contest
    hit, dropped = Fraction(data["p_hit"]), Fraction(data["outcomes"]["disarmed"])
    assert dropped > 0 and hit + dropped == 1
    assert Fraction(data["details"]["attacker_fumble"]["disarmed"]) == dropped
    assert set(data["details"]) >= {"contest", "attacker_critical", "defender_critical",
                                     "armour_hp_after"}
