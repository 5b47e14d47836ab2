"""Rolling a dice expression die by die, so that a roll shows every die it threw.

``roll_each(parse_dice("4d6kl3"), rng)`` throws four d6 and keeps the lowest three; the
result lists each die (its value, and whether it counted) and the total. It rolls the dice
themselves, never building the expression's whole distribution first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.dice.variables import Die, Keep, Pool, Sum, Variable

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Thrown:
    """One die thrown: its label (``d6``), the value it shows, whether it counts in the
    total (a die a keep dropped does not), and its sign (``-1`` for a subtracted die)."""

    die: str
    value: int
    kept: bool = True
    sign: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"die": self.die, "value": self.value, "kept": self.kept, "sign": self.sign}


def _throw(sides: int, count: int, rng: np.random.Generator) -> list[int]:
    return [int(v) for v in rng.integers(1, sides + 1, size=count)]


def _each(var: Variable[int], rng: np.random.Generator, sign: int) -> list[Thrown]:
    if isinstance(var, Die):
        return [Thrown(var.label, v, True, sign) for v in _throw(var.sides, 1, rng)]
    if isinstance(var, Pool) and isinstance(var.die, Die):
        return [Thrown(var.die.label, v, True, sign)
                for v in _throw(var.die.sides, var.count, rng)]
    if isinstance(var, Pool):
        return [t for _ in range(var.count) for t in _each(var.die, rng, sign)]
    if isinstance(var, Keep):
        values = _throw(var.sides, var.count, rng)
        order = sorted(range(var.count), key=lambda i: values[i], reverse=var.highest)
        kept = set(order[: var.keep])
        return [Thrown(f"d{var.sides}", v, i in kept, sign) for i, v in enumerate(values)]
    if isinstance(var, Sum):
        return [t for part_sign, part in var.parts for t in _each(part, rng, sign * part_sign)]
    value = var.sample(rng)
    return [Thrown(var.label, int(value), True, sign)]


def roll_each(var: Variable[int], rng: np.random.Generator) -> tuple[int, list[Thrown]]:
    """The total of one roll of ``var`` and every die thrown for it, in order."""
    dice = _each(var, rng, 1)
    constant = var.constant if isinstance(var, Sum) else 0
    return constant + sum(t.sign * t.value for t in dice if t.kept), dice
