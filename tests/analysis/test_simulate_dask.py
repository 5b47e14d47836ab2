"""``simulate --scheduler``: the fights played on a Dask cluster give the same numbers as a
local run for the same seed; an unreachable scheduler is a clean error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import distributed
import pytest

from fracas.analysis import cluster
from fracas.analysis.simulate import simulate, summarize
from fracas.encounter.engine import setup_from_scenario
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

DUEL = Path(__file__).parents[2] / "examples" / "tristat" / "duel-fight.yaml"


def test_a_two_worker_cluster_gives_the_same_summary_as_a_local_run() -> None:
    scenario = load_scenario(DUEL)
    setup = setup_from_scenario(scenario)
    runs = [("steps", 200), ("fast", 50)]  # steps: 4 tasks of 64, 64, 64, 8 fights
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as dask_cluster:
        seen: list[int] = []
        remote = [simulate(setup, scenario.roster, n, seed=3, method=m,  # type: ignore[arg-type]
                           scheduler=dask_cluster.scheduler_address, progress=seen.append)
                  for m, n in runs]
        assert len(dask_cluster.scheduler.workers) == 2
    assert sum(seen) == 250
    for (m, n), fights in zip(runs, remote, strict=True):
        local = simulate(setup, scenario.roster, n, seed=3, method=m)  # type: ignore[arg-type]
        assert fights.method == local.method
        assert summarize(fights) == summarize(local)


def test_an_unreachable_scheduler_is_a_clean_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    scenario = load_scenario(DUEL)
    with pytest.raises(InputError, match="cannot reach the Dask scheduler") as err:
        simulate(setup_from_scenario(scenario), scenario.roster, 10, method="steps",
                 scheduler="tcp://127.0.0.1:9")
    assert err.value.path == "--scheduler"


def test_the_cli_names_scheduler_when_it_cannot_reach_it() -> None:
    done = subprocess.run([sys.executable, "-m", "fracas", "simulate", str(DUEL), "-n", "10",
                           "--method", "steps", "--scheduler", "tcp://127.0.0.1:9", "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--scheduler" in done.stderr and "cannot reach the Dask scheduler" in done.stderr
