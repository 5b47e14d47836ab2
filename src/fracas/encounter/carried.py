"""Folds over a fight's events carried on from one call to the next.

A session's events only grow at their end between changes (a turn played, a GM edit
folded in) or are all made afresh (a replay: every event a new object), so what a fold
worked out of them stays right while the last event it read is still in its place: the
next call then reads only the events after it. A long fight's screen then costs what a
short one's does. :func:`carried` keeps one fold per session and per kind.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary

from fracas.core.events import ActionChosen, Event

T = TypeVar("T")


STRIDE = 64  # events between the points a fold is kept at


class Carried(Generic[T]):
    """``start()``, then ``step(value, event)`` for each event, carried on from the last
    call while the events it read are still there (``copy`` keeps each call's result
    apart from the value carried on). The value is also kept every :data:`STRIDE` events:
    when the last events read have been made afresh (the pending turn played again), the
    fold goes on from the newest kept point still in place, not from the start."""

    def __init__(self, start: Callable[[], T], step: Callable[[T, Event], None],
                 copy: Callable[[T], T]) -> None:
        self.start, self.step, self.copy = start, step, copy
        self.tip: tuple[int, Event | None, T] = (0, None, start())
        self.points: list[tuple[int, Event, T]] = []  # every STRIDE events
        self.lock = threading.Lock()

    def over(self, events: Sequence[Event], end: int | None = None) -> T:
        """The fold over ``events[:end]`` (all of them by default)."""
        end = len(events) if end is None else end
        with self.lock:
            done, last, value = self.tip
            if not (0 < done <= end and events[done - 1] is last):
                points = self.points
                while points and not (points[-1][0] <= end
                                      and events[points[-1][0] - 1] is points[-1][1]):
                    points.pop()
                done, value = (points[-1][0], points[-1][2]) if points else (0, self.start())
            value = self.copy(value)
            for i in range(done, end):
                self.step(value, events[i])
                if (i + 1) % STRIDE == 0 and (i + 1) // STRIDE > len(self.points):
                    self.points.append((i + 1, events[i], self.copy(value)))
            self.tip = (end, events[end - 1] if end else None, value)
            return self.copy(value)


_FOLDS: WeakKeyDictionary[Any, dict[str, Carried[Any]]] = WeakKeyDictionary()
_GUARD = threading.Lock()


def carried(owner: Any, kind: str, make: Callable[[], Carried[T]]) -> Carried[T]:
    """The fold ``kind`` kept for ``owner`` (a session), made by ``make`` the first time."""
    with _GUARD:
        folds = _FOLDS.setdefault(owner, {})
        fold = folds.get(kind)
        if fold is None:
            fold = folds[kind] = make()
        return fold


def last_targets() -> Carried[dict[str, str]]:
    """Each combatant's last target (id -> id), as a fold."""
    def step(targets: dict[str, str], e: Event) -> None:
        if isinstance(e, ActionChosen) and e.target:
            targets[e.actor] = e.target

    return Carried(dict, step, dict)
