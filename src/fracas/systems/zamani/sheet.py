"""Zamani sheets, attack options and table defaults (pydantic, frozen, extra fields forbidden).

A sheet holds ranks: ``attributes`` (``dexterity``, ``fitness``, ``spirit`` and any
others), ``skills`` (name -> rank), ``wounds``, ``armor``, ``weapons``, an optional
``shield``, ``traits``, what is ``in_hand`` and any starting ``conditions``.
"""

from __future__ import annotations

import re
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

from fracas.core.model import HashedModel

NAME = re.compile(r"^[a-z][a-z0-9_ -]*$")
REQUIRED_ATTRIBUTES = ("dexterity", "fitness", "spirit")
WEAPON_KINDS = ("melee", "missile", "firearm", "energy", "area")
#: Conditions the rules read; a controlled attack may add a custom one (e.g. ``blinded``).
CONDITIONS = ("stunned", "unconscious", "prone", "casting")
#: The standard effects of a controlled attack (seed 002 · Controlled Attack).
STANDARD_EFFECTS = ("limb", "disarm", "prone", "armor")


def _name(value: str, what: str) -> str:
    text = value.strip().lower()
    if not NAME.match(text):
        raise ValueError(f"{what} {value!r} must be a word of letters, digits, spaces, - or _")
    return text



class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Wounds(Frozen):
    """Wound points: ``max`` and ``current`` (defaults to max); at 0 the character is out."""

    max: StrictInt = Field(ge=1, le=1000)
    current: StrictInt | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _current_at_most_max(self) -> Wounds:
        if self.current is not None and self.current > self.max:
            raise ValueError(f"current wounds {self.current} exceed max {self.max}")
        return self

    @property
    def now(self) -> int:
        return self.max if self.current is None else self.current


class Armor(Frozen):
    """Armor: points of ``absorption``; ``physical`` armor hampers Dexterity and Acrobatics."""

    absorption: StrictInt = Field(default=0, ge=0, le=50)
    physical: StrictBool = True


class Weapon(Frozen):
    """A weapon: its damage ``rating`` (1-10), ``kind``, hands, whether it can block, and the
    skill (default: its name) and attribute (default: the table default) of its roll."""

    name: str = Field(min_length=1)
    rating: StrictInt = Field(ge=1, le=10)
    kind: Literal["melee", "missile", "firearm", "energy", "area"] = "melee"
    hands: StrictInt = Field(default=1, ge=0, le=2)
    blocking: StrictBool = False
    skill: str | None = None
    attribute: str | None = None

    @field_validator("skill", "attribute")
    @classmethod
    def _lower(cls, value: str | None) -> str | None:
        return None if value is None else _name(value, "name")

    @property
    def skill_name(self) -> str:
        return self.skill or _name(self.name, "weapon")

    @model_validator(mode="after")
    def _blocking_is_melee(self) -> Weapon:
        if self.blocking and self.kind != "melee":
            raise ValueError(f"only a melee weapon can block, not a {self.kind} weapon")
        return self


class Shield(Frozen):
    """A shield (one hand), used with its skill (default ``shield``)."""

    name: str = Field(default="shield", min_length=1)
    skill: str = "shield"

    @field_validator("skill")
    @classmethod
    def _lower(cls, value: str) -> str:
        return _name(value, "skill")


class Trait(Frozen):
    """A trait: ranks it adds to initiative (seed: traits that add to Dexterity for
    Initiative) and to defense (seed: traits that apply to defense, e.g. Combat Luck)."""

    name: str = Field(min_length=1)
    initiative: StrictInt = Field(default=0, ge=0, le=20)
    defense: StrictInt = Field(default=0, ge=-10, le=10)


