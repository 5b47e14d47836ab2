"""Workers start warm: a simulation's worker processes are handed the policies' memos and
the exact odds the main process has worked out (issue 39), and play the same fights."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.analysis import simulate as sim
from fracas.analysis.workers import worker_pool
from fracas.core.model import Action, Roster
from fracas.core.system import RuleSystem
from fracas.encounter.engine import setup_from_scenario
from fracas.encounter.policies import PolicyMemos, known_memos, learn_memos
from fracas.odds.attack import AttackOdds
from fracas.odds.cache import cached_odds, known_answer, known_odds
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def _look_up(memos: PolicyMemos | None, system: RuleSystem, actions: list[Action],
             roster: Roster) -> list[AttackOdds | None]:
    """In a fresh worker: take in ``memos`` (if any), then what the odds cache knows."""
    if memos is not None:
        learn_memos(memos)
    return [known_answer(system, a, roster) for a in actions]


def test_a_forked_worker_knows_what_the_main_process_knew_as_it_forked() -> None:
    """A forked worker (issue 39) is a copy of the main process: it knows the odds worked
    out before it started, with no news sent, and not those worked out after."""
    scenario = load_scenario(ROOT / "examples" / "c22" / "duel-fight.yaml")
    system, roster = scenario.system, scenario.roster
    actions = [a for c in roster for a in system.actions(c, roster)][:4]
    assert len(actions) >= 2
    from fracas.odds.cache import forget_odds

    forget_odds()
    answers = [cached_odds(system, a, roster) for a in actions[:-1]]
    pool = worker_pool(1, fork=True)
    try:
        pool.submit(_look_up, None, system, actions[:1], roster).result(timeout=300)  # forks
        later = cached_odds(system, actions[-1], roster)
        known = pool.submit(_look_up, None, system, actions, roster).result(timeout=300)
    finally:
        pool.shutdown()
    assert known[:-1] == answers
    assert known[-1] is None and later is not None


def test_a_worker_knows_the_odds_the_main_process_worked_out() -> None:
    scenario = load_scenario(ROOT / "examples" / "c22" / "duel-fight.yaml")
    system, roster = scenario.system, scenario.roster
    actions = [a for c in roster for a in system.actions(c, roster)][:4]
    assert actions
    answers = [cached_odds(system, a, roster) for a in actions]
    pool = worker_pool(1)
    try:
        cold = pool.submit(_look_up, None, system, actions, roster).result(timeout=300)
        warm = pool.submit(_look_up, known_memos(), system, actions, roster).result(timeout=300)
    finally:
        pool.shutdown()
    assert cold == [None] * len(actions)  # a spawned worker starts empty
    assert warm == answers


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "spawned"])
@pytest.mark.parametrize("name", ["c22/duel-fight.yaml", "zamani/duel-fight.yaml"])
def test_warm_workers_play_the_same_fights(name: str, fork: bool, monkeypatch: Any) -> None:
    from fracas.analysis import spread

    scenario = load_scenario(ROOT / "examples" / name)
    setup = setup_from_scenario(scenario)
    one = sim.simulate(setup, scenario.roster, 200, seed=3, method="steps")
    monkeypatch.setattr(sim, "PARALLEL_FROM_SECONDS", 0.0)  # always spread over workers
    monkeypatch.setattr(spread, "FORK", fork)
    two = sim.simulate(setup, scenario.roster, 200, seed=3, jobs=2, method="steps")
    assert one.winner.tolist() == two.winner.tolist()
    assert one.rounds.tolist() == two.rounds.tolist()
    assert one.dealt.tolist() == two.dealt.tolist()


def _look_up_loaded(memos: PolicyMemos, name: str) -> list[AttackOdds | None]:
    """In a fresh worker: take in ``memos``, load the scenario here (its own rule system
    object, hashed in this process), and ask the odds cache."""
    learn_memos(memos)
    scenario = load_scenario(ROOT / "examples" / name)
    system, roster = scenario.system, scenario.roster
    actions = [a for c in roster for a in system.actions(c, roster)][:4]
    return [known_answer(system, a, roster) for a in actions]


def test_a_worker_finds_the_odds_under_a_system_it_loaded_itself() -> None:
    """The memos are keyed by value: a rule system pickled with the hash the main process
    cached would sit under a stale hash, and a worker's own copy of the system would miss
    every answer (hashes of strings differ from process to process)."""
    name = "c22/duel-fight.yaml"
    scenario = load_scenario(ROOT / "examples" / name)
    system, roster = scenario.system, scenario.roster
    actions = [a for c in roster for a in system.actions(c, roster)][:4]
    answers = [cached_odds(system, a, roster) for a in actions]
    pool = worker_pool(1)
    try:
        warm = pool.submit(_look_up_loaded, known_memos(), name).result(timeout=300)
    finally:
        pool.shutdown()
    assert warm == answers


def _worked_out(memos: PolicyMemos | None, name: str, which: slice) -> list[AttackOdds]:
    """In a fresh worker: take in ``memos`` (if any), then work out the odds of the
    scenario's actions ``which`` (those the memos' answers do not hold are built on the
    sub-step distributions shipped with them)."""
    if memos is not None:
        learn_memos(memos)
    scenario = load_scenario(ROOT / "examples" / name)
    system, roster = scenario.system, scenario.roster
    actions = [a for c in roster for a in system.actions(c, roster)][which]
    return [cached_odds(system, a, roster) for a in actions]


def test_odds_built_on_shipped_sub_steps_are_the_plain_ones() -> None:
    """The sub-step distributions the main process memoised go to a worker with the odds
    (issue 39: without them each new matchup was worked out from scratch); odds a worker
    then builds on them equal those a cold worker works out."""
    name = "c22/boarding-fight.yaml"
    scenario = load_scenario(ROOT / "examples" / name)
    system, roster = scenario.system, scenario.roster
    actions = [a for c in roster for a in system.actions(c, roster)]
    for a in actions[:3]:
        cached_odds(system, a, roster)
    memos = known_memos()
    assert memos[0][2], "the sub-step memo is shipped"
    found = []
    for given in (memos, None):  # each in a worker of its own
        pool = worker_pool(1)
        try:
            found.append(pool.submit(_worked_out, given, name, slice(3, 6)).result(timeout=300))
        finally:
            pool.shutdown()
    assert found[0] == found[1]


def test_answers_shared_as_found_are_the_plain_ones(monkeypatch: Any) -> None:
    """While the main process and a worker play, each posts the odds it works out and
    takes in the other's (issue 39): the fights are those of one process, and every answer
    taken in so equals the one this process works out itself from nothing."""
    from fracas.analysis import spread
    from fracas.encounter.policies import forget_memos

    scenario = load_scenario(ROOT / "examples" / "c22" / "boarding-fight.yaml")
    setup = setup_from_scenario(scenario)
    taken: list[PolicyMemos] = []
    plain_learn = spread.learn_memos

    def learn(memos: PolicyMemos) -> None:
        taken.append(memos)
        plain_learn(memos)

    monkeypatch.setattr(spread, "learn_memos", learn)
    monkeypatch.setattr(sim, "PARALLEL_FROM_SECONDS", 0.0)  # the workers start at once
    monkeypatch.setattr(sim, "CHUNK", 8)  # four tasks: the main process's, the worker's
    forget_memos()
    two = sim.simulate(setup, scenario.roster, 40, seed=2, jobs=2, method="steps")
    answers = [(key, found) for (odds, *_rest) in taken for key, found in odds[0]]
    assert answers, "the main process took in answers the worker worked out"
    forget_memos()  # the same fights in this process alone, from nothing
    one = sim.simulate(setup, scenario.roster, 40, seed=2, method="steps")
    for field in ("winner", "rounds", "dealt", "taken", "survived", "actions"):
        assert getattr(one, field).tolist() == getattr(two, field).tolist(), field
    plain = dict(known_odds()[0])  # every answer those fights needed, worked out here
    for key, found in answers:
        assert plain[key] == found


def test_the_rest_of_a_run_is_timed_at_the_pace_so_far() -> None:
    """Whether workers start (issue 39: ``--jobs 2`` never slower): the rest of a run is
    its fights not yet played at the pace so far, so a run of fast fights whose first
    ones were slow (the caches cold) does not start workers for their sake; while the
    first task plays, each task to come takes at least its time so far."""
    sizes = sim._sizes(2000)  # a first task of HEAD fights, then CHUNK a task
    head = sizes[0]
    assert sim.rest_seconds(0.01, 0, sizes) == pytest.approx(0.01 * (2000 - head) / head)
    assert sim.rest_seconds(0.5, 1000, sizes) == pytest.approx(0.5)
    assert sim.rest_seconds(0.2, 100, sizes) == pytest.approx(0.2 * 19)
    # 0.2 s into a run, 1,000 fights played: 0.2 s left, not worth a worker
    assert sim.rest_seconds(0.2, 1000, sizes) < sim.rest_seconds(0.2, 100, sizes)
    assert sim.rest_seconds(0.2, 1000, sizes) < sim.PARALLEL_FROM_SECONDS
