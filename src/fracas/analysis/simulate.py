"""Monte Carlo simulation of many fights: step by step, or fast from the exact chain.

Both paths give fights with the same distribution; the tests check that they agree.

* **steps**: each fight is played turn by turn with a seeded random roller (the
  ``fight`` command's loop); fight ``i`` uses the seed ``(seed, i)``.
* **fast**: fights advance in batches of :data:`BATCH` through a
  :class:`~fracas.analysis.chain.FightChain`: each turn is one draw from its exact
  distribution, shared by every fight in the same state. Batch ``b`` uses the seed
  ``(seed, b)``.

Either way the result depends only on the seed and the number of fights, never on
``jobs`` (batches and fights are spread over processes, then put back in order).
"""

from __future__ import annotations

import itertools
import math
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, wait
from typing import Any, Literal

from fracas.analysis.chain import ChainTooLarge
from fracas.analysis.fights import Fights, Start, summarize, wilson
from fracas.analysis.paths import (
    BATCH,
    CHAINS,
    CHUNK,
    MAX_MEMORY,
    Plan,
    TimeBudget,
    fast_batch,
    learn_played,
    probe,
    run_key,
    sampled_chunk,
    steps_chunk,
)
from fracas.analysis.workers import worker_pool
from fracas.encounter.engine import FightSetup
from fracas.encounter.policies import PolicyMemos, known_memos, learn_memos, memos_mark
from fracas.errors import InputError

Method = Literal["auto", "fast", "sampled", "steps"]

__all__ = ["BATCH", "CHUNK", "MAX_MEMORY", "Fights", "Method", "probe", "simulate", "summarize",
           "wilson"]


PARALLEL_FROM_SECONDS = 3.0  # less serial work than this left: no worker processes
#: The first task's fights, played in the main process and timed before any worker
#: starts: the fights that work out the commonest odds (every fight's opening) once, for
#: every worker; small, since the other core waits meanwhile.
HEAD = 16


_SHARED: dict[int, Any] = {}  # in a worker: the fields every task shares, by position


def _receive(shared: dict[int, Any], memos: PolicyMemos) -> None:
    """A worker's start: the fields its tasks share arrive once, in one pickle, so a
    setup whose rule system has filled its memos (auto's trials) is not copied into every
    task, and a plan's rules stay bound to the very system the setup holds; with them the
    policies' memos and exact odds the main process has worked out (its first task), so
    the worker does not work them out again."""
    _SHARED.clear()
    _SHARED.update(shared)
    learn_memos(memos)


def _with_shared(packed: tuple[Callable[[Any], Fights], tuple[Any, ...], list[PolicyMemos]]
                 ) -> tuple[Fights, int, PolicyMemos]:
    """One task in a worker: it first takes in the news the other workers sent (what
    their tasks worked out), and returns with its fights what it worked out itself."""
    worker, own, news = packed
    for memos in news:
        learn_memos(memos)
    since = memos_mark()
    fields, rest = [], iter(own)
    for i in range(len(_SHARED) + len(own)):
        fields.append(_SHARED[i] if i in _SHARED else next(rest))
    return worker(tuple(fields)), os.getpid(), known_memos(since)


