"""A sixth rule system, added as a third party adds one: an installed distribution whose
``fracas.systems`` entry point names its class, and nothing else. Every command a user
runs finds it in a fresh process (no test registers it in-process): listing, one attack
and its exact odds, a fight saved and replayed, a simulation whose worker processes load
it themselves, a fight played at the terminal, and the web tracker's server.

The system is the test duel of ``tests/toy`` (its rules need nothing from the tests); a
``*.dist-info`` folder on ``PYTHONPATH`` is how an installed package announces its entry
points to :mod:`importlib.metadata`, so nothing is installed into the environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from fracas.web.testing import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "toy"


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a machine where a package with the test duel is installed."""
    site = tmp_path_factory.mktemp("site")
    info = site / "fracas_duel_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fracas-duel-plugin\n"
                                   "Version: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[fracas.systems]\ntestduel = tests.toy:Duel\n",
                                           encoding="utf-8")
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT), str(site)])
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "160"}


def fracas(env: dict[str, str], *args: str, stdin: str | None = None,
           cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, env=env, cwd=cwd)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, (done.args, done.stdout[-2000:], done.stderr[-2000:])
    return done.stdout


def test_a_plugin_system_is_listed_and_resolves_an_attack(plugin_env: dict[str, str]
                                                          ) -> None:
    assert "testduel" in ok(fracas(plugin_env, "systems"))
    attack = json.loads(ok(fracas(plugin_env, "attack", str(TOY / "duel.yaml"), "--json")))
    # pinned d20 20 (a natural 20 doubles), 2d6 3 + 4, strength 1: (3 + 4 + 1) x 2 = 16,
    # less Bob's armor 2, more than his 8 hp: he loses all 8
    assert (attack["outcome"], attack["damage"]) == ("critical", 8), attack
    odds = json.loads(ok(fracas(plugin_env, "odds", str(TOY / "duel.yaml"), "--json")))
    assert odds["p_hit"] == "3/5"  # d20 + 5 >= 14: 12 of 20 faces, exact


def test_a_plugin_systems_fight_log_replays_in_another_process(plugin_env: dict[str, str],
                                                              tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    fought = ok(fracas(plugin_env, "fight", str(TOY / "duel-fight.yaml"), "--seed", "4",
                       "--log", str(log)))
    replayed = ok(fracas(plugin_env, "replay", str(log)))
    ending = next(line for line in fought.splitlines() if "Fight over" in line)
    assert ending.strip() in replayed


def test_a_plugin_system_simulates_alike_in_worker_processes(plugin_env: dict[str, str]
                                                            ) -> None:
    """Two spawned worker processes load the plugin by themselves: the same JSON as one
    process. (3,000 fights: the rest after the first chunk would take several seconds on
    one core, past ``PARALLEL_FROM_SECONDS``, so ``--jobs 2`` does start its workers.)"""
    runs = [json.loads(ok(fracas(plugin_env, "simulate", str(TOY / "duel-fight.yaml"),
                                 "-n", "3000", "--seed", "2", "--method", "steps", "--json",
                                 "--jobs", jobs, "-q")))
            for jobs in ("1", "2")]
    assert runs[0] == runs[1]
    assert runs[0]["fights"] == 3000


def test_a_plugin_systems_fight_is_played_at_the_terminal(plugin_env: dict[str, str],
                                                          tmp_path: Path) -> None:
    log = tmp_path / "play.jsonl"
    out = ok(fracas(plugin_env, "play", str(TOY / "duel-fight.yaml"), "--seed", "2",
                    "--roll-all", "--log", str(log), stdin="\n" * 200))
    assert "? Ann's action" in out and "Fight over" in out, out[-2000:]
    assert "error" not in out, out[-2000:]
    resumed = ok(fracas(plugin_env, "replay", str(log)))
    assert "Fight over" in resumed


def test_the_tracker_runs_a_plugin_systems_encounter(plugin_env: dict[str, str],
                                                     tmp_path: Path) -> None:
    server = ServerProcess(str(tmp_path / "tracker.sqlite3"), env=plugin_env).start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            key = http.post("/api/gms").json()["key"]
            gm = {"Authorization": f"Bearer {key}"}
            made = http.post("/api/encounters", headers=gm, json={
                "scenario_yaml": (TOY / "duel-fight.yaml").read_text(encoding="utf-8"),
                "seed": 5})
            assert made.status_code == 201, made.text
            eid = made.json()["id"]
            view = http.get(f"/api/encounters/{eid}", headers=gm).json()
            for _ in range(300):  # the GM answers everything: first option, dice rolled
                if view["over"]:
                    break
                decision = view["pending"]["decision"]
                answer = ({"option": decision["options"][0]["id"]} if decision["options"]
                          else {"roll": True})
                r = http.post(f"/api/encounters/{eid}/decisions", headers=gm,
                              json={"version": view["version"], "answer": answer})
                assert r.status_code == 200, r.text
                view = r.json()
            assert view["over"], view
    finally:
        server.stop()
