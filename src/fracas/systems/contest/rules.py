"""The ``contest`` rule system (seed 001): attacks as skill contests with boons and banes,
dodge / block / sponge / counter-attack, critical threats, armour DR and armour hit points."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar

from pydantic import ValidationError

from fracas.core.events import Event, Outcome
from fracas.core.model import Action, Combatant, Resolution, Roster, Slot
from fracas.core.system import RuleSystem
from fracas.dice import Roller
from fracas.errors import InputError, RulesError
from fracas.systems.contest import fight
from fracas.systems.contest.attack import AttackResolver
from fracas.systems.contest.checks import PRONE, State, initial_state
from fracas.systems.contest.declare import declare_defense
from fracas.systems.contest.events import O_ACTIONS, Tracker
from fracas.systems.contest.sheet import Defaults, Options, Sheet, Trait, TraitTable

KINDS = ("attack", "stand_up", "recover_weapon")


class ContestSystem(RuleSystem):
    """Seed 001's attacks: Steps 1-4, sponge checks, and the table defaults."""

    id = "contest"
    title = "Skill contest (boons and banes)"
    seed = "001_6220b5816c7bf598.txt"
    summary = ("d20 skill contests with boons and banes; dodge, block, sponge or counter "
               "attack; critical threats; armour DR and armour hit points")
    sheet_model = Sheet
    options_model = Options
    defaults_model = Defaults
    outcomes = ("hit", "threat", "critical", "blocked", "sponged", "dodged", "parried",
                "deadlock", "disarmed", "stood up", "weapon recovered")
    dice_order = (
        "per contest roll: the attacker's check d20s (1 + |net boons or banes| of them), then "
        "the defender's; then, only when called for: the attacker's confirmation d20s, the "
        "defender's confirmation d20s, the attacker's weapon-roll d20, the defender's "
        "(counter) weapon-roll d20; after the contest: the attacker's damage dice, then the "
        "counter-attacker's damage dice")
    demo_examples: ClassVar[tuple[str, ...]] = (
        "tony.yaml", "tony-amanda.yaml", "dodge.yaml", "block.yaml", "counter-parry.yaml",
        "critical.yaml", "defensive.yaml")

    # -- data ---------------------------------------------------------------------------
    @cached_property
    def traits(self) -> dict[str, Trait]:
        """The stock traits of data/traits.yaml, by lower-case name."""
        try:
            table = TraitTable.model_validate(self.load_yaml("traits.yaml"))
        except ValidationError as err:
            from fracas.core.scenario import validation_error

            raise validation_error(err, file=str(self.data_dir() / "traits.yaml"),
                                   prefix=None) from None
        return {t.name.casefold(): t for t in table.traits}

    @cached_property
    def _attacks(self) -> AttackResolver:
        return AttackResolver(self.table, self.traits)

    @property
    def table(self) -> Defaults:
        df = self.defaults
        assert isinstance(df, Defaults)
        return df

    # -- combatants and actions ----------------------------------------------------------
    def initial_state(self, sheet: Any) -> State:
        return initial_state(sheet)

    def ranking_state(self, combatant: Combatant, health: bool = False) -> State:
        """The policies rank options with no initiative place (which no attack reads) and,
        unless ``health``, hit points as at full; armour, conditions and dropped weapons as
        they are."""
        state = combatant.state
        assert isinstance(state, State)
        hp = state.hp if health else state.max_hp
        if state.hp == hp and not state.initiative:
            return state
        return dataclasses.replace(state, hp=hp, initiative=0)

    def check_sheet(self, sheet: Any) -> None:
        assert isinstance(sheet, Sheet)
        names: set[str] = set()
        for i, w in enumerate(sheet.weapons):
            if w.name.casefold() in names:
                raise InputError(f"two weapons are named {w.name!r}", path=f"weapons[{i}].name",
                                 allowed="a unique name per weapon")
            names.add(w.name.casefold())
            if sheet.rank(w.skill) is None:
                raise InputError(f"the weapon skill {w.skill!r} is not in skills",
                                 path=f"weapons[{i}].skill",
                                 allowed=", ".join(k for k, _ in sheet.skills) or
                                 "add the skill to skills (rank 0 for untrained)")
        for i, name in enumerate(sheet.disarmed):
            if sheet.weapon(name) is None:
                raise InputError(f"disarmed of {name!r}, which is not among the weapons",
                                 path=f"disarmed[{i}]",
                                 allowed=", ".join(w.name for w in sheet.weapons))
        for i, trait in enumerate(sheet.traits):
            if isinstance(trait, str) and trait.casefold() not in self.traits:
                raise InputError(f"unknown trait {trait!r}", path=f"traits[{i}]",
                                 allowed=", ".join(sorted(self.traits)) +
                                 ", or a custom trait {name, damage, applies_to, parry}")

    def known_names(self, sheet: Any) -> Mapping[str, set[str]]:
        """The attributes the rules read (names compare case-insensitively): those that
        checks and melee damage add (table defaults) and the sheet's
        ``skill_attributes``. Skill names stay open: a weapon's skill must be listed
        (:meth:`check_sheet`)."""
        df = self.table
        known = {*(v for _, v in df.attributes.skills), *(v for _, v in df.attributes.weapons),
                 df.damage.melee_bonus_attribute, *(v for _, v in sheet.skill_attributes)}
        folded = {k.casefold() for k in known}
        return {"attributes": known | {k for k, _ in sheet.attributes if k.casefold() in folded}}

    def check_action(self, action: Action, roster: Roster) -> None:
        if action.kind not in KINDS:
            raise InputError(f"unknown action {action.kind!r}", path="attack.action",
                             allowed=", ".join(KINDS))
        a = roster[action.actor]
        if action.kind == "stand_up":
            return
        if action.kind == "recover_weapon":
            if action.weapon not in a.state.dropped:
                raise InputError(f"{a.name} has not dropped {action.weapon!r}",
                                 path="attack.weapon",
                                 allowed=", ".join(a.state.dropped) or "no dropped weapon")
            return
        self._check_attack(action, roster)

    def _check_attack(self, action: Action, roster: Roster) -> None:
        a = roster[action.actor]
        if action.target is None or action.target == action.actor:
            raise InputError("an attack needs a defender other than the attacker",
                             path="attack.defender",
                             allowed=", ".join(c for c in roster if c != action.actor))
        opts = action.options
        assert isinstance(opts, Options)
        sheet: Sheet = a.sheet
        weapon = sheet.weapon(action.weapon or "")
        if weapon is None:
            raise InputError(f"{a.name} has no weapon {action.weapon!r}", path="attack.weapon",
                             allowed=", ".join(w.name for w in sheet.weapons))
        if weapon.name in a.state.dropped:
            raise InputError(f"{a.name} was disarmed of the {weapon.name}",
                             path="attack.weapon", allowed="a held weapon")
        if opts.mode == "called_shot" and weapon.kind != "ranged":
            raise InputError("a called shot needs a ranged weapon", path="attack.options.mode",
                             allowed="normal or defensive with a melee weapon")
        if opts.mode == "defensive" and weapon.kind != "melee":
            raise InputError("fighting defensively needs a melee weapon",
                             path="attack.options.mode",
                             allowed="normal or called_shot with a ranged weapon")
        try:
            declare_defense(roster[action.target], opts, self.traits)
        except RulesError as err:
            field = {"block": "block_item", "counter": "counter_weapon"}.get(opts.defense)
            named = field and getattr(opts, field)
            raise InputError(str(err), path=f"attack.options.{field if named else 'defense'}",
                             allowed="a defense the defender can use") from None

    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        if action.kind == "attack":
            return self._attacks.resolve(roller, action, roster)
        a = roster[action.actor]
        tracker = Tracker()
        if action.kind == "stand_up":
            after = tuple(x for x in a.state.conditions if x != PRONE)
            events: list[Event] = tracker.change(O_ACTIONS, a.id, "conditions",
                                                 a.state.conditions, after)
            outcome = "stood up"
        elif action.kind == "recover_weapon":
            if action.weapon not in a.state.dropped:
                raise RulesError(f"{a.name} has not dropped {action.weapon!r}")
            events = tracker.change(O_ACTIONS, a.id, "dropped", a.state.dropped,
                                    tuple(w for w in a.state.dropped if w != action.weapon))
            outcome = "weapon recovered"
        else:
            raise RulesError(f"unknown action {action.kind!r} (allowed: {', '.join(KINDS)})")
        events.append(Outcome(O_ACTIONS, a.id, "", outcome, False, 0))
        return Resolution(outcome, False, 0, tuple(events))

    # -- fights ---------------------------------------------------------------------------
    def initiative(self, roller: Roller, roster: Roster, round_number: int) -> tuple[
            tuple[Slot, ...], tuple[Event, ...]]:
        return fight.initiative(roller, roster, self.table)

    def round_representative(self, round_number: int) -> int:
        """No contest hook reads the round number: every round is alike."""
        return 1

    def actions(self, actor: str, roster: Roster, slot: Slot | None = None) -> list[Action]:
        me = roster[actor]
        if not self.is_active(me):
            return []
        return fight.attacks(me, roster) + fight.other_actions(me)

    def reactions(self, action: Action, roster: Roster) -> list[Action]:
        return fight.defenses(action, roster)

    def health(self, combatant: Combatant) -> tuple[int, int]:
        return combatant.state.hp, combatant.state.max_hp

    def start_turn(self, roller: Roller, actor: str, roster: Roster) -> tuple[Event, ...]:
        return fight.start_turn(actor, roster)
