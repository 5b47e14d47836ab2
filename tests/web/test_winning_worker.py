"""The server's worker for who's winning takes a figure that is worked out before it is
waited for (a quick worker; the server's own thread where no process can start) without
hanging: the view was asked for under the worker's lock, and a figure already done was
taken at once by the same thread, which took that lock again. The server stopped
answering every view of every encounter (a fresh-clone run of the web API's test saw it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from fracas.analysis.winning import position_of, win_chance
from fracas.encounter.session import Session
from fracas.registry.scenarios import load_scenario
from fracas.web.winning import WinningWorker

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "tristat" / "duel-fight.yaml"


class AlreadyDone(Executor):
    """Works each task out before handing back its future: a worker quicker than the
    thread that waits for it."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as err:  # the task's own failure, as a pool gives it
            future.set_exception(err)
        return future


class QuickWorker(WinningWorker):
    def __init__(self, executor: Executor) -> None:
        super().__init__()
        self.executor = executor

    def _executor(self) -> Executor:
        return self.executor


def _in_time(work: Callable[[], Any], seconds: float = 120.0) -> Any:
    """``work()``'s result, or a failure (not a hang) if it has not ended in time."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the worker's lock is held for good: it hangs"
    return out[0]


def _table() -> Session:
    """The duel as a table plays it: the GM decides for both, fracas rolls every die."""
    scenario = load_scenario(DUEL)
    return Session.start(scenario, seed=3, roll_all=True,
                         controllers=dict.fromkeys(scenario.roster, "person"))


def _final(worker: WinningWorker, eid: str, version: int) -> dict[str, Any]:
    """The figure shown for ``version`` once it is the last one (waits for it)."""
    while True:
        shown = worker.figure(eid, version)
        if shown["current"] and shown["final"]:
            return shown
        time.sleep(0.01)


def test_a_figure_worked_out_before_it_is_waited_for_is_taken() -> None:
    session = _table()
    worker = QuickWorker(AlreadyDone())
    _in_time(lambda: worker.ask("e1", 1, lambda: position_of(session)))
    shown = _in_time(lambda: worker.figure("e1", 1))
    assert shown["current"] and shown["final"] and shown["figure"]["exact"] is True
    exact = win_chance(position_of(session), method="exact")
    for side, chance in exact.sides.items():
        assert Fraction(shown["figure"]["sides"][side]["exact"]) == chance.exact


def test_figures_worked_out_in_the_servers_own_thread_keep_coming() -> None:
    """The server's own thread (where no worker process can start): each state of a
    fight asked for as it moves on, and the last one's figure comes."""
    session = _table()
    here = ThreadPoolExecutor(max_workers=1)
    worker = QuickWorker(here)
    try:
        for version in range(1, 41):
            if version > 1:
                session.play_first(1)
            _in_time(partial(worker.ask, "e1", version, lambda: position_of(session)))
        shown = _in_time(lambda: _final(worker, "e1", 40))
        exact = win_chance(position_of(session), method="exact")
        for side, chance in exact.sides.items():
            assert Fraction(shown["figure"]["sides"][side]["exact"]) == chance.exact
    finally:
        here.shutdown()
