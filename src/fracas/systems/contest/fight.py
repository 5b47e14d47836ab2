"""Fight hooks: initiative (table default), the choices an actor has, the defenses a
target may declare, and the effects that end at the start of a turn."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from fracas.core.events import Event, Note, Rolled
from fracas.core.model import Action, Combatant, Roster, Slot, apply_events
from fracas.dice import Distribution, Roller, Variable, d
from fracas.dice.joint import Split
from fracas.dice.reading import Reading
from fracas.dice.rollers import EnumerationTooLarge, announce, roll_off
from fracas.dice.variables import Script
from fracas.systems.contest.checks import FIGHTING_DEFENSIVELY, PRONE, held_weapons
from fracas.systems.contest.declare import block_item, counter_weapon
from fracas.systems.contest.events import R_DEFENSIVE, R_INITIATIVE, Tracker
from fracas.systems.contest.sheet import Defaults, Options, Sheet

if TYPE_CHECKING:
    import numpy as np


def initiative(roller: Roller, roster: Roster, df: Defaults) -> tuple[
        tuple[Slot, ...], tuple[Event, ...]]:
    """d20 + initiative rank, rolled once at the start of the fight, highest first; ties by
    rank, then a roll-off. The state keeps each one's place in the order (1 acts first):
    later rounds need only the order, and fights that differ only in the numbers rolled
    then share their states."""
    events: list[Event] = []
    if any(not c.state.initiative for c in roster.values()):
        events = _roll(roller, roster, df)
        roster = apply_events(roster, events)
    order = sorted(roster.values(), key=lambda c: c.state.initiative)
    slots = tuple(Slot((c.id,), f"initiative place {c.state.initiative}") for c in order
                  if c.state.hp > 0)
    return slots or tuple(Slot((c.id,), "") for c in order), tuple(events)


@dataclass(frozen=True)
class InitiativeRoll(Variable[Reading]):
    """Everybody's initiative d20 at once (in roster order), seen as the order it gives:
    groups of ids from first to last, tied ones together. The naturals ride along
    outside equality, so the exact roller branches once per order, not once per face."""

    ids: tuple[str, ...]
    ranks: tuple[int, ...]
    sides: int

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"d{self.sides} for initiative"

    def meaning(self, naturals: tuple[int, ...]) -> Reading:
        groups: dict[tuple[int, int], list[str]] = {}
        for cid, rank, natural in zip(self.ids, self.ranks, naturals, strict=True):
            groups.setdefault((natural + rank, rank), []).append(cid)
        order = tuple(tuple(groups[key]) for key in sorted(groups, reverse=True))
        return Reading(order, naturals)

    def exact(self) -> Distribution[Reading]:
        return _initiative_dist(self)

    def every_order(self) -> Distribution[Reading]:
        """Every order with the number of faces that give it, found order by order (face
        by face would be ``sides ** n`` meanings: 3.2 million for five combatants). Each
        order keeps the faces a face-by-face enumeration meets first (the smallest), and
        the orders come in that enumeration's order."""
        if _fubini(len(self.ids)) > MOST_ORDERS:
            raise EnumerationTooLarge(
                f"the exact initiative of {len(self.ids)} combatants has "
                f"{_fubini(len(self.ids)):,} possible orders, past the budget of "
                f"{MOST_ORDERS:,} (seven combatants at most)")
        found: list[tuple[tuple[int, ...], Reading, int]] = []
        for groups in _orders(tuple(range(len(self.ids))), self.ranks):
            count, naturals = self._faces(groups)
            if count:
                order = tuple(tuple(self.ids[i] for i in g) for g in groups)
                found.append((naturals, Reading(order, naturals), count))
        found.sort(key=lambda f: f[0])
        return Distribution([(seen, count) for _, seen, count in found])

    def _faces(self, groups: tuple[tuple[int, ...], ...]) -> tuple[int, tuple[int, ...]]:
        """How many faces put the combatants in ``groups`` (first to last), and the
        smallest such faces."""
        count, totals = _totals(tuple(self.ranks[g[0]] for g in groups), self.sides)
        naturals = [0] * len(self.ids)
        for g, total in zip(groups, totals, strict=True):
            for i in g:
                naturals[i] = total - self.ranks[i]
        return count, tuple(naturals)

    def sample(self, rng: np.random.Generator) -> Reading:
        return self.meaning(self._naturals(rng))

    def _naturals(self, rng: np.random.Generator) -> tuple[int, ...]:
        return tuple(int(n) for n in rng.integers(1, self.sides + 1, size=len(self.ids)))

    def split_parts(self) -> Split:
        """Each combatant's own die (see :mod:`fracas.dice.joint`)."""
        return Split(tuple(d(self.sides) for _ in self.ids), self._naturals, self.meaning)

    def from_script(self, script: Script) -> Reading:
        return self.meaning(tuple(d(self.sides).from_script(script) for _ in self.ids))


MOST_ORDERS = 50_000  # initiative orders the exact roller may list (seven combatants)


@lru_cache(maxsize=64)
def _fubini(n: int) -> int:
    """How many orders with ties ``n`` combatants can take (ordered set partitions)."""
    return 1 if n == 0 else sum(math.comb(n, k) * _fubini(n - k) for k in range(1, n + 1))


