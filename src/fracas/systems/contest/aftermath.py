"""After the contest: who deals damage and how it is reduced (Step 2's defenses, Sponge
Checks, critical hits), and each blow landing (Step 4).

:func:`plan` reads a contest's result (no dice); :func:`strike` is a memoised sub-step:
one blow's damage roll, the block or armour in its way and the hit points it leaves,
with its explanation told once per distinct result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fracas.core.events import Event, Note
from fracas.dice import Roller
from fracas.frozen import HashOnce
from fracas.systems.contest.checks import DYING
from fracas.systems.contest.contest import ContestResult, cached_hash
from fracas.systems.contest.damage import Blow, Guard, harm
from fracas.systems.contest.events import (
    CONTEST,
    DAMAGE,
    DEFENSE,
    HIT_POINTS,
    O_BLOCK_CRIT,
    O_CRIT_MELEE,
    O_DISARMED,
    O_HALVING,
    R_CALLED,
    SPONGE,
    ContestArmour,
    ContestDamage,
    ContestWounded,
    Tracker,
)
from fracas.systems.contest.sheet import Defaults, Weapon

FUMBLES = {"": "none", "fumble": "weapon kept", "disarmed": "disarmed"}


@dataclass(frozen=True)
class Plan:
    """What a contest's result means, before any damage die: whether the attacker deals
    damage (and whether it is a Critical Hit), what guards the defender, whether the
    counter attack lands, the outcome's name and the details the odds report."""

    notes: tuple[Event, ...]
    deals: bool
    critical: bool
    guard: Guard
    outcome: str
    hit: bool
    counter_lands: bool
    counter_critical: bool
    counter_notes: tuple[Event, ...]
    details: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Fighters:
    """Names and the facts about the weapons and armour a plan's explanation needs."""

    attacker: str
    defender: str
    kind: str  # dodge | block | sponge | counter
    weapon: Weapon
    item: Weapon | None  # blocking item or counter-attack weapon
    parry: bool
    armour: str
    armour_dr: int
    called_shot: bool
    attacker_melee_bonus: bool  # the sheet gives the melee bonus attribute
    defender_melee_bonus: bool


def _defender_fumble(kind: str, fumble: str) -> str:
    if not fumble:
        return "none"
    if kind == "dodge":
        return "prone"
    if kind in ("block", "sponge"):
        return "knocked back"
    return FUMBLES[fumble]


def _critical_notes(weapon: Weapon, has_bonus: bool, df: Defaults) -> list[Event]:
    out: list[Event] = [Note(CONTEST, f"a confirmed critical with a weapon skill is a Critical "
                                      f"Hit: the {weapon.name}'s roll × "
                                      f"{weapon.crit_multiplier}")]
    if weapon.kind == "melee" and has_bonus and not df.damage.melee_bonus_on_critical:
        attribute = df.damage.melee_bonus_attribute
        out.append(Note(O_CRIT_MELEE, "a critical's damage is the roll × the multiplier plus "
                                      f"trait bonuses: no melee bonus ({attribute})"))
    return out


def _guard(f: Fighters, c: ContestResult, critical: bool, deals: bool, df: Defaults
           ) -> tuple[Guard, list[Event]]:
    """A won block (the item's reduction) or a won sponge (the armour), if any."""
    notes: list[Event] = []
    if not deals:
        return Guard(), notes
    if c.winner != "defender":
        if f.kind == "sponge":
            notes.append(Note(SPONGE, f"{f.defender} does not win the sponge contest: the "
                                      "armour does not help"))
        return Guard(), notes
    if f.kind == "block":
        assert f.item is not None
        if critical and not df.block.reduces_critical:
            notes.append(Note(O_BLOCK_CRIT, f"{f.defender} wins the block, but a Critical Hit's "
                                            "damage is not reduced by a block"))
            return Guard(), notes
        if critical:
            notes.append(Note(O_BLOCK_CRIT, "the won block reduces the Critical Hit's damage "
                                            "too (the seed exempts critical damage from "
                                            "armour only)"))
        return Guard("block", block=f.item.block), notes
    if f.kind != "sponge":
        return Guard(), notes
    if critical:
        notes.append(Note(SPONGE, "critical hit damage is not sponged by armour, even though "
                                  "the sponge contest was won"))
        return Guard(), notes
    dr = f.armour_dr
    if f.called_shot and df.called_shot.ignores_dr:
        notes.append(Note(R_CALLED, f"a called shot: the {f.armour}'s DR does not apply"))
        dr = 0
    divisor = 1
    if c.d_crit == "confirmed":
        divisor = df.sponge.critical_divisor
        notes.append(Note(SPONGE, f"a confirmed critical sponge: the damage is divided by "
                                  f"{divisor} after damage reduction"))
        notes.append(Note(O_HALVING, f"fractions round {df.sponge.rounding}"))
    return Guard("sponge", dr=dr, divisor=divisor, round_up=df.sponge.rounding == "up"), notes


