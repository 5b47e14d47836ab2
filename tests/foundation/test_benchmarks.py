"""Benchmarks that cannot rot: each script under benchmarks/ runs in its quick mode, in a
fresh process, and prints its table (its header's words); no time is asserted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Each benchmark, and words its quick run must print (its table's header or verdict).
QUICK = {
    "designer.py": ["auto/path", "jobs 2", "c22/duel-fight", "thrown away", "every goal met"],
    "dice.py": ["expression", "cold", "cached", "5d20kh1"],
    "fight_golden.py": ["byte for byte the saved one"],
    "genesys_pools.py": ["pool", "Distribution", "all read", "large pool"],
    "long_fight.py": ["first p50", "last p95", "worst ratio"],
    "live_odds.py": ["median ms", "genesys/duel-fight.yaml"],
    "odds_golden.py": ["byte for byte the saved one"],
    "policy_agreement.py": ["decisions", "same value", "duel-fight.yaml"],
    "serve.py": ["a decision's round trip", "SQLite, 1 process", "durable"],
    "simulate.py": ["Issue 25's goals", "every goal met", "tristat duel", "contest duel"],
    "startup.py": ["python -c pass", "fracas --help"],
    "win_chance.py": ["+-5 points", "zamani/duel-fight.yaml", "start", "mid"],
    "time_shares.py": ["policy odds", "resolve", "genesys/three-vs-three-fight.yaml"],
}


def test_every_benchmark_has_a_quick_run() -> None:
    """A new benchmark is listed here, so make test runs it too."""
    scripts = {p.name for p in (ROOT / "benchmarks").glob("*.py")}
    assert scripts == set(QUICK), f"listed {sorted(QUICK)}, found {sorted(scripts)}"


@pytest.mark.parametrize("script", sorted(QUICK))
def test_benchmark_quick_run_prints_its_table(script: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "200"}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), "--quick"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    for words in QUICK[script]:
        assert words in done.stdout, f"{script} --quick did not print {words!r}:\n{done.stdout}"
