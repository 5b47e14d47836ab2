"""The steps path's memo of sub-steps (roll trees keyed by their whole arguments) and the
lean loop's memo of steady policies' choices: fights played through them are the fights
played without them, roll for roll, on every example fight."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.analysis.fights import fight_rng
from fracas.analysis.paths import play_lean
from fracas.analysis.trace import MemoRoller, ReplayMemo
from fracas.core.events import Outcome
from fracas.core.recur import Trial
from fracas.dice.rollers import RandomRoller
from fracas.dice.variables import nd
from fracas.encounter.engine import setup_from_scenario, step
from fracas.encounter.state import FightState
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).parents[2]
FIGHTS = sorted((ROOT / "examples").glob("*/*-fight.yaml"))


def _narrated(setup, roster, seed: int, i: int) -> tuple[FightState, list[Outcome]]:  # type: ignore[no-untyped-def]
    """The fight as ``fracas fight`` plays it: the full loop, no memo of any kind."""
    roller, state, outcomes = RandomRoller(rng=fight_rng(seed, i)), FightState(roster), []
    while not state.over:
        state, events = step(roller, setup, state)
        outcomes += [e for e in events if isinstance(e, Outcome)]
    return state, outcomes


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fights_through_the_memos_are_the_fights_without_them(path: Path) -> None:
    scenario = load_scenario(path)
    setup, roster = setup_from_scenario(scenario), scenario.roster
    memo = ReplayMemo()
    for i in range(12):
        final, dealt, _ = play_lean(setup, roster, MemoRoller(fight_rng(4, i), memo))
        state, outcomes = _narrated(setup, roster, 4, i)
        assert final.roster == state.roster and final.winner == state.winner
        assert final.round == state.round
        for cid, total in zip(roster, dealt, strict=True):
            assert total == sum(o.damage for o in outcomes
                               if o.actor in (cid, roster[cid].name))
    assert sum(trial.found for trial in memo.looked.values()) > 0 or memo.off


def _attack(roller, target: int) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    roll = roller.roll(nd(2, 6))
    return ("hit", roller.roll(nd(1, 6))) if roll <= target else ("miss", 0)


class _Recording(RandomRoller):
    """A random roller that keeps the values each sub-step rolled (its path)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.paths: list[tuple[int, ...]] = []

    def resolve(self, fn, *args):  # type: ignore[no-untyped-def]
        self.paths.append(())
        return fn(self, *args)

    def roll(self, var):  # type: ignore[no-untyped-def]
        value = super().roll(var)
        self.paths[-1] += (value,)
        return value


def test_a_memo_walk_draws_what_playing_draws() -> None:
    memo = ReplayMemo()
    played = _Recording(9)
    walked = MemoRoller(RandomRoller(9).rng, memo)
    got = [walked.resolve(_attack, 7) for _ in range(300)]
    assert got == [played.resolve(_attack, 7) for _ in range(300)]
    # every look-up after a path's first meeting walks the tree to its end
    trial = memo.looked[_attack]
    assert (trial.looked, trial.found) == (300, 300 - len(set(played.paths)))


def test_a_rule_whose_arguments_seldom_repeat_is_played_directly() -> None:
    memo = ReplayMemo()
    roller = MemoRoller(RandomRoller(2).rng, memo)
    again = RandomRoller(2)
    for n in range(Trial.TRIAL + 50):  # a new target every time: never found
        assert roller.resolve(_attack, n % 1000) == again.resolve(_attack, n % 1000)
    assert _attack in memo.off
    assert len(memo.trees) == Trial.TRIAL - 1  # none kept once it was turned off


class _Node:
    def __init__(self) -> None:
        self.other: object = self


def test_the_collector_is_paused_within_a_task_and_its_cycles_freed_after() -> None:
    import gc
    import weakref

    from fracas.analysis.paths import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        cycle = weakref.ref(_Node())  # unreachable at once, kept alive by its own cycle
        assert cycle() is not None
    assert gc.isenabled() and cycle() is None
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()
