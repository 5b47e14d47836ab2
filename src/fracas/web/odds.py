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
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from fracas.encounter.decisions import Decision, LaterOdds, Odds, Option

NICE = 10  # how much lower the worker's priority is than the server's
log = logging.getLogger("fracas.odds")


def _lower_priority() -> None:
    """The worker's start: a lower scheduling priority (where the system allows it)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICE)


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

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority)
        return self._pool

    def start(self) -> None:
        """Start the worker now (it takes a second to load), not at the first decision."""
        with self._lock, contextlib.suppress(RuntimeError, BrokenProcessPool):
            self._executor().submit(work_out, [])

    def warm(self, key: str, decision: Decision) -> None:
        """Work out ``decision``'s odds in the background (``key``: its encounter)."""
        options = [o for o in decision.options if isinstance(o.given, LaterOdds)]
        with self._lock:
            newest = self._newest.get(key)
            if newest is not None:
                if newest[0] is decision:
                    return  # already asked for
                newest[1].cancel()  # no longer pending: dropped if not started
            if not options:
                self._newest.pop(key, None)
                decision.compute_odds()  # nothing to send: whatever is left is cheap
                return
            items = [o.given for o in options if isinstance(o.given, LaterOdds)]
            try:
                future = self._executor().submit(work_out, items)
            except (BrokenProcessPool, RuntimeError):
                self._pool = None  # the worker died: a new one, once
                future = self._executor().submit(work_out, items)
            self._newest[key] = (decision, future)
        future.add_done_callback(lambda done: self._fill(key, decision, options, done))

    def _fill(self, key: str, decision: Decision, options: Sequence[Option],
              done: Future[list[Odds | None]]) -> None:
        """Keep the odds on their options (or none, if they could not be worked out)."""
        if done.cancelled():
            return
        error = done.exception()
        if error is not None:
            log.error("the odds worker failed: %s", error)
            if isinstance(error, BrokenProcessPool):
                with self._lock:
                    self._pool = None
        results = done.result() if error is None else [None] * len(options)
        for option, odds in zip(options, results, strict=True):
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
