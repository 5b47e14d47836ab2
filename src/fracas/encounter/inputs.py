"""A session's inputs (its log after the header), knowing where they changed.

A saved session's log is rewritten only from the first input that changed since it was
last saved (:meth:`Inputs.settle`): a decision appends, so a long fight's save costs what a
short one's does (the tracker's commit, :mod:`fracas.web.tracker`). Every way the list
changes marks the first place it touches; a list put in its place wholesale (an undo, an
input refused and taken back) is compared with the one it replaces, object by object.
The highest stamp among the inputs (``n``: undo takes back the newest first) is kept as
inputs are added, and counted again after anything is taken out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, SupportsIndex

Entry = dict[str, Any]


class Inputs(list[Entry]):
    """A list of inputs with :attr:`low`: the inputs before it are the very ones (the same
    objects, unchanged) as when :meth:`settle` was last called."""

    def __init__(self, items: Iterable[Entry] = (), low: int = 0) -> None:
        super().__init__(items)
        self.low = min(low, len(self))
        self.settled = self.low  # how many inputs there were at the last settle
        self._top: int | None = None

    @classmethod
    def replacing(cls, old: Inputs | None, items: Iterable[Entry]) -> Inputs:
        """``items`` put in the place of ``old``: unchanged up to the first input that is
        not the very one ``old`` had settled there."""
        new = cls(items)
        if old is not None:
            same = 0
            upto = min(old.low, len(new))
            while same < upto and new[same] is old[same]:
                same += 1
            new.low, new.settled = same, old.settled
        return new

    def settle(self) -> None:
        """What the inputs are now has been saved."""
        self.low = self.settled = len(self)

    def top(self) -> int:
        """The highest stamp (``n``) among the inputs (0 for none)."""
        if self._top is None:
            self._top = max((int(e.get("n", 0)) for e in self), default=0)
        return self._top

    def _touched(self, at: int | slice | SupportsIndex) -> None:
        if isinstance(at, slice):
            start = at.indices(len(self))[0] if at.step in (None, 1) else 0
        else:
            start = int(at)
            start = start + len(self) if start < 0 else start
        self.low = max(0, min(self.low, start))
        self._top = None

    def append(self, entry: Entry) -> None:
        super().append(entry)
        if self._top is not None:
            self._top = max(self._top, int(entry.get("n", 0)))

    def extend(self, entries: Iterable[Entry]) -> None:
        for entry in list(entries):
            self.append(entry)

    def __iadd__(self, entries: Iterable[Entry]) -> Inputs:  # type: ignore[override,misc]
        self.extend(entries)
        return self

    def __setitem__(self, at: Any, value: Any) -> None:
        top = self._top
        if isinstance(at, slice):
            value = list(value)
            if top is not None and not range(*at.indices(len(self))):  # an insertion
                top = max([top, *(int(e.get("n", 0)) for e in value)])
            else:
                top = None
        else:
            top = None
        self._touched(at)
        super().__setitem__(at, value)
        self._top = top

    def __delitem__(self, at: Any) -> None:
        self._touched(at)
        super().__delitem__(at)

    def insert(self, at: SupportsIndex, entry: Entry) -> None:
        self._touched(min(int(at), len(self)))
        super().insert(at, entry)

    def pop(self, at: SupportsIndex = -1) -> Entry:
        self._touched(at)
        return super().pop(at)

    def remove(self, entry: Entry) -> None:
        self._touched(self.index(entry))
        super().remove(entry)

    def clear(self) -> None:
        self._touched(0)
        super().clear()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._touched(0)
        super().sort(*args, **kwargs)

    def reverse(self) -> None:
        self._touched(0)
        super().reverse()

    def __imul__(self, n: SupportsIndex) -> Inputs:
        self._touched(0)
        super().__imul__(n)
        return self


class SavedInputs:
    """A session's inputs as :class:`Inputs`, and what changed since they were saved."""

    _inputs: Inputs

    @property
    def entries(self) -> list[Entry]:
        """The inputs, in order."""
        return self._inputs

    @entries.setter
    def entries(self, value: list[Entry]) -> None:
        self._inputs = Inputs.replacing(getattr(self, "_inputs", None), value)

    def unsaved(self) -> tuple[int, int, list[dict[str, Any]]]:
        """Since :meth:`saved`: how many inputs there were then, how many of them are
        still as they were (the first ones), and the records of the inputs after those."""
        kept = self._inputs.low
        return (self._inputs.settled, kept,
                [{"type": "Input", **e} for e in self._inputs[kept:]])

    def saved(self) -> None:
        """The inputs as they are now have been saved (see :meth:`unsaved`)."""
        self._inputs.settle()

    def _stamp(self) -> int:
        """The number of the next input made (undo takes back the newest first)."""
        return 1 + self._inputs.top()
