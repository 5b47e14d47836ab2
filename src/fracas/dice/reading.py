"""A roll as the rules read it, with a face that gives it riding along for the narration.

Rule code that reads only part of a roll (success and critical of a 2d6, the margin row of a
d100, who wins a contest) rolls a variable whose outcomes are :class:`Reading` values: the
exact roller branches once per ``meaning``, not once per face, while random and pinned dice
still show the face they rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fracas.frozen import HashOnce, cached_hash


@dataclass(frozen=True)
class Reading(HashOnce):
    """What a roll means to the rules (``meaning``: compared and hashed) and the dice behind
    it (``face``: not compared; under the exact roller, the first face with that meaning).

    >>> Reading((True, False), 5) == Reading((True, False), 7)
    True
    >>> len({Reading("hit", 3), Reading("hit", 4), Reading("miss", 11)})
    2
    """

    meaning: Any  # hashable: a tuple of flags, a row number, a winner
    face: Any = field(compare=False)  # an int, or the naturals and totals of a contest

    def __hash__(self) -> int:
        return cached_hash(self, lambda: hash(self.meaning))
