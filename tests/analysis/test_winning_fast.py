"""The live figure's fast ways (issue 37, its speed) against the plain path, on every
example duel at its start and mid-fight (every example fight with ``FRACAS_NIGHTLY=1``):

* the first figure stops once its interval is within 5 points: its fights are the plain
  steps path's first fights of the same seed, fight for fight (the first from a cold
  start, every memo emptied; the plain one with the policies' memos the first left);
* the steps path's memo of sub-steps is kept from one state of a fight to the next (a live
  view's next position): fights played through a memo the start grew are the fights a
  cold memo plays;
* the next figures' sizes, guessed from the interval so far, bring it within 2 points in a
  few steps (or at most :data:`~fracas.analysis.winning.SECOND_FIGHTS` fights).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fracas.analysis import paths
from fracas.analysis.fights import Fights
from fracas.analysis.winning import (
    FIRST_FIGHTS,
    FIRST_STEP,
    FIRST_TARGET,
    SECOND_FIGHTS,
    SECOND_TARGET,
    first_figure,
    from_fights,
    of_scenario,
    refine,
    simulate_fights,
)
from fracas.registry.scenarios import load_scenario
from tests.analysis.test_winning_honest import FIGHTS, ROOT, position_at


def _same(a: Fights, b: Fights) -> None:
    assert a.n == b.n and a.sides == b.sides
    for field in ("winner", "rounds", "dealt", "taken", "survived"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


@pytest.mark.parametrize("at", ["start", "mid"])
@pytest.mark.parametrize("name", FIGHTS)
def test_the_first_figure_is_the_plain_paths_first_fights(name: str, at: str,
                                                          tmp_path: Path) -> None:
    position = position_at(name, at, tmp_path)
    paths.forget_all()  # a cold start: every memo of the paths and the policies empty
    first = first_figure(position, seed=3)
    assert first.method == "steps" and 0 < first.n <= FIRST_FIGHTS
    assert first.n == FIRST_FIGHTS or first.n % FIRST_STEP == 0
    chance = from_fights(first, position, 0.0)
    assert chance.half_width() <= FIRST_TARGET or first.n == FIRST_FIGHTS
    if first.n > FIRST_STEP:  # it stopped at the first look within 5 points
        fewer = Fights.concat([first])
        fewer.winner, fewer.rounds = first.winner[:-FIRST_STEP], first.rounds[:-FIRST_STEP]
        assert from_fights(fewer, position, 0.0).half_width() > FIRST_TARGET
    paths.MEMOS.clear()
    _same(first, simulate_fights(position, first.n, 3, "steps"))


@pytest.mark.parametrize("name", FIGHTS)
def test_a_memo_grown_from_another_state_plays_the_same_fights(name: str,
                                                               tmp_path: Path) -> None:
    start = of_scenario(load_scenario(ROOT / name))
    mid = position_at(name, "mid", tmp_path)
    paths.MEMOS.clear()
    simulate_fights(start, 128, 0, "steps")  # the start's figure grows the memo
    memo = paths.MEMOS[mid.setup]
    grown = memo.nodes
    warm = simulate_fights(mid, 128, 5, "steps")
    assert paths.MEMOS[mid.setup] is memo and (memo.nodes >= grown or memo.off)
    paths.MEMOS.clear()
    _same(warm, simulate_fights(mid, 128, 5, "steps"))


@pytest.mark.parametrize("name", FIGHTS)
def test_the_figures_reach_two_points_in_a_few_steps(name: str) -> None:
    position = of_scenario(load_scenario(ROOT / name))
    figures = refine(position, exact_seconds=0.0)
    sizes = []
    for chance in figures:
        assert not chance.exact and chance.sample > (sizes[-1] if sizes else 0)
        sizes.append(chance.sample)
        if chance.half_width() <= SECOND_TARGET or chance.sample >= SECOND_FIGHTS:
            break
    assert len(sizes) <= 4, sizes
