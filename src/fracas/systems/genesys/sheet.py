"""Pydantic models of the genesys sheet, attack options and table defaults.

All frozen and ``extra="forbid"``: a bad field is an error naming it. Mappings
(skills, qualities) are stored as tuples so that sheets stay hashable.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt, field_validator

from fracas.core.model import HashedModel
from fracas.systems.genesys.tables import BANDS, Band

Adversary = Literal["pc", "minion", "rival", "nemesis"]
AdvantagePolicy = Literal["critical_first", "hits_first", "qualities_first", "strain_first",
                          "none"]
ThreatPolicy = Literal["strain_first", "prone_first", "none"]


class _Frozen(HashedModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Characteristics(_Frozen):
    """The six characteristics (1 to 6 for characters; adversaries may go higher)."""

    brawn: StrictInt = Field(ge=1, le=10)
    agility: StrictInt = Field(ge=1, le=10)
    intellect: StrictInt = Field(ge=1, le=10)
    cunning: StrictInt = Field(ge=1, le=10)
    willpower: StrictInt = Field(ge=1, le=10)
    presence: StrictInt = Field(ge=1, le=10)

    def get(self, name: str) -> int:
        value: int = getattr(self, name)
        return value


class Defense(_Frozen):
    melee: StrictInt = Field(default=0, ge=0, le=10)
    ranged: StrictInt = Field(default=0, ge=0, le=10)


class WeaponQuality(_Frozen):
    """One item quality: ``Pierce 2`` is name Pierce, rating 2; ``Auto-fire`` has none."""

    name: str
    rating: StrictInt | None = Field(default=None, ge=1, le=10)

    def label(self) -> str:
        return self.name if self.rating is None else f"{self.name} {self.rating}"


_QUALITY = re.compile(r"^\s*(.+?)\s*(\d+)?\s*$")


def _quality(value: Any) -> Any:
    if isinstance(value, str):
        m = _QUALITY.match(value)
        if m is None or not m.group(1):
            raise ValueError(f"{value!r} is not a quality such as 'Pierce 2' or 'Auto-fire'")
        return {"name": m.group(1), "rating": int(m.group(2)) if m.group(2) else None}
    return value


class Weapon(_Frozen):
    """A weapon: its skill, damage (a number, or ``+N`` for Brawn + N), Critical rating,
    range band and qualities."""

    name: str = Field(min_length=1)
    skill: str
    damage: StrictInt | str
    crit: StrictInt = Field(ge=1, le=10)
    range: Band = "engaged"
    qualities: tuple[WeaponQuality, ...] = ()

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: int | str) -> int | str:
        if isinstance(value, int):
            if value < 0:
                raise ValueError("damage must be at least 0")
            return value
        if not re.fullmatch(r"\+\d+", value.strip()):
            raise ValueError(f"damage {value!r}: a number (9) or +N for Brawn + N (+2)")
        return value.strip()

    @field_validator("qualities", mode="before",
                     json_schema_input_type=list[str | WeaponQuality] | dict[str, int | None])
    @classmethod
    def _qualities(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return [{"name": k, "rating": v} for k, v in value.items()]
        if isinstance(value, list | tuple):
            return [_quality(v) for v in value]
        return value

    def quality(self, name: str) -> WeaponQuality | None:
        return next((q for q in self.qualities if q.name == name), None)

    def rating(self, name: str) -> int:
        """A quality's rating (1 for an unrated one it has, 0 when it lacks it)."""
        q = self.quality(name)
        if q is None:
            return 0
        return q.rating if q.rating is not None else 1

    def base_damage(self, brawn: int) -> int:
        if isinstance(self.damage, int):
            return self.damage
        return brawn + int(self.damage[1:])


