"""tristat's own events (the core's Rolled, Total, Compared, Note, Changed, Outcome do the rest)."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.core.events import Event


@dataclass(frozen=True)
class TristatMultiplied(Event):
    """Damage multiplied after armor: ``damage: 7 × 3 (triple-damage critical) = 21``."""

    name: str
    base: int
    factors: tuple[tuple[str, int], ...]
    value: int

    def text(self) -> str:
        terms = " ".join(f"× {factor} ({label})" for label, factor in self.factors)
        return f"{self.name}: {self.base} {terms} = {self.value}"
