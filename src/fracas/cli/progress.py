"""Progress of long work on stderr: a Rich bar on a terminal; otherwise (a pipe, a log
file, ``--json``) one plain line every few seconds, even while a single long unit of work
reports nothing (a heartbeat thread), so that long work never looks hung; nothing with
``--quiet``."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress on stderr.")]
EVERY = 5.0  # seconds between two plain progress lines


def said(unit: str, n: int, total: int | None) -> str:
    """The unit of ``n`` done: ``{s}`` in it is the plural's ending, left out for one
    done of no known total (``1 value tried``; ``1 of 300 fights``)."""
    return unit.replace("{s}", "" if n == 1 and total is None else "s")


class Tracker:
    """Counts work done (``advance`` by k, or ``update`` to n) and shows it; ``stage``
    starts counting another kind of work (``unit``, ``{s}`` where its plural ends in s;
    ``total``) from 0. ``show`` and ``relabel`` are the display's: how it shows a count,
    and how it starts afresh on a new stage (a display sets them as it is built)."""

    def __init__(self, show: Callable[[int], None], unit: str = "",
                 total: int | None = None) -> None:
        self.done = 0
        self.unit = unit
        self.total = total
        self.show = show
        self.relabel: Callable[[], None] = lambda: None

    def stage(self, unit: str, total: int | None = None) -> None:
        self.unit, self.total, self.done = unit, total, 0
        self.relabel()

    def advance(self, k: int) -> None:
        self.update(self.done + k)

    def update(self, n: int) -> None:
        self.done = n
        self.show(n)


def _lines(command: str, tracker: Tracker, started: float) -> Callable[[int], None]:
    last = [started]
    lock = threading.Lock()

    def show(n: int) -> None:
        with lock:
            now = time.monotonic()
            if now - last[0] < EVERY:
                return
            last[0] = now
            total = tracker.total
            share = f" of {total:,} ({n / total:.0%})" if total else ""
            sys.stderr.write(f"fracas: {command}: {n:,}{share} "
                             f"{said(tracker.unit, n, total)}, "
                             f"{now - started:.0f} s\n")
            sys.stderr.flush()
    return show


@contextmanager
def _heartbeat(tracker: Tracker) -> Iterator[None]:
    """Shows the count every second from a thread (the shown line is still rate-limited
    to one every :data:`EVERY` seconds), while the work itself reports nothing."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(min(1.0, max(EVERY, 0.1))):
            tracker.update(tracker.done)

    thread = threading.Thread(target=beat, name="fracas-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()  # no line of this work after it ends (a next command's stderr)


@contextmanager
def progress(command: str, unit: str, total: int | None, quiet: bool, as_json: bool
             ) -> Iterator[Tracker]:
    """A :class:`Tracker` for ``total`` units of work (None: unknown) of ``command``."""
    if quiet:
        yield Tracker(lambda n: None)
        return
    if not sys.stderr.isatty() or as_json:
        tracker = Tracker(lambda n: None, unit, total)
        tracker.show = _lines(command, tracker, time.monotonic())
        with _heartbeat(tracker):
            yield tracker
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from fracas.cli import render

    columns = ((TextColumn("[progress.description]{task.description}"), BarColumn(),
                MofNCompleteColumn(), TimeRemainingColumn()) if total is not None else
               (SpinnerColumn(), TextColumn("{task.completed:,} {task.description}"),
                TimeElapsedColumn()))
    with Progress(*columns, console=render.make_console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task(said(unit, 0, total), total=total)
        tracker = Tracker(lambda n: bar.update(
            task, completed=n, description=said(tracker.unit, n, tracker.total)), unit, total)
        tracker.relabel = lambda: bar.update(
            task, description=said(tracker.unit, 0, tracker.total), total=tracker.total,
            completed=0)
        yield tracker
