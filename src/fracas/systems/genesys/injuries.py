"""The Critical Injury roll as one random variable (seed 004 · Step 6).

Its value is the injury (and, for Horrific and Gruesome Injury, the
characteristic a d10 picks). The exact distribution is over injuries, so exact
odds branch once per table row, not once per d100 face; a roll made with real
or random dice also remembers the d100 (and d10) shown, for the explanation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from fracas.dice.distribution import Distribution
from fracas.dice.variables import D100, Script, Variable, check_value, d
from fracas.systems.genesys.tables import Injury, injuries

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True, order=True)
class InjuryResult:
    """Which injury a Critical Injury roll gave; the dice shown are not part of the value."""

    name: str
    characteristic: str | None = None
    natural: int | None = field(default=None, compare=False)
    d10: int | None = field(default=None, compare=False)

    @property
    def row(self) -> Injury:
        row = injuries().by_name(self.name)
        assert row is not None
        return row

    @property
    def full_name(self) -> str:
        """``Horrific Injury (Agility)`` when a characteristic was picked."""
        if self.characteristic:
            return f"{self.name} ({self.characteristic.capitalize()})"
        return self.name


@lru_cache(maxsize=256)
def _injury_distribution(modifier: int) -> Distribution[InjuryResult]:
    table = injuries()
    weights: dict[InjuryResult, int] = {}
    for natural in range(1, 101):
        row = table.lookup(natural + modifier)
        if row.effects.characteristic:
            for k in range(1, 11):
                key = InjuryResult(row.name, table.characteristic(k))
                weights[key] = weights.get(key, 0) + 1
        else:
            key = InjuryResult(row.name)
            weights[key] = weights.get(key, 0) + 10
    return Distribution(weights)


@dataclass(frozen=True)
class CriticalRoll(Variable[InjuryResult]):
    """d100 + ``modifier`` on the Critical Injury table (then a d10 when the row needs one)."""

    modifier: int
    target: str = ""

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"d100 (Critical Injury on {self.target})" if self.target else "d100"

    @cached_property
    def _dist(self) -> Distribution[InjuryResult]:
        return _injury_distribution(self.modifier)

    def exact(self) -> Distribution[InjuryResult]:
        return self._dist

    def _result(self, natural: int, d10: int | None) -> InjuryResult:
        table = injuries()
        row = table.lookup(natural + self.modifier)
        char = table.characteristic(d10) if d10 is not None else None
        return InjuryResult(row.name, char, natural, d10)

    def _needs_d10(self, natural: int) -> bool:
        return injuries().lookup(natural + self.modifier).effects.characteristic is not None

    def sample(self, rng: np.random.Generator) -> InjuryResult:
        natural = int(rng.integers(1, 101))
        d10 = int(rng.integers(1, 11)) if self._needs_d10(natural) else None
        return self._result(natural, d10)

    def from_script(self, script: Script) -> InjuryResult:
        value, position = script.take(self.label, self.stream)
        natural: int = check_value(self.label, D100.exact(), value, position)
        d10 = None
        if self._needs_d10(natural):
            label = f"d10 (characteristic for {self.target or 'the injury'})"
            value, position = script.take(label, self.stream)
            d10 = check_value(label, d(10).exact(), value, position)
        return self._result(natural, d10)