@lru_cache(maxsize=4096)
def _totals(ranks: tuple[int, ...], sides: int) -> tuple[int, tuple[int, ...]]:
    """For groups of these ranks, first to last: how many ways their totals (rank + 1 ..
    rank + sides each; one total per group) can fall so that each group beats the next
    on total, then on rank; and the smallest such totals."""
    ways = {t: 1 for t in range(ranks[-1] + 1, ranks[-1] + sides + 1)}
    for j in range(len(ranks) - 2, -1, -1):
        ways = {t: sum(w for below, w in ways.items()
                       if below < t or (below == t and ranks[j + 1] < ranks[j]))
                for t in range(ranks[j] + 1, ranks[j] + sides + 1)}
    totals = [ranks[-1] + 1]  # the smallest totals, from the last group up
    for j in range(len(ranks) - 2, -1, -1):
        least = totals[-1] if ranks[j] > ranks[j + 1] else totals[-1] + 1
        totals.append(max(least, ranks[j] + 1))
    return sum(ways.values()), tuple(reversed(totals))


@lru_cache(maxsize=64)
def _initiative_dist(var: InitiativeRoll) -> Distribution[Reading]:
    """One initiative roll's orders, kept by value: an exact enumeration re-runs the rule
    once per path, building the same variable each time."""
    return var.every_order()


def _orders(left: tuple[int, ...], ranks: tuple[int, ...]
            ) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to split ``left`` into groups in order, first to last, each group of one
    rank (tied combatants share a total and a rank); members keep roster order."""
    if not left:
        yield ()
        return
    for size in range(1, len(left) + 1):
        for group in itertools.combinations(left, size):
            if all(ranks[i] == ranks[group[0]] for i in group):
                rest = tuple(i for i in left if i not in group)
                for tail in _orders(rest, ranks):
                    yield (group, *tail)


def _roll(roller: Roller, roster: Roster, df: Defaults) -> list[Event]:
    events: list[Event] = []
    die = d(df.initiative.die)
    ranks = tuple(c.sheet.rank(df.initiative.skill) or 0 for c in roster.values())
    names = [c.name.replace("{", "{{").replace("}", "}}") for c in roster.values()]
    announce(roller, "gm", f"initiative for {', then '.join(names)}"
             + (" (one die each, in that order)" if len(names) > 1 else ""),
             owners=tuple((cid, "initiative") for cid in roster))
    seen = roller.roll(InitiativeRoll(tuple(roster), ranks, df.initiative.die))
    for c, rank, natural in zip(roster.values(), ranks, seen.face, strict=True):
        events.append(Rolled(R_INITIATIVE, c.name, f"{die.label} for initiative", natural,
                             f"+ {rank} ({df.initiative.skill}) = {natural + rank}"))
    groups = {i: list(cast(tuple[str, ...], g)) for i, g in enumerate(seen.meaning)}
    order: list[str] = []
    for key in sorted(groups):
        ids = groups[key]
        if len(ids) > 1:  # rolling off while tied is a uniformly random order of the tied
            ids = roll_off(roller, ids, [roster[i].name for i in ids], die,
                           df.initiative.roll_off, events)
            events.append(Note(R_INITIATIVE, "tied on initiative and rank: the roll-off "
                                             f"puts {', '.join(roster[i].name for i in ids)} "
                                             "in that order"))
        order.extend(ids)
    tracker = Tracker()
    for place, cid in enumerate(order, start=1):
        events += tracker.change(R_INITIATIVE, cid, "initiative", roster[cid].state.initiative,
                                 place)
    return events


def attacks(actor: Combatant, roster: Roster) -> list[Action]:
    """Every attack: each active enemy, each held weapon, each allowed attack type."""
    out: list[Action] = []
    for enemy in roster.enemies_of(actor.id):
        if enemy.state.hp <= 0:
            continue
        for w in held_weapons(actor):
            modes = ["normal", "called_shot" if w.kind == "ranged" else "defensive"]
            for mode in modes:
                out.append(Action(actor.id, enemy.id, w.name, "attack",
                                  Options(mode=mode)))
    return out


def other_actions(actor: Combatant) -> list[Action]:
    """Standing up when prone; recovering a weapon one was disarmed of."""
    out: list[Action] = []
    if PRONE in actor.state.conditions:
        out.append(Action(actor.id, None, None, "stand_up", Options(), offensive=False))
    for name in actor.state.dropped:
        out.append(Action(actor.id, None, name, "recover_weapon", Options(), offensive=False))
    return out


def defenses(action: Action, roster: Roster) -> list[Action]:
    """The attack once per defense its target may declare (dodge always; block with a held
    blocking item; sponge with unbroken armour; counter with a held weapon)."""
    assert isinstance(action.options, Options)
    if action.kind != "attack" or action.target is None:
        return [action]
    t = roster[action.target]
    sheet: Sheet = t.sheet
    kinds = ["dodge"]
    if block_item(t, None) is not None:
        kinds.append("block")
    if sheet.armour is not None and t.state.armour_hp > 0:
        kinds.append("sponge")
    if counter_weapon(t, None) is not None:
        kinds.append("counter")
    return [Action(action.actor, action.target, action.weapon, action.kind,
                   action.options.model_copy(update={"defense": k}), action.offensive)
            for k in kinds]


def start_turn(actor: str, roster: Roster) -> tuple[Event, ...]:
    """Fighting defensively lasts until the start of the fighter's next turn."""
    c = roster[actor]
    if FIGHTING_DEFENSIVELY not in c.state.conditions:
        return ()
    after = tuple(x for x in c.state.conditions if x != FIGHTING_DEFENSIVELY)
    return (Note(R_DEFENSIVE, f"{c.name}'s turn starts: no longer fighting defensively"),
            *Tracker().change(R_DEFENSIVE, actor, "conditions", c.state.conditions, after))
