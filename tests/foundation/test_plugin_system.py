"""A sixth rule system, added as a third party adds one: an installed distribution whose
``fracas.systems`` entry point names its class, and nothing else. Every command a user
runs finds it in a fresh process (no test registers it in-process): listing, one attack
and its exact odds, a fight saved and replayed, a simulation whose worker processes load
it themselves (spawned workers, and a Dask cluster), a fight played at the terminal, the
web tracker's server with the plug-in's examples, and ``fracas demo``.

The system is the test duel of ``tests/toy`` (its rules need nothing from the tests; its
examples are its package data, ``tests/toy/examples``); a ``*.dist-info`` folder on
``PYTHONPATH`` is how an installed package announces its entry points to
:mod:`importlib.metadata`, so nothing is installed into the environment. A second
installed package is broken (its module raises ``ImportError`` as it is imported) in
every test: it is quarantined, and all of that still works."""

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
TOY = ROOT / "tests" / "toy" / "examples"


def dist_info(site: Path, name: str, entry_points: str) -> None:
    """Announce an installed distribution ``name`` 1.0 with these entry points."""
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[fracas.systems]\n{entry_points}\n",
                                           encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site folder where the test duel's package and a broken package are installed."""
    site = tmp_path_factory.mktemp("site")
    dist_info(site, "fracas-duel-plugin", "testduel = tests.toy:Duel")
    (site / "broken_plugin").mkdir()
    (site / "broken_plugin" / "__init__.py").write_text(
        "raise ImportError('no module named numpy_for_broken_plugins')\n", encoding="utf-8")
    dist_info(site, "fracas-broken-plugin", "broken = broken_plugin:System")
    return site


@pytest.fixture(scope="module")
def plugin_env(site: Path) -> dict[str, str]:
    """The environment of a machine where those packages are installed."""
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT), str(site)])
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "160"}