def _run(tasks: list[Any], worker: Callable[[Any], Fights], jobs: int,
         progress: Callable[[int], None] | None, sizes: list[int],
         scheduler: str | None = None, deadline: float | None = None,
         budget: float | None = None) -> list[Fights]:
    """Run the tasks in order. With ``scheduler`` (``tcp://HOST:PORT``) they all run on
    that Dask cluster, and the results come back in the same order. Else the first runs
    here and is timed: only when the rest would take :data:`PARALLEL_FROM_SECONDS` or more
    on one core are they spread over ``jobs`` processes (starting them costs about a
    second each); the fields all those tasks share go to each worker once
    (:func:`_receive`), and the workers pass each other what they work out
    (:func:`_spread`). Past ``deadline``
    (``time.time()``; from a ``budget`` of seconds) between tasks, the rest is dropped
    and the run is an :class:`InputError` saying how far it got.
    The results do not depend on where a task ran."""
    if scheduler:
        from fracas.analysis.cluster import dask_map

        return dask_map(scheduler, worker, tasks, sizes, progress)
    total, done = sum(sizes), 0

    def on_time() -> None:
        if deadline is not None and time.time() > deadline:
            raise InputError(f"the fights passed their time budget of {budget:g} s after "
                             f"{done:,} of {total:,}", path="--max-seconds",
                             allowed="a larger --max-seconds, or fewer fights (-n)")

    start = time.perf_counter()
    if worker in _REPORTING:  # it tells of fights as they end
        results = [worker(tasks[0], progress)]
    else:
        results = [worker(tasks[0])]
        if progress:
            progress(sizes[0])
    done += sizes[0]
    rest, rest_sizes = tasks[1:], sizes[1:]
    serial = (time.perf_counter() - start) * sum(rest_sizes) / sizes[0]
    if jobs <= 1 or len(rest) <= 1 or serial < PARALLEL_FROM_SECONDS:
        for task, size in zip(rest, rest_sizes, strict=True):
            on_time()
            results.append(worker(task))
            done += size
            if progress:
                progress(size)
        return results
    parts: dict[int, Fights] = {}
    for part, index in _spread(rest, worker, jobs, on_time):
        parts[index] = part
        done += rest_sizes[index]
        if progress:
            progress(rest_sizes[index])
    return results + [parts[i] for i in range(len(rest))]


def _spread(tasks: list[Any], worker: Callable[[Any], Fights], jobs: int,
            on_time: Callable[[], None]) -> Iterator[tuple[Fights, int]]:
    """Each task's fights and its index, as the tasks end, over ``jobs`` worker processes.
    The fields all the tasks share go to each worker once (:func:`_receive`), with what
    the main process's memos know. Each task brings back what its worker worked out (the
    policies' odds, the sub-steps they were built from), and the next task given to
    another worker takes it along: no worker works out again what another already has.
    Only ``jobs`` tasks are out at a time, so a task goes to the worker that just ended
    one (were it another, the news would only be late, never wrong)."""
    same = [i for i in range(len(tasks[0])) if all(t[i] is tasks[0][i] for t in tasks)]
    shared = {i: tasks[0][i] for i in same}
    own = [tuple(v for i, v in enumerate(t) if i not in shared) for t in tasks]
    log: list[tuple[int, PolicyMemos]] = []  # what each worker's tasks sent, in order
    seen: dict[int, int] = {}  # per worker (pid): how much of the log it has been sent
    pool = worker_pool(jobs, _receive, (shared, known_memos()))
    try:
        running = {pool.submit(_with_shared, (worker, own[i], [])): i
                   for i in range(min(jobs, len(own)))}
        following = len(running)
        while running:
            ended, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in ended:
                on_time()
                index = running.pop(future)
                part, pid, found = future.result()
                log.append((pid, found))
                if following < len(own):
                    news = [memos for by, memos in log[seen.get(pid, 0):] if by != pid]
                    seen[pid] = len(log)
                    running[pool.submit(_with_shared, (worker, own[following], news))] = \
                        following
                    following += 1
                yield part, index
    finally:  # on Ctrl-C: drop the tasks not started, wait only for the running ones
        pool.shutdown(wait=True, cancel_futures=True)


_REPORTING = (fast_batch,)  # workers that report their fights as they end


