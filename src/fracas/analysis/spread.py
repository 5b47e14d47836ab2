"""A simulation's worker processes: the tasks spread over them, and the odds worked out
side by side while the main process plays the first task (issue 39).

Fights are the same wherever they are played: each task's fights have their own seeds,
and the odds and memos that pass between processes are exact and keyed by value.

* **Tasks** (:meth:`Workers.spread`): forked where the platform can (:data:`FORK`), the
  workers start as copies of the main process; spawned, the fields every task shares
  and what the main process knows go to each worker once. Each task brings back what
  its worker worked out (the policies' odds, the sub-steps they were built from, their
  rankings), and the next task given to another worker takes it along.
* **Answers aside** (:class:`Aside`): the first task is played in the main process, and
  its fights work out most of the odds every fight's opening needs. Once the rest of the
  run is sure to go to workers, they start; from then on, whenever a ranking misses
  several answers, the workers and the main process work them out in even shares (where
  that is timed faster than one process), so the other core is not idle while the
  opening is worked out.
"""

from __future__ import annotations

import copyreg
import io
import itertools
import os
import pickle
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from fracas.analysis import workers as processes
from fracas.analysis.fights import Fights
from fracas.core.model import Action, Roster
from fracas.core.system import RuleSystem
from fracas.encounter.policies import (
    MemosMark,
    PolicyMemos,
    known_memos,
    learn_memos,
    memos_mark,
)
from fracas.odds.cache import (
    OddsMemo,
    cached_odds,
    known_odds,
    learn_odds,
    odds_mark,
    worked_out,
)

#: Fork the workers where the platform can (:data:`fracas.analysis.workers.CAN_FORK`): a
#: fork is a copy of the main process as it is, every cache warm (the policies' odds, the
#: sub-step memos, the roll trees), and imports nothing. The workers that help with the
#: first tasks' answers are forked as they start; those that play the rest of the tasks
#: are forked anew once the main process has played its share, knowing all it knows.
#: False: spawned workers, handed what the main process knows as news (as elsewhere).
FORK = True

_SHARED: dict[int, Any] = {}  # in a worker: the fields every task shares, by position


def _receive(shared: dict[int, Any], memos: PolicyMemos | None) -> None:
    """A worker's start: the fields its tasks share arrive once, in one pickle, so a
    setup whose rule system has filled its memos (auto's trials) is not copied into every
    task, and a plan's rules stay bound to the very system the setup holds; with them the
    policies' memos and exact odds the main process has worked out so far, so the worker
    does not work them out again."""
    _SHARED.clear()
    _SHARED.update(shared)
    _RUN[:] = [shared[0].system] if 0 in shared else []  # the fights' setup, first
    if memos is not None:  # a forked worker has them already
        learn_memos(memos)


def _with_shared(packed: tuple[Callable[[Any], Fights], tuple[Any, ...], list[bytes]]
                 ) -> tuple[Fights, int, bytes]:
    """One task in a worker: it first takes in the news the other processes sent (what
    their tasks worked out), and returns with its fights what it worked out itself.
    News travels pickled (:func:`_packed`): the main process passes it on as it came."""
    worker, own, news = packed
    for memos in news:
        learn_memos(pickle.loads(memos))
    since = memos_mark()
    fields, rest = [], iter(own)
    for i in range(len(_SHARED) + len(own)):
        fields.append(_SHARED[i] if i in _SHARED else next(rest))
    return worker(tuple(fields)), os.getpid(), _packed(known_memos(since))


_RUN: list[RuleSystem] = []  # the run's rule system in this process


def _run_system() -> RuleSystem:
    """The run's rule system, as news names it (:func:`_packed`)."""
    return _RUN[0]


def _packed(news: object) -> bytes:
    """News pickled here and now: a task's arguments are pickled later, on the pool's own
    thread, while this process goes on reading (and filling lazy fields of) the very
    memos the news holds ("dictionary changed size during iteration"). The run's rule
    system, which every key of the news holds and which carries memos of its own (the
    contest's grew to 0.7 MB a copy), goes by name: each process has it already."""
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


def _started() -> int:
    """A worker that answers has started (imported fracas, taken in the shared fields)."""
    return os.getpid()


