"""Pydantic models of the tristat inputs: the sheet, an action's options, the table defaults.

All are frozen and forbid unknown fields, so a typo names the field it is in.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt

from fracas.core.model import HashedModel

Level = Annotated[StrictInt, Field(ge=1, le=10)]
StyledPenalty = Literal["vital_target", "chink", "two_weapons", "disarm", "lightning_draw"]
AttackMode = Literal["melee", "ranged", "unarmed"]



class _Model(HashedModel):
    """Frozen, strict, and hashable even with mapping fields (the exact roller memoises),
    its hash computed once."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Weapon(_Model):
    """A weapon on the sheet: its base damage (seed 003 · Damage), melee or ranged, hands."""

    name: str = Field(min_length=1)
    damage: StrictInt = Field(ge=0, le=1000)
    kind: Literal["melee", "ranged"]
    hands: StrictInt = Field(default=1, ge=1, le=2)
    skill: str | None = Field(default=None, min_length=1)


class Armor(_Model):
    """Armor: damage reduction, and what its weak points give (seed 003 · Aiming for a Chink)."""

    name: str = Field(default="armor", min_length=1)
    rating: StrictInt = Field(ge=0, le=1000)
    chink: Literal["none", "half"] | None = None


class Attributes(_Model):
    """Attribute levels the combat rules read.

    ``kensei`` (melee and unarmed) and ``gun_bunny`` (ranged) map a named penalty to the
    levels spent on it: each level cuts that penalty by 3; ``lightning_draw`` removes the
    draw penalty.
    """

    extra_attacks: StrictInt = Field(default=0, ge=0, le=10)
    focused_damage: StrictInt = Field(default=0, ge=0, le=20)
    focus: StrictInt = Field(default=0, ge=0, le=10)
    kensei: dict[StyledPenalty, Level] = Field(default_factory=dict)
    gun_bunny: dict[StyledPenalty, Level] = Field(default_factory=dict)
    super_strength: StrictInt = Field(default=0, ge=0, le=10)
    diminutive: StrictInt = Field(default=0, ge=0, le=10)
    not_so_strong: StrictInt = Field(default=0, ge=0, le=10)


Stat = Annotated[StrictInt, Field(ge=1, le=30)]
SkillLevel = Annotated[StrictInt, Field(ge=0, le=20)]


class Sheet(_Model):
    """A tristat character: the three Stats, skills, Defense Value, armor, attributes,
    weapons, and optionally its current Health / Energy, who is grappling it and which of
    its weapons are not drawn yet (``sheathed``: seed 003 · Drawing a Weapon)."""

    body: Stat
    mind: Stat
    soul: Stat
    skills: dict[str, SkillLevel] = Field(default_factory=dict)
    defense_value: StrictInt | None = Field(default=None, ge=0, le=40)
    armor: Armor | None = None
    attributes: Attributes = Field(default_factory=Attributes)
    weapons: tuple[Weapon, ...] = ()
    health: StrictInt | None = Field(default=None, ge=-1000)
    energy: StrictInt | None = Field(default=None, ge=0)
    grappled_by: str | None = Field(default=None, min_length=1)
    sheathed: tuple[str, ...] = ()


class Options(_Model):
    """The options of one action (one model for every kind; ``check_action`` says which
    options fit which kind)."""

    trick_shot: StrictInt = Field(default=0, ge=0, le=20)
    vital_target: StrictBool = False
    chink: StrictBool = False
    flanked: StrictBool = False
    two_weapons: Literal["same_target", "two_targets"] | None = None
    off_hand: str | None = Field(default=None, min_length=1)
    drawing: StrictBool = False
    total_attack: StrictBool = False
    total_defense: StrictBool = False
    willpower: StrictBool = False
    defense_willpower: StrictBool = False
    body_check_willpower: StrictBool = False
    defense_number: StrictInt | None = Field(default=None, ge=1, le=20)
    skill: str | None = Field(default=None, min_length=1)
    defense_skill: str | None = Field(default=None, min_length=1)
    extreme_mobility: StrictBool = False
    wall_at: StrictInt | None = Field(default=None, ge=0, le=100)
    target_weapon: str | None = Field(default=None, min_length=1)
    two_handed_grip: StrictBool | None = None
    body_check_modifier: StrictInt = Field(default=0, ge=-20, le=20)
    no_body_check: StrictBool = False


class WillpowerDefaults(_Model):
    cost: StrictInt = Field(ge=1)
    bonus: StrictInt = Field(ge=1)
    focus_bonus_per_level: StrictInt = Field(ge=0)


class SkillMap(_Model):
    melee: str = Field(min_length=1)
    ranged: str = Field(min_length=1)
    unarmed: str = Field(min_length=1)


class StrengthDefaults(_Model):
    super_strength: StrictInt
    diminutive: StrictInt
    not_so_strong: StrictInt


class InitiativeDefaults(_Model):
    dice: StrictInt = Field(ge=1, le=10)
    add_combat_value: StrictBool
    roll_off: str = Field(min_length=1)  # what the table calls the tie's roll-off


class Defaults(_Model):
    """``data/defaults.yaml``: the public facts and table defaults, overridable."""

    health_per_point: StrictInt = Field(ge=1)
    energy_per_point: StrictInt = Field(ge=1)
    dead_at: StrictInt = Field(le=0)
    bleed_per_round: StrictInt = Field(ge=0)
    extra_attacks_per_level: StrictInt = Field(ge=0)
    style_reduction_per_level: StrictInt = Field(ge=0)
    body_check_modifier: StrictInt
    critical_defendable: StrictBool
    multipliers: Literal["multiply", "add"]
    snake_eyes_always_succeeds: StrictBool
    snake_eyes_on_other_rolls: StrictBool
    out_grabber_releases: StrictBool
    chink: Literal["none", "half"]
    half_armor_rounding: Literal["down", "up"]
    strangle_armor: StrictBool
    focused_damage_per_level: StrictInt = Field(ge=0)
    two_handed_extreme_mobility: StrictBool
    throw_wall_damage_per_square: StrictInt = Field(ge=0)
    throw_wall_max_squares: StrictInt = Field(ge=0)
    attack_skill: SkillMap
    defense_skill: SkillMap
    escape_skill: str = Field(min_length=1)
    strength: StrengthDefaults
    willpower: WillpowerDefaults
    initiative: InitiativeDefaults
    defense_value_offset: StrictInt = Field(ge=-20, le=20)
    flanking: Literal["declared", "ally"]