def simulate(setup: FightSetup, roster: Start, n: int, seed: int = 0, jobs: int = 1,
             method: Method = "auto", max_states: int = 1_000_000,
             progress: Callable[[int], None] | None = None,
             max_memory: int = MAX_MEMORY, scheduler: str | None = None,
             max_seconds: float | None = None) -> Fights:
    """Play ``n`` fights. ``fast`` goes through the exact chain; ``sampled`` draws each
    rule sub-step from its cache; ``steps`` plays each fight turn by turn; ``auto``
    counts which pays on seeded trials (:func:`fracas.analysis.auto.choose`) and says so
    in the notes. ``scheduler``
    (``tcp://HOST:PORT``) plays them on that Dask cluster instead of ``jobs`` processes,
    with the same results for the same seed. ``max_seconds``: a time budget for the
    fights (every path stops past it with an :class:`InputError` saying how far it got;
    ``auto`` moves from the fast path to the steps one when the chain passes it)."""
    if n < 1:
        raise ValueError("simulate needs n >= 1")
    deadline = None if max_seconds is None else time.time() + max_seconds
    timing = {"deadline": deadline, "budget": max_seconds}
    chosen: tuple[str, ...] = ()
    first: list[Fights] = []
    plan: Plan | None = None
    if method == "auto":
        from fracas.analysis.auto import choose  # auto plays this module's paths

        choice = choose(setup, roster, seed, n, max_memory)
        method, chosen, plan = choice.method, (choice.note,), choice.plan  # type: ignore[assignment]
        first = [choice.first] if choice.first is not None else []
        if progress and first:
            progress(first[0].n)
    if method == "sampled":
        if plan is None:
            plan, _ = learn_played(setup, roster, seed, max_memory)
        begin = first[0].n if first else 0
        sizes = _sizes(n - begin)
        key = run_key(setup, roster, plan, max_memory)
        sampled_tasks = [(setup, roster, seed, start, stop, plan, max_memory, key)
                         for start, stop in _ranges(begin, sizes)]
        done = Fights.concat(first + (_run(sampled_tasks, sampled_chunk, jobs, progress,
                                           sizes, scheduler, **timing) if sizes else []))
        done.notes = (*chosen, *done.notes)
        return done
    if method == "fast":
        sizes = [min(BATCH, n - b * BATCH) for b in range(math.ceil(n / BATCH))]
        tasks = [(setup, roster, seed, b, size, max_states, max_memory, deadline,
                  max_seconds) for b, size in enumerate(sizes)]
        try:
            done = Fights.concat(_run(tasks, fast_batch, jobs, progress, sizes, scheduler,
                                      **timing))
        except ChainTooLarge as err:
            CHAINS.clear()
            if not chosen:
                late = isinstance(err, TimeBudget)
                raise InputError(str(err), path="--max-seconds" if late else "--method fast",
                                 allowed=f"a larger {'--max-seconds' if late else '--max-memory'}"
                                 ", or --method sampled or steps") from None
            method, chosen = "steps", (*chosen, f"{err}: switched to the steps path")
        else:
            done.notes = (*chosen, *done.notes)
            return done
    begin = first[0].n if first and first[0].method == "steps" else 0
    first = first if begin else []
    sizes = _sizes(n - begin)
    step_tasks = [(setup, roster, seed, start, stop) for start, stop in _ranges(begin, sizes)]
    done = Fights.concat(first + (_run(step_tasks, steps_chunk, jobs, progress, sizes,
                                       scheduler, **timing) if sizes else []))
    done.notes = (*chosen, *done.notes)
    return done


def _sizes(n: int) -> list[int]:
    """Tasks' sizes for ``n`` fights: a first one of :data:`HEAD` fights, then
    :data:`CHUNK` a task (the fights, each on its own seed, are the same whatever the
    split); none for no fights (auto's trial played them all)."""
    if n <= 0:
        return []
    head = min(HEAD, n)
    return [head] + [min(CHUNK, n - head - c * CHUNK)
                     for c in range(math.ceil((n - head) / CHUNK))]


def _ranges(begin: int, sizes: list[int]) -> list[tuple[int, int]]:
    """The fights (first, past the last) of tasks of ``sizes`` from fight ``begin`` on."""
    return list(itertools.pairwise(itertools.accumulate(sizes, initial=begin)))
