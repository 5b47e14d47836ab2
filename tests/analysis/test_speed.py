"""The memory cap of the fast path, the choice auto reports, and a light start-up."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from fracas.analysis.simulate import simulate
from fracas.encounter.engine import setup_from_scenario
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario


def test_the_chain_stops_at_its_memory_cap_with_a_message_naming_it(
        toy_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fracas.analysis import auto

    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    setup = setup_from_scenario(scenario)
    with pytest.raises(InputError, match="--max-memory"):
        simulate(setup, scenario.roster, 50, seed=1, method="fast", max_memory=10_000)
    monkeypatch.setattr(auto, "AUTO_SHARE", 5.0)  # a probe that may reach the cap
    fights = simulate(setup, scenario.roster, 50, seed=1, method="auto", max_memory=10_000)
    assert fights.method == "steps" and fights.n == 50
    assert any("auto chose" in note and "--max-memory" in note for note in fights.notes)


def test_auto_says_which_path_it_chose(toy_dir: Path) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    fights = simulate(setup_from_scenario(scenario), scenario.roster, 200, seed=2)
    assert fights.notes[0].startswith(f"auto chose the {fights.method} path")


def test_import_fracas_and_the_command_line_load_nothing_heavy() -> None:
    code = ("import sys, fracas, fracas.cli.app, fracas.cli.fights, fracas.cli.analysis; "
            "print(sorted(m for m in ('numpy', 'matplotlib', 'dask', 'pydantic', 'yaml', "
            "'fracas.systems.genesys') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
    import fracas

    assert fracas.load_scenario is load_scenario


def test_ctrl_c_while_the_command_line_loads_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    class Interrupted(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            raise KeyboardInterrupt

    from fracas.cli import entry

    monkeypatch.setitem(sys.modules, "fracas.cli.app", Interrupted("fracas.cli.app"))
    with pytest.raises(SystemExit) as done:
        entry.main()
    assert done.value.code == 130
    assert capsys.readouterr().err == "fracas: interrupted\n"


def test_the_help_names_every_policy() -> None:
    from fracas.cli.fights import POLICY_NAMES
    from fracas.encounter.policies import POLICIES

    assert set(POLICY_NAMES) == set(POLICIES)


def test_auto_takes_steps_or_sampled_on_a_fight_whose_states_do_not_repeat() -> None:
    path = Path(__file__).parents[2] / "examples" / "genesys" / "three-vs-three-fight.yaml"
    scenario = load_scenario(path)
    fights = simulate(setup_from_scenario(scenario), scenario.roster, 12, seed=3)
    assert fights.method in ("steps", "sampled") and fights.n == 12
    assert fights.notes[0].startswith(f"auto chose the {fights.method} path")
    assert "step by step" in fights.notes[0]


@pytest.mark.parametrize("method", ["steps", "sampled", "fast"])
def test_every_path_gives_the_same_fights_with_one_or_two_jobs(
        toy_dir: Path, method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from fracas.analysis import simulate as sim

    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    setup = setup_from_scenario(scenario)
    monkeypatch.setattr(sim, "PARALLEL_FROM_SECONDS", 0.0)  # two jobs really use workers
    monkeypatch.setattr(sim, "BATCH", 40)
    n = 2 * sim.CHUNK + 5
    one = simulate(setup, scenario.roster, n, seed=4, method=method, jobs=1)  # type: ignore[arg-type]
    two = simulate(setup, scenario.roster, n, seed=4, method=method, jobs=2)  # type: ignore[arg-type]
    assert one.method == two.method == method
    for field in ("winner", "rounds", "dealt", "taken", "survived", "actions"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field


def test_the_sampled_path_is_the_same_when_each_worker_plays_many_chunks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker keeps its sub-step cache from chunk to chunk; the contest duel's plan
    plays the system's initiative (a bound method) directly, which a later chunk's own
    unpickled copy would no longer match."""
    from fracas.analysis import paths
    from fracas.analysis import simulate as sim

    path = Path(__file__).parents[2] / "examples" / "contest" / "duel-fight.yaml"
    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    plan, _ = paths.learn_played(setup, scenario.roster, 5, sim.MAX_MEMORY)
    assert any(hasattr(rule[0], "__self__") for rule in plan[0])
    monkeypatch.setattr(sim, "PARALLEL_FROM_SECONDS", 0.0)
    monkeypatch.setattr(sim, "CHUNK", 6)
    one = simulate(setup, scenario.roster, 90, seed=5, method="sampled", jobs=1)
    two = simulate(setup, scenario.roster, 90, seed=5, method="sampled", jobs=2)
    for field in ("winner", "rounds", "dealt", "taken", "survived", "actions"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field


def test_auto_counts_work_and_reads_no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same choice, note and kept fights twice, the second time with every clock
    jumping by an hour at each reading: auto's path depends on the seed and n alone (the
    Genesys duel, where auto weighs the sampled path and plays step by step: the sub-steps
    its cache finds have one outcome each, so it would save nothing)."""
    import itertools
    import time

    from fracas.analysis import auto, paths
    from fracas.analysis.auto import choose

    path = Path(__file__).parents[2] / "examples" / "genesys" / "duel-fight.yaml"
    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    monkeypatch.setattr(auto, "SAMPLED_TRIAL_SHARE", 1.0)  # the whole trial, weighed
    first = choose(setup, scenario.roster, 3, 1000)
    paths.CACHES.clear()
    paths.CHAINS.clear()
    again = choose(setup, scenario.roster, 3, 1000)
    ticks = itertools.count(0.0, 3600.0)
    for name in ("process_time", "perf_counter", "monotonic", "time"):
        monkeypatch.setattr(time, name, lambda: next(ticks))
    paths.CACHES.clear()
    paths.CHAINS.clear()
    jumpy = choose(setup, scenario.roster, 3, 1000)
    assert first.method == "steps" and first.note.startswith("auto chose the steps path")
    assert "the sampled path ~" in first.note  # weighed, not taken
    for other in (again, jumpy):
        assert (other.method, other.note, other.plan) == (first.method, first.note, first.plan)
        assert first.first is not None and other.first is not None
        assert np.array_equal(first.first.winner, other.first.winner)
        assert np.array_equal(first.first.dealt, other.first.dealt)


def test_auto_plays_step_by_step_when_the_fights_are_too_few_for_the_other_paths(
        toy_dir: Path) -> None:
    from fracas.analysis.auto import choose

    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    setup = setup_from_scenario(scenario)
    few = choose(setup, scenario.roster, 1, 3)
    assert few.method == "steps" and few.first is not None and few.first.n == 3
    some = choose(setup, scenario.roster, 1, 100)
    assert some.method == "steps" and "fewer than 400 fights" in some.note
    fights = simulate(setup, scenario.roster, 100, seed=1)
    steps = simulate(setup, scenario.roster, 100, seed=1, method="steps")
    assert np.array_equal(fights.winner, steps.winner)
    assert np.array_equal(fights.dealt, steps.dealt)


def test_a_hit_on_a_sub_step_of_one_outcome_saves_nothing() -> None:
    """Auto's count: the sampled path pays where its cache draws an outcome instead of
    playing the rule, not where the sub-step found has one outcome (playing it draws
    nothing either)."""
    from fracas.analysis.auto import Counts, sampled_work

    learnt = Counts(0, 10, 0, 0, 100)
    drawn = Counts(hits=900, misses=10, direct=100, traces=0, runs=50)
    fixed = Counts(hits=900, misses=10, direct=100, traces=0, runs=50, fixed=900)
    sampled, steps, _ = sampled_work(learnt, drawn, drawn, 8, 2000)
    assert sampled < 0.5 * steps
    sampled, steps, _ = sampled_work(learnt, fixed, fixed, 8, 2000)
    assert sampled > steps


def test_auto_gives_up_a_sampled_trial_that_would_cost_more_than_its_share() -> None:
    """The sampled path's learning stops once its enumeration runs pass
    SAMPLED_TRIAL_SHARE of the turns step by step would play (issue 39: auto costs at
    most about that share more than the path it picks); the fights are the steps path's."""
    from fracas.analysis import auto, paths

    path = Path(__file__).parents[2] / "examples" / "genesys" / "duel-fight.yaml"
    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    paths.CACHES.clear()
    paths.CHAINS.clear()
    choice = auto.choose(setup, scenario.roster, 3, 1000)
    assert choice.method == "steps"
    assert "the sampled path's learning passed" in choice.note
    fights = simulate(setup, scenario.roster, 40, seed=3, method="steps")
    chosen = simulate(setup, scenario.roster, 40, seed=3, method="auto")
    assert np.array_equal(fights.winner, chosen.winner)


