"""Sweeps: paths and values, exact metrics per point, the same table on a real Dask
cluster of two workers as on local processes, and Ctrl-C on a long sweep."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import distributed
import pytest

from fracas.analysis import sweep
from fracas.analysis.sweep import SweepSpec, parse_vary, run_sweep, set_value
from fracas.core.scenario import read_yaml
from fracas.errors import InputError
from fracas.odds.attack import attack_odds
from fracas.registry.scenarios import scenario_from_mapping
from tests.foundation.test_cli import run_main
from tests.ptyrun import assert_interrupted, interrupt, printed

EXAMPLES = Path(__file__).parents[2] / "examples"
VAMPIRE = EXAMPLES / "tristat" / "vampire.yaml"


def test_parse_vary_ranges_steps_and_lists() -> None:
    assert parse_vary("attacker.skills.melee=1..6").values == (1, 2, 3, 4, 5, 6)
    assert parse_vary("max_rounds = 0..20..5").values == (0, 5, 10, 15, 20)
    assert parse_vary("rules.mode=a, 2, true").values == ("a", 2, True)
    for bad in ("melee", "x=", "x=6..1", "x=1..b", "x=1..5..0"):
        with pytest.raises(InputError, match="--vary"):
            parse_vary(bad)


def test_set_value_finds_combatants_lists_and_names() -> None:
    data = read_yaml(VAMPIRE)
    edited = set_value(data, "attacker.skills.melee", 4)
    assert edited["combatants"][0]["skills"]["melee"] == 4
    assert data["combatants"][0]["skills"]["melee"] == 2  # the original is untouched
    assert set_value(data, "defender.armor.rating", 0)["combatants"][1]["armor"]["rating"] == 0
    assert set_value(data, "joe.weapons.knife.damage", 9)["combatants"][0]["weapons"][0][
        "damage"] == 9
    assert set_value(data, "joe.weapons[0].damage", 8)["combatants"][0]["weapons"][0][
        "damage"] == 8
    assert set_value(data, "max_rounds", 7)["max_rounds"] == 7
    assert set_value(data, "vampire.soul", 2)["combatants"][1]["soul"] == 2
    with pytest.raises(InputError, match="no entry 'sword'"):
        set_value(data, "joe.weapons.sword.damage", 1)
    with pytest.raises(InputError, match="is a value"):
        set_value(data, "joe.body.x", 1)


def test_every_point_is_the_exact_odds_of_its_scenario() -> None:
    data = read_yaml(VAMPIRE)
    spec = SweepSpec(data, str(VAMPIRE), (parse_vary("attacker.skills.melee=0..2"),
                                          parse_vary("defender.armor.rating=1,4")),
                     "expected_damage")
    result = run_sweep(spec, jobs=1)
    assert len(result.points) == 6
    for p in result.points:
        edited = set_value(set_value(data, "attacker.skills.melee",
                                     p["values"]["attacker.skills.melee"]),
                           "defender.armor.rating", p["values"]["defender.armor.rating"])
        scenario = scenario_from_mapping(edited)
        assert scenario.attack is not None
        odds = attack_odds(scenario.system, scenario.attack, scenario.roster)
        assert p["exact"] == str(odds.expected_damage) or p["value"] == float(
            odds.expected_damage)
        assert p["method"] == "exact"
    low = result.value_at((0, 4))
    high = result.value_at((2, 1))
    assert low is not None and high is not None and low < high


def test_a_bad_path_fails_before_any_work() -> None:
    spec = SweepSpec(read_yaml(VAMPIRE), str(VAMPIRE), (parse_vary("attacker.skills=1..3"),),
                     "expected_damage")
    with pytest.raises(InputError, match="first point"):
        run_sweep(spec, jobs=1)
    spec = SweepSpec(read_yaml(VAMPIRE), str(VAMPIRE), (parse_vary("joe.body=1..2"),),
                     "nonsense")
    with pytest.raises(InputError, match="unknown metric"):
        run_sweep(spec, jobs=1)
    duel = EXAMPLES / "zamani" / "duel-fight.yaml"
    spec = SweepSpec(read_yaml(duel), str(duel), (parse_vary("kofi.skills.swords=4..5"),),
                     "win_probability", side="nobody")
    with pytest.raises(InputError, match="no side 'nobody'"):
        run_sweep(spec, jobs=1)


def test_fight_metric_is_exact_while_small_and_simulated_past_the_budget() -> None:
    path = EXAMPLES / "zamani" / "duel-fight.yaml"
    data = read_yaml(path)
    vary = (parse_vary("kofi.skills.swords=4,6"),)
    exact = run_sweep(SweepSpec(data, str(path), vary, "win_probability"), jobs=1)
    assert [p["method"] for p in exact.points] == ["exact", "exact"]
    sampled = run_sweep(SweepSpec(data, str(path), vary, "win_probability", max_states=20,
                                  fights=400), jobs=1)
    for e, s in zip(exact.points, sampled.points, strict=True):
        assert s["method"].startswith("simulated")
        lo, hi = s["ci95"]
        assert lo - 0.05 <= e["value"] <= hi + 0.05
    assert exact.points[0]["value"] < exact.points[1]["value"]


def test_local_processes_give_the_same_table_as_one_process() -> None:
    spec = SweepSpec(read_yaml(VAMPIRE), str(VAMPIRE), (parse_vary("joe.skills.melee=0..3"),
                                                        parse_vary("vampire.body=4..8")),
                     "p_taken_out")
    assert run_sweep(spec, jobs=2).table() == run_sweep(spec, jobs=1).table()


def test_dask_cluster_of_two_workers_gives_the_same_table_as_local() -> None:
    path = EXAMPLES / "tristat" / "duel-fight.yaml"
    attack = SweepSpec(read_yaml(VAMPIRE), str(VAMPIRE),
                       (parse_vary("attacker.skills.melee=0..4"),
                        parse_vary("defender.armor.rating=0..5")), "expected_damage")
    fight = SweepSpec(read_yaml(path), str(path), (parse_vary("rin.skills.melee=1,3"),),
                      "win_probability", max_states=100, fights=300)  # simulated points
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        seen: list[int] = []
        on_dask = run_sweep(attack, scheduler=cluster.scheduler_address,
                            progress=seen.append)
        fight_dask = run_sweep(fight, scheduler=cluster.scheduler_address)
        assert len(cluster.scheduler.workers) == 2
    assert on_dask.engine == "dask" and sum(seen) == 30
    assert on_dask.table() == run_sweep(attack, jobs=2).table()
    assert fight_dask.table() == run_sweep(fight, jobs=1).table()


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep, "CONNECT_TIMEOUT", "1s")
    spec = SweepSpec(read_yaml(VAMPIRE), str(VAMPIRE), (parse_vary("joe.body=4..5"),),
                     "expected_damage")
    with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
        run_sweep(spec, scheduler="tcp://127.0.0.1:9")


def test_sweep_cli_json_and_table(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "fracas", "sweep", str(VAMPIRE), "--vary",
                           "attacker.skills.melee=1..2", "--vary", "defender.armor.rating=0,3",
                           "--metric", "p_hit", "--json", "--jobs", "1"],
                          capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    assert data["metric"] == "p_hit" and len(data["points"]) == 4
    plot = tmp_path / "heat.png"
    done = subprocess.run([sys.executable, "-m", "fracas", "sweep", str(VAMPIRE), "--vary",
                           "attacker.skills.melee=1..2", "--vary", "defender.armor.rating=0,3",
                           "--plot", str(plot), "--jobs", "1"],
                          capture_output=True, text=True, check=True)
    assert "attacker.skills.melee" in done.stdout and plot.read_bytes()[:4] == b"\x89PNG"
    bad = subprocess.run([sys.executable, "-m", "fracas", "sweep", str(VAMPIRE), "--vary",
                          "attacker.nothing.x=1..2"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "first point" in bad.stderr


@pytest.mark.parametrize("delay", [0.0, 1.0])
def test_a_sweep_of_10000_points_shows_progress_and_stops_on_ctrl_c(delay: float) -> None:
    """On a terminal: a progress bar; Ctrl-C (SIGINT to the whole process group, as a
    terminal sends it) ends it with exit 130 and "interrupted", no traceback from any
    process: at once (while the workers start) or a second later (while they work)."""
    code, text = interrupt(["sweep", str(VAMPIRE), "--vary", "attacker.skills.melee=0..99",
                            "--vary", "defender.armor.rating=0..99", "--jobs", "2"],
                           printed(b"/10000"), delay)
    assert_interrupted(code, text)


def test_a_sweep_past_its_time_budget_stops_naming_max_seconds(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole-run budget stops the sweep with one line; the exact roller's deadline
    stops a point's exact odds on the way (not a fall-back to simulation)."""
    path = EXAMPLES / "genesys" / "duel-fight.yaml"  # each point: seconds of exact odds
    spec = SweepSpec(read_yaml(path), str(path), (parse_vary("red.group_size=1..4"),),
                     "win_probability", max_seconds=0.5)
    with pytest.raises(InputError, match=r"time budget of 0.5 s after 0 of 4 points") as err:
        run_sweep(spec, jobs=1)
    assert err.value.path == "--max-seconds"
    code, out, text = run_main(monkeypatch, capsys, "sweep", str(VAMPIRE), "--vary",
                               "attacker.skills.melee=1..3", "--max-seconds", "0", "--quiet")
    assert code == 2 and out == "" and len(text.splitlines()) == 1
    assert text.startswith("fracas: error: --max-seconds: the sweep passed its time budget")
    code, _, text = run_main(monkeypatch, capsys, "sweep", str(VAMPIRE), "--vary",
                             "attacker.skills.melee=1..3", "--fights", str(10**9))
    assert code == 2 and "--fights: 1,000,000,000 fights are too many" in text


def test_a_simulated_point_keeps_the_memory_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    from fracas.analysis import simulate

    seen: dict[str, object] = {}
    real = simulate.simulate

    def spy(*args: object, **kwargs: object) -> object:
        seen.update(kwargs)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(simulate, "simulate", spy)
    path = EXAMPLES / "zamani" / "duel-fight.yaml"
    spec = SweepSpec(read_yaml(path), str(path), (parse_vary("kofi.skills.swords=4"),),
                     "win_probability", method="simulate", fights=50, max_memory=12345)
    point = sweep.evaluate(spec, 0, (4,))
    assert point["method"] == "simulated (50)" and seen["max_memory"] == 12345
