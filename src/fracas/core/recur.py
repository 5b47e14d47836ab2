"""States that recur in a simulation, remembered so that they are met again at once.

A simulation meets a fight's states over and over: the same wounds a round later, a fight
later. Within :func:`recurring_states`, a combatant value met before is the object met
before (:func:`interned`), and the same changes to the same roster give the same roster
object (:func:`transition`); rosters built of the same objects compare by identity, so the
memos keyed by rosters (the policies' choices, the rules' roll trees) find them at once.
Where states seldom recur (a fight of six, each hurt its own way), remembering costs more
than it finds: a :class:`Recurrence` gives it up after a trial. Outside (a fight at the
table, the tracker's server) nothing is remembered.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterator
from typing import Any, TypeVar

T = TypeVar("T", bound=Hashable)
R = TypeVar("R")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

INTERNED = 8_192  # combatant values kept at most (then emptied)
TRANSITIONS = 16_384  # changes to a roster kept at most (then emptied)


class Trial:
    """Whether a memo pays for itself. Each look-up is counted, found or not; past the
    first :attr:`TRIAL`, a look-up not found while under :attr:`MIN_FOUND` of them were
    found turns the memo off for good. A memo never changes a result, so turning it off
    changes only the time."""

    TRIAL = 512
    MIN_FOUND = 0.3

    def __init__(self) -> None:
        self.looked = self.found = 0
        self.on = True

    def retry(self) -> None:
        """Count afresh (and use the memo again): what it found was of another start."""
        self.looked = self.found = 0
        self.on = True

    def count(self, found: bool) -> None:
        self.looked += 1
        if found:
            self.found += 1
        elif self.looked >= self.TRIAL and self.found < self.MIN_FOUND * self.looked:
            self.on = False


class Recurrence(Trial):
    """Whether one simulation's states recur enough to be remembered (counted on the
    changes to its rosters)."""

    TRIAL = 5_000
    MIN_FOUND = 0.5


def remember(memo: dict[K, V], key: K, value: V, most: int) -> V:
    """``memo[key] = value``, the memo emptied first when it holds ``most`` already (a
    memo kept within bounds); returns ``value``."""
    if len(memo) >= most:
        memo.clear()
    memo[key] = value
    return value


def recall(memo: dict[K, V], key: K, make: Callable[[], V], most: int) -> V:
    """``memo[key]``, made by ``make()`` and remembered (:func:`remember`) when missing."""
    found = memo.get(key)
    if found is None:
        found = remember(memo, key, make(), most)
    return found


_ACTIVE: list[Recurrence | None] = [None]
_INTERN: dict[Hashable, Hashable] = {}
_TRANSITIONS: dict[Hashable, Any] = {}


def forget_states() -> None:
    """Empty the values and transitions remembered (a cold start: benchmarks/)."""
    _INTERN.clear()
    _TRANSITIONS.clear()


@contextlib.contextmanager
def recurring_states(recurrence: Recurrence | None = None) -> Iterator[None]:
    """Within: states remembered as ``recurrence`` (a fresh one by default) allows."""
    before = _ACTIVE[0]
    _ACTIVE[0] = recurrence if recurrence is not None else Recurrence()
    try:
        yield
    finally:
        _ACTIVE[0] = before


def interned(value: T) -> T:
    """The value equal to ``value`` met before, if any (within :func:`recurring_states`)."""
    active = _ACTIVE[0]
    if active is None or not active.on:
        return value
    found = _INTERN.get(value)
    if found is None:
        found = remember(_INTERN, value, value, INTERNED)
    return found  # type: ignore[return-value]


def transition(key: Callable[[], Hashable], make: Callable[[], R]) -> R:
    """``make()``, or within :func:`recurring_states` the object it gave before for the
    same ``key()`` (a key with an unhashable part is never remembered)."""
    active = _ACTIVE[0]
    if active is None or not active.on:
        return make()
    try:
        known = key()
        found = _TRANSITIONS.get(known)
    except TypeError:
        return make()
    active.count(found is not None)
    if found is None:
        found = remember(_TRANSITIONS, known, make(), TRANSITIONS)
    return found  # type: ignore[no-any-return]
