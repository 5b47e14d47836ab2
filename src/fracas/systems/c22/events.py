"""The c22 combatant state and the events of its own (each renders to one plain line)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from fracas.core.events import Event
from fracas.core.words import count

SEED = "seed 000"
DEFAULT = "table default"


def seed(step: str) -> str:
    """A rule citation of the seed: ``seed 000 · Weapon card``."""
    return f"{SEED} · {step}"


def public(step: str) -> str:
    """A rule citation of a public fact (the game's public pages): ``public fact · Initiative``."""
    return f"public fact · {step}"


def table(step: str) -> str:
    """A rule citation of a table default: ``table default · c22 reactions``."""
    return f"{DEFAULT} · c22 {step}"


def ours(step: str) -> str:
    """A rule citation of our own table default (the seed and the public facts are silent):
    ``c22 table default · maneuvers``."""
    return f"c22 table default · {step}"


@dataclass(frozen=True)
class State:
    """What changes in a fight: Health, the deck (draw and discard piles, as card labels),
    the position on the grid, Evasive's Avoidance bonus, the initiative card, conditions."""

    health: int
    max_health: int
    draw_pile: tuple[str, ...]
    discard: tuple[str, ...] = ()
    position: tuple[int, int] | None = None
    avoidance_bonus: int = 0
    initiative_card: str | None = None
    conditions: tuple[str, ...] = ()


def _cards(cards: tuple[str, ...]) -> str:
    if len(cards) <= 1:
        return "".join(cards) or "no card"
    return ", ".join(cards[:-1]) + " and " + cards[-1]


@dataclass(frozen=True)
class C22Drew(Event):
    """Somebody drew cards from the top of their deck."""

    brief: ClassVar[bool] = True

    facts: ClassVar[str] = "public"

    who: str
    cards: tuple[str, ...]
    purpose: str

    def text(self) -> str:
        return f"{self.who} draws {_cards(self.cards)} {self.purpose}"


@dataclass(frozen=True)
class C22Split(Event):
    """Which drawn card is the weapon card and which the maneuver card, and why."""

    who: str
    weapon_card: str
    maneuver_card: str
    why: str

    def text(self) -> str:
        return (f"{self.who} takes {self.weapon_card} as the weapon card and "
                f"{self.maneuver_card} as the maneuver card ({self.why})")


@dataclass(frozen=True)
class C22Maneuver(Event):
    """The maneuver, the option it is played with (base or raised) and its effects."""

    who: str
    maneuver: str
    option: str
    effects: str
    why: str

    def text(self) -> str:
        return f"{self.who}'s maneuver: {self.maneuver}, {self.option} ({self.why}): {self.effects}"


@dataclass(frozen=True)
class C22Reduced(Event):
    """A step of the seed's order of reductions: damage before → after, and how."""

    step: str
    before: int
    after: int
    how: str

    def text(self) -> str:
        return f"{self.step}: damage {self.before} → {self.after} ({self.how})"


@dataclass(frozen=True)
class C22Moved(Event):
    """A move along a path of spaces: where it went, what it cost, where it stopped."""

    facts: ClassVar[str] = "public"

    who: str
    path: tuple[tuple[int, int], ...]
    spaces: int
    metres: int
    stopped: str

    def text(self) -> str:
        if not self.path:
            return f"{self.who} does not move ({self.stopped})" if self.stopped else (
                f"{self.who} does not move")
        where = " → ".join(f"({a}, {b})" for a, b in self.path)
        tail = f"; stops: {self.stopped}" if self.stopped else ""
        return f"{self.who} moves {count(self.spaces, 'space')}, {self.metres} m: {where}{tail}"


@dataclass(frozen=True)
class C22Initiative(Event):
    """A round's turn order from the initiative cards, with how ties were broken."""

    facts: ClassVar[str] = "public"

    order: tuple[str, ...]
    cards: tuple[str, ...]
    ties: str

    def text(self) -> str:
        shown = ", ".join(f"{who} ({card})" for who, card in zip(self.order, self.cards,
                                                                 strict=True))
        return f"Initiative order: {shown}" + (f"; {self.ties}" if self.ties else "")
