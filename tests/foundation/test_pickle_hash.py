"""Values that cache their hash (rosters, sheets, actions, exact-odds keys) are sent to
worker processes by pickling. Hashes of strings and classes differ from process to
process, so a cached hash must not travel: a worker that kept the parent's would find
equal values unequal, and a simulation's fights would change with ``--jobs``."""

from __future__ import annotations

import multiprocessing
import os
import pickle
from pathlib import Path
from typing import Any

import pytest

from fracas.encounter.engine import setup_from_scenario
from fracas.encounter.state import FightState
from fracas.registry.scenarios import load_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FIGHTS = sorted(EXAMPLES.glob("*/duel-fight.yaml"))


def _values(path: str) -> list[Any]:
    """The roster and every first action of a fight, as loaded in this process."""
    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    state = FightState(scenario.roster)
    actions = [a for cid in scenario.roster
               for a in setup.system.actions(cid, state.roster)]
    return [scenario.roster, *[c.sheet for c in scenario.roster.values()], *actions]


def _same_in_this_process(payload: bytes, path: str) -> list[bool]:
    """In a fresh process: do the unpickled values equal, and hash like, fresh ones?"""
    sent = pickle.loads(payload)
    fresh = _values(path)
    return [a == b and hash(a) == hash(b) for a, b in zip(sent, fresh, strict=True)]


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.parent.name)
def test_a_pickled_value_hashes_afresh_in_another_process(path: Path) -> None:
    values = _values(str(path))
    for v in values:
        hash(v)  # fill every cache before pickling
    payload = pickle.dumps(values)
    context = multiprocessing.get_context("spawn")
    env_seed = os.environ.pop("PYTHONHASHSEED", None)  # the child picks its own hash seed
    try:
        with context.Pool(1) as pool:
            same = pool.apply(_same_in_this_process, (payload, str(path)))
    finally:
        if env_seed is not None:
            os.environ["PYTHONHASHSEED"] = env_seed
    assert len(same) == len(values) >= 3
    assert all(same), [type(v).__name__ for v, ok in zip(values, same, strict=True) if not ok]


def test_a_copied_sheet_model_is_hashed_as_the_equal_model_it_is() -> None:
    """A copy with changed fields (Tri-Stat's reaction variants are made so) hashes as
    a model built with those fields: equal values, equal hashes, one entry in a set."""
    from fracas.systems.tristat.sheet import Options

    plain = Options()
    hash(plain)  # its hash cached before the copy
    copied = plain.model_copy(update={"vital_target": True})
    built = Options(vital_target=True)
    assert copied == built and hash(copied) == hash(built)
    assert len({copied, built}) == 1
