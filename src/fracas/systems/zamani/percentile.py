"""Percentile skill rolls and the surprise contest.

A skill roll's target is (skill rank + attribute rank) x 5 percent; a d100 roll at
or under it succeeds, by a margin of target - roll (public fact · skill rolls).

Surprise (seed 002 · Surprise) pits a stealth or ambush roll against the target's
Fitness x 5 (or its own ambush skill). The seed does not say how the two compare;
the table default is an opposed roll: the surprise succeeds when the attacker's
roll succeeds and the target's fails, or both succeed and the attacker's margin is
larger (a tie goes to ``surprise_ties``).

:class:`Contest` rolls both d100s as one aggregate: its exact distribution has two
outcomes (surprised or not), so exact odds do not branch 10,000 ways, while the
random and scripted rollers keep the two faces for the explanation.

>>> Contest(50, 50, False).exact().probability(ContestResult(True, 0, 0))
Fraction(149, 400)

:class:`AttackRoll` does the same for the attack roll: the rules read only whether it
succeeded and which margin band (row of the action table) it fell in, so exact odds
branch once per band, not once per face.

>>> AttackRoll(55, (0, 10, 20, 30, 40, 50)).exact().probability(Reading(-1, 0))
Fraction(9, 20)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from fracas.dice.distribution import Distribution
from fracas.dice.reading import Reading
from fracas.dice.variables import D100, Script, Variable, check_value

from .sheet import Defaults, Sheet, Weapon

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class SkillBase:
    """The parts of a skill roll's target before percent modifiers."""

    skill: str
    rank: int
    trained: bool
    attribute: str
    attribute_rank: int

    @property
    def percent(self) -> int:
        return (self.rank + self.attribute_rank) * 5


def attribute_for(sheet: Sheet, skill: str, defaults: Defaults, weapon: Weapon | None = None
                  ) -> str:
    """The attribute a skill roll adds: the weapon's, the sheet's, the table's, the default."""
    if weapon is not None and weapon.attribute:
        return weapon.attribute
    return (sheet.skill_attributes.get(skill) or defaults.skill_attributes.get(skill)
            or defaults.skill_attribute)


def skill_base(sheet: Sheet, skill: str, defaults: Defaults, weapon: Weapon | None = None
               ) -> SkillBase:
    """Skill rank (0 when untrained) and attribute rank (0 when the sheet lacks it)."""
    rank = sheet.rank(skill)
    attribute = attribute_for(sheet, skill, defaults, weapon)
    return SkillBase(skill, rank or 0, rank is not None, attribute,
                     sheet.attributes.get(attribute, 0))


def succeeds_by(target: int, roll: int) -> int | None:
    """The margin of a roll under ``target``, None when it fails."""
    return target - roll if roll <= target else None


def surprised(attacker_target: int, defender_target: int, attacker_roll: int,
              defender_roll: int, ties_to_attacker: bool) -> bool:
    """Does the opposed roll give surprise? (the table default described above)"""
    mine = succeeds_by(attacker_target, attacker_roll)
    theirs = succeeds_by(defender_target, defender_roll)
    if mine is None:
        return False
    if theirs is None:
        return True
    return mine > theirs or (mine == theirs and ties_to_attacker)


@dataclass(frozen=True)
class ContestResult:
    """Surprised or not; the faces ride along for the explanation (not compared)."""

    surprised: bool
    attacker_roll: int = field(compare=False)
    defender_roll: int = field(compare=False)


@cache
def _contest(attacker_target: int, defender_target: int, ties_to_attacker: bool
             ) -> Distribution[ContestResult]:
    """Both d100s enumerated once per pair of targets; faces kept from one example each."""
    weights: dict[ContestResult, int] = {}
    for a in range(1, 101):
        for b in range(1, 101):
            key = ContestResult(surprised(attacker_target, defender_target, a, b,
                                          ties_to_attacker), a, b)
            weights[key] = weights.get(key, 0) + 1
    return Distribution(weights)


@dataclass(frozen=True)
class Contest(Variable[ContestResult]):
    """The attacker's d100 then the target's d100, read as one surprise result."""

    attacker_target: int
    defender_target: int
    ties_to_attacker: bool
    label: str = "d100"
    stream: str = "dice"
    #: two d100s (the attacker's, then the target's): what a person is asked to enter
    count: ClassVar[int] = 2

    def exact(self) -> Distribution[ContestResult]:
        return _contest(self.attacker_target, self.defender_target, self.ties_to_attacker)

    def _result(self, a: int, b: int) -> ContestResult:
        return ContestResult(surprised(self.attacker_target, self.defender_target, a, b,
                                       self.ties_to_attacker), a, b)

    def sample(self, rng: np.random.Generator) -> ContestResult:
        return self._result(D100.sample(rng), D100.sample(rng))

    def from_script(self, script: Script) -> ContestResult:
        faces = []
        for _ in range(2):
            value, position = script.take(self.label, self.stream)
            faces.append(int(check_value(self.label, D100.exact(), value, position)))
        return self._result(faces[0], faces[1])


@cache
def _bands(target: int, margins: tuple[int, ...]) -> Distribution[Reading]:
    weights: dict[Reading, int] = {}
    for face in range(1, 101):
        key = Reading(_band_of(target, margins, face), face)
        weights[key] = weights.get(key, 0) + 1
    return Distribution(weights)


def _band_of(target: int, margins: tuple[int, ...], face: int) -> int:
    margin = succeeds_by(target, face)
    if margin is None:
        return -1
    return max(i for i, lo in enumerate(margins) if lo <= margin)


@dataclass(frozen=True)
class AttackRoll(Variable[Reading]):
    """The attack's d100 against ``target``, read by the action table's margin rows."""

    target: int
    margins: tuple[int, ...]
    label: str = "d100"
    stream: str = "dice"

    def exact(self) -> Distribution[Reading]:
        return _bands(self.target, self.margins)

    def _result(self, face: int) -> Reading:
        return Reading(_band_of(self.target, self.margins, face), face)

    def sample(self, rng: np.random.Generator) -> Reading:
        return self._result(D100.sample(rng))

    def from_script(self, script: Script) -> Reading:
        value, position = script.take(self.label, self.stream)
        return self._result(int(check_value(self.label, D100.exact(), value, position)))
