"""The initiative countdown (seed 002 · Segment & Initiatives), as a pure API.

Each round the GM counts down from segment 10 to 1; a character acts on the
segment equal to its initiative. Above 10 it acts on segment 10 and gets extra
segments: 11 acts on 10 and 1, 12 on 10 and 2, 19 on 10 and 9, 20 on 10 and 9
(ahead of a 19), 21 on 10, 9 and 1; never more than 3 segments. Only one action of
a countdown may be offensive, and any of the segments may hold it (the others are
for non-attacks), as in a fight. Within a segment the
higher initiative goes first; equal initiatives compare Fitness, then Spirit, then
a die.

>>> segments_for(12)
(10, 2)
>>> c = countdown({"joe": 12, "ann": 21, "bo": 2})
>>> c.segment(10), c.segment(2), c.segment(1)
(('ann', 'joe'), ('joe', 'bo'), ('ann',))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fracas.dice.distribution import Distribution
from fracas.dice.rollers import EnumerationTooLarge, RandomRoller, Roller, announce
from fracas.dice.variables import Fixed, d
from fracas.errors import InputError

MAX_SEGMENTS = 3
#: seed 002 · Segment & Initiatives: "Only one action of a countdown can be an offensive
#: combat action" (on whichever of the character's segments it chooses)
OFFENSIVE_ACTIONS = 1
SEGMENTS = tuple(range(10, 0, -1))


def segments_for(initiative: int) -> tuple[int, ...]:
    """The segments an initiative acts on, in countdown order.

    Up to 10: that segment. 11 to 20: segment 10, then ``initiative - 10`` (at most
    9, so 20 acts on 10 and 9 like 19). From 21: 10, 9, then ``initiative - 20``
    (at most 8, so the three segments differ; never more than three).
    """
    if initiative < 1:
        raise InputError(f"initiative {initiative} acts on no segment", path="initiative",
                         allowed="an initiative of 1 or more")
    if initiative <= 10:
        return (initiative,)
    if initiative <= 20:
        return (10, min(initiative - 10, 9))
    return (10, 9, min(initiative - 20, 8))


@dataclass(frozen=True)
class TieBreak:
    """How a group of characters with equal initiative (and stats so far) was ordered."""

    names: tuple[str, ...]  # the group, in the order it resolved to
    by: str  # "Fitness", "Spirit" or "d10" (the die)
    values: tuple[int, ...]  # each name's value of ``by``, in ``names`` order
    initiative: int

    def text(self) -> str:
        shown = ", ".join(f"{n} {v}" for n, v in zip(self.names, self.values, strict=True))
        still = "; still tied" if len(set(self.values)) == 1 else ""
        return f"tie at initiative {self.initiative}, compared by {self.by}: {shown}{still}"


@dataclass(frozen=True)
class Place:
    """One place in the countdown: who acts, on which segment, which of its segments."""

    name: str
    initiative: int
    segment: int
    action: int  # 1 for the first segment, 2 and 3 for extra segments
    offensive: bool = True  # any segment may hold the countdown's one offensive action


@dataclass(frozen=True)
class Countdown:
    """A round's countdown: the overall order, the places segment by segment, the ties."""

    order: tuple[str, ...]
    initiatives: tuple[tuple[str, int], ...]
    places: tuple[Place, ...]
    ties: tuple[TieBreak, ...] = ()

    def segment(self, number: int) -> tuple[str, ...]:
        """Who acts on segment ``number`` (10 to 1), in order."""
        return tuple(p.name for p in self.places if p.segment == number)

    def segments_of(self, name: str) -> tuple[int, ...]:
        return tuple(p.segment for p in self.places if p.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "order": list(self.order),
            "initiative": dict(self.initiatives),
            "segments": {str(s): list(self.segment(s)) for s in SEGMENTS},
            "offensive_actions": OFFENSIVE_ACTIONS,
            "places": [{"segment": p.segment, "name": p.name, "initiative": p.initiative,
                        "action": p.action, "offensive": p.offensive} for p in self.places],
            "ties": [{"names": list(t.names), "by": t.by, "values": list(t.values),
                      "initiative": t.initiative} for t in self.ties],
        }


