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

import contextlib
import itertools
import math
import time
from collections.abc import Callable
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
from fracas.analysis.spread import Workers
from fracas.encounter.engine import FightSetup
from fracas.errors import InputError
from fracas.odds.cache import answers_aside

Method = Literal["auto", "fast", "sampled", "steps"]

__all__ = ["BATCH", "CHUNK", "MAX_MEMORY", "Fights", "Method", "probe", "simulate", "summarize",
           "wilson"]


PARALLEL_FROM_SECONDS = 3.0  # less serial work than this left: no worker processes
#: The first task's fights, played in the main process and timed: the workers start only
#: once the time so far says the rest is worth spreading.
HEAD = 16


def _run(tasks: list[Any], worker: Callable[[Any], Fights], jobs: int,
         progress: Callable[[int], None] | None, sizes: list[int],
         scheduler: str | None = None, deadline: float | None = None,
         budget: float | None = None) -> list[Fights]:
    """Run the tasks in order. With ``scheduler`` (``tcp://HOST:PORT``) they all run on
    that Dask cluster, and the results come back in the same order. Else they are played
    here from the first on, timed: once the rest would take
    :data:`PARALLEL_FROM_SECONDS` or more on one core (:func:`rest_seconds`),
    ``jobs - 1`` worker processes start and play them from the last back, all sharing
    the odds they work out (:class:`~fracas.analysis.spread.Workers`). Past ``deadline``
    (``time.time()``; from a ``budget`` of seconds) between tasks, the rest is dropped
    and the run is an :class:`InputError` saying how far it got. The results do not
    depend on where a task ran."""
    if scheduler:
        from fracas.analysis.cluster import dask_map

        return dask_map(scheduler, worker, tasks, sizes, progress)
    total = sum(sizes)
    results: dict[int, Fights] = {}

    def on_time() -> None:
        if deadline is not None and time.time() > deadline:
            done = sum(sizes[i] for i in results)
            raise InputError(f"the fights passed their time budget of {budget:g} s after "
                             f"{done:,} of {total:,}", path="--max-seconds",
                             allowed="a larger --max-seconds, or fewer fights (-n)")

    def ended(part: Fights, index: int) -> None:
        results[index] = part
        if progress:
            progress(sizes[index])

    workers = Workers(tasks, jobs) if jobs > 1 and len(tasks) > 2 else None
    try:
        start = time.perf_counter()

        def ready() -> bool:  # the workers play, started once the rest is worth it
            assert workers is not None
            if not workers.started() and rest_seconds(
                    time.perf_counter() - start, sum(sizes[i] for i in results), sizes
            ) >= PARALLEL_FROM_SECONDS:
                workers.start(worker)
            return workers.started()

        if workers is not None:
            workers.live.ready = ready
        with contextlib.nullcontext() if workers is None else answers_aside(workers.live):
            for index, task in enumerate(tasks):
                if index:
                    on_time()
                    if workers is not None and (ready() and not workers.take(index)):
                        break  # the workers have the rest
                if index == 0 and worker in _REPORTING:  # it tells of fights as they end
                    results[0] = worker(task, progress)
                else:
                    ended(worker(task), index)
                for part, other in workers.ended(False) if workers is not None else ():
                    ended(part, other)
        while workers is not None and workers.futures:
            on_time()
            for part, other in workers.ended(True):
                ended(part, other)
        return [results[i] for i in range(len(tasks))]
    finally:  # on Ctrl-C: drop the tasks not started, wait only for the running ones
        if workers is not None:
            workers.close()


def rest_seconds(elapsed: float, done: int, sizes: list[int]) -> float:
    """How long the fights not yet played would take on one core, ``elapsed`` seconds
    into a run of tasks of ``sizes`` with ``done`` fights played: at the pace so far;
    while the first task plays, at least its time so far for each of its like. (The
    first fights, the caches cold, are the slowest: a run of fast fights does not start
    workers for their sake.)"""
    if not done:
        return elapsed * sum(sizes[1:]) / sizes[0]
    return elapsed * (sum(sizes) - done) / done


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
