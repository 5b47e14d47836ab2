"""Building checks and blows from a sheet: skill ranks, attribute modifiers, boons and
banes, trait and melee bonus damage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fracas.core.model import Combatant
from fracas.errors import RulesError
from fracas.systems.contest.contest import Check
from fracas.systems.contest.damage import Blow
from fracas.systems.contest.sheet import Defaults, Sheet, Trait, Weapon, lookup

FIGHTING_DEFENSIVELY = "fighting defensively"
PRONE = "prone"
DYING = "dying"


@dataclass(frozen=True)
class State:
    """What changes in a fight: hit points, armour hit points, conditions (prone, fighting
    defensively, dying), dropped weapons, the place in the initiative order."""

    hp: int
    max_hp: int
    armour_hp: int
    max_armour_hp: int
    conditions: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    initiative: int = 0  # place in the initiative order (1 acts first; 0: not rolled yet)


def initial_state(sheet: Sheet) -> State:
    hp = sheet.hp.max if sheet.hp.current is None else sheet.hp.current
    armour = sheet.armour
    max_armour = armour.hp if armour else 0
    armour_hp = 0 if armour is None else (armour.hp if armour.current is None else armour.current)
    conditions = tuple(dict.fromkeys(sheet.conditions)) + ((DYING,) if hp <= 0 else ())
    dropped = tuple(w.name for w in sheet.weapons
                    if w.name.casefold() in {n.casefold() for n in sheet.disarmed})
    return State(hp, sheet.hp.max, armour_hp, max_armour, conditions, dropped)


def attribute_of(sheet: Sheet, skill: str, df: Defaults, weapon_kind: str | None = None
                 ) -> tuple[str, int]:
    """The attribute a check with ``skill`` adds, and its modifier ("" when none applies)."""
    name = lookup(sheet.skill_attributes, skill)
    if name is None:
        table = df.attributes.weapons if weapon_kind else df.attributes.skills
        name = lookup(table, weapon_kind or skill)
    if not name:
        return "", 0
    modifier = lookup(sheet.attributes, name)
    if modifier is None:
        return f"{name}, not on the sheet", df.attributes.missing_modifier
    return str(name), int(modifier)


def make_check(c: Combatant, skill: str, label: str, net: int, df: Defaults,
               weapon_kind: str | None = None) -> Check:
    """d20 (net boons/banes) + skill rank (untrained: the table default) + attribute."""
    sheet: Sheet = c.sheet
    rank = sheet.rank(skill)
    rank_label = skill
    if rank is None:
        rank, rank_label = df.check.untrained_rank, f"{skill}, untrained"
    attribute, modifier = attribute_of(sheet, skill, df, weapon_kind)
    return Check(c.name, label, rank, rank_label, attribute, modifier, net, df.check.die)


def usable_weapon(c: Combatant, name: str | None) -> Weapon:
    """The named weapon, on the sheet and not dropped (else a RulesError)."""
    sheet: Sheet = c.sheet
    weapon = sheet.weapon(name or "")
    if weapon is None:
        raise RulesError(f"{c.name} has no weapon {name!r} (weapons: "
                         f"{', '.join(w.name for w in sheet.weapons)})")
    if weapon.name in c.state.dropped:
        raise RulesError(f"{c.name} was disarmed of the {weapon.name} and must recover it first")
    return weapon


def held_weapons(c: Combatant) -> list[Weapon]:
    sheet: Sheet = c.sheet
    return [w for w in sheet.weapons if w.name not in c.state.dropped]


def traits_of(c: Combatant, table: Mapping[str, Trait]) -> list[Trait]:
    sheet: Sheet = c.sheet
    out = []
    for entry in sheet.traits:
        out.append(table[entry.casefold()] if isinstance(entry, str) else entry)
    return out


def has_parry(c: Combatant, table: Mapping[str, Trait]) -> bool:
    return any(t.parry for t in traits_of(c, table))


def blow(c: Combatant, weapon: Weapon, critical: bool, df: Defaults,
         table: Mapping[str, Trait]) -> Blow:
    """The damage roll of ``weapon`` (seed 001 · Step 4): dice (x the critical multiplier
    on a Critical Hit) + trait bonuses + melee bonus damage."""
    bonuses: list[tuple[str, int]] = []
    sheet: Sheet = c.sheet
    if weapon.kind == "melee" and (not critical or df.damage.melee_bonus_on_critical):
        attribute = df.damage.melee_bonus_attribute
        modifier = lookup(sheet.attributes, attribute)
        if modifier is not None:
            bonuses.append((f"melee bonus, {attribute}", int(modifier)))
    for trait in traits_of(c, table):
        if trait.damage and trait.applies_to in ("all", weapon.kind):
            bonuses.append((trait.name, trait.damage))
    multiplier = weapon.crit_multiplier if critical else 1
    return Blow(c.name, weapon.name, weapon.damage, multiplier, tuple(bonuses))
