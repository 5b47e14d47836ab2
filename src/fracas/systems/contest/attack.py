"""One attack, Steps 1 to 4 of seed 001: declare, defend, contest, damage.

The exact roller re-runs :meth:`AttackResolver.resolve` once per path of outcomes, so
everything that depends on no die is worked out once and kept: the prepared attack
(Steps 1 and 2, the checks) per action and combatants, and the plan per contest result.
The contest and each blow are memoised sub-steps that carry their own explanation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fracas.core.events import Changed, Event, Outcome
from fracas.core.model import Action, Combatant, Resolution, Roster
from fracas.dice import Roller
from fracas.dice.rollers import listens, tell
from fracas.systems.contest.aftermath import Fighters, Plan, Target, plan, strike
from fracas.systems.contest.contest import ContestResult
from fracas.systems.contest.damage import Guard
from fracas.systems.contest.declare import Prepared, prepare
from fracas.systems.contest.events import CONTEST
from fracas.systems.contest.narrate import Narrated, Side, narrated_contest
from fracas.systems.contest.sheet import Defaults, Options, Sheet, Trait, lookup


def _side(c: Combatant) -> Side:
    return Side(c.id, c.name, c.state.conditions, c.state.dropped)


def _current(events: tuple[Event, ...], cid: str, name: str, value: Any) -> Any:
    """A state value after some events (the last change to it, if any)."""
    for e in reversed(events):
        if isinstance(e, Changed) and e.target == cid and e.field == name:
            return e.after
    return value


def _target(c: Combatant, conditions: tuple[str, ...]) -> Target:
    sheet: Sheet = c.sheet
    armour = sheet.armour.name if sheet.armour else "armour"
    return Target(c.id, c.name, c.state.hp, c.state.armour_hp, armour, conditions)


class AttackResolver:
    """Resolves attack actions into events and a Resolution (caching what needs no dice)."""

    def __init__(self, df: Defaults, traits: Mapping[str, Trait]):
        self.df, self.traits = df, traits
        self._prepared: dict[tuple[Action, Combatant, Combatant], Prepared] = {}

    def prepare(self, action: Action, a: Combatant, t: Combatant) -> Prepared:
        key = (action, a, t)
        found = self._prepared.get(key)
        if found is None:
            if len(self._prepared) > 256:
                self._prepared.clear()
            found = self._prepared[key] = prepare(action, a, t, self.df, self.traits)
        return found

    def plan(self, p: Prepared, a: Combatant, t: Combatant, opts: Options, c: ContestResult
             ) -> Plan:
        found = p.plans.get(c)
        if found is None:
            bonus = self.df.damage.melee_bonus_attribute
            armour = t.sheet.armour
            fighters = Fighters(
                a.name, t.name, p.defense.kind, p.weapon, p.defense.item, p.defense.parry,
                armour.name if armour else "armour", armour.dr if armour else 0,
                opts.mode == "called_shot", lookup(a.sheet.attributes, bonus) is not None,
                lookup(t.sheet.attributes, bonus) is not None)
            found = p.plans[c] = plan(fighters, c, self.df)
        return found

    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        a, t = roster[action.actor], roster[action.target or ""]
        opts = action.options
        assert isinstance(opts, Options)
        p = self.prepare(action, a, t)
        live = listens(roller)  # a live table hears each step as it comes
        if live:
            tell(roller, p.opening)
        told: Narrated = roller.resolve(narrated_contest, p.setup, _side(a), _side(t),
                                        p.weapon.name, p.counter_weapon)
        pl = self.plan(p, a, t, opts, told.result)
        if live:
            tell(roller, pl.notes)
        events: list[Event] = [*p.opening, *told.events, *pl.notes]
        details = list(pl.details)
        damage, hp_after = 0, t.state.hp
        if pl.deals:
            conditions = _current(told.events, t.id, "conditions", t.state.conditions)
            hit = roller.resolve(strike, p.blows[(a.id, pl.critical)], pl.guard,
                                 _target(t, conditions))
            events += hit.events
            if live:
                tell(roller, hit.events)
            damage, hp_after = t.state.hp - hit.hp_after, hit.hp_after
            armour_after = hit.armour_after
        else:
            armour_after = t.state.armour_hp
        if p.defense.kind == "sponge":
            details.append(("armour_hp_after", armour_after))
        if p.defense.kind == "counter":
            events += pl.counter_notes
            if live:
                tell(roller, pl.counter_notes)
            lost = 0
            if pl.counter_lands:
                conditions = _current((*p.opening, *told.events), a.id, "conditions",
                                      a.state.conditions)
                back = roller.resolve(strike, p.blows[(t.id, pl.counter_critical)], Guard(),
                                      _target(a, conditions))
                events += back.events
                lost = a.state.hp - back.hp_after
            details.append(("counter_damage", lost))
        events.append(Outcome(CONTEST, a.id, t.id, pl.outcome, pl.hit, damage))
        return Resolution(pl.outcome, pl.hit, damage, tuple(events), taken_out=hp_after <= 0,
                          details=tuple(details))