class Sheet(_Frozen):
    """A genesys combatant's sheet (the scenario fields)."""

    characteristics: Characteristics
    skills: tuple[tuple[str, StrictInt], ...] = ()
    soak: StrictInt = Field(ge=0, le=50)
    wound_threshold: StrictInt = Field(ge=1, le=200)
    strain_threshold: StrictInt | None = Field(default=None, ge=1, le=200)
    defense: Defense = Defense()
    adversary: Adversary = "pc"
    group_size: StrictInt | None = Field(default=None, ge=1, le=20)
    silhouette: StrictInt = Field(default=1, ge=0, le=10)
    weapons: tuple[Weapon, ...] = ()
    wounds: StrictInt = Field(default=0, ge=0)
    strain: StrictInt = Field(default=0, ge=0)
    critical_injuries: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    wielding: str | None = None  # the weapon in use at the start (default: the first)
    talents: tuple[tuple[str, StrictInt], ...] = ()  # talent name -> rank (data/talents.yaml)

    @field_validator("talents", mode="before")
    @classmethod
    def _talents(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return tuple(value.items())
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple((v, 1) for v in value)
        return value

    @field_validator("talents")
    @classmethod
    def _talent_ranks(cls, value: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
        for name, rank in value:
            if not 1 <= rank <= 5:
                raise ValueError(f"talent {name!r}: rank {rank} (a rank is 1 to 5)")
        return value

    @field_validator("skills", mode="before")
    @classmethod
    def _skills(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return tuple(value.items())
        return value

    @field_validator("skills")
    @classmethod
    def _ranks(cls, value: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
        for name, rank in value:
            if not 0 <= rank <= 5:
                raise ValueError(f"skill {name!r}: rank {rank} (a rank is 0 to 5)")
        return value

    def rank(self, skill: str) -> int:
        return dict(self.skills).get(skill, 0)

    def has_skill(self, skill: str) -> bool:
        return skill in dict(self.skills)

    def weapon(self, name: str | None) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)

    @property
    def group(self) -> int:
        """Members of a minion group (1 for everyone else)."""
        return self.group_size or 1


class Options(_Frozen):
    """An attack's options: range band, extra dice, Aim, auto-fire, targets, spending."""

    range: Band | None = None
    aim: StrictInt = Field(default=0, ge=0, le=2)
    boost: StrictInt = Field(default=0, ge=0, le=10)
    setback: StrictInt = Field(default=0, ge=0, le=10)
    upgrade_ability: StrictInt = Field(default=0, ge=0, le=10)
    downgrade_ability: StrictInt = Field(default=0, ge=0, le=10)
    upgrade_difficulty: StrictInt = Field(default=0, ge=0, le=10)
    downgrade_difficulty: StrictInt = Field(default=0, ge=0, le=10)
    auto_fire: StrictBool | None = None
    extra_targets: tuple[str, ...] = ()
    blast_targets: tuple[str, ...] = ()
    spend: tuple[str, ...] = ()
    gm_spend: tuple[str, ...] = ()
    advantage_policy: AdvantagePolicy | None = None
    threat_policy: ThreatPolicy | None = None


class Defaults(_Frozen):
    """The table defaults (``data/defaults.yaml``)."""

    advantage_policy: AdvantagePolicy
    threat_policy: ThreatPolicy
    ranged_band: Band
    max_defense: StrictInt = Field(ge=0, le=10)
    minion_critical: Literal["defeat_one", "roll"]
    threshold_injury: Literal["extra_trigger", "separate"]
    threshold_injury_when_incapacitated: StrictBool
    downgrade_without_die: Literal["ignore", "remove_die"]
    initiative_skill: str
    surprised_skill: str
    initiative_tie: Literal["pc", "npc"]
    incapacitated_slot: Literal["drop", "keep"]
    prone_melee_boost: StrictInt = Field(ge=0, le=5)
    prone_ranged_setback: StrictInt = Field(ge=0, le=5)
    fight_band: Band
    auto_fire: StrictBool
    npc_threat: Literal["gm", "players"] = "gm"


__all__ = ["BANDS", "Characteristics", "Defaults", "Defense", "Options", "Sheet", "Weapon",
           "WeaponQuality"]
