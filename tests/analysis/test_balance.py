"""``fracas balance``: through the real command in a fresh process, the value it finds is
the one whose exact win chance (what ``fracas odds --fight`` prints for the edited
scenario) is closest to the target; past the exact budget it simulates, with an interval
that holds the exact figure and the same JSON on one process or two; bad input is a
clear error."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.analysis.balance import _spread, parse_target
from fracas.analysis.sweep import set_value
from fracas.core.scenario import read_yaml
from fracas.errors import InputError

DUEL = Path(__file__).parents[2] / "examples" / "tristat" / "duel-fight.yaml"
PATH = "rin.skills.melee"


def fracas(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], capture_output=True,
                          text=True, check=check)


def balance_json(*args: str) -> dict[str, Any]:
    return json.loads(fracas("balance", str(DUEL), "--json", "--quiet", *args).stdout)


def exact_win(tmp_path: Path, value: int) -> Fraction:
    """What ``fracas odds --fight`` gives for the duel with the value set."""
    edited = tmp_path / f"duel-{value}.yaml"
    edited.write_text(yaml.safe_dump(set_value(read_yaml(DUEL), PATH, value)))
    out = json.loads(fracas("odds", str(edited), "--fight", "--json", "--quiet").stdout)
    return Fraction(out["outcomes"]["blades"]["exact"])


def test_an_exact_duel_gets_the_value_odds_fight_says_is_closest(tmp_path: Path) -> None:
    data = balance_json("--vary", f"{PATH}=0..6", "--target", "blades=0.6", "--jobs", "1")
    assert data["reachable"] and data["side"] == "blades" and data["target"] == 0.6
    tried = {t["value"]: t for t in data["tried"]}
    assert all(t["method"] == "exact" for t in tried.values())
    best = data["best"]["value"]
    # the neighbours of the answer were tried: nothing in between is left unknown
    assert {best - 1, best + 1} <= set(tried)
    exact = {v: exact_win(tmp_path, v) for v in (best - 1, best, best + 1)}
    for v, p in exact.items():
        assert Fraction(tried[v]["exact"]) == p
        assert tried[v]["win_probability"] == float(p)
    target = Fraction(3, 5)
    assert exact[best - 1] < target < exact[best + 1]  # it straddles the target
    assert abs(exact[best] - target) <= min(abs(exact[best - 1] - target),
                                           abs(exact[best + 1] - target))
    # more skill, more wins: the table is increasing
    values = [Fraction(tried[v]["exact"]) for v in sorted(tried)]
    assert values == sorted(values)


def test_past_the_exact_budget_it_simulates_the_same_on_one_process_or_two(
        tmp_path: Path) -> None:
    args = ("--vary", f"{PATH}=2..4", "--target", "blades=0.6", "--max-states", "10",
            "--fights", "300")
    plot = tmp_path / "balance.png"
    one = fracas("balance", str(DUEL), *args, "--jobs", "1", "--json", "--quiet",
                 "--plot", str(plot))
    two = fracas("balance", str(DUEL), *args, "--jobs", "2", "--json", "--quiet")
    assert one.stdout == two.stdout
    assert plot.read_bytes()[:4] == b"\x89PNG"
    data = json.loads(one.stdout)
    assert [t["value"] for t in data["tried"]] == [2, 3, 4]
    for t in data["tried"]:
        assert t["method"] == "simulated (300)"
        low, high = t["ci95"]
        assert low <= t["win_probability"] <= high
    best = data["best"]
    assert best["method"] == "simulated (300)" and "ci95" in best
    exact = exact_win(tmp_path, best["value"])
    low, high = best["ci95"]
    assert low - 0.03 <= exact <= high + 0.03  # the interval holds the exact figure
    table = fracas("balance", str(DUEL), *args, "--jobs", "1", "--quiet").stdout
    assert "95% interval" in table and "◀ closest" in table
    assert f"{PATH} = {best['value']}: blades win chance" in table
    assert "blades wins" not in table


def test_a_target_out_of_reach_gives_the_closer_end() -> None:
    data = balance_json("--vary", f"{PATH}=0..2", "--target", "blades=99%", "--jobs", "1")
    assert not data["reachable"] and data["best"]["value"] == 2
    assert [t["value"] for t in data["tried"]] == [0, 2]


def test_bad_input_is_a_clear_error() -> None:
    cases = [
        (["--vary", f"{PATH}=0..2", "--target", "nobody=0.5"], "no side 'nobody'"),
        (["--vary", f"{PATH}=0..2", "--target", "blades=1.5"], "--target"),
        (["--vary", f"{PATH}=0..2", "--target", "blades"], "--target"),
        (["--vary", f"{PATH}=a,b", "--target", "blades=0.5"], "not a range"),
        (["--vary", f"{PATH}=3..3", "--target", "blades=0.5"], "nothing to choose"),
        (["--vary", "rin.nothing.x=0..2", "--target", "blades=0.5"], "first point"),
        (["--vary", f"{PATH}=0..8", "--target", "blades=0.5", "--max-seconds", "0"],
         "--max-seconds: the balance passed its time budget of 0 s"),
    ]
    for args, message in cases:
        done = fracas("balance", str(DUEL), "--jobs", "1", "--quiet", *args, check=False)
        assert done.returncode == 2, args
        assert message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_targets_and_spreads() -> None:
    assert parse_target("blades=60%").chance == pytest.approx(0.6)
    assert parse_target(" fists = 0.25 ").side == "fists"
    with pytest.raises(InputError, match="--target"):
        parse_target("=0.5")
    assert _spread(0, 8, 3) == [2, 4, 6]
    assert _spread(2, 4, 3) == [3]
    assert _spread(0, 100, 3) == [25, 50, 75]


def test_a_dask_cluster_of_two_workers_gives_the_same_answer_as_one_process() -> None:
    import distributed

    from fracas.analysis.balance import run_balance
    from fracas.analysis.sweep import SweepSpec, parse_vary

    spec = SweepSpec(read_yaml(DUEL), str(DUEL), (parse_vary(f"{PATH}=1..4"),),
                     "win_probability", side="blades", max_states=10, fights=150)
    target = parse_target("blades=0.5")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        on_dask = run_balance(spec, target, scheduler=cluster.scheduler_address)
    local = run_balance(spec, target, jobs=1)
    assert on_dask.engine == "dask" and local.engine == "local"
    assert {**on_dask.to_json(), "engine": "local"} == local.to_json()
    assert all(p["method"] == "simulated (150)" for p in local.points)
