"""The data pack's tables, validated with pydantic when first read.

Range bands, skills, item qualities, the Critical Injury table and the two
spending tables live in ``data/*.yaml``; a bad file is an error naming the file,
the entry and the field.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from fracas.core.scenario import read_yaml, validation_error
from fracas.errors import InputError

DATA = Path(__file__).parent / "data"
CHARACTERISTICS = ("brawn", "agility", "intellect", "cunning", "willpower", "presence")
Band = Literal["engaged", "short", "medium", "long", "extreme"]
BANDS: tuple[str, ...] = ("engaged", "short", "medium", "long", "extreme")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Ranges(_Frozen):
    difficulty_names: tuple[str, ...]
    melee: int = Field(ge=0)
    bands: dict[Band, int]


class Skill(_Frozen):
    characteristic: Literal["brawn", "agility", "intellect", "cunning", "willpower", "presence"]
    combat: Literal["melee", "ranged"] | None = None


class Quality(_Frozen):
    kind: Literal["active", "passive"]
    rated: bool
    effect: str
    text: str
    cost: int = Field(default=2, ge=0)
    cost_per_silhouette: int = Field(default=0, ge=0)
    miss_cost: int | None = None
    repeatable: bool | Literal["rating"] = False
    difficulty: int = 0


class CheckEffects(_Frozen):
    setback: int = 0
    difficulty: int = 0
    upgrade_difficulty: int = 0
    no_boost: bool = False
    characteristics: tuple[str, ...] = ()
    combat_only: bool = False


class InjuryEffects(_Frozen):
    strain: int = 0
    next_check: tuple[Literal["setback", "difficulty", "boost", "upgrade_difficulty",
                              "upgrade_ability"], ...] = ()
    condition: str | None = None
    checks: CheckEffects | None = None
    characteristic: Literal["temporary", "permanent"] | None = None
    action_strain: int = 0
    bleeding: bool = False
    dies: Literal["now", "next_round"] | None = None


class Injury(_Frozen):
    low: int = Field(ge=1)
    high: int | None
    name: str
    severity: str
    text: str
    effects: InjuryEffects = InjuryEffects()


class InjuryTable(_Frozen):
    characteristic_d10: dict[str, tuple[int, int]]
    severities: tuple[str, ...]
    injuries: tuple[Injury, ...]

    def lookup(self, total: int) -> Injury:
        """The row a Critical Injury roll's total lands on (below 1 counts as 1)."""
        total = max(1, total)
        for row in self.injuries:
            if row.low <= total and (row.high is None or total <= row.high):
                return row
        raise InputError(f"no Critical Injury row for a roll of {total}",
                         file=str(DATA / "critical_injuries.yaml"))

    def by_name(self, name: str) -> Injury | None:
        """The row of an injury (``Horrific Injury (Agility)`` finds Horrific Injury)."""
        return {row.name: row for row in self.injuries}.get(name.split(" (")[0]) if (
            self is not injuries()) else _rows_by_name().get(name.split(" (")[0])

    def characteristic(self, d10: int) -> str:
        for name, (low, high) in self.characteristic_d10.items():
            if low <= d10 <= high:
                return name
        raise InputError(f"no characteristic for a d10 of {d10}",
                         file=str(DATA / "critical_injuries.yaml"))


@cache
def _rows_by_name() -> dict[str, Injury]:
    return {row.name: row for row in injuries().injuries}


class SpendOption(_Frozen):
    key: str
    text: str
    advantage: int | None = None
    triumph: int | None = None
    threat: int | None = None
    despair: int | None = None
    repeatable: bool = False
    effect: str | None = None


class Spending(_Frozen):
    advantage: tuple[SpendOption, ...]
    threat: tuple[SpendOption, ...]


def _load(name: str, model: type[BaseModel], wrap: str | None = None) -> Any:
    path = DATA / name
    data = read_yaml(path)
    try:
        return model.model_validate({wrap: data} if wrap else data)
    except ValidationError as err:
        raise validation_error(err, str(path), None) from None


class Talent(_Frozen):
    """A talent of ``data/talents.yaml``: what it adds to its owner's combat checks and to
    Critical Injury rolls (seed 004, Steps 2 and 6), per rank when ranked."""

    text: str
    ranked: StrictBool = False
    skills: tuple[str, ...] = ()
    aiming: StrictBool = False
    boost: StrictInt = Field(default=0, ge=0, le=10)
    upgrade_ability: StrictInt = Field(default=0, ge=0, le=10)
    remove_setback: StrictInt = Field(default=0, ge=0, le=10)
    critical_inflicted: StrictInt = Field(default=0, ge=-100, le=100)
    critical_suffered: StrictInt = Field(default=0, ge=-100, le=100)


class _Talents(_Frozen):
    talents: dict[str, Talent]


class _Skills(_Frozen):
    skills: dict[str, Skill]


class _Qualities(_Frozen):
    qualities: dict[str, Quality]


@cache
def ranges() -> Ranges:
    table: Ranges = _load("ranges.yaml", Ranges)
    return table


@cache
def skills() -> dict[str, Skill]:
    table: _Skills = _load("skills.yaml", _Skills, wrap="skills")
    return table.skills


@cache
def talents() -> dict[str, Talent]:
    table: _Talents = _load("talents.yaml", _Talents)
    return table.talents


@cache
def qualities() -> dict[str, Quality]:
    table: _Qualities = _load("qualities.yaml", _Qualities, wrap="qualities")
    return table.qualities


@cache
def injuries() -> InjuryTable:
    table: InjuryTable = _load("critical_injuries.yaml", InjuryTable)
    return table


@cache
def spending() -> Spending:
    table: Spending = _load("spending.yaml", Spending)
    return table


def spend_option(side: str, key: str) -> SpendOption | None:
    """The first option ``key`` of the data pack's ``advantage`` table (any other ``side``:
    the ``threat`` table), from a mapping made once per table (every attack's spending
    asks again; the keys asked may come from a scenario or a request, so they are not
    remembered)."""
    return _options(side == "advantage").get(key)


@cache
def _options(advantage: bool) -> dict[str, SpendOption]:
    table = spending()
    found: dict[str, SpendOption] = {}
    for option in table.advantage if advantage else table.threat:
        found.setdefault(option.key, option)  # the first of a key
    return found


def difficulty_name(n: int) -> str:
    names = ranges().difficulty_names
    return names[n] if 0 <= n < len(names) else f"{n} difficulty dice"
