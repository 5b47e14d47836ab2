"""Ctrl-C while a worker pool starts (issue 39's CI failure): wherever it lands, the
interrupt reaches the main process once, and shutdown then ends every worker without an
error of its own. The signal is a real SIGINT, sent to this process at the call of one
step of the start."""

from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import process
from types import FrameType
from typing import Any

import pytest

from fracas.analysis.workers import CAN_FORK, worker_pool

BOTH = frozenset({"fork", "spawn"})

#: Each step of a pool's start: the function called, the object it is called on, and the
#: pools that take it (a spawning pool adjusts its workers one at a time; a forking one
#: launches them all).
STEPS: dict[str, tuple[str, Callable[[Any], bool], frozenset[str]]] = {
    "adjusting the workers": ("_adjust_process_count", lambda _self: True,
                              frozenset({"spawn"})),
    "launching the workers": ("_launch_processes", lambda _self: True, frozenset({"fork"})),
    "spawning a worker": ("_spawn_process", lambda _self: True, BOTH),
    "starting a worker's process": (
        "start", lambda self: isinstance(self, multiprocessing.process.BaseProcess), BOTH),
    "making the manager thread": (
        "__init__", lambda self: isinstance(self, process._ExecutorManagerThread), BOTH),
    "starting the manager thread": (
        "start", lambda self: isinstance(self, process._ExecutorManagerThread), BOTH),
    "waiting for the manager thread": (
        "wait", lambda self: isinstance(self, threading.Event), BOTH),
}

METHODS = [m for m in ("fork", "spawn") if m != "fork" or CAN_FORK]


def _interrupt_at(name: str, check: Callable[[Any], bool]) -> Callable[..., None]:
    """A profile function that sends this process SIGINT at the first call of ``name``
    on an object ``check`` accepts, in the main thread."""
    sent: list[bool] = []

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if (event == "call" and not sent and frame.f_code.co_name == name
                and threading.current_thread() is threading.main_thread()
                and check(frame.f_locals.get("self"))):
            sent.append(True)
            signal.raise_signal(signal.SIGINT)
    return profile


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("step", list(STEPS))
def test_ctrl_c_while_a_pool_starts_ends_every_worker(method: str, step: str) -> None:
    """Ctrl-C at ``step`` of a ``method`` pool's start: raised once (where the pool takes
    that step), and shutdown ends every worker without an error of its own."""
    before = set(multiprocessing.active_children())
    pool = worker_pool(2, fork=method == "fork")
    interrupted = 0
    name, check, taken_by = STEPS[step]
    sys.setprofile(_interrupt_at(name, check))
    try:
        pool.submit(int).result(timeout=60)
    except KeyboardInterrupt:
        interrupted += 1
    finally:
        sys.setprofile(None)
    pool.shutdown(wait=True, cancel_futures=True)
    left = [p for p in multiprocessing.active_children() if p not in before]
    assert left == []
    assert interrupted == (1 if method in taken_by else 0)
