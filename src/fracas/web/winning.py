"""Who's winning, in the tracker: each side's chance from the fight as it stands, worked
out off the request path, and the GM's what-if.

The figures come from :func:`fracas.analysis.winning.refine` (a first estimate, then the
exact chain where the fight is small, else narrower estimates), run in a worker process
of their own as the option odds are (:mod:`fracas.web.odds`: a request never waits for
them; the worker runs at a lower priority). Each figure is one task; after it the next
task of the same encounter is sent only if the encounter has not moved on, so the
newest state of every encounter is worked out first and an older one is dropped.

A view carries the newest figure (``winning``, see :func:`winning_field`): for the GM
always; for a player only if the GM allows it (the ``winning`` setting) and only when
the figure uses nothing hidden from that player (every other combatant's health shown
exactly, nobody hidden), since the chance is worked out from everybody's health.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from fracas.analysis.winning import WinChance, position_of, refine, win_chance

log = logging.getLogger("fracas.winning")
NICE = 10  # the worker's priority below the server's, as the odds worker's
LIVE_TARGET = 0.01  # a live figure narrows until each side's interval is +-1 point
LIVE_FIGHTS = 25_600  # or this many fights
STEP_FIGHTS = 3_200  # the most fights one figure adds: a newer state waits no longer
WHAT_IF_SECONDS = 120.0  # the most a what-if waits for its worker


# -- in the worker process ----------------------------------------------------------------------
_RUNNING: dict[str, tuple[str, Iterator[WinChance]]] = {}  # encounter -> (key, its figures)


def _worker_start(server: int) -> None:
    """Lower priority, and an end when the server (``server``, a process id) is gone."""
    from fracas.registry import systems

    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICE)
    systems()

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="fracas-winning-watch", daemon=True).start()


def next_figure(eid: str, key: str, position: Any) -> tuple[dict[str, Any] | None, bool]:
    """The next figure of encounter ``eid`` at ``key`` (its version): (the figure's JSON,
    whether it is the last). ``position`` is given with the first task of a key only; an
    older key of the encounter is let go."""
    running = _RUNNING.get(eid)
    if running is None or running[0] != key:
        if position is None:
            return None, True  # the worker was replaced meanwhile: nothing to go on from
        running = _RUNNING[eid] = (key, refine(position, target=LIVE_TARGET,
                                               max_fights=LIVE_FIGHTS,
                                               most_per_step=STEP_FIGHTS))
    try:
        chance = next(running[1])
    except StopIteration:
        del _RUNNING[eid]
        return None, True
    last = chance.exact or chance.half_width() <= LIVE_TARGET or chance.sample >= LIVE_FIGHTS
    if last:
        del _RUNNING[eid]
    return figure_json(chance), last


def figure_json(chance: WinChance) -> dict[str, Any]:
    """A figure as the views show it: the chances, intervals, rounds left, and how."""
    data = chance.to_json()
    names = chance.position.names
    data["played_by_words"] = chance.position.played_by_words()
    data["method_words"] = chance.method_words()
    data["names"] = names
    return data


def what_if_figure(position: Any) -> dict[str, Any]:
    """A what-if's figure: exact where small, else an estimate of 2,000 fights."""
    return figure_json(win_chance(position, fights=2_000, max_seconds=5.0))


# -- in the server ------------------------------------------------------------------------------
@dataclass
class _Figures:
    version: int
    fight: Any = None  # what the figures depend on: the setup and the state
    key: str = ""
    figure: dict[str, Any] | None = None  # the newest figure of this version
    last: dict[str, Any] | None = None  # the newest of an older version, meanwhile
    last_version: int | None = None
    final: bool = False
    future: Future[Any] | None = None