def fracas(env: dict[str, str], *args: str, stdin: str | None = None,
           cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, env=env, cwd=cwd)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, (done.args, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return done.stdout


def test_a_broken_plugin_is_listed_as_broken_and_the_others_are_listed(
        plugin_env: dict[str, str]) -> None:
    listed = ok(fracas(plugin_env, "systems"))
    assert "testduel" in listed and "tristat" in listed
    assert "broken, not loaded" in listed and "fracas-broken-plugin 1.0" in listed
    assert "no module named numpy_for_broken_plugins" in listed
    data = json.loads(ok(fracas(plugin_env, "systems", "--json")))["systems"]
    assert {"id": "broken", "package": "fracas-broken-plugin 1.0",
            "broken": "ImportError: no module named numpy_for_broken_plugins"} in data
    duel = next(s for s in data if s["id"] == "testduel")
    assert duel["package"] == "fracas-duel-plugin 1.0"


def test_a_plugin_system_is_listed_and_resolves_an_attack(plugin_env: dict[str, str]
                                                          ) -> None:
    attack = json.loads(ok(fracas(plugin_env, "attack", str(TOY / "duel.yaml"), "--json")))
    # pinned d20 20 (a natural 20 doubles), 2d6 3 + 4, strength 1: (3 + 4 + 1) x 2 = 16,
    # less Bob's armor 2, more than his 8 hp: he loses all 8
    assert (attack["outcome"], attack["damage"]) == ("critical", 8), attack
    odds = json.loads(ok(fracas(plugin_env, "odds", str(TOY / "duel.yaml"), "--json")))
    assert odds["p_hit"] == "3/5"  # d20 + 5 >= 14: 12 of 20 faces, exact
    built_in = json.loads(ok(fracas(plugin_env, "attack", "examples/tristat/vampire.yaml",
                                    "--json", cwd=ROOT)))
    assert built_in["damage"] == 21


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


def test_a_plugin_system_simulates_alike_on_a_dask_cluster(plugin_env: dict[str, str],
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The cluster's worker processes (started with the machine's packages: the broken
    one too) load the plug-in by themselves: the same JSON as one process."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("PYTHONPATH", plugin_env["PYTHONPATH"])
    args = ["simulate", str(TOY / "duel-fight.yaml"), "-n", "300", "--seed", "2",
            "--method", "steps", "--json", "-q"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        remote = json.loads(ok(fracas(plugin_env, *args, "--scheduler",
                                      cluster.scheduler_address)))
    assert remote == json.loads(ok(fracas(plugin_env, *args)))


def test_a_plugin_systems_fight_is_played_at_the_terminal(plugin_env: dict[str, str],
                                                          tmp_path: Path) -> None:
    log = tmp_path / "play.jsonl"
    out = ok(fracas(plugin_env, "play", str(TOY / "duel-fight.yaml"), "--seed", "2",
                    "--roll-all", "--log", str(log), stdin="\n" * 200))
    assert "? Ann's action" in out and "Fight over" in out, out[-2000:]
    assert "error" not in out, out[-2000:]
    resumed = ok(fracas(plugin_env, "replay", str(log)))
    assert "Fight over" in resumed


def test_demo_shows_the_plugins_example(plugin_env: dict[str, str], tmp_path: Path) -> None:
    """Run away from the checkout: the examples come from where each system ships them."""
    out = ok(fracas(plugin_env, "demo", cwd=tmp_path))
    assert "Test duel (testduel)" in out
    assert str(TOY / "duel.yaml") in out.replace("\n", "")
    assert "Joe stabs the vampire" in out  # the built-in systems' examples still there


def play_out(http: httpx.Client, eid: str, headers: dict[str, str]) -> dict[str, object]:
    """The GM answers everything (first option, dice rolled) to the fight's end."""
    view = http.get(f"/api/encounters/{eid}", headers=headers).json()
    for _ in range(300):
        if view["over"]:
            break
        decision = view["pending"]["decision"]
        answer = ({"option": decision["options"][0]["id"]} if decision["options"]
                  else {"roll": True})
        r = http.post(f"/api/encounters/{eid}/decisions", headers=headers,
                      json={"version": view["version"], "answer": answer})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["over"], view
    return view


def test_the_tracker_runs_a_plugin_systems_encounter_from_its_example(
        plugin_env: dict[str, str], tmp_path: Path) -> None:
    """``fracas serve --example testduel/duel-fight.yaml``: the encounter made from the
    plug-in's example, its GM link printed; the example listed by the API and on the
    GM's page; a whole fight played through the API; the server warmed up with the
    broken package installed."""
    server = ServerProcess(str(tmp_path / "tracker.sqlite3"), env=plugin_env,
                           args=["--example", "testduel/duel-fight.yaml"]).start()
    try:
        printed = server.printed()
        assert "(testduel)" in printed, printed
        key = printed.split("/gm/", 1)[1].split()[0]
        gm = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=server.url, timeout=60) as http:
            assert {"testduel/duel-fight.yaml", "testduel/duel.yaml",
                    "tristat/duel-fight.yaml"} <= set(http.get("/api/examples").json())
            page = http.get("/gm", headers=gm).text
            assert "testduel/duel-fight.yaml" in page
            mine = http.get("/api/encounters", headers=gm).json()
            assert [e["system"] for e in mine] == ["testduel"]
            play_out(http, mine[0]["id"], gm)
            made = http.post("/api/encounters", headers=gm,
                             json={"example": "testduel/duel-fight.yaml", "seed": 5})
            assert made.status_code == 201, made.text
            play_out(http, made.json()["id"], gm)
    finally:
        server.stop()
    assert server.proc is not None and server.proc.stderr is not None
    log = server.proc.stderr.read().decode()
    assert "not warmed up: broken (fracas-broken-plugin 1.0): ImportError" in log, log


FAULTY = '''
from tests.toy import Duel


class Faulty(Duel):
    id = "faulty"
    title = "Faulty duel"

    def resolve(self, roller, action, roster):
        return {}["a missing table entry"]
'''


def test_a_plugin_that_raises_mid_fight_is_named_never_a_traceback(
        plugin_env: dict[str, str], site: Path, tmp_path: Path) -> None:
    (tmp_path / "faulty_plugin").mkdir()
    (tmp_path / "faulty_plugin" / "__init__.py").write_text(FAULTY, encoding="utf-8")
    dist_info(tmp_path, "fracas-faulty", "faulty = faulty_plugin:Faulty")
    env = {**plugin_env, "PYTHONPATH": plugin_env["PYTHONPATH"] + os.pathsep + str(tmp_path)}
    scenario = tmp_path / "faulty.yaml"
    scenario.write_text((TOY / "duel-fight.yaml").read_text(encoding="utf-8").replace(
        "system: testduel", "system: faulty"), encoding="utf-8")
    for args in (["fight", str(scenario)], ["odds", str(scenario), "--fight", "-q"],
                 ["simulate", str(scenario), "-n", "3000", "--jobs", "2", "-q",
                  "--method", "steps"]):
        done = fracas(env, *args)
        assert done.returncode == 2, (args, done.stdout[-1000:], done.stderr[-2000:])
        assert "Traceback" not in done.stderr, done.stderr
        assert ("fracas: error: the rule system plug-in 'faulty' (fracas-faulty 1.0) "
                "failed: KeyError: 'a missing table entry' (at faulty_plugin/__init__.py:"
                ) in done.stderr, (args, done.stderr)
    assert "testduel" in ok(fracas(env, "systems"))


def test_an_id_clash_is_an_error_naming_both_packages(plugin_env: dict[str, str],
                                                      tmp_path: Path) -> None:
    dist_info(tmp_path, "fracas-other-duel", "otherduel = tests.toy:Duel")
    dist_info(tmp_path, "fracas-tristat-again", "tristat2 = tests.toy.clash:Tristat")
    env = {**plugin_env, "PYTHONPATH": plugin_env["PYTHONPATH"] + os.pathsep + str(tmp_path)}
    done = fracas(env, "attack", str(TOY / "duel.yaml"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert ("fracas: error: the rule system id 'testduel' is given by 2 installed packages: "
            "fracas-duel-plugin 1.0 and fracas-other-duel 1.0") in done.stderr, done.stderr
    listed = ok(fracas(env, "systems", "--json"))
    broken = {s["id"]: s for s in json.loads(listed)["systems"] if "broken" in s}
    assert broken["testduel"]["package"] == "fracas-duel-plugin 1.0 and fracas-other-duel 1.0"
    assert "is the id of a system built into fracas" in broken["tristat"]["broken"]
    assert broken["tristat"]["package"] == "fracas-tristat-again 1.0"
    assert json.loads(ok(fracas(env, "attack", str(ROOT / "examples" / "tristat" /
                                                   "vampire.yaml"), "--json")))["damage"] == 21
