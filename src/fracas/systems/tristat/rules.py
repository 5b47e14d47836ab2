"""The tristat rule system: seed 003's 2d6 roll-under combat (BESM / Tri-Stat house rules)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar

from fracas.core.events import Event, Note
from fracas.core.legal import LegalActions
from fracas.core.model import Action, Combatant, Resolution, Roster, Slot
from fracas.core.system import RuleSystem
from fracas.dice import Roller
from fracas.errors import InputError, RulesError
from fracas.systems.tristat import checks, fight
from fracas.systems.tristat import rulebook as R
from fracas.systems.tristat.attack import resolve_attack
from fracas.systems.tristat.disarm import resolve_disarm
from fracas.systems.tristat.grapple import (
    resolve_escape,
    resolve_grapple,
    resolve_strangle,
    resolve_throw,
)
from fracas.systems.tristat.sheet import Defaults, Options, Sheet
from fracas.systems.tristat.state import State, initial_state, max_energy, max_health
from fracas.systems.tristat.steps import Ctx


def _total_defense(roller: Roller, ctx: Ctx) -> Resolution:
    """Total defense: +2 to every defense, no attacks until the actor's next turn."""
    a = ctx.actor
    ctx.add(Note(R.TOTAL_DEFENSE, f"{a.name} goes fully on the defensive: +2 to its defenses, "
                                  "no attacks until its next turn"))
    ctx.change(R.TOTAL_DEFENSE, a.id, "total_defense", True)
    return ctx.finish("total_defense", False, rule=R.TOTAL_DEFENSE)


_RESOLVERS: dict[str, Callable[[Roller, Ctx], Resolution]] = {
    "attack": resolve_attack,
    "grapple": resolve_grapple,
    "escape": resolve_escape,
    "strangle": resolve_strangle,
    "throw": resolve_throw,
    "disarm": resolve_disarm,
    "total_defense": _total_defense,
}


