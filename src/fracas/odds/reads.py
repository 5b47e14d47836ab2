"""Which combatants a piece of rule code read, so that its result can be keyed by them.

Rule code is pure: run it on a :class:`ReadTracker` in place of a roster and the ids it
looked up are the only combatants its result depends on (with the arguments besides the
roster). Any roster that agrees with it on those combatants' states gives the same
result, so a cache keyed by :func:`project` answers for every such roster.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fracas.core.model import Combatant, Roster

EVERY = "*"  # a read set meaning "every combatant"


class ReadTracker(Roster):
    """A roster that records which combatants the code reading it looked at.

    Looking one up by id records that id; anything that sees every combatant (the
    values, ``sides``, ``replace``, the private tuples, equality) records them all.
    The ids themselves (iteration, ``in``, ``len``) are the same in every state of a
    fight, so reading them records nothing.
    """

    __slots__ = ("_inner", "reads")

    def __init__(self, inner: Roster, reads: set[str] | None = None) -> None:
        self._inner = inner  # no super().__init__: the base slots stay empty
        self.reads: set[str] = set() if reads is None else reads

    def replace(self, *combatants: Combatant) -> Roster:
        """Swapping combatants in reads none: the new roster is tracked into the same set."""
        return ReadTracker(self._inner.replace(*combatants), self.reads)

    @property
    def _items(self) -> tuple[Combatant, ...]:  # type: ignore[override]
        self.reads.add(EVERY)
        return self._inner.combatants()

    @property
    def _map(self) -> dict[str, Combatant]:  # type: ignore[override]
        self.reads.add(EVERY)
        return {c.id: c for c in self._inner.combatants()}

    @property
    def _hash(self) -> int | None:  # type: ignore[override]
        return id(self)

    def sheets(self) -> tuple[tuple[str, Any], ...]:
        """Sheets never change in a fight: reading them records nothing (a rule's answer
        cached by the states it read is only reused within the same sheets)."""
        return self._inner.sheets()

    def __getitem__(self, key: str) -> Combatant:
        found = self._inner[key]
        self.reads.add(key)
        return found

    def __contains__(self, key: object) -> bool:
        return key in self._inner

    def __iter__(self) -> Iterator[str]:
        return iter(self._inner)

    def __len__(self) -> int:
        return len(self._inner)

    def __hash__(self) -> int:  # never found in a cache filled from another roster
        return id(self)

    def __eq__(self, other: object) -> bool:
        self.reads.add(EVERY)
        return self._inner == other

    def __repr__(self) -> str:
        return f"ReadTracker({self._inner!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied to another process (a memo keyed by a tracker's arguments sent to a
        worker), a tracker is the roster it tracks: nobody reads it there to be recorded."""
        return self._inner.__reduce__()


def project(roster: Roster, reads: tuple[str, ...]) -> tuple[Any, ...]:
    """The part of ``roster`` a sub-step read: the states of those combatants (a
    combatant's id, name, side and sheet never change during a fight)."""
    if reads == (EVERY,):
        return (roster,)
    return tuple(roster[i].state for i in reads)
