"""table default · Action table: the table as data, validated; a GM's own table."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.core.events import Note
from fracas.errors import InputError
from fracas.systems.zamani.table import (
    GRADE_ORDER,
    load_action_table,
    parse_code,
    table_from_csv,
    table_from_mapping,
)

from .helpers import duel, pinned, texts


def test_default_table_has_ten_margin_rows_and_six_defense_columns() -> None:
    t = load_action_table("default")
    assert t.row_labels == ("0-9", "10-19", "20-29", "30-39", "40-49", "50-59", "60-69",
                            "70-79", "80-89", "90+")
    assert t.column_labels == ("0-2", "3-4", "5-6", "7-8", "9-10", "11+")
    assert len(t.cells) == 10 and all(len(row) == 6 for row in t.cells)


def test_default_table_is_monotone_better_with_margin_worse_with_defense() -> None:
    t = load_action_table("default")
    assert t.warnings == ()
    grade = [[GRADE_ORDER.index(c[0]) for c in row] for row in t.cells]
    for r in range(10):
        for c in range(6):
            if r:
                assert grade[r][c] >= grade[r - 1][c]
            if c:
                assert grade[r][c] <= grade[r][c - 1]


def test_default_table_uses_every_grade_and_strike_effect() -> None:
    codes = {c for row in load_action_table("default").cells for c in row}
    assert {c[0] for c in codes} == set("ALMHXC")
    assert {ch for c in codes for ch in c[1:]} == set("D$PR")


def test_lookup_reads_margin_row_and_defense_column() -> None:
    t = load_action_table("default")
    assert t.lookup(0, 0) == (0, 0, "L")
    assert t.lookup(9, 2) == (0, 0, "L")
    assert t.lookup(10, 3) == (1, 1, "L")
    assert t.lookup(95, 11) == (9, 5, "H")
    assert t.lookup(250, 40) == (9, 5, "H")


def test_result_codes_grades_and_effects() -> None:
    assert parse_code("A").name == "avoided"
    code = parse_code("CR")
    assert (code.grade, code.effects, code.bypasses_armor) == ("C", ("armor",), True)
    assert parse_code("X$P").effects == ("limb", "prone")
    assert parse_code("HD").meaning() == "heavy, disarm"


@pytest.mark.parametrize("bad", ["", "Q", "AD", "HH", "LPP", "h", "X!", "7"])
def test_unknown_result_codes_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError, match="not a result code"):
        parse_code(bad)


@given(st.sampled_from("LMHXC"), st.lists(st.sampled_from("D$PR"), unique=True))
def test_every_grade_with_any_set_of_effects_is_a_code(grade: str, effects: list[str]) -> None:
    code = parse_code(grade + "".join(effects))
    assert code.grade == grade and len(code.effects) == len(effects)


def test_malformed_csv_cell_names_the_row_and_the_column() -> None:
    text = "margin,0-2,3-4,5+\n0-9,L,A,A\n10-19,M,Q,A\n20+,H,M,L\n"
    with pytest.raises(InputError) as err:
        table_from_csv(text, "mine.csv")
    message = str(err.value)
    assert "mine.csv" in message
    assert "row 2 (margin 10-19)" in message
    assert "column 2 (defense 3-4)" in message
    assert "'Q'" in message and err.value.path == "rules.action_table"


def test_malformed_yaml_table_cell_names_the_row_and_the_column() -> None:
    data = {"columns": [0, 5], "rows": {0: ["L", "A"], 30: ["H", "AP"]}}
    with pytest.raises(InputError, match=r"row 2 \(margin 30\+\), column 2 \(defense 5\+\)"):
        table_from_mapping(data, "inline")


def test_a_short_row_is_an_error_naming_the_row() -> None:
    with pytest.raises(InputError, match=r"row 1 \(margin 0-49\) has 1 results for 2"):
        table_from_csv("margin,0-4,5+\n0-49,L\n50+,H,M\n", "short.csv")


@pytest.mark.parametrize("header,problem", [
    ("margin,1-4,5+", "must start at 0"),
    ("margin,0,5,2+", "must go up"),
    ("margin,0-3,5+", "ends at 3 but"),
    ("margin,0-4,five", "not a band"),
])
def test_bad_defense_bands_are_errors(header: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        cells = ",L" * (header.count(",")), ",H" * (header.count(","))
        table_from_csv(f"{header}\n0-49{cells[0]}\n50+{cells[1]}\n", "bands.csv")


def test_non_monotone_table_loads_with_warnings_not_an_error() -> None:
    t = table_from_csv("margin,0-4,5+\n0-49,M,H\n50+,L,A\n", "odd.csv")
    assert t.cells == (("M", "H"), ("L", "A"))
    assert len(t.warnings) == 3
    assert "defense 5+: margin 50+ gives A, worse than margin 0-49 (H)" in t.warnings
    assert "defense 0-4: margin 50+ gives L, worse than margin 0-49 (M)" in t.warnings
    assert "margin 0-49: defense 5+ gives H, better than defense 0-4 (M)" in t.warnings


def test_warnings_of_a_gm_table_are_emitted_in_the_resolution() -> None:
    table = {"columns": [0], "rows": {0: ["H"], 50: ["L"]}}
    s = duel(rules={"action_table": table})
    result = pinned(s, [50])
    notes = [e for e in result.events if isinstance(e, Note) and "not monotone" in e.text()]
    assert len(notes) == 1
    assert "margin 50+ gives L, worse than margin 0-49 (H)" in notes[0].text()


def test_a_gm_table_file_replaces_the_default_through_rules(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a scenario given as a mapping named test.yaml: its folder is .
    path = (tmp_path / "gm.csv").resolve()
    path.write_text("margin,0+\n0+,C\n", encoding="utf-8")
    s = duel(rules={"action_table": "gm.csv"})
    assert s.system.table.cells == (("C",),)
    result = pinned(s, [50])  # target 50: margin 0 -> C, x5
    assert result.outcome == "critical" and result.damage == 20
    assert f"Action table ({path})" in texts(result)


def test_a_gm_yaml_table_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "gm.yaml"
    path.write_text("name: my book\ncolumns: ['0-4', '5+']\nrows:\n  0-49: [L, A]\n"
                    "  50+: [X, H]\n", encoding="utf-8")
    t = load_action_table(str(path))
    assert t.name == "my book" and t.lookup(60, 5)[2] == "H"


def test_a_malformed_gm_table_fails_when_the_scenario_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.csv").write_text("margin,0-4,5+\n0-49,L,A\n50+,H,Z\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        duel(rules={"action_table": "bad.csv"})
    assert "row 2 (margin 50+), column 2 (defense 5+)" in str(err.value)
    assert "test.yaml" in str(err.value)


def test_missing_table_file_and_wrong_suffix_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_action_table(str(tmp_path / "nope.csv"))
    (tmp_path / "t.txt").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match=r"use a \.yaml, \.yml or \.csv file"):
        load_action_table(str(tmp_path / "t.txt"))


def test_inline_table_with_unknown_key_is_an_error() -> None:
    with pytest.raises(InputError, match="unknown key 'colums'"):
        table_from_mapping({"colums": [0], "rows": {0: ["L"]}}, "inline")


def test_example_gm_table_csv_is_valid() -> None:
    path = Path(__file__).resolve().parents[2] / "examples/zamani/tables/gm_table.csv"
    t = load_action_table(str(path))
    assert t.column_labels == ("0-3", "4-7", "8+") and t.warnings == ()