class WinningWorker:
    """One worker process (started when first needed, again if it dies) and the figures
    of each encounter's newest version."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._here: ThreadPoolExecutor | None = None  # no process could be started
        self._lock = threading.Lock()
        self._figures: dict[str, _Figures] = {}
        self._made = 0  # figures' keys made so far

    def _executor(self) -> Executor:
        if self._here is not None:
            return self._here
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start, initargs=(os.getpid(),))
        return self._pool

    def _submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        try:
            return self._executor().submit(fn, *args)
        except (BrokenProcessPool, RuntimeError, OSError) as err:
            if self._pool is not None and not isinstance(err, OSError):
                self._pool = None
                with contextlib.suppress(BrokenProcessPool, RuntimeError, OSError):
                    return self._executor().submit(fn, *args)
            log.error("no worker for who's winning (%s): worked out in the server", err)
            self._here = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fracas-win")
            return self._here.submit(fn, *args)

    def ask(self, eid: str, version: int, position: Callable[[], Any]) -> None:
        """Work out the figures of ``eid`` at ``version`` (``position``: the fight as it
        stands, made only when asked for the first time)."""
        with self._lock:
            have = self._figures.get(eid)
            if have is not None and have.version >= version:
                return
            fight = position()
            if have is not None and have.fight == (fight.setup, fight.state):
                have.version = version  # a new version, the same fight (a setting changed)
                return
            if have is not None and have.future is not None:
                have.future.cancel()  # an older state: dropped if not started
            last = have.figure or have.last if have is not None else None
            last_version = (have.version if have is not None and have.figure
                            else have.last_version if have is not None else None)
            self._made += 1
            entry = self._figures[eid] = _Figures(version, (fight.setup, fight.state),
                                                  f"{eid}:{self._made}", None, last,
                                                  last_version)
            future = entry.future = self._submit(next_figure, eid, entry.key, fight)
        self._await(eid, entry, future)

    def _await(self, eid: str, entry: _Figures, future: Future[Any]) -> None:
        """Take the figure when it comes. Never under the lock: a figure already worked
        out (a quick worker) is taken at once, by this thread, which takes the lock."""
        future.add_done_callback(lambda done: self._got(eid, entry, done))

    def _got(self, eid: str, entry: _Figures, done: Future[Any]) -> None:
        if done.cancelled():
            return
        error = done.exception()
        with self._lock:
            if error is not None:
                log.error("who's winning failed: %s", error)
                if isinstance(error, BrokenProcessPool):
                    self._pool = None
                entry.final = True
                return
            figure, last = done.result()
            if figure is not None:
                entry.figure = figure
            entry.final = last
            if last or self._figures.get(eid) is not entry:
                return
            future = entry.future = self._submit(next_figure, eid, entry.key, None)
        self._await(eid, entry, future)

    def figure(self, eid: str, version: int) -> dict[str, Any]:
        """What a view shows: the newest figure (``current``: of this version; else the
        last one of an older version while this one is worked out) and whether more
        narrowing is to come (``final``)."""
        with self._lock:
            have = self._figures.get(eid)
            if have is None or have.version != version:
                return {"current": False, "final": False, "figure": None}
            if have.figure is not None:
                return {"current": True, "final": have.final, "figure": have.figure,
                        "version": have.version}
            return {"current": False, "final": False, "figure": have.last,
                    "version": have.last_version}

    def what_if(self, position: Any) -> dict[str, Any]:
        """A what-if's figure, worked out by the worker (the request waits for it: the GM
        asked; the fight is not touched)."""
        return self._submit(what_if_figure, position).result(timeout=WHAT_IF_SECONDS)  # type: ignore[no-any-return]

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
            self._figures.clear()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


#: the process's one worker for who's winning
WINNING = WinningWorker()


def may_see(role: Any, settings: Mapping[str, Any], session: Any) -> str | None:
    """Why ``role`` may not see the figure (None: they may): the GM keeps it, or some
    combatant's health is not theirs to see (the one redaction step's viewer says)."""
    from fracas.web.views import viewer_of

    if role.is_gm:
        return None
    if not settings.get("winning"):
        return "the GM keeps who's winning to the GM's screen"
    viewer = viewer_of(role, settings, session)
    if not all(viewer.sees(cid, "private") for cid in session.state.roster):
        return "it would be worked out from health hidden from you"
    return None


def winning_field(eid: str, version: int, session: Any, role: Any,
                  settings: Mapping[str, Any]) -> dict[str, Any]:
    """The ``winning`` field of a view (see the module docstring)."""
    why = may_see(role, settings, session)
    if why is not None:
        return {"shown": False, "why": why}
    WINNING.ask(eid, version, lambda: position_of(session))
    return {"shown": True, **WINNING.figure(eid, version)}
