"""A simulation's worker processes: the tasks spread over them and the main process, and
the odds every process works out shared as it goes (issue 39).

Fights are the same wherever they are played: each task's fights have their own seeds,
and the odds and memos that pass between processes are exact and keyed by value.

* **Tasks** (:class:`Workers`): the main process plays the tasks from the first on, and
  once the rest is worth spreading (its first task's time says so) ``jobs - 1`` workers
  play them from the last back, until the two meet. Forked where the platform can
  (:data:`FORK`), the workers start as copies of the main process, every cache warm;
  spawned, the fields every task shares and what the main process knows go to each
  worker once.
* **Answers shared as they are found** (:class:`Live`, on a
  :class:`~fracas.analysis.board.Board`): before a process works out an answer a ranking
  misses it claims it; an answer another process has claimed is waited for instead, once
  the ranking's other answers are worked out. What each process works out (the odds, the
  sub-steps they were built from, the rankings) is posted as it is found and read by the
  others before they work anything out. So no answer is worked out twice, and the
  answers of one ranking that two processes reach together are shared out between them.
"""

from __future__ import annotations

import copyreg
import io
import pickle
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from fracas.analysis import workers as processes
from fracas.analysis.board import Board
from fracas.analysis.fights import Fights
from fracas.core.model import Action, Roster
from fracas.core.system import RuleSystem
from fracas.encounter.policies import (
    PolicyMemos,
    known_memos,
    learn_memos,
    memos_mark,
)
from fracas.odds.cache import answer_id, answers_aside, cached_odds, known_answer

#: Fork the workers where the platform can (:data:`fracas.analysis.workers.CAN_FORK`): a
#: fork is a copy of the main process as it is, every cache warm (the policies' odds, the
#: sub-step memos, the roll trees), and imports nothing. False: spawned workers, handed
#: what the main process knows as they start.
FORK = True

#: How long a process waits for an answer another has claimed before it works it out
#: itself (seconds): a claim is worked out in well under a second, so only a process
#: gone (stopped, or killed) is waited for this long.
PATIENCE = 60.0

#: Tasks out with each worker at a time (:meth:`Workers.top_up`).
AHEAD = 4

_SHARED: dict[int, Any] = {}  # in a worker: the fields every task shares, by position
_BOARD: list[Board] = []  # in a worker: the run's board


def _receive(shared: dict[int, Any], memos: PolicyMemos | None, board: Board) -> None:
    """A worker's start: the fields its tasks share arrive once, in one pickle, so a
    setup whose rule system has filled its memos (auto's trials) is not copied into every
    task, and a plan's rules stay bound to the very system the setup holds; with them the
    board, and the policies' memos and exact odds the main process has worked out so far,
    so the worker does not work them out again."""
    _SHARED.clear()
    _SHARED.update(shared)
    _BOARD[:] = [board]
    _RUN[:] = [shared[0].system] if 0 in shared else []  # the fights' setup, first
    if memos is not None:  # a forked worker has them already
        learn_memos(memos)


def _with_shared(packed: tuple[Callable[[Any], Fights], tuple[Any, ...]]) -> Fights:
    """One task in a worker, its answers shared with the other processes (:class:`Live`)
    as they are found; what is left of them is posted as it ends."""
    worker, own = packed
    fields, rest = [], iter(own)
    for i in range(len(_SHARED) + len(own)):
        fields.append(_SHARED[i] if i in _SHARED else next(rest))
    live = Live(_BOARD[0], fields[0].system)
    with answers_aside(live):
        part = worker(tuple(fields))
    live.exchange()
    return part


_RUN: list[RuleSystem] = []  # the run's rule system in this process


def _run_system() -> RuleSystem:
    """The run's rule system, as news names it (:func:`_packed`)."""
    return _RUN[0]


