"""The benchmark scripts are not run by the tests (speed is never a timed test), so at
least each must compile: a script that cannot start measures nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).parents[2] / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.name)
def test_each_benchmark_compiles_and_says_how_to_run_it(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    compile(source, str(path), "exec")
    assert "Run:" in source.split('"""')[1], f"{path.name}: its docstring says how to run it"
