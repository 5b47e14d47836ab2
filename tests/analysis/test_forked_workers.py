"""Forked workers (issue 39) start as copies of the main process, with standard streams
of their own."""

from __future__ import annotations

import sys
import tempfile
from typing import Any

import pytest

from fracas.analysis.workers import CAN_FORK, worker_pool

pytestmark = pytest.mark.skipif(not CAN_FORK, reason="this platform spawns its workers")


def _streams() -> tuple[int, int, int, int]:
    """In a worker: its standard output's and error's object ids and files."""
    return id(sys.stdout), id(sys.stderr), sys.stdout.fileno(), sys.stderr.fileno()


def _say() -> None:
    """In a worker: a line on its standard error."""
    print("from the worker", file=sys.stderr)


def test_a_forked_worker_writes_through_streams_of_its_own(monkeypatch: Any) -> None:
    """A thread of the main process (a progress bar's) writes to standard error; had it
    held the stream's lock as the process forked, a worker that flushed the inherited
    stream (every worker does, as it ends) would wait for ever. So a forked worker opens
    its own streams on the same files first, and what it writes still arrives."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        pool = worker_pool(1, fork=True)
        try:
            ids_out, ids_err, fd_out, fd_err = pool.submit(_streams).result(timeout=60)
            pool.submit(_say).result(timeout=60)
        finally:
            pool.shutdown()
        assert ids_out != id(out) and ids_err != id(err)  # not the inherited objects
        assert (fd_out, fd_err) == (out.fileno(), err.fileno())  # the same files
        err.seek(0)
        assert err.read() == "from the worker\n"
