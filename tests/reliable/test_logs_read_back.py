"""Every log ``fracas play`` writes reads back (issue 40): random sequences of player
answers, typed dice, ``r``, undo and redo and every ``gm`` command, in every system, and
after every step the log read back (``fracas replay``) and resumed (``fracas play
--resume``) is the live session. ``make test`` runs a bounded number of fights (a few
CPU-minutes at most); FRACAS_NIGHTLY=1 runs many more, and longer ones (README)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reliable.drive import SYSTEMS, Table

NIGHTLY = os.environ.get("FRACAS_NIGHTLY") == "1"
FIGHTS = 400 if NIGHTLY else 25  # per system
STEPS = 80 if NIGHTLY else 30

UNDO = ("u", "u 2", "redo", "redo 2", "u", "redo")
ANSWER = ("option",) * 6 + ("skip", "policy")

step = st.one_of(
    st.tuples(st.just("answer"), st.integers(0, 50), st.sampled_from(ANSWER)),
    st.tuples(st.just("line"), st.just("r"), st.none()),
    st.tuples(st.just("dice"), st.lists(st.integers(-1, 12), min_size=1, max_size=4),
              st.none()),
    st.tuples(st.just("line"), st.sampled_from(UNDO), st.none()),
    st.tuples(st.just("gm"), st.tuples(*(st.integers(0, 60),) * 4), st.none()),
    st.tuples(st.just("resume"), st.none(), st.none()),
)


def play(system: str, seed: int, policy: int, roll_all: bool, steps: list) -> None:
    with tempfile.TemporaryDirectory() as folder:
        table = Table(system, Path(folder), seed=seed, policy=policy, roll_all=roll_all)
        table.check(resume=False)
        for what, a, b in steps:
            if what == "answer":
                table.answer(a, b)
            elif what == "dice":
                table.line(" ".join(map(str, a)))
            elif what == "line":
                table.line(a)
            elif what == "gm":
                table.line(table.gm_line(*a))
            table.check(resume=what == "resume")
        table.log.detach()


def _test(system: str):  # one test per system, so a failure names it
    @settings(max_examples=FIGHTS, database=None)
    @given(seed=st.integers(0, 2**16), policy=st.integers(0, 2), roll_all=st.booleans(),
           steps=st.lists(step, max_size=STEPS))
    def test(seed: int, policy: int, roll_all: bool, steps: list) -> None:
        play(system, seed, policy, roll_all, steps)

    test.__name__ = f"test_{system}_log_reads_back"
    return test


for _system in SYSTEMS:
    globals()[f"test_{_system}_log_reads_back"] = _test(_system)