def _packed(news: object) -> bytes:
    """News pickled: the run's rule system, which every key of the news holds and which
    carries memos of its own (the contest's grew to 0.7 MB a copy), goes by name: each
    process has it already."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    if _RUN:
        system = _RUN[0]

        def named(obj: RuleSystem) -> Any:
            return (_run_system, ()) if obj is system else obj.__reduce_ex__(
                pickle.HIGHEST_PROTOCOL)

        table = dict(copyreg.dispatch_table)
        table[type(system)] = named
        pickler.dispatch_table = table
    pickler.dump(news)
    return buffer.getvalue()


def _empty(news: PolicyMemos) -> bool:
    """Whether ``news`` holds nothing (no answer, sub-step, ranking, view or choice)."""
    (answers, _, steps), ranked, views, chosen = news
    return not (answers or steps or ranked or views or chosen)


class Live:
    """A process's share of the run's answers (installed with
    :func:`fracas.odds.cache.answers_aside`): it posts what this process works out and
    takes in what the others post, and of the answers a ranking misses works out those
    nobody else has claimed, then waits for the rest. ``ready`` (the main process): whether
    the workers are playing, so that there is anything to share (it may start them)."""

    def __init__(self, board: Board, system: RuleSystem,
                 ready: Callable[[], bool] | None = None) -> None:
        self.board, self.system, self.ready = board, system, ready
        self.mark = memos_mark()  # what the other processes know of this one's memos

    def restart(self) -> None:
        """The workers start now, knowing all this process knows."""
        self.mark = memos_mark()

    def exchange(self) -> None:
        """Post what this process has worked out since it last did, then take in what the
        others posted (what is taken in is theirs: it is not posted back)."""
        news = known_memos(self.mark)
        if not _empty(news):
            self.board.post(_packed(news))
        self.take()

    def take(self) -> None:
        """Take in what the others posted since this process last read (and mark it: it
        is theirs, not posted back)."""
        for blob in self.board.read():
            learn_memos(pickle.loads(blob))
        self.mark = memos_mark()

    def __call__(self, system: RuleSystem, missing: list[Action], roster: Roster) -> bool:
        if system is not self.system or (self.ready is not None and not self.ready()):
            return False
        self.exchange()
        waiting = []
        for action in missing:
            if known_answer(system, action, roster) is not None:
                continue  # posted meanwhile
            claim = answer_id(system, action, roster)
            if self.board.claim(claim):
                cached_odds(system, action, roster)
                self.exchange()
                self.board.finish(claim)
            else:
                waiting.append((action, claim))
        for action, claim in waiting:
            self._await(system, action, roster, claim)
        return True

    def _await(self, system: RuleSystem, action: Action, roster: Roster, claim: str) -> None:
        """The answer another process claimed, once it is posted; worked out here if its
        owner posted none that fits (another read set) or is gone (:data:`PATIENCE`)."""
        since = time.monotonic()
        while True:
            done = self.board.finished(claim)
            self.take()  # nothing of this process's own is new while it waits
            if known_answer(system, action, roster) is not None:
                return
            if done or time.monotonic() - since > PATIENCE:
                cached_odds(system, action, roster)
                self.exchange()  # posted before the next take marks it as known
                return
            time.sleep(0.001)


class Workers:
    """The worker processes of one run's tasks (every task's first field its setup): the
    main process plays them from the first on (:meth:`take`), the workers from the last
    back once :meth:`start` has started them; :meth:`close` stops them."""

    def __init__(self, tasks: list[tuple[Any, ...]], jobs: int) -> None:
        same = [i for i in range(len(tasks[0])) if all(t[i] is tasks[0][i] for t in tasks)]
        self.shared = {i: tasks[0][i] for i in same}
        self.own = [tuple(v for i, v in enumerate(t) if i not in self.shared) for t in tasks]
        _RUN[:] = [tasks[0][0].system] if 0 in self.shared else []  # news names it
        self.jobs = jobs
        self.board = Board()
        self.live = Live(self.board, tasks[0][0].system, self.started)
        self.pool: ProcessPoolExecutor | None = None
        self.futures: dict[int, Future[Fights]] = {}  # the tasks out with the workers
        self.begin = 1  # the first task the workers may be given
        self.back = len(tasks) - 1  # the next task to give them (they go down)
        self.worker: Callable[[Any], Fights] | None = None

    @property
    def forked(self) -> bool:
        """Whether the workers are forked (:data:`FORK`, where the platform can)."""
        return FORK and processes.CAN_FORK

    def started(self) -> bool:
        """Whether the workers play (and so the answers are shared)."""
        return self.pool is not None

    def start(self, worker: Callable[[Any], Fights]) -> None:
        """Start ``jobs - 1`` workers (once), knowing all this process knows, and give them
        the last tasks (:meth:`top_up`)."""
        if self.pool is not None:
            return
        memos = None if self.forked else known_memos()
        board = self.board.snapshot()
        self.pool = processes.worker_pool(self.jobs - 1, _receive, (self.shared, memos, board),
                                          fork=self.forked)
        self.live.restart()
        self.worker = worker
        self.top_up()

    def top_up(self) -> None:
        """Give the workers the next tasks from the back, :data:`AHEAD` a worker out at
        a time: a few, so that Ctrl-C finds few futures to cancel, and so that checking
        which have ended costs nothing; enough that a worker does not wait for this
        process to finish a task before it has another."""
        pool, worker = self.pool, self.worker
        if pool is None or worker is None:
            return
        while self.back >= self.begin and len(self.futures) < AHEAD * (self.jobs - 1):
            self.futures[self.back] = pool.submit(_with_shared, (worker, self.own[self.back]))
            self.back -= 1

    def take(self, task: int) -> bool:
        """Whether this process plays task ``task`` (no worker has begun it)."""
        self.begin = max(self.begin, task + 1)
        future = self.futures.get(task)
        if future is None:
            return task <= self.back
        if future.cancel():
            del self.futures[task]
            return True
        return False

    def ended(self, block: bool) -> Iterator[tuple[Fights, int]]:
        """The workers' tasks ended so far (``block``: the next to end, or none if none
        is left), each with its index, once; the workers are given more as they end."""
        if block and self.futures:
            wait(self.futures.values(), return_when=FIRST_COMPLETED)
        for task, future in list(self.futures.items()):
            if future.done():
                del self.futures[task]
                yield future.result(), task
        self.top_up()

    def close(self) -> None:
        """Stop the workers: drop the tasks not started, wait for the running ones. The
        board goes first: a worker waiting for an answer this process claimed (and will
        not post, stopped by Ctrl-C) works it out itself."""
        self.board.close()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        _RUN.clear()