class Sheet(HashedModel, Frozen):
    """A Zamani combatant."""

    attributes: dict[str, StrictInt]
    skills: dict[str, StrictInt] = Field(default_factory=dict)
    wounds: Wounds
    armor: Armor = Armor()
    weapons: tuple[Weapon, ...] = ()
    shield: Shield | None = None
    traits: tuple[Trait, ...] = ()
    in_hand: tuple[str, ...] | None = None
    conditions: tuple[str, ...] = ()
    sacrifice: StrictInt = Field(default=0, ge=0, le=10)
    skill_attributes: dict[str, str] = Field(default_factory=dict)

    @field_validator("attributes")
    @classmethod
    def _attributes(cls, value: dict[str, int]) -> dict[str, int]:
        out = {_name(k, "attribute"): v for k, v in value.items()}
        for need in REQUIRED_ATTRIBUTES:
            if need not in out:
                raise ValueError(f"attributes must include {need}")
        for k, v in out.items():
            if not 0 <= v <= 30:
                raise ValueError(f"attribute {k} must be a rank from 0 to 30, not {v}")
        if out["dexterity"] < 1:
            raise ValueError("dexterity must be at least 1 (it is the initiative)")
        return out

    @field_validator("skills")
    @classmethod
    def _skills(cls, value: dict[str, int]) -> dict[str, int]:
        out = {_name(k, "skill"): v for k, v in value.items()}
        for k, v in out.items():
            if not 0 <= v <= 30:
                raise ValueError(f"skill {k} must be a rank from 0 to 30, not {v}")
        return out

    @field_validator("skill_attributes")
    @classmethod
    def _skill_attributes(cls, value: dict[str, str]) -> dict[str, str]:
        return {_name(k, "skill"): _name(v, "attribute") for k, v in value.items()}

    @field_validator("conditions")
    @classmethod
    def _conditions(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(_name(c, "condition") for c in value)

    def weapon(self, name: str | None) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)

    def rank(self, skill: str) -> int | None:
        """A skill's rank, or None when the character does not have the skill."""
        return self.skills.get(skill)


class Options(Frozen):
    """An action's options (seed 002: regular and controlled attacks, defense, cover,
    surprise, focus, sacrifice (the ranks a ``sacrifice`` choice gives up), guarding,
    movement)."""

    controlled: StrictBool = False
    effect: str | None = None
    defense: Literal["best", "dexterity", "block", "shield", "acrobatics"] = "best"
    cover: StrictBool = False
    surprise: Literal["none", "stealth", "ambush"] = "none"
    focus: Literal["none", "effect", "speed"] = "none"
    guard: str | None = None
    unseen: StrictBool = False
    move: Literal["none", "half_before", "half_after", "half", "full"] = "none"
    ranks: StrictInt = Field(default=0, ge=0, le=10)

    @field_validator("effect")
    @classmethod
    def _effect(cls, value: str | None) -> str | None:
        return None if value is None else _name(value, "effect")


class Defaults(Frozen):
    """The table defaults of ``data/defaults.yaml`` (table defaults; overridable)."""

    action_table: str | dict[str, Any] = "default"
    multipliers: dict[str, StrictInt]
    skill_attribute: str = "dexterity"
    skill_attributes: dict[str, str] = Field(default_factory=dict)
    tie_die: StrictInt = Field(default=10, ge=2, le=1000)
    surprise_ties: Literal["target", "attacker"] = "target"
    limb_strike_penalty: StrictInt = Field(default=1, ge=0, le=10)
    out_at: StrictInt = Field(default=0, ge=0)
    max_sacrifice: StrictInt = Field(default=4, ge=0, le=10)
    surprise_needs_skill: StrictBool = True
    focus_effect: Literal["next_action", "next_attack"] = "next_action"
    guard_bonus: Literal["block_usable", "always"] = "block_usable"

    @field_validator("multipliers")
    @classmethod
    def _multipliers(cls, value: dict[str, int]) -> dict[str, int]:
        if set(value) != {"L", "M", "H", "X", "C"}:
            raise ValueError("multipliers must give L, M, H, X and C")
        if any(v < 0 for v in value.values()):
            raise ValueError("multipliers must be 0 or more")
        return dict(value)

    @field_validator("skill_attribute")
    @classmethod
    def _attr(cls, value: str) -> str:
        return _name(value, "attribute")

    @field_validator("skill_attributes")
    @classmethod
    def _attrs(cls, value: dict[str, str]) -> dict[str, str]:
        return {_name(k, "skill"): _name(v, "attribute") for k, v in value.items()}
