"""Step 4, damage, and what stands in its way: a won block, a won sponge (armour).

:func:`harm` is a memoised sub-step: the damage roll, the mitigation and the hit
points that are left, summarised by the values that change (hit points, armour hit
points); the numbers of the explanation ride along outside equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from fracas.dice import Roller, Variable, parse_dice
from fracas.dice.rollers import announce


@cache
def damage_dice(expression: str) -> Variable[int]:
    """The weapon's damage dice (parsed once)."""
    return parse_dice(expression)


@dataclass(frozen=True)
class Blow:
    """A damage roll to make (seed 001 · Step 4): weapon dice, critical multiplier, bonuses."""

    who: str
    weapon: str
    dice: str
    multiplier: int  # 1, or the weapon's critical multiplier on a Critical Hit
    bonuses: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Guard:
    """What reduces the damage: nothing, a won block, or a won sponge with this armour."""

    kind: str = "none"  # none | block | sponge
    block: int = 0
    dr: int = 0
    divisor: int = 1  # 2 after a confirmed critical sponge
    round_up: bool = False


@dataclass(frozen=True)
class Harm:
    """A blow's result: hit points and armour hit points after it (the summary), and
    the numbers behind it (outside equality)."""

    hp_after: int
    armour_after: int
    roll: int = field(default=0, compare=False)
    total: int = field(default=0, compare=False)
    blocked: int = field(default=0, compare=False)
    after_dr: int = field(default=0, compare=False)
    halved: int = field(default=-1, compare=False)
    absorbed: int = field(default=0, compare=False)
    through: int = field(default=0, compare=False)


def raw_damage(roll: int, blow: Blow) -> int:
    """Roll x multiplier + bonuses, never below 0."""
    return max(0, roll * blow.multiplier + sum(amount for _, amount in blow.bonuses))


def sponge(total: int, guard: Guard, armour_hp: int) -> tuple[int, int, int, int]:
    """A won sponge (seed 001 · Sponge Checks): reduce by DR, halve after a confirmed
    critical sponge, the armour absorbs what it has hit points for, the rest gets through.
    Returns (after DR, after halving, absorbed, through)."""
    after_dr = max(0, total - guard.dr)
    halved = after_dr
    if guard.divisor > 1:
        halved = -(-after_dr // guard.divisor) if guard.round_up else after_dr // guard.divisor
    absorbed = min(halved, armour_hp)
    return after_dr, halved, absorbed, halved - absorbed


def damage_bonus(blow: Blow) -> str:
    """What a blow adds to its dice, as a table says it (``× 3 + 1 (melee bonus,
    strength)``; "" for nothing)."""
    said = f"× {blow.multiplier}" if blow.multiplier > 1 else ""
    for label, amount in blow.bonuses:
        said += f" {'+' if amount >= 0 else '−'} {abs(amount)} ({label})"
    return said.strip()


def harm(roller: Roller, blow: Blow, guard: Guard, hp: int, armour_hp: int) -> Harm:
    """Roll the blow's damage and apply it through the guard to ``hp`` / ``armour_hp``."""
    announce(roller, blow.who, f"damage with {blow.weapon}", bonus=damage_bonus(blow))
    roll = roller.roll(damage_dice(blow.dice))
    total = raw_damage(roll, blow)
    if guard.kind == "block":
        through = max(0, total - guard.block)
        return Harm(max(0, hp - through), armour_hp, roll, total,
                    blocked=total - through, through=through)
    if guard.kind == "sponge":
        after_dr, halved, absorbed, through = sponge(total, guard, armour_hp)
        return Harm(max(0, hp - through), armour_hp - absorbed, roll, total,
                    after_dr=after_dr, halved=halved if guard.divisor > 1 else -1,
                    absorbed=absorbed, through=through)
    return Harm(max(0, hp - total), armour_hp, roll, total, through=total)