def plan(f: Fighters, c: ContestResult, df: Defaults) -> Plan:
    """Read the contest's result (Steps 2 and 3): a pure function, no dice."""
    threat, critical, won = c.a_crit != "", c.a_crit == "confirmed", c.winner
    parried = f.kind == "counter" and f.parry and won == "defender" and not threat
    keeps = df.disarm.dropped_weapon_deals_damage
    a_dropped = c.a_fumble == "disarmed" and not keeps
    d_dropped = f.kind == "counter" and c.d_fumble == "disarmed" and not keeps
    if a_dropped:
        deals = False
    elif f.kind in ("sponge", "counter"):
        deals = not parried
    else:
        deals = won == "attacker" or threat or (f.kind == "block" and won == "defender")
    notes: list[Event] = []
    if a_dropped:
        notes.append(Note(O_DISARMED, f"{f.attacker} was disarmed of the {f.weapon.name} during "
                                      f"the contest: it deals no damage with the dropped "
                                      "weapon"))
    if threat and deals and won != "attacker" and f.kind in ("dodge", "block"):
        notes.append(Note(CONTEST, f"{f.defender} {'won' if won else 'deadlocked'} the "
                                   f"contest, but {f.attacker}'s critical threat deals damage "
                                   "regardless"))
    if critical and deals:
        notes += _critical_notes(f.weapon, f.attacker_melee_bonus, df)
    guard, guard_notes = _guard(f, c, critical, deals, df)
    notes += guard_notes
    if parried:
        notes.append(Note(DEFENSE, f"{f.defender} wins the counter attack with Parry: no "
                                   f"damage from {f.attacker}'s {f.weapon.name}"))
    if a_dropped:
        outcome = "disarmed"
    elif deals:
        outcome = ("critical" if critical else "blocked" if guard.kind == "block"
                   else "sponged" if guard.kind == "sponge"
                   else "threat" if won != "attacker" and f.kind in ("dodge", "block")
                   else "hit")
    else:
        outcome = "parried" if parried else "dodged" if won == "defender" else "deadlock"
        if outcome == "dodged":
            notes.append(Note(DEFENSE, f"{f.defender} wins the dodge: no damage"))
        elif outcome == "deadlock":
            notes.append(Note(CONTEST, "the attack is deadlocked: no damage"))
    lands = f.kind == "counter" and (won == "defender" or c.d_crit != "") and not d_dropped
    counter_notes: list[Event] = []
    if f.kind == "counter":
        assert f.item is not None
        if d_dropped:
            counter_notes.append(Note(O_DISARMED, f"{f.defender} was disarmed of the "
                                                  f"{f.item.name} during the contest: the "
                                                  "counter attack deals no damage"))
        elif not lands:
            counter_notes.append(Note(DEFENSE, f"{f.defender} does not win the contest: the "
                                               "counter attack deals no damage"))
        elif won != "defender":
            counter_notes.append(Note(CONTEST, f"{f.defender}'s critical threat: the counter "
                                               "attack deals damage regardless"))
        else:
            counter_notes.append(Note(DEFENSE, f"{f.defender} wins the contest: the counter "
                                               f"attack deals the {f.item.name}'s damage to "
                                               f"{f.attacker}"))
        if lands and c.d_crit == "confirmed":
            counter_notes += _critical_notes(f.item, f.defender_melee_bonus, df)
    details = (("contest", won or "deadlock"), ("attacker_critical", c.a_crit or "none"),
               ("defender_critical", c.d_crit or "none"),
               ("attacker_fumble", FUMBLES[c.a_fumble]),
               ("defender_fumble", _defender_fumble(f.kind, c.d_fumble)))
    # seed 001 · Step 3: "If the attacking character has won the attack contest or was
    # opposed by a counter attack, they are said to have hit the target" (a sponging
    # defender "instantly fails the attack contest"); a threat's damage is not a hit
    hit = not a_dropped and (won == "attacker" or f.kind in ("sponge", "counter"))
    return Plan(tuple(notes), deals, critical, guard, outcome, hit, lands,
                lands and c.d_crit == "confirmed", tuple(counter_notes), details)


@dataclass(frozen=True)
class Target:
    """Who a blow lands on, as the explanation needs it (small and hashable)."""

    id: str
    name: str
    hp: int
    armour_hp: int
    armour: str
    conditions: tuple[str, ...]


@dataclass(frozen=True)
class Struck:
    """A blow's result: hit points and armour hit points after it; its events ride along."""

    hp_after: int
    armour_after: int
    events: tuple[Event, ...] = field(compare=False)

    def __hash__(self) -> int:
        return cached_hash(self)

    __getstate__ = HashOnce.__getstate__


def strike(roller: Roller, b: Blow, guard: Guard, t: Target) -> Struck:
    """One blow (Step 4): the damage roll, the block or armour, the hit points left."""
    h = harm(roller, b, guard, t.hp, t.armour_hp)
    tracker = Tracker()
    rule = DAMAGE
    if any(label.startswith("melee bonus") for label, _ in b.bonuses):
        rule = f"{DAMAGE} (+ table default · Melee bonus damage)"
    out: list[Event] = [ContestDamage(rule, b.who, b.weapon, b.dice, h.roll, b.multiplier,
                                      b.bonuses, h.total)]
    if guard.kind == "block":
        out.append(Note(DEFENSE, f"{t.name}'s block takes {h.blocked} off: {h.through} gets "
                                 "through"))
    if guard.kind == "sponge":
        out.append(ContestArmour(SPONGE, t.name, t.armour, h.total, guard.dr, h.halved,
                                 h.absorbed, t.armour_hp, h.armour_after, h.through))
        out += tracker.change(SPONGE, t.id, "armour_hp", t.armour_hp, h.armour_after)
        if h.armour_after == 0 < t.armour_hp:
            out.append(Note(SPONGE, f"the {t.armour} is broken: no more sponging or damage "
                                    "reduction, its other effects stay"))
    if h.through <= 0:
        out.append(Note(HIT_POINTS, f"{t.name} is unhurt"))
    else:
        out.append(ContestWounded(HIT_POINTS, t.name, h.through, t.hp, h.hp_after))
        out += tracker.change(HIT_POINTS, t.id, "hp", t.hp, h.hp_after)
        if h.hp_after <= 0:
            out += tracker.add(HIT_POINTS, t.id, "conditions", t.conditions, DYING)
    return Struck(h.hp_after, h.armour_after, tuple(out))
