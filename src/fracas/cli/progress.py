"""Progress of long work on stderr: a Rich bar on a terminal; otherwise (a pipe, a log
file, ``--json``) one plain line every few seconds, so that long work never looks hung;
nothing with ``--quiet``."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress on stderr.")]
EVERY = 5.0  # seconds between two plain progress lines


class Tracker:
    """Counts work done (``advance`` by k, or ``update`` to n) and shows it."""

    def __init__(self, show: Callable[[int], None]) -> None:
        self.done = 0
        self._show = show

    def advance(self, k: int) -> None:
        self.update(self.done + k)

    def update(self, n: int) -> None:
        self.done = n
        self._show(n)


def _line(command: str, unit: str, total: int | None, started: float) -> Callable[[int], None]:
    last = [started]

    def show(n: int) -> None:
        now = time.monotonic()
        if now - last[0] < EVERY:
            return
        last[0] = now
        share = f" of {total:,} ({n / total:.0%})" if total else ""
        sys.stderr.write(f"fracas: {command}: {n:,}{share} {unit}, {now - started:.0f} s\n")
        sys.stderr.flush()
    return show


@contextmanager
def progress(command: str, unit: str, total: int | None, quiet: bool, as_json: bool
             ) -> Iterator[Tracker]:
    """A :class:`Tracker` for ``total`` units of work (None: unknown) of ``command``."""
    if quiet:
        yield Tracker(lambda n: None)
        return
    if not sys.stderr.isatty() or as_json:
        yield Tracker(_line(command, unit, total, time.monotonic()))
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
               (SpinnerColumn(), TextColumn(f"{{task.completed:,}} {unit}"),
                TimeElapsedColumn()))
    with Progress(*columns, console=render.make_console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task(unit, total=total)
        yield Tracker(lambda n: bar.update(task, completed=n))
