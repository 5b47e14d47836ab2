"""Fight hooks: initiative (table default), the choices an actor has, the defenses a
target may declare, and the effects that end at the start of a turn."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, cast

from fracas.core.events import Event, Note, Rolled
from fracas.core.model import Action, Combatant, Roster, Slot, apply_events
from fracas.dice import Distribution, Roller, RollOff, Variable, d
from fracas.dice.variables import Script
from fracas.systems.contest.checks import FIGHTING_DEFENSIVELY, PRONE, held_weapons
from fracas.systems.contest.contest import Seen
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
class InitiativeRoll(Variable[Seen]):
    """Everybody's initiative d20 at once (in roster order), seen as the order it gives:
    groups of ids from first to last, tied ones together. The naturals ride along
    outside equality, so the exact roller branches once per order, not once per face."""

    ids: tuple[str, ...]
    ranks: tuple[int, ...]
    sides: int

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"d{self.sides} for initiative"

    def meaning(self, naturals: tuple[int, ...]) -> Seen:
        groups: dict[tuple[int, int], list[str]] = {}
        for cid, rank, natural in zip(self.ids, self.ranks, naturals, strict=True):
            groups.setdefault((natural + rank, rank), []).append(cid)
        order = tuple(tuple(groups[key]) for key in sorted(groups, reverse=True))
        return Seen(order, naturals)

    @cached_property
    def _dist(self) -> Distribution[Seen]:
        faces = range(1, self.sides + 1)
        counts: dict[Seen, int] = {}
        for naturals in itertools.product(faces, repeat=len(self.ids)):
            seen = self.meaning(naturals)
            counts[seen] = counts.get(seen, 0) + 1
        return Distribution(counts)

    def exact(self) -> Distribution[Seen]:
        return self._dist

    def sample(self, rng: np.random.Generator) -> Seen:
        naturals = rng.integers(1, self.sides + 1, size=len(self.ids))
        return self.meaning(tuple(int(n) for n in naturals))

    def from_script(self, script: Script) -> Seen:
        return self.meaning(tuple(d(self.sides).from_script(script) for _ in self.ids))


def _roll(roller: Roller, roster: Roster, df: Defaults) -> list[Event]:
    events: list[Event] = []
    die = d(df.initiative.die)
    ranks = tuple(c.sheet.rank(df.initiative.skill) or 0 for c in roster.values())
    seen = roller.roll(InitiativeRoll(tuple(roster), ranks, df.initiative.die))
    for c, rank, natural in zip(roster.values(), ranks, seen.shown, strict=True):
        events.append(Rolled(R_INITIATIVE, c.name, f"{die.label} for initiative", natural,
                             f"+ {rank} ({df.initiative.skill}) = {natural + rank}"))
    groups = {i: list(cast(tuple[str, ...], g)) for i, g in enumerate(seen.meaning)}
    order: list[str] = []
    for key in sorted(groups):
        ids = groups[key]
        if len(ids) > 1:  # rolling off while tied is a uniformly random order of the tied
            ids = list(roller.roll(RollOff(tuple(ids), die, "initiative roll-off")))
            events.append(Note(R_INITIATIVE, "tied on initiative and rank: the roll-off "
                                             f"puts {', '.join(ids)} in that order"))
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
