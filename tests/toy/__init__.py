"""A rule system that lives only in the tests ("duel"): d20 + skill >= defense hits
for the weapon's dice + strength, armor subtracts, a natural 20 doubles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fracas.core.events import Changed, Compared, Outcome, Rolled, Total
from fracas.core.model import Action, Combatant, Resolution, Roster, Slot
from fracas.core.system import RuleSystem
from fracas.dice import Roller, d, parse_dice
from fracas.errors import InputError

RULE = "test duel rules"


class Weapon(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    damage: str = "d6"


class Sheet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    skill: int = Field(ge=0)
    defense: int = Field(ge=0)
    armor: int = Field(default=0, ge=0)
    strength: int = 0
    hp: int = Field(ge=1)
    weapons: tuple[Weapon, ...] = ()


class Options(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    stance: Literal["normal", "reckless"] = "normal"


class Defaults(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    crit_multiplier: int = 2


@dataclass(frozen=True)
class State:
    hp: int
    max_hp: int


class Duel(RuleSystem):
    id = "testduel"
    title = "Test duel"
    seed = "none (lives in the tests)"
    sheet_model = Sheet
    options_model = Options
    defaults_model = Defaults
    outcomes = ("miss", "hit", "critical")

    def initial_state(self, sheet: Any) -> State:
        return State(sheet.hp, sheet.hp)

    def check_action(self, action: Action, roster: Roster) -> None:
        sheet = roster[action.actor].sheet
        if action.weapon not in {w.name for w in sheet.weapons}:
            raise InputError(f"{action.weapon!r} is not on {action.actor}'s sheet",
                             path="attack.weapon",
                             allowed=", ".join(w.name for w in sheet.weapons))

    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        a, t = roster[action.actor], roster[action.target or ""]
        opts = action.options
        assert isinstance(opts, Options)
        bonus = 2 if opts.stance == "reckless" else 0
        nat = roller.roll(d(20))
        events: list[Any] = [Rolled(RULE, a.id, "d20", nat)]
        total = nat + a.sheet.skill + bonus
        events.append(Total(RULE, "attack", (("d20", nat), ("skill", a.sheet.skill),
                                             ("reckless", bonus)), total))
        hit = total >= t.sheet.defense
        events.append(Compared(RULE, "attack", total, ">=" if hit else "<", "defense",
                               t.sheet.defense, "hit" if hit else "miss"))
        if not hit:
            events.append(Outcome(RULE, a.id, t.id, "miss", False, 0))
            return Resolution("miss", False, 0, tuple(events))
        weapon = next(w for w in a.sheet.weapons if w.name == action.weapon)
        roll = roller.roll(parse_dice(weapon.damage))
        raw = max(0, roll + a.sheet.strength - t.sheet.armor)
        crit = nat == 20
        dmg = raw * (self.defaults.crit_multiplier if crit else 1)
        lost = min(dmg, t.state.hp)
        after = t.state.hp - lost
        events.append(Changed(RULE, t.id, "hp", t.state.hp, after))
        outcome = "critical" if crit else "hit"
        events.append(Outcome(RULE, a.id, t.id, outcome, True, lost))
        return Resolution(outcome, True, lost, tuple(events), taken_out=after <= 0)

    def initiative(self, roller: Roller, roster: Roster, round_number: int) -> tuple[
            tuple[Slot, ...], tuple[Any, ...]]:
        return tuple(Slot((cid,), "") for cid in roster), ()

    def actions(self, actor: str, roster: Roster, slot: Slot | None = None) -> list[Action]:
        me: Combatant = roster[actor]
        out = []
        for enemy in roster.enemies_of(actor):
            if not self.is_active(enemy):
                continue
            for w in me.sheet.weapons:
                for stance in ("normal", "reckless"):
                    out.append(Action(actor, enemy.id, w.name, "attack",
                                      Options(stance=stance)))  # type: ignore[arg-type]
        return out
