"""Pydantic models of the contest system: sheet, attack options, table defaults, traits.

Sheets are frozen and hashable (the exact roller memoises on the roster), so the
mappings a GM writes (``skills: {dodge: 3}``) are stored as sorted tuples of pairs
and read through :func:`lookup`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    field_validator,
    model_validator,
)

from fracas.dice import parse_dice
from fracas.errors import DiceSyntaxError

Pairs = tuple[tuple[str, StrictInt], ...]
Names = tuple[tuple[str, str], ...]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _pairs(value: Any) -> Any:
    """A mapping written in YAML to a sorted tuple of (name, value) pairs (hashable)."""
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), v) for k, v in value.items()))
    return value


def lookup(pairs: tuple[tuple[str, Any], ...], name: str) -> Any:
    """The value of ``name`` in a tuple of pairs, or None (names compare case-insensitively)."""
    wanted = name.casefold()
    for key, value in pairs:
        if key.casefold() == wanted:
            return value
    return None


class HitPoints(Frozen):
    """Hit points: the maximum and the current value (current defaults to the maximum)."""

    max: StrictInt = Field(ge=1, le=10_000)
    current: StrictInt | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _current_fits(self) -> HitPoints:
        if self.current is not None and self.current > self.max:
            raise ValueError(f"current hit points {self.current} exceed the maximum {self.max}")
        return self


class Armour(Frozen):
    """Worn armour: damage reduction (DR) and its own hit points (seed 001 · Sponge Checks)."""

    name: str = "armour"
    dr: StrictInt = Field(ge=0, le=1000)
    hp: StrictInt = Field(ge=0, le=10_000)
    current: StrictInt | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _current_fits(self) -> Armour:
        if self.current is not None and self.current > self.hp:
            raise ValueError(f"current armour hit points {self.current} exceed its {self.hp}")
        return self


class Weapon(Frozen):
    """A weapon (or blocking item): its skill, damage dice, critical multiplier, block value."""

    name: str = Field(min_length=1)
    skill: str = Field(min_length=1)
    damage: str = Field(min_length=1)
    crit_multiplier: StrictInt = Field(default=2, ge=1, le=10)
    kind: Literal["melee", "ranged"] = "melee"
    block: StrictInt = Field(default=0, ge=0, le=1000)

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        try:
            parse_dice(value)
        except DiceSyntaxError as err:
            raise ValueError(err.message) from None
        return value


class Trait(Frozen):
    """A trait: a stock one by name (data/traits.yaml) or a custom one with its effects."""

    name: str = Field(min_length=1)
    description: str = ""
    parry: StrictBool = False  # a winning counter-attacker takes no damage (seed: Parry)
    damage: StrictInt = Field(default=0, ge=-100, le=100)  # bonus damage (seed: Step 4)
    applies_to: Literal["all", "melee", "ranged"] = "all"


class Sheet(Frozen):
    """A combatant's sheet (see docs/systems/contest.md)."""

    skills: Pairs = ()
    attributes: Pairs = ()
    skill_attributes: Names = ()
    hp: HitPoints
    armour: Armour | None = None
    traits: tuple[str | Trait, ...] = ()
    weapons: tuple[Weapon, ...] = Field(min_length=1)
    # starting conditions (a scenario's situation): prone, fighting defensively, and the
    # weapons the combatant has been disarmed of
    conditions: tuple[Literal["prone", "fighting defensively"], ...] = ()
    disarmed: tuple[str, ...] = ()

    @field_validator("conditions", mode="before")
    @classmethod
    def _condition_words(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list | tuple):
            return tuple(v.strip().lower().replace("_", " ") if isinstance(v, str) else v
                         for v in value)
        return value

    @field_validator("skills", "attributes", "skill_attributes", mode="before")
    @classmethod
    def _maps(cls, value: Any) -> Any:
        return _pairs(value)

    @field_validator("hp", mode="before", json_schema_input_type=StrictInt | HitPoints)
    @classmethod
    def _hp_number(cls, value: Any) -> Any:
        return {"max": value} if isinstance(value, int) and not isinstance(value, bool) else value

    @field_validator("skills")
    @classmethod
    def _ranks(cls, value: Pairs) -> Pairs:
        for name, rank in value:
            if not 0 <= rank <= 100:
                raise ValueError(f"skill {name!r} has rank {rank}; ranks go from 0 to 100")
        return value

    @field_validator("attributes")
    @classmethod
    def _modifiers(cls, value: Pairs) -> Pairs:
        for name, modifier in value:
            if not -100 <= modifier <= 100:
                raise ValueError(f"attribute {name!r} has modifier {modifier}; allowed -100..100")
        return value

    def rank(self, skill: str) -> int | None:
        """The sheet's rank in ``skill`` (None: not on the sheet)."""
        value = lookup(self.skills, skill)
        return None if value is None else int(value)

    def weapon(self, name: str) -> Weapon | None:
        wanted = name.casefold()
        return next((w for w in self.weapons if w.name.casefold() == wanted), None)


