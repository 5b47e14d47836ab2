"""A roll made of several people's dice at once, split by owner for a live table.

The rules may roll several combatants' dice as one variable (everybody's initiative, an
attack and its defence) so that exact odds branch once per result. At the table each
owner rolls their own part: :func:`split` names the parts of such a variable, how the
whole draws them from one generator (so a part "rolled" by everybody is the very draw
of the whole) and how the parts' values make the whole's value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.dice.variables import Group, Mapped, Variable

if TYPE_CHECKING:  # numpy is loaded by what draws, not by exact odds (tests/foundation)
    import numpy as np


@dataclass(frozen=True)
class Split:
    """The parts of a joint roll, in the order the whole reads them."""

    parts: tuple[Variable[Any], ...]
    sample_parts: Callable[[np.random.Generator], tuple[Any, ...]]  # as ``sample`` draws
    join: Callable[[tuple[Any, ...]], Any]  # the whole's value from the parts' values


def split(var: Variable[Any]) -> Split | None:
    """The parts of ``var``, or None when it is not made of independent parts: a
    ``Mapped`` group (its function read on the group's values), or a variable that
    names its own parts (``split_parts``)."""
    own = getattr(var, "split_parts", None)
    if callable(own):
        found = own()
        return found if isinstance(found, Split) else None
    if isinstance(var, Mapped) and isinstance(var.source, Group):
        group, f = var.source, var.f
        return Split(group.parts, group.sample, f)
    return None
