"""The genesys events: each renders to one line that reads like the rule book."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.events import Event


@dataclass(frozen=True)
class GenesysPoolStep(Event):
    """A step of assembling the dice pool (seed 004 · Step 2)."""

    who: str
    source: str
    change: str
    pool: str

    def text(self) -> str:
        return f"{self.who}'s pool: {self.source}: {self.change} → {self.pool}"


@dataclass(frozen=True)
class GenesysRolled(Event):
    """A pool was rolled; its symbols cancelled (seed 004 · Step 3)."""

    facts: ClassVar[str] = "public"

    who: str
    pool: str
    shown: str
    successes: int
    advantage: int
    triumphs: int
    despairs: int
    summary: str

    def rolled_by(self) -> str:
        return self.who

    def text(self) -> str:
        shown = f"{self.shown} → " if self.shown else ""
        return f"{self.who} rolls {self.pool}: {shown}{self.summary}"


@dataclass(frozen=True)
class GenesysSpent(Event):
    """Advantage/triumph or threat/despair spent on an option (seed 004 · Steps 4-5)."""

    facts: ClassVar[str] = "public"

    who: str
    cost: str
    option: str
    effect: str

    def text(self) -> str:
        return f"{self.who} spends {self.cost} on {self.option}: {self.effect}"


@dataclass(frozen=True)
class GenesysDamage(Event):
    """One hit's damage reduced by soak (seed 004 · Step 6)."""

    target: str
    hit: str
    damage: int
    soak: int
    soak_note: str
    suffered: int
    unit: str

    def text(self) -> str:
        note = f" ({self.soak_note})" if self.soak_note else ""
        unit = self.unit[:-1] if self.suffered == 1 and self.unit == "wounds" else self.unit
        return (f"{self.hit} on {self.target}: damage {self.damage} − soak {self.soak}{note}"
                f" = {self.suffered} {unit}")


@dataclass(frozen=True)
class GenesysCriticalInjury(Event):
    """A Critical Injury roll and the injury it gives (seed 004 · Step 6): told in the
    brief narration too, since the table must know which injury it was."""

    brief: ClassVar[bool] = True

    target: str
    natural: int | None
    parts: tuple[tuple[str, int], ...]
    total: int | None
    injury: str
    severity: str
    effect: str

    def text(self) -> str:
        terms = "d100" if self.natural is None else f"d100 {self.natural}"
        for label, value in self.parts:
            terms += f" + {value} ({label})"
        if self.total is not None and (self.parts or self.natural is None):
            terms += f" = {self.total}"
        return (f"Critical Injury on {self.target}: {terms} → {self.injury} "
                f"({self.severity}): {self.effect}")