class Options(Frozen):
    """An attack's options: the attack type, the defense declared, extra boons and banes."""

    mode: Literal["normal", "called_shot", "defensive"] = "normal"
    defense: Literal["dodge", "block", "sponge", "counter"] = "dodge"
    boons: StrictInt = Field(default=0, ge=0, le=10)
    banes: StrictInt = Field(default=0, ge=0, le=10)
    defender_boons: StrictInt = Field(default=0, ge=0, le=10)
    defender_banes: StrictInt = Field(default=0, ge=0, le=10)
    block_item: str | None = None
    counter_weapon: str | None = None


# -- table defaults (data/defaults.yaml) ------------------------------------------------
class CheckDefaults(Frozen):
    die: StrictInt = Field(ge=2, le=100)
    critical_threat: StrictInt = Field(ge=1)
    critical_failure: StrictInt = Field(ge=0)
    untrained_rank: StrictInt = Field(ge=0, le=100)

    @model_validator(mode="after")
    def _naturals(self) -> CheckDefaults:
        if not self.critical_failure < self.critical_threat <= self.die:
            raise ValueError("need critical_failure < critical_threat <= die")
        return self


class ContestDefaults(Frozen):
    rolls: StrictInt = Field(ge=1, le=9)
    wins_needed: StrictInt = Field(ge=1, le=9)
    ties_to: Literal["defender", "attacker"]
    defender_threat_counts: StrictInt = Field(ge=1, le=9)
    attacker_threat_ends_contest: StrictBool
    counter_makes_all_rolls: StrictBool


class FightDefensivelyDefaults(Frozen):
    attack_banes: StrictInt = Field(ge=0, le=10)
    reaction_boons: StrictInt = Field(ge=0, le=10)
    counter_takes_bane: StrictBool


class BlockDefaults(Frozen):
    reduces_critical: StrictBool


class DisarmDefaults(Frozen):
    dropped_weapon_deals_damage: StrictBool


class CalledShotDefaults(Frozen):
    banes: StrictInt = Field(ge=0, le=10)
    ignores_dr: StrictBool


class WeaponRollDefaults(Frozen):
    difficulty: StrictInt = Field(ge=0, le=1000)


class SpongeDefaults(Frozen):
    critical_divisor: StrictInt = Field(ge=1, le=10)
    rounding: Literal["down", "up"]


class DamageDefaults(Frozen):
    melee_bonus_attribute: str
    melee_bonus_on_critical: StrictBool


class AttributeDefaults(Frozen):
    skills: Names
    weapons: Names
    missing_modifier: StrictInt = Field(ge=-100, le=100)

    @field_validator("skills", "weapons", mode="before")
    @classmethod
    def _maps(cls, value: Any) -> Any:
        return _pairs(value)


class InitiativeDefaults(Frozen):
    die: StrictInt = Field(ge=2, le=100)
    skill: str
    roll_off: str = Field(min_length=1)  # what the table calls the tie's roll-off


class Defaults(Frozen):
    """``data/defaults.yaml``: every table default (contest), ours included."""

    check: CheckDefaults
    contest: ContestDefaults
    fight_defensively: FightDefensivelyDefaults
    called_shot: CalledShotDefaults
    block: BlockDefaults
    disarm: DisarmDefaults
    weapon_roll: WeaponRollDefaults
    sponge: SpongeDefaults
    damage: DamageDefaults
    attributes: AttributeDefaults
    initiative: InitiativeDefaults


class TraitTable(Frozen):
    """``data/traits.yaml``: the stock traits a sheet may name."""

    traits: tuple[Trait, ...]
