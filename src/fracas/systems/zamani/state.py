"""The changing values of a Zamani combatant, its own events, and a helper that records
state changes as :class:`~fracas.core.events.Changed` events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from fracas.core.events import Changed, Event
from fracas.core.model import Roster

SEED = "seed 002"
DEFAULT = "table default"
PUBLIC = "public fact"


@dataclass(frozen=True)
class State:
    """What changes in a fight (per-round counters are reset at the end of each round)."""

    wounds: int
    max_wounds: int
    conditions: tuple[str, ...] = ()
    limb_strikes: int = 0
    in_hand: tuple[str, ...] = ()
    blocks_used: tuple[str, ...] = ()  # weapons / the shield that blocked this round
    acrobatics_used: bool = False
    wounded_this_round: bool = False
    offensive_used: bool = False  # this countdown's one offensive action is spent
    half_moves: int = 0  # half moves made this round (a MOVE is two)
    segments_used: int = 0  # actions taken this round
    guarding: str = ""  # "", "self" or the id of the character guarded
    focus: str = ""  # "", "focusing[:effect|:speed]", "ready" (undeclared), "effect", "speed"
    focused_round: bool = False  # focusing this round: the round is skipped, bonus or not
    lost_round: bool = False  # surprised: nobody else acts in the surprise round
    sacrifice: int = 0  # ranks sacrificed for this Turn (chosen at its start)
    chosen: tuple[str, ...] = ()  # the choices made before this round's initiative


def cap(name: str) -> str:
    """A rule-book name as shown: ``swords`` -> ``Swords``."""
    return name[:1].upper() + name[1:]


class Changes:
    """Collects ``Changed`` events, tracking each field's current value as it changes."""

    def __init__(self, roster: Roster):
        self._roster = roster
        self._now: dict[tuple[str, str], Any] = {}
        self.events: list[Event] = []

    def get(self, cid: str, name: str) -> Any:
        key = (cid, name)
        if key in self._now:
            return self._now[key]
        return getattr(self._roster[cid].state, name)

    def set(self, rule: str, cid: str, name: str, value: Any) -> Changed | None:
        before = self.get(cid, name)
        if before == value:
            return None
        self._now[(cid, name)] = value
        event = Changed(rule, cid, name, before, value)
        self.events.append(event)
        return event

    def add_condition(self, rule: str, cid: str, condition: str) -> Changed | None:
        current: tuple[str, ...] = self.get(cid, "conditions")
        if condition in current:
            return None
        return self.set(rule, cid, "conditions", (*current, condition))


@dataclass(frozen=True)
class ZamaniTarget(Event):
    """A percentile target: (skill rank + attribute rank) x 5, then percent modifiers."""

    who: str
    skill: str
    skill_rank: int
    attribute: str
    attribute_rank: int
    modifiers: tuple[tuple[str, int], ...]
    value: int
    note: str = ""

    def text(self) -> str:
        base = (self.skill_rank + self.attribute_rank) * 5
        skill, attribute = cap(self.skill), cap(self.attribute)
        out = (f"{self.who}'s {skill} target: ({skill} {self.skill_rank} + "
               f"{attribute} {self.attribute_rank}) × 5 = {base}%")
        for label, amount in self.modifiers:
            sign = "+" if amount >= 0 else "−"
            out += f" {sign} {abs(amount)}% ({label})"
        if self.modifiers:
            out += f" = {self.value}%"
        return out + (f"; {self.note}" if self.note else "")


@dataclass(frozen=True)
class ZamaniRoll(Event):
    """A d100 roll against a percentile target: success on roll <= target; the margin."""

    brief: ClassVar[bool] = True

    who: str
    what: str
    roll: int
    target: int

    @property
    def success(self) -> bool:
        return self.roll <= self.target

    def text(self) -> str:
        if self.success:
            return (f"{self.who} rolls d100 for {self.what}: {self.roll} ≤ {self.target}%: "
                    f"success, margin {self.target - self.roll}")
        return f"{self.who} rolls d100 for {self.what}: {self.roll} > {self.target}%: failure"


@dataclass(frozen=True)
class ZamaniDefense(Event):
    """The defense an attack meets, in ranks, and what it is made of."""

    who: str
    basis: str
    parts: tuple[tuple[str, int], ...]
    ranks: int

    def text(self) -> str:
        if not self.parts:
            return f"{self.who} has no defense ({self.basis}): the first column, 0 ranks"
        terms = ""
        for i, (label, value) in enumerate(self.parts):
            if i == 0:
                terms = f"{cap(label)} {value}"
            else:
                terms += f" {'+' if value >= 0 else '−'} {abs(value)} ({label})"
        return f"{self.who} defends with {self.basis}: {terms} = {self.ranks} ranks"


@dataclass(frozen=True)
class ZamaniLookup(Event):
    """The action table: margin row × defense column -> result code."""

    table: str
    margin: int
    row: str
    defense: int
    column: str
    code: str
    meaning: str

    def text(self) -> str:
        return (f"Action table ({self.table}): margin {self.margin} is row {self.row}, "
                f"defense {self.defense} is column {self.column}: {self.code} ({self.meaning})")


@dataclass(frozen=True)
class ZamaniInitiative(Event):
    """A character's initiative this round and the segments it acts on."""

    who: str
    parts: tuple[tuple[str, int], ...]
    value: int
    segments: tuple[int, ...]

    def text(self) -> str:
        terms = " + ".join(f"{v} ({label})" for label, v in self.parts)
        segs = self.segments
        where = (f"segment {segs[0]}" if len(segs) == 1 else
                 "segments " + ", ".join(map(str, segs[:-1])) + f" and {segs[-1]}")
        extra = " (one attack in all)" if len(segs) > 1 else ""
        return f"{self.who}: initiative {terms} = {self.value}; acts on {where}{extra}"


@dataclass(frozen=True)
class ZamaniTieBreak(Event):
    """Equal initiatives ordered by Fitness, then Spirit, then a die."""

    initiative: int
    by: str
    names: tuple[str, ...]
    values: tuple[int, ...]

    def text(self) -> str:
        shown = ", ".join(f"{n} {v}" for n, v in zip(self.names, self.values, strict=True))
        still = "still tied" if len(set(self.values)) == 1 else "higher goes first"
        return f"Tie at initiative {self.initiative}, compared by {self.by}: {shown} ({still})"


@dataclass(frozen=True)
class ZamaniCountdown(Event):
    """The countdown of a round: who acts on each segment, in order."""

    facts: ClassVar[str] = "public"

    round: int
    segments: tuple[tuple[int, tuple[str, ...]], ...]

    def text(self) -> str:
        parts = [f"{s}: {', '.join(names)}" for s, names in self.segments if names]
        return f"Round {self.round} countdown — " + " · ".join(parts)


@dataclass(frozen=True)
class ZamaniDamage(Event):
    """Damage: weapon rating x the result's multiplier, less armor unless bypassed."""

    weapon: str
    rating: int
    grade: str
    multiplier: int
    armor: int
    bypassed: bool
    value: int

    def text(self) -> str:
        raw = self.rating * self.multiplier
        out = (f"Damage: {self.weapon} rating {self.rating} × {self.multiplier} "
               f"({self.grade}) = {raw}")
        if self.bypassed:
            return out + (f"; armor {self.armor} bypassed" if self.armor else "")
        if self.armor:
            return out + f" − {self.armor} (armor) = {self.value}"
        return out