class Tristat(RuleSystem):
    """Seed 003: 2d6 <= Combat Value + skill to attack, 2d6 < Defense Value + skill to
    defend, snake-eyes criticals, called shots, grappling and disarming."""

    id = "tristat"
    title = "Tri-Stat (BESM house rules)"
    seed = "003_10dd34b35c6a6763.txt"
    summary = ("2d6 roll-under: Combat Value + skill, snake-eyes criticals, called shots, "
               "grappling, throws and disarms")
    sheet_model = Sheet
    options_model = Options
    defaults_model = Defaults
    outcomes: ClassVar[tuple[str, ...]] = (
        "miss", "defended", "hit", "critical", "grappled", "escaped", "escaped_tie", "held",
        "thrown", "disarmed", "weapon_kept", "total_defense")
    dice_order = ("attack 2d6 (two d6), defense 2d6 (if the attack succeeded and the defender "
                  "may defend), critical d6 (if snake eyes and the defense failed); a melee "
                  "disarm then the Body check 2d6; escape: escaper 2d6, then grabber 2d6")
    demo_examples = ("vampire.yaml", "called_shot.yaml", "throw.yaml", "escape.yaml",
                     "disarm.yaml", "two_weapons.yaml")

    @property
    def rules(self) -> Defaults:
        d = self.defaults
        assert isinstance(d, Defaults)
        return d

    def initial_state(self, sheet: Any) -> State:
        assert isinstance(sheet, Sheet)
        return initial_state(sheet, self.rules)

    def check_sheet(self, sheet: Any) -> None:
        """Unique weapon names; sheathed weapons on the sheet; current Health and Energy
        within their maximum."""
        assert isinstance(sheet, Sheet)
        seen: set[str] = set()
        for i, w in enumerate(sheet.weapons):
            if w.name in seen:
                raise InputError(f"two weapons are named {w.name!r}", path=f"weapons[{i}].name",
                                 allowed="a unique name per weapon")
            seen.add(w.name)
        for i, name in enumerate(sheet.sheathed):
            if name not in seen:
                raise InputError(f"{name!r} is not a weapon on this sheet",
                                 path=f"sheathed[{i}]", allowed=", ".join(sorted(seen))
                                 or "none: the sheet has no weapons")
        top = max_health(sheet, self.rules)
        if sheet.health is not None and sheet.health > top:
            raise InputError(f"Health {sheet.health} is above the maximum (Body + Soul) × "
                             f"{self.rules.health_per_point} = {top}", path="health",
                             allowed=f"a whole number <= {top}")
        top = max_energy(sheet, self.rules)
        if sheet.energy is not None and sheet.energy > top:
            raise InputError(f"Energy {sheet.energy} is above the maximum (Mind + Soul) × "
                             f"{self.rules.energy_per_point} = {top}", path="energy",
                             allowed=f"a whole number from 0 to {top}")

    def parse_action(self, roster: Roster, attacker: str, defender: str | None,
                     weapon: str | None, options: Mapping[str, Any], kind: str = "attack"
                     ) -> Action:
        """As the base class, but a bad option's error lists the options there are."""
        try:
            return super().parse_action(roster, attacker, defender, weapon, options, kind)
        except InputError as err:
            if err.path and err.path.startswith("attack.options.") and err.allowed is None:
                raise InputError(err.message, path=err.path,
                                 allowed="options " + ", ".join(Options.model_fields)) from None
            raise

    def check_action(self, action: Action, roster: Roster) -> None:
        checks.check(action, roster, self.rules)

    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        """Resolve one action (pure: reads the roster, returns events)."""
        try:
            checks.check(action, roster, self.rules)
        except InputError as err:
            raise RulesError(err.message) from None
        ctx = Ctx(self.rules, action, roster)
        return _RESOLVERS[action.kind](roller, ctx)

    # -- fights -----------------------------------------------------------------------
    def initiative(self, roller: Roller, roster: Roster, round_number: int) -> tuple[
            tuple[Slot, ...], tuple[Event, ...]]:
        return fight.initiative(roller, roster, round_number, self.rules)

    def start_fight(self, roller: Roller, roster: Roster) -> tuple[Event, ...]:
        return tuple(fight.roll_initiative(roller, roster, self.rules))

    def round_representative(self, round_number: int) -> int:
        """No tristat hook reads the round number: every round is alike."""
        return 1

    def actions(self, actor: str, roster: Roster, slot: Slot | None = None) -> list[Action]:
        return fight.actions(actor, roster, slot, self.rules)

    def legal_actions(self, actor: str, roster: Roster, slot: Slot | None = None
                      ) -> LegalActions:
        return fight.legal_actions(actor, roster, slot, self.rules)

    def reactions(self, action: Action, roster: Roster) -> list[Action]:
        return fight.reactions(action, roster, self.rules)

    def first_reaction(self, action: Action, roster: Roster) -> Action:
        """The action itself: no willpower is the first reaction (:func:`fight.reactions`)."""
        return action

    def is_active(self, combatant: Combatant) -> bool:
        return fight.active(combatant)

    def known_names(self, sheet: Any) -> Mapping[str, set[str]]:
        """The skills the rules read: the attack, defense and escape skills of the table
        defaults and the skills the sheet's weapons name."""
        d = self.rules
        skills = {*d.attack_skill.model_dump().values(), *d.defense_skill.model_dump().values(),
                  d.escape_skill, *(w.skill for w in sheet.weapons if w.skill)}
        return {"skills": skills}

    def health(self, combatant: Combatant) -> tuple[int, int]:
        return combatant.state.health, combatant.state.max_health

    health_caps_damage = False  # Health goes on falling below 0: damage is never capped

    def ranking_state(self, combatant: Combatant, health: bool = False) -> State:
        """The policies rank options with no initiative (which no attack reads), Energy as
        at full (an option on offer is affordable, and spending Energy changes no roll)
        and, unless ``health``, Health as at full while above 0 (an attack checks only
        that); conditions and this round's counts as they are."""
        state = combatant.state
        assert isinstance(state, State)
        level = state.health if health or state.health <= 0 else state.max_health
        if (state.health == level and state.energy == state.max_energy
                and state.initiative is None and not state.roll_off):
            return state
        return dataclasses.replace(state, health=level, energy=state.max_energy,
                                   initiative=None, roll_off=0)

    def bystander_state(self, combatant: Combatant, parties: Collection[str]) -> State:
        """An attack reads a combatant other than its attacker and its target only to
        free it from a hold when the target falls (seed 003 · Grappling): one held by a
        party is ranked as it is, anyone else as held by nobody, the rest set aside (as
        the sheet starts it)."""
        state = combatant.state
        assert isinstance(state, State)
        if state.grappled_by in parties:
            return state
        return self.set_aside(combatant, grappled_by=None)  # type: ignore[no-any-return]

    def start_turn(self, roller: Roller, actor: str, roster: Roster) -> tuple[Event, ...]:
        return fight.start_turn(actor, roster)

    def end_round(self, roller: Roller, roster: Roster, round_number: int) -> tuple[Event, ...]:
        return fight.end_round(roster, self.rules)