def _answers(packed: bytes) -> tuple[int, bytes]:
    """In a worker: take in the main process's news, work out the odds of the actions in
    the roster (all three pickled together, :func:`_packed`) under the tasks' rule
    system, and send back what this cache gained."""
    actions, roster, news = pickle.loads(packed)
    for memo in news:
        learn_odds(memo)
    since = odds_mark()
    system = _SHARED[0].system  # every task's first field is the fights' setup
    for action in actions:
        cached_odds(system, action, roster)
    return os.getpid(), _packed(known_odds(since))


class Workers:
    """The worker processes of one run's tasks (every task's first field its setup; the
    first is played in the main process), started when :meth:`start` is first called
    and stopped by :meth:`close`."""

    def __init__(self, tasks: list[tuple[Any, ...]], jobs: int) -> None:
        same = [i for i in range(len(tasks[0])) if all(t[i] is tasks[0][i] for t in tasks)]
        self.shared = {i: tasks[0][i] for i in same}
        self.own = [tuple(v for i, v in enumerate(t) if i not in self.shared) for t in tasks]
        _RUN[:] = [tasks[0][0].system] if 0 in self.shared else []  # news names it
        self.jobs = jobs
        self.pool: ProcessPoolExecutor | None = None
        self.ready: Future[int] | None = None
        self.since: MemosMark | None = None  # what the main process knew at the start
        #: the answers spawned workers worked out for the main process (:class:`Aside`):
        #: its cache holds them, but sends on only what it worked out itself
        self.answered: list[tuple[int, OddsMemo]] = []  # by which worker (pid)

    def start(self) -> None:
        """Start the workers (once), each with the shared fields and what the main
        process's memos know now; they start on the other cores while it plays on.
        Forked (:data:`FORK`), they are copies of this process, every cache in it warm."""
        if self.pool is None:
            self.since = memos_mark()
            memos = None if self.forked else known_memos()
            self.pool = processes.worker_pool(self.jobs, _receive, (self.shared, memos),
                                              fork=self.forked)
            self.ready = self.pool.submit(_started)

    @property
    def forked(self) -> bool:
        """Whether the workers are forked (:data:`FORK`, where the platform can)."""
        return FORK and processes.CAN_FORK

    def started(self) -> bool:
        """Whether a worker has started and can take work at once."""
        return self.ready is not None and self.ready.done()

    def close(self) -> None:
        """Stop the workers: drop the tasks not started, wait for the running ones."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        _RUN.clear()

    def spread(self, worker: Callable[[Any], Fights], on_time: Callable[[], None],
               begin: int) -> Iterator[tuple[Fights, int]]:
        """Each task's fights and its index, as the tasks end, from task ``begin`` on.
        Each task brings back what its worker worked out, and the next task given to
        another worker takes it along: no worker works out again what another has. Only
        ``jobs`` tasks are out at a time, so a task mostly goes to the worker that just
        ended one; each worker's news is what the log holds that it has neither been sent
        nor sent itself."""
        log: list[tuple[int | None, bytes]] = []
        if self.forked:  # forked now, the workers know all this process knows
            if self.pool is not None:  # those that helped with the answers
                self.pool.shutdown(wait=True)
                self.pool = None
            self.start()
        else:  # what the main process learned since the workers started (the first
            # task's), and the answers workers worked out for it (their sub-steps are in
            # the first)
            self.start()
            log = [(None, _packed(known_memos(self.since))), *(
                (by, _packed(((answers, reads, []), {}, {}, {})))
                for by, (answers, reads, _) in self.answered)]
        pool = self.pool
        assert pool is not None
        given: dict[int, set[int]] = {}  # per worker (pid): the log's entries it holds
        running: dict[Future[tuple[Fights, int, bytes]], tuple[int, list[int]]] = {}

        def send(task: int, to: int | None) -> None:
            """Task ``task`` with the news worker ``to`` (None: any) lacks; should another
            worker take it, the news is only late or twice sent, never wrong."""
            held = given.get(to, set()) if to is not None else set()
            news = [i for i, (by, _) in enumerate(log) if i not in held and by != to]
            future = pool.submit(_with_shared, (worker, self.own[task], [log[i][1] for i in news]))
            running[future] = (task, news)

        for task in range(begin, min(begin + self.jobs, len(self.own))):
            send(task, None)
        following = begin + len(running)
        while running:
            ended, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in ended:
                on_time()
                index, news = running.pop(future)
                part, pid, found = future.result()
                log.append((pid, found))
                given.setdefault(pid, set()).update((*news, len(log) - 1))
                if following < len(self.own):  # everything, while a worker is new (it
                    # may take the task: one that starts late misses its first ones)
                    send(following, pid if len(given) >= self.jobs else None)
                    following += 1
                yield part, index


#: Rankings worked out each way (here in turn, and split with the workers) before the
#: faster way, by wall seconds an answer, is kept (issue 39: on the c22 boarding fight,
#: whose answers take 0.05-0.4 s, the split wins; on the contest gate fight the news
#: sent each way costs more than the answers, and so does the split's loss of the
#: sub-steps a ranking's answers share).
TRIALS = 2


class Aside:
    """The main process's helper while it plays the first tasks (installed with
    :func:`fracas.odds.cache.answers_aside`). Until ``due()`` says the rest is sure to go
    to workers, it does nothing; then it starts them. Once one has started, a ranking's
    missing answers are worked out either here in turn, or split in even shares: one to
    each worker but one, the last here meanwhile, each side sending the other what its
    cache gained. Each way is timed on :data:`TRIALS` rankings, then the faster kept (and
    still timed, so that a way grown slower gives way)."""

    def __init__(self, workers: Workers, system: RuleSystem, due: Callable[[], bool]) -> None:
        self.workers, self.system, self.due = workers, system, due
        self.pending: list[OddsMemo] = []  # the main process's gains the workers lack
        self.mark = odds_mark()
        self.handed = 0  # answers the workers worked out
        self.seen = worked_out()  # answers worked out here or for here, as last counted
        #: per way (here, split): rankings, answers and wall seconds so far
        self.timed = {False: [0, 0, 0.0], True: [0, 0, 0.0]}

    def finding(self, most: int) -> bool:
        """Whether ``most`` answers or more were worked out (here, or by the workers for
        here) since the last call, and the split pays: while so, the run is still finding
        its opening's odds, best found side by side here than twice over in two workers'
        tasks."""
        now = worked_out() + self.handed
        found, self.seen = now - self.seen, now
        return found >= most and self.split()

    def split(self) -> bool:
        """Whether the next ranking is split with the workers: each way in turn until both
        were timed :data:`TRIALS` times, then the one with the fewer seconds an answer."""
        here, split = self.timed[False], self.timed[True]
        if here[0] < TRIALS or split[0] < TRIALS:
            return split[0] <= here[0]
        return split[2] * here[1] < here[2] * split[1]

    def __call__(self, system: RuleSystem, missing: list[Action], roster: Roster) -> bool:
        if system is not self.system:
            return False
        if self.workers.pool is None:
            if self.due():
                self.workers.start()
                self.mark = odds_mark()  # the workers start knowing what the cache knows
            return False
        if not self.workers.started():
            return False
        way = self.split()
        start = time.perf_counter()
        if way:
            self._split(system, missing, roster)
        else:
            for action in missing:
                cached_odds(system, action, roster)
        timed = self.timed[way]
        timed[0] += 1
        timed[1] += len(missing)
        timed[2] += time.perf_counter() - start
        return True

    def _split(self, system: RuleSystem, missing: list[Action], roster: Roster) -> None:
        """``missing`` in even shares, one to each worker but one (with the news it lacks)
        and the last here meanwhile; then each side takes in what the other worked out."""
        pool = self.workers.pool
        assert pool is not None
        news = [*self.pending, known_odds(self.mark)]
        ways = max(2, min(self.workers.jobs, len(missing)))  # this process the last way
        size, more = divmod(len(missing), ways)
        ends = list(itertools.accumulate((size + (i < more) for i in range(ways)), initial=0))
        shares = [missing[a:b] for a, b in itertools.pairwise(ends)]
        futures = [pool.submit(_answers, _packed((share, roster, news))) for share in shares[:-1]]
        before = odds_mark()
        for action in shares[-1]:
            cached_odds(system, action, roster)
        own = known_odds(before)
        for future in futures:
            by, blob = future.result()
            found = pickle.loads(blob)
            learn_odds(found)
            if not self.workers.forked:  # spawned ones are sent them at the spread
                self.workers.answered.append((by, found))
        self.pending, self.mark = [own], odds_mark()
        self.handed += sum(len(share) for share in shares[:-1])