def test_the_probe_stops_before_a_turn_whose_new_states_would_pass_its_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 39: the c22 duel's opening state costs 129 exact runs and leads to dozens of
    new states; a budget that cannot pay for them at that cost is not spent learning so
    (before, the probe worked through the next turns until its runs passed the budget)."""
    import re

    from fracas.analysis import paths
    from fracas.analysis.paths import CHAINS, probe

    path = Path(__file__).parents[2] / "examples" / "c22" / "duel-fight.yaml"
    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    budget = 4_666
    CHAINS.clear()
    verdict = probe(setup, scenario.roster, 1, 4_000, budget=budget, run_cost=0.3)
    CHAINS.clear()
    said = re.search(r"the next turn's (\d+) new states, at the ([\d.,]+) exact runs a state "
                     r"has cost so far, would pass the probe's budget of ([\d,]+)",
                     verdict.reason)
    assert not verdict.fast and said, verdict.reason
    fresh, per_state = int(said[1]), float(said[2].replace(",", ""))
    assert int(said[3].replace(",", "")) == budget
    assert 0 < verdict.runs < budget / 10
    assert verdict.runs + fresh * per_state > budget  # the turn it did not start
    monkeypatch.setattr(paths, "NEW_STATE_SHARE", 1.0)  # only a budget stops it
    whole = probe(setup, scenario.roster, 1, 4_000, budget=None)  # no budget: played on
    CHAINS.clear()
    assert not whole.fast and whole.runs > budget / 2


def test_the_probe_stops_once_too_many_turns_meet_a_new_state() -> None:
    """Issue 39: the Zamani river ambush meets a new state on more than one turn in five
    (NEW_STATE_SHARE): the probe answers no there, while the Zamani duel, whose chain
    pays, stays under it and is taken fast."""
    from fracas.analysis.paths import CHAINS, NEW_STATE_SHARE, probe

    examples = Path(__file__).parents[2] / "examples" / "zamani"
    verdicts = {}
    for name in ("river-ambush", "duel"):
        scenario = load_scenario(examples / f"{name}-fight.yaml")
        CHAINS.clear()
        verdicts[name] = probe(setup_from_scenario(scenario), scenario.roster, 1, 2_000,
                               budget=None)
    CHAINS.clear()
    ambush, duel = verdicts["river-ambush"], verdicts["duel"]
    assert not ambush.fast and "meet a new state" in ambush.reason
    assert ambush.states_full > NEW_STATE_SHARE * ambush.turns
    assert duel.fast and duel.states_full < NEW_STATE_SHARE * duel.turns
