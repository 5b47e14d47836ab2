"""The screens' exact odds, worked out in a process of their own.

A decision is shown at once and its odds fill in when they are known, never holding the
answer. They are worked out in one worker process rather than a thread of the server:

- a request never waits for the interpreter lock while odds code runs;
- the odds' caches (every matchup met: tens of thousands of objects) live in the worker,
  so the server's heap, and the pauses of Python's cycle collector that walk it, stay
  small;
- the worker runs at a lower priority (``nice`` :data:`NICE`), so under load the
  operating system serves answers first and odds after.

Only the newest decision of each encounter is worked out: an older one still waiting is
dropped (its answer came before its odds). An option whose odds cannot be worked out is
shown without them.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from fracas.encounter.decisions import Decision, LaterOdds, Odds, Option
from fracas.registry import systems

NICE = 10  # how much lower the worker's priority is than the server's
WATCH_SECONDS = 1.0  # how often the worker looks for its server
log = logging.getLogger("fracas.odds")


def _worker_start(server: int) -> None:
    """The worker's start: a lower scheduling priority (where the system allows it), the
    rule systems loaded, and a watch that ends the worker when its ``server`` (a process
    id) is gone: killed, it cannot say so."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICE)
    systems()  # every rule system's modules, before the first odds ask for one

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="fracas-odds-watch", daemon=True).start()


def work_out(items: Sequence[LaterOdds]) -> list[Odds | None]:
    """Each action's odds (None where they cannot be worked out): run in the worker."""
    out: list[Odds | None] = []
    for item in items:
        try:
            out.append(item())
        except Exception:  # shown without odds; the server's log says why
            log.exception("odds of %r", item.action)
            out.append(None)
    return out


class OddsWorker:
    """One worker process (started when first needed, again if it dies) and the newest
    decision asked for in each encounter."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._newest: dict[str, tuple[Decision, Future[list[Odds | None]]]] = {}
        self._here = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fracas-odds")
        self._cannot_start = False  # no worker could be started: odds are worked out here

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start, initargs=(os.getpid(),))
        return self._pool

    def _submit(self, items: Sequence[LaterOdds]) -> Future[list[Odds | None]]:
        """Send work to the worker; a dead worker is replaced once."""
        try:
            return self._executor().submit(work_out, items)
        except (BrokenProcessPool, RuntimeError):
            self._pool = None
            return self._executor().submit(work_out, items)

    def start(self) -> None:
        """Start the worker now (it takes a second to load), not at the first decision."""
        with self._lock, contextlib.suppress(RuntimeError, BrokenProcessPool, OSError):
            self._executor().submit(work_out, [])

    def warm(self, key: str, decision: Decision) -> None:
        """Work out ``decision``'s odds in the background (``key``: its encounter)."""
        with self._lock:
            newest = self._newest.get(key)
            if newest is not None:
                if newest[0] is decision:
                    return  # already asked for
                newest[1].cancel()  # no longer pending: dropped if not started
                del self._newest[key]
            asked = [(o, o.given) for o in decision.options if isinstance(o.given, LaterOdds)]
            if not asked:  # nothing to send (whatever is left is worked out here)
                self._here.submit(decision.compute_odds)
                return
            if self._cannot_start:
                self._here.submit(decision.compute_odds)
                return
            try:
                future = self._submit([later for _, later in asked])
            except (BrokenProcessPool, RuntimeError, OSError) as err:
                # no worker can be started here: this process works them out from now on
                log.error("no odds worker (%s): the odds are worked out in the server",
                          str(err).strip().splitlines()[0] if str(err).strip() else err)
                self._cannot_start = True
                self._here.submit(decision.compute_odds)
                return
            self._newest[key] = (decision, future)
        future.add_done_callback(lambda done: self._fill(key, decision, asked, done))

    def _fill(self, key: str, decision: Decision, asked: Sequence[tuple[Option, LaterOdds]],
              done: Future[list[Odds | None]]) -> None:
        """Keep the odds on their options (none where they could not be worked out)."""
        if done.cancelled():
            return
        error = done.exception()
        if error is not None:
            log.error("the odds worker failed: %s", error)
            if isinstance(error, BrokenProcessPool):
                with self._lock:
                    self._pool = None
        results = done.result() if error is None else [None] * len(asked)
        for (option, later), odds in zip(asked, results, strict=True):
            if option.given is later:  # not worked out meanwhile by another way
                object.__setattr__(option, "given", odds)
        with self._lock:
            if self._newest.get(key, (None,))[0] is decision:
                del self._newest[key]

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
            self._newest.clear()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


#: the process's one odds worker (shared by every app in the process, e.g. in tests)
WORKER = OddsWorker()
