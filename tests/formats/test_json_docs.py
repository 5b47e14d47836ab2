"""docs/json.md: one example per ``--json`` command, each the real output of the current
code (rewrite them with ``python -m tests.formats.jsondoc``); every output starts with its
schema name and version, and gives exact probabilities both as fractions and floats."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from fracas import registry
from fracas.cli.app import app
from tests.formats import jsondoc
from tests.formats.conftest import EXAMPLES, Run
from tests.toy import Duel

PAIRS = jsondoc.pairs(jsondoc.PAGE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def produced() -> Iterator[list[Any]]:
    """Every example's output, with the built-in systems only (as a user has them)."""
    registry.unregister(Duel.id)
    try:
        yield jsondoc.produce([command for command, _ in PAIRS])
    finally:
        registry.register(Duel)


def test_the_page_has_one_example_per_json_command() -> None:
    documented = {command.split()[1] for command, _ in PAIRS}
    with_json = set()
    for info in app.registered_commands:
        name = info.name or (info.callback.__name__ if info.callback else "")
        params = info.callback.__annotations__ if info.callback else {}
        if "as_json" in params:
            with_json.add(name.replace("_cmd", ""))
    assert with_json <= documented, with_json - documented
    assert "zamani" in documented


@pytest.mark.parametrize("index", range(len(PAIRS)), ids=[c for c, _ in PAIRS])
def test_each_documented_example_is_what_the_command_prints(produced: list[Any],
                                                            index: int) -> None:
    documented = json.loads(PAIRS[index][1])
    assert jsondoc.matches(documented, produced[index]) == []


@pytest.mark.parametrize("index", range(len(PAIRS)), ids=[c for c, _ in PAIRS])
def test_each_output_starts_with_its_schema_version(produced: list[Any], index: int) -> None:
    command, _ = PAIRS[index]
    out = produced[index]
    assert next(iter(out)) == "schema"
    assert re.fullmatch(r"fracas\.[a-z-]+/1", out["schema"])
    assert out["schema"].split(".")[1].startswith(command.split()[1])


def test_the_matcher_notices_a_difference() -> None:
    assert jsondoc.matches({"a": [1, 2, "..."]}, {"a": [1, 2, 3]}) == []
    assert jsondoc.matches({"a": [1, 3, "..."]}, {"a": [1, 2, 3]}) != []
    assert jsondoc.matches({"a": 1, "b": 2}, {"b": 2, "a": 1}) != []
    assert jsondoc.matches({"seconds": 1.5}, {"seconds": 0.2}) == []


def test_exact_odds_come_as_fractions_and_floats(run: Run) -> None:
    code, out, _ = run("odds", str(EXAMPLES / "tristat/vampire.yaml"), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["floats"]["p_hit"] == float(Fraction(data["p_hit"]))
    for value, p in data["damage"].items():
        assert data["floats"]["damage"][value] == float(Fraction(p))
    code, out, _ = run("roll", "3d6", "--odds", "--json")
    data = json.loads(out)
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert data["floats"]["mean"] == 10.5 and data["mean"] == "21/2"


@pytest.mark.parametrize("expression", ["4d6kh3-d4+2", "3d20kl1", "d100", "2d6+d8-1"])
def test_roll_lists_each_die_and_the_total_is_theirs(run: Run, expression: str) -> None:
    for seed in range(20):
        code, out, _ = run("roll", expression, "--seed", str(seed), "--json")
        assert code == 0
        data = json.loads(out)
        kept = [d["sign"] * d["value"] for d in data["dice"] if d["kept"]]
        constant = int(expression.rsplit("+", 1)[1]) if expression.endswith("+2") else (
            -1 if expression.endswith("-1") else 0)
        assert data["value"] == sum(kept) + constant
        for d in data["dice"]:
            assert 1 <= d["value"] <= int(d["die"][1:])
    code, out, _ = run("roll", "4d6kh3", "--seed", "5", "--json")
    dice = json.loads(out)["dice"]
    assert len(dice) == 4 and sum(not d["kept"] for d in dice) == 1
    dropped = next(d["value"] for d in dice if not d["kept"])
    assert dropped == min(d["value"] for d in dice)


def test_attack_gives_the_attackers_state_after_the_attack(run: Run) -> None:
    """Joe's knife attack uses his one attack of the round (seed 003 · How to Attack)."""
    code, out, _ = run("attack", str(EXAMPLES / "tristat/vampire.yaml"), "--json")
    data = json.loads(out)
    assert code == 0
    assert data["attacker"]["id"] == "joe" and data["attacker"]["attacks_used"] == 1
    assert data["defender"]["id"] == "vampire" and data["defender"]["health"] == 60 - 21
