"""Worker processes that leave Ctrl-C to the main process.

A terminal sends SIGINT to the whole process group. A worker that receives it while it
starts (before any initializer of ours could run) prints a ``KeyboardInterrupt``
traceback. So each worker is started with SIGINT *blocked*: the blocked mask is inherited
across fork and exec, Python never unblocks it, and the worker never sees the signal. The
main process unblocks it as soon as the worker has started, so the user's Ctrl-C still
reaches it (a pending one is delivered then) and the command stops cleanly.
"""

from __future__ import annotations

import signal
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import SpawnContext, SpawnProcess


class _QuietProcess(SpawnProcess):
    """A spawned process that starts with SIGINT blocked."""

    def start(self) -> None:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class _QuietContext(SpawnContext):
    """The spawn start method, with :class:`_QuietProcess` for every worker."""

    Process = _QuietProcess


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of ``jobs`` spawned workers that ignore Ctrl-C (the main process handles it)."""
    return ProcessPoolExecutor(max_workers=jobs, mp_context=_QuietContext())
