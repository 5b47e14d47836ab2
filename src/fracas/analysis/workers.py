"""Worker processes that leave Ctrl-C to the main process.

A terminal sends SIGINT to the whole process group. A worker that receives it while it
starts (before any initializer of ours could run) prints a ``KeyboardInterrupt``
traceback. So each worker is started with SIGINT *blocked*: the blocked mask is inherited
across fork and exec, Python never unblocks it, and the worker never sees the signal.

The main process, for its part, must not stop half-way through starting a worker: a
``KeyboardInterrupt`` while it writes the worker's start-up data, or before the pool has
registered the worker (so that shutdown waits for it), leaves a worker that prints a
traceback (``EOFError``, or a semaphore gone once the main process has exited). Blocking
SIGINT in the main thread is not enough (the kernel then hands it to another thread and
Python still raises in the main one), so while a worker starts, SIGINT's handler only
notes the signal; the interrupt is raised once the worker is started and registered,
and the pool's manager thread (which stops the workers at shutdown) is running. The manager
thread's own start is held alike: one made but not yet started can be neither joined
nor skipped at shutdown. A worker that shutdown cannot reach that way (started just
before the manager thread) is ended there and waited for.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from types import FrameType
from typing import Any


class _QuietPool(ProcessPoolExecutor):
    """A pool whose workers start (and are registered) with SIGINT blocked."""

    _holding = False  #: whether SIGINT is being held back (see :meth:`_held`)

    def _spawn_process(self) -> None:
        def start() -> None:
            mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # the worker's
            try:
                super(_QuietPool, self)._spawn_process()  # type: ignore[misc]
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        self._held(start)

    def _start_executor_manager_thread(self) -> None:
        self._held(super()._start_executor_manager_thread)

    def _held(self, step: Callable[[], None]) -> None:
        """Run ``step`` (starting a worker or the manager thread) with Ctrl-C only noted;
        a Ctrl-C noted is raised once the manager thread runs. A manager thread made but
        not yet started (Ctrl-C between the two) could be neither joined nor skipped at
        shutdown."""
        if self._holding or threading.current_thread() is not threading.main_thread():
            step()
            return
        pressed: list[FrameType | None] = []
        handler = signal.getsignal(signal.SIGINT)
        signal.signal(signal.SIGINT, lambda _signum, frame: pressed.append(frame))
        self._holding = True
        try:
            step()
            if pressed:  # Ctrl-C while it started: the manager thread first
                super()._start_executor_manager_thread()
        finally:
            self._holding = False
            signal.signal(signal.SIGINT, handler)
        if pressed:
            if callable(handler):
                handler(signal.SIGINT, pressed[0])
            else:
                raise KeyboardInterrupt

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        manager = getattr(self, "_executor_manager_thread", None)
        orphans = [] if manager is not None else list((self._processes or {}).values())
        super().shutdown(wait=wait, cancel_futures=cancel_futures)
        for process in orphans:
            process.terminate()
            process.join()


#: Whether this platform can fork: a forked worker starts as a copy of the main process,
#: its caches included, and imports nothing (Linux; macOS and Windows spawn).
CAN_FORK = "fork" in multiprocessing.get_all_start_methods()


def worker_pool(jobs: int, initializer: Callable[..., object] | None = None,
                initargs: tuple[Any, ...] = (), *, fork: bool = False) -> ProcessPoolExecutor:
    """A pool of ``jobs`` workers that ignore Ctrl-C (the main process handles it); each
    runs ``initializer(*initargs)`` once as it starts. Spawned (a fresh interpreter) unless
    ``fork`` (and :data:`CAN_FORK`): then all start at the first task, as copies of this
    process as it is then."""
    if fork and CAN_FORK:
        return _QuietPool(max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
                          initializer=_forked, initargs=(initializer, *initargs))
    return _QuietPool(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                      initializer=initializer, initargs=initargs)


def _forked(initializer: Callable[..., object] | None, *initargs: Any) -> None:
    """A forked worker's start: its own standard output and error first. A thread of the
    main process (a progress bar's) may have held a stream's lock as it forked; a worker
    that then wrote to, or flushed, that stream (Python flushes both as a worker ends)
    would wait for it for ever. The new streams write to the same files."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError):  # none, or not a file (captured)
            continue
        setattr(sys, name, open(fd, "w", buffering=1, encoding=stream.encoding,  # noqa: SIM115
                                errors=stream.errors, closefd=False))
    if initializer is not None:
        initializer(*initargs)
