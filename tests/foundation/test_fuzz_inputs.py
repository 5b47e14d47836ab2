"""Fuzzing what users type and write (issue 17): dice notation, pool notation and every
example scenario mutated (keys removed, types changed, numbers out of range). Every case
ends in a result or a clean :class:`InputError`, never another exception or a hang; a
mutated scenario goes through the command line (in-process), where that means exit 0, or
exit 2 with exactly one line on stderr."""

from __future__ import annotations

import copy
import io
import json
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer.main
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.cli.app import _find_roll, main
from fracas.dice import RandomRoller
from fracas.dice.each import roll_each
from fracas.dice.notation import exact_cost, parse_dice
from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCENARIOS = sorted(EXAMPLES.glob("*/*.yaml"))
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
CASES = int(os.environ.get("FRACAS_FUZZ", "300"))  # cases per fuzz test
FUZZ = settings(max_examples=CASES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])

DICE_TEXT = st.text(alphabet="0123456789dD%+-khl ", max_size=14) | st.from_regex(
    r"\A[0-9]{0,4}d[0-9%]{0,5}(k[hl][0-9]{0,3})?([+-][0-9]{0,5}(d[0-9]{1,3})?){0,3}\Z")


@FUZZ
@given(text=DICE_TEXT)
def test_dice_notation_parses_or_is_a_syntax_error(text: str) -> None:
    try:
        var = parse_dice(text)
    except InputError as err:
        assert "bad dice expression" in str(err)
        return
    value, _ = roll_each(var, np.random.default_rng(0))
    if exact_cost(var) <= 200_000:  # (beyond, --odds would refuse or take seconds)
        assert value in var.exact()  # the die-by-die roll is a value the exact odds allow


POOL_TEXT = st.text(alphabet="PABDCSFpabdcsf-+0123456789 ", max_size=12)


@FUZZ
@given(text=POOL_TEXT)
def test_pool_notation_rolls_or_is_a_clean_error(text: str) -> None:
    try:
        var = _find_roll(text)
    except InputError:
        return
    roller = RandomRoller(1)
    if hasattr(var, "sample_json"):
        data = var.sample_json(roller)
        assert isinstance(data, dict)
    else:
        roll_each(var, roller.rng)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


REPLACEMENTS = st.sampled_from([None, True, "2", "", "x" * 50, -1, 0, 10**6, -10**9, 10**30,
                                2.5, [], {}, [1, 2], {"a": 1}, "2d6", "d0"])


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, Any]:
    path = draw(st.sampled_from(SCENARIOS))
    data = copy.deepcopy(_loaded(path))
    for _ in range(draw(st.integers(1, 3))):
        spots = _paths(data)
        if not spots:
            break
        spot = draw(st.sampled_from(spots))
        parent = data
        for key in spot[:-1]:
            parent = parent[key]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[spot[-1]]
        else:
            parent[spot[-1]] = copy.deepcopy(draw(REPLACEMENTS))
    return f"{path.parent.name}/{path.name}", data


_CACHE: dict[Path, Any] = {}


def _loaded(path: Path) -> Any:
    if path not in _CACHE:
        _CACHE[path] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return _CACHE[path]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_is_fuzzed_from_a_valid_start(path: Path) -> None:
    scenario_from_mapping(_loaded(path), file=str(path))


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder per system with the examples' table files (a zamani scenario names
    ``tables/gm_table.csv`` relative to its own folder)."""
    root = tmp_path_factory.mktemp("fuzz")
    for system in EXAMPLES.iterdir():
        if system.is_dir():
            tables = system / "tables"
            if tables.is_dir():
                shutil.copytree(tables, root / system.name / "tables")
            else:
                (root / system.name).mkdir()
    return root


@pytest.fixture(scope="module")
def built_once() -> Iterator[None]:
    """Typer builds the click command anew at each call (a tenth of a second); here it is
    built once and reused, so that thousands of runs of ``main`` stay fast."""
    real = typer.main.get_command
    built: dict[int, Any] = {}

    def cached(app: typer.Typer) -> Any:
        if id(app) not in built:
            built[id(app)] = real(app)
        return built[id(app)]

    typer.main.get_command = cached
    yield
    typer.main.get_command = real


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    argv, sys.argv = sys.argv, ["fracas", *args]
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else 1
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


@FUZZ
@given(case=mutated())
def test_a_mutated_scenario_fights_or_exits_2_with_one_line(scratch: Path, built_once: None,
                                                           case: tuple[str, Any]) -> None:
    """``fracas fight FILE --json`` for two rounds on every mutated example: a fight log
    (exit 0), or exit 2 and one line ``fracas: error: ...`` naming what is wrong."""
    path, data = case
    file = scratch / path
    file.write_text(yaml.dump(data, Dumper=DUMPER, allow_unicode=True), encoding="utf-8")
    code, out, err = _cli("fight", str(file), "--seed", "1", "--max-rounds", "2", "--json")
    assert "Traceback" not in err
    if code == 0:
        assert json.loads(out)["schema"] and err == ""
    else:
        assert code == 2, (code, err)
        assert err.startswith("fracas: error: ") and err.count("\n") == 1, err
