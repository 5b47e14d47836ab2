"""``fracas zamani countdown`` and ``fracas zamani table``, through the Typer app itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.jsonout import print_json
from fracas.core.system import CommandServices
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario
from fracas.systems.zamani.cli import build_app, parse_entry

from .helpers import EXAMPLES

runner = CliRunner()
app = build_app(CommandServices(print_json, load_scenario))


def test_countdown_json_gives_each_segment_in_order() -> None:
    result = runner.invoke(app, ["countdown", "joe=12", "ann=21", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["segments"]["10"] == ["ann", "joe"]
    assert data["segments"]["9"] == ["ann"]
    assert data["segments"]["2"] == ["joe"]
    assert data["segments"]["1"] == ["ann"]
    assert data["order"] == ["ann", "joe"]


def test_countdown_table_marks_extra_segments() -> None:
    result = runner.invoke(app, ["countdown", "joe=12", "bo=7"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    ten = next(line for line in lines if line.strip().startswith("10 "))
    assert "joe (12)" in ten and "extra" not in ten
    two = next(line for line in lines if line.strip().startswith("2 "))
    assert "joe (12) (extra)" in two and "no attack" not in result.output
    assert "may be an attack, on any of its segments" in " ".join(result.output.split())
    seven = next(line for line in lines if line.strip().startswith("7 "))
    assert "bo (7)" in seven


def test_countdown_ties_use_fitness_and_spirit_given_on_the_line() -> None:
    result = runner.invoke(app, ["countdown", "eve=10:4:3", "fay=10:4:5", "--json"])
    data = json.loads(result.output)
    assert data["segments"]["10"] == ["fay", "eve"]
    assert [t["by"] for t in data["ties"]] == ["Fitness", "Spirit"]


def test_countdown_die_ties_are_repeatable_with_a_seed() -> None:
    args = ["countdown", "a=5", "b=5", "c=5", "--seed", "9", "--json"]
    first, again = runner.invoke(app, args), runner.invoke(app, args)
    assert first.output == again.output
    assert json.loads(first.output)["ties"][-1]["by"] == "d10"


def test_countdown_from_a_scenario_uses_dexterity_traits_and_sacrifice() -> None:
    result = runner.invoke(app, ["countdown", "--from",
                                 str(EXAMPLES / "focus_sacrifice.yaml"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["initiative"] == {"Kesi": 8, "Bode": 6}  # Dexterity 6 + 2 sacrificed


@pytest.mark.parametrize("bad", ["joe", "joe=", "joe=x", "=5", "joe=1:2:3:4"])
def test_countdown_entries_that_do_not_parse_name_the_format(bad: str) -> None:
    with pytest.raises(InputError, match="name=initiative"):
        parse_entry(bad)
    result = runner.invoke(app, ["countdown", bad])
    assert result.exit_code != 0


def test_parse_entry_reads_fitness_and_spirit() -> None:
    assert parse_entry("ann=12:5:4") == ("ann", 12, 5, 4)
    assert parse_entry("joe=7") == ("joe", 7, 0, 0)


def test_table_command_shows_the_default_table() -> None:
    result = runner.invoke(app, ["table", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["name"] == "fracas default"
    assert data["columns"] == ["0-2", "3-4", "5-6", "7-8", "9-10", "11+"]
    assert data["rows"]["90+"] == ["CR", "CR", "XD", "X$", "HP", "H"]
    assert data["warnings"] == []


def test_table_command_reports_warnings_of_a_non_monotone_table(tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    path.write_text("margin,0-4,5+\n0-49,M,A\n50+,L,A\n", encoding="utf-8")
    result = runner.invoke(app, ["table", str(path)])
    assert result.exit_code == 0, result.output
    assert "warning" in result.output and "worse than margin 0-49" in result.output
