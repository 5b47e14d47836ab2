"""The changing values of a genesys combatant, and helpers to read and change them.

Conditions are strings: ``prone`` (until removed), ``staggered:1`` (ends after
one more end of round beyond the current one), ``burning:2:6`` (two more turns
of 6 damage), ``out_of_ammo:Blaster``. Next-check effects are tokens consumed
by the combatant's next combat check: ``boost``, ``setback``, ``difficulty``,
``upgrade_difficulty``, ``upgrade_ability``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fracas.core.events import Changed
from fracas.core.model import Combatant


@dataclass(frozen=True)
class GenesysState:
    """Wounds, strain, standing minions, injuries, conditions, pending next-check dice,
    and the initiative check (rolled once per encounter)."""

    wounds: int
    strain: int
    members: int
    incapacitated: bool
    critical_injuries: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    next_check: tuple[str, ...] = ()
    initiative: tuple[int, ...] = ()  # (place in the initiative order,) once rolled
    wielding: str | None = None  # the weapon in use: the last one attacked with


def condition_name(text: str) -> str:
    return text.split(":", 1)[0]


def find(conditions: tuple[str, ...], name: str) -> str | None:
    """The first condition with this name (``staggered:1`` for ``staggered``)."""
    return next((c for c in conditions if condition_name(c) == name), None)


def has(c: Combatant, name: str) -> bool:
    return find(c.state.conditions, name) is not None


def without(conditions: tuple[str, ...], name: str) -> tuple[str, ...]:
    return tuple(c for c in conditions if condition_name(c) != name)


def with_condition(conditions: tuple[str, ...], text: str) -> tuple[str, ...]:
    """Add (or replace, keeping the longer duration) a condition."""
    name = condition_name(text)
    old = find(conditions, name)
    if old is not None and _rounds(old) is None:
        return conditions  # already for the whole encounter
    if old is not None and _rounds(text) is not None and (_rounds(old) or 0) >= (
            _rounds(text) or 0) and name != "burning":
        return conditions
    return (*without(conditions, name), text)


def _rounds(text: str) -> int | None:
    parts = text.split(":")
    if len(parts) >= 2 and parts[1].isdigit():
        return int(parts[1])
    return None


@lru_cache(maxsize=1024)
def tick_round(conditions: tuple[str, ...]) -> tuple[str, ...]:
    """The end of a round: counted conditions count down, those at 0 end (worked out once
    per set of conditions: most combatants end most rounds with the same ones)."""
    out = []
    for c in conditions:
        parts = c.split(":")
        name = parts[0]
        if name in ("burning", "out_of_ammo", "dying") or len(parts) < 2 or not parts[1].isdigit():
            out.append(c)
            continue
        n = int(parts[1])
        if n > 0:
            out.append(":".join([name, str(n - 1), *parts[2:]]))
    return tuple(out)


def change(rule: str, c: Combatant, field: str, after: object) -> Changed | None:
    """A Changed event, or None when nothing changes."""
    before = getattr(c.state, field)
    if before == after:
        return None
    return Changed(rule, c.id, field, before, after)