def countdown(initiatives: Mapping[str, int], fitness: Mapping[str, int] | None = None,
              spirit: Mapping[str, int] | None = None, roller: Roller | None = None,
              die: int = 10, names: Mapping[str, str] | None = None) -> Countdown:
    """The countdown of a round for these initiatives.

    ``fitness`` and ``spirit`` (default 0) break ties of initiative; a die of
    ``die`` sides (rolled on ``roller``, a fresh random one if None, and rolled
    again among those still tied) breaks what is left: the GM's die (seed 002 · Segment &
    Initiatives: "the GM rolls a die"), one for each tied combatant (``names``: how the
    table calls them when it is asked).
    """
    for name, value in initiatives.items():
        if value < 1:
            raise InputError(f"{name}: initiative {value} acts on no segment",
                             path=f"initiative.{name}", allowed="an initiative of 1 or more")
    fit, spi = dict(fitness or {}), dict(spirit or {})
    dice_roller: Roller = roller if roller is not None else RandomRoller()
    ties: list[TieBreak] = []
    order: list[str] = []
    by_initiative: dict[int, list[str]] = {}
    for name, value in initiatives.items():
        by_initiative.setdefault(value, []).append(name)
    for value in sorted(by_initiative, reverse=True):
        group = by_initiative[value]
        order += _break(group, value, [("Fitness", fit), ("Spirit", spi)], dice_roller, die,
                        ties, dict(names or {}))
    places = []
    for segment in SEGMENTS:
        for name in order:
            segs = segments_for(initiatives[name])
            if segment in segs:
                index = segs.index(segment)
                places.append(Place(name, initiatives[name], segment, index + 1))
    return Countdown(tuple(order), tuple((n, initiatives[n]) for n in order), tuple(places),
                     tuple(ties))


MAX_EXACT_TIE = 7  # the most characters whose die tie-break the exact roller draws (5,040 orders)


def _drawn_order(group: list[str], initiative: int, roller: Roller) -> list[str]:
    """The die's tie-break under the exact roller. The dice are alike and rolled again
    among those still tied, without end, so every order of the group is as likely as
    any other: the order is drawn at once, each with its exact chance (an enumeration of
    the rolls themselves would never end). Its dice are not recorded: the exact roller's
    countdowns are never told."""
    if len(group) > MAX_EXACT_TIE:
        raise EnumerationTooLarge(
            f"{len(group)} characters tied at initiative {initiative} down to the die: "
            f"{math.factorial(len(group)):,} orders are too many to enumerate (at most "
            f"{MAX_EXACT_TIE} tied characters); simulate instead")
    orders = Distribution.uniform(itertools.permutations(group))
    drawn: tuple[str, ...] = roller.roll(Fixed(orders, f"tie-break for initiative {initiative}"))
    return list(drawn)


def _break(group: list[str], initiative: int, stats: list[tuple[str, dict[str, int]]],
           roller: Roller, die: int, ties: list[TieBreak], names: dict[str, str]
           ) -> list[str]:
    """Order a tied group: by each stat in turn (higher first), then by a die."""
    if len(group) == 1:
        return list(group)
    if stats:
        label, values = stats[0]
        ordered = sorted(group, key=lambda n: -values.get(n, 0))
        ties.append(TieBreak(tuple(ordered), label, tuple(values.get(n, 0) for n in ordered),
                             initiative))
        out: list[str] = []
        for v in sorted({values.get(n, 0) for n in group}, reverse=True):
            sub = [n for n in ordered if values.get(n, 0) == v]
            out += _break(sub, initiative, stats[1:], roller, die, ties, names)
        return out
    if getattr(roller, "kind", "") == "exact":
        return _drawn_order(group, initiative, roller)
    rolls = {}
    for n in group:
        name = names.get(n, n).replace("{", "{{").replace("}", "}}")
        announce(roller, "gm", f"tie-break die for {name} (initiative {initiative}; the "
                 "higher goes first)")
        rolls[n] = roller.roll(d(die))
    ordered = sorted(group, key=lambda n: -rolls[n])
    ties.append(TieBreak(tuple(ordered), f"d{die}", tuple(rolls[n] for n in ordered),
                         initiative))
    out = []
    for v in sorted(set(rolls.values()), reverse=True):
        sub = [n for n in ordered if rolls[n] == v]
        out += _break(sub, initiative, [], roller, die, ties, names)
    return out
