"""A scenario's action table file: read from the scenario's folder or below, never outside
it, and an error never echoes the content of a file that is not a table (issue 17)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

SECRET = "root:x:0:0:secret-line:/root:/bin/bash"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples/zamani/gm_table.yaml"
SCENARIO = EXAMPLE.read_text(encoding="utf-8").replace(
    "action_table: tables/gm_table.csv", "action_table: {table}")


def write(folder: Path, table: str, name: str = "fight.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(SCENARIO.replace("{table}", table), encoding="utf-8")
    return path


def refused(path: Path) -> str:
    with pytest.raises(InputError) as err:
        load_scenario(path)
    text = str(err.value)
    assert str(path) in text and "rules.action_table" in text
    assert "scenario's folder or below" in text
    return text


def test_a_table_beside_the_scenario_loads_from_any_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "game"
    (game / "tables").mkdir(parents=True)
    (game / "tables" / "gm.csv").write_text("margin,0+\n0+,C\n", encoding="utf-8")
    path = write(game, "tables/gm.csv")
    monkeypatch.chdir(tmp_path)  # not the scenario's folder
    assert load_scenario(path).system.table.cells == (("C",),)
    result = CliRunner().invoke(app, ["attack", str(path), "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "critical; Dura loses 16" in result.output  # every hit is C on the GM table


@pytest.mark.parametrize("table", ["/etc/passwd.csv", "~/gm.csv", "../gm.csv",
                                   "tables/../../gm.csv"])
def test_absolute_home_and_dotdot_paths_are_refused(tmp_path: Path, table: str) -> None:
    (tmp_path / "gm.csv").write_text("margin,0+\n0+,C\n", encoding="utf-8")
    text = refused(write(tmp_path / "game", table))
    assert "not allowed" in text


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.csv"
    outside.write_text("margin,0+\n0+,C\n", encoding="utf-8")
    game = tmp_path / "game"
    game.mkdir()
    os.symlink(outside, game / "gm.csv")
    os.symlink(tmp_path, game / "up")
    assert "out of the scenario's folder" in refused(write(game, "gm.csv"))
    assert "out of the scenario's folder" in refused(write(game, "up/outside.csv"))


def test_a_symlink_inside_the_folder_is_fine(tmp_path: Path) -> None:
    game = tmp_path / "game"
    (game / "tables").mkdir(parents=True)
    (game / "tables" / "real.csv").write_text("margin,0+\n0+,C\n", encoding="utf-8")
    os.symlink(game / "tables" / "real.csv", game / "gm.csv")
    assert load_scenario(write(game, "gm.csv")).system.table.cells == (("C",),)


@pytest.mark.parametrize("name, content", [
    ("notes.csv", f"{SECRET}\n{SECRET}\n"),
    ("notes2.csv", f"margin,0+\n{SECRET},C\n"),
    ("notes3.csv", f"margin,0+\n0+,{SECRET}\n"),
    ("notes.yaml", f"{SECRET}: 1\n"),
    ("notes2.yaml", f"columns: [0]\nrows: {{0: ['{SECRET}']}}\n"),
    ("notes3.yaml", f"columns: ['{SECRET}']\nrows: {{0: [L]}}\n"),
])
def test_a_file_that_is_not_a_table_is_never_echoed(tmp_path: Path, name: str,
                                                    content: str) -> None:
    game = tmp_path / "game"
    game.mkdir()
    (tmp_path / name).write_text(content, encoding="utf-8")  # a "system file" elsewhere
    os.symlink(tmp_path / name, game / name)
    assert SECRET not in refused(write(game, name))
    (game / name).unlink()
    (game / name).write_text(content, encoding="utf-8")  # inside the folder: still no echo
    with pytest.raises(InputError) as err:
        load_scenario(write(game, name))
    assert "secret" not in str(err.value)
    assert "action table" in str(err.value)
