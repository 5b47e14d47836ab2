"""Assembling a dice pool (seed 004 · Step 2): characteristic and skill, difficulty,
defense, qualities, conditions, upgrades and downgrades, boost and setback."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fracas.core.events import Event
from fracas.core.model import Combatant
from fracas.core.words import count
from fracas.systems.genesys import state as st
from fracas.systems.genesys.dice import PoolSpec
from fracas.systems.genesys.events import GenesysPoolStep
from fracas.systems.genesys.sheet import Options, Sheet, Weapon
from fracas.systems.genesys.tables import (
    difficulty_name,
    injuries,
    qualities,
    ranges,
    skills,
    talents,
)

SEED = "seed 004"
POOL_RULE = f"{SEED} · Step 2: assemble the pool"
DEFAULT = "table default"
TALENTS = "seed 004 · Step 2: talents (data/talents.yaml)"


def upgrade(spec: PoolSpec, n: int, positive: bool) -> PoolSpec:
    """Upgrade ability to proficiency (difficulty to challenge) n times; with none left,
    add an ability (difficulty) die (public fact)."""
    low, high = ("ability", "proficiency") if positive else ("difficulty", "challenge")
    for _ in range(n):
        if spec.count(low):
            spec = dataclasses.replace(spec, **{low: spec.count(low) - 1,
                                                high: spec.count(high) + 1})
        else:
            spec = dataclasses.replace(spec, **{low: spec.count(low) + 1})
    return spec


def downgrade(spec: PoolSpec, n: int, positive: bool, mode: str) -> PoolSpec:
    """Downgrade proficiency to ability (challenge to difficulty) n times; with none left,
    the table default ``downgrade_without_die`` says: ignore, or remove_die."""
    low, high = ("ability", "proficiency") if positive else ("difficulty", "challenge")
    for _ in range(n):
        if spec.count(high):
            spec = dataclasses.replace(spec, **{low: spec.count(low) + 1,
                                                high: spec.count(high) - 1})
        elif mode == "remove_die" and spec.count(low):
            spec = dataclasses.replace(spec, **{low: spec.count(low) - 1})
    return spec


def add(spec: PoolSpec, **counts: int) -> PoolSpec:
    return dataclasses.replace(spec, **{k: spec.count(k) + v for k, v in counts.items()})


def characteristic_value(c: Combatant, name: str) -> int:
    """A characteristic less the Horrific/Gruesome Injury reductions (not below 1)."""
    value: int = c.sheet.characteristics.get(name)
    for injury in c.state.critical_injuries:
        if injury.endswith(f"({name.capitalize()})"):
            value -= 1
    return max(1, value)


def skill_rank(c: Combatant, skill: str) -> tuple[int, str]:
    """The rank a check uses: a minion group's is its standing members minus one."""
    sheet: Sheet = c.sheet
    if sheet.adversary == "minion":
        if not sheet.has_skill(skill):
            return 0, f"{skill} is not a group skill"
        rank = min(5, max(0, c.state.members - 1))
        return rank, f"group of {c.state.members}: rank {rank}"
    return sheet.rank(skill), f"{skill} {sheet.rank(skill)}"


@dataclass
class PoolBuilder:
    """Builds a pool step by step, with one event per step."""

    who: str
    spec: PoolSpec = dataclasses.field(default_factory=PoolSpec)
    events: list[Event] = dataclasses.field(default_factory=list)

    def step(self, rule: str, source: str, change: str, spec: PoolSpec) -> None:
        self.spec = spec
        self.events.append(GenesysPoolStep(rule, self.who, source, change,
                                           spec.notation()))

    def base(self, c: Combatant, skill: str) -> None:
        """The larger of characteristic and skill is the pool size, the smaller the number
        of dice upgraded to proficiency."""
        char = skills()[skill].characteristic
        value = characteristic_value(c, char)
        rank, rank_text = skill_rank(c, skill)
        spec = PoolSpec(proficiency=min(value, rank), ability=max(value, rank) - min(value, rank))
        self.step(POOL_RULE, f"{char.capitalize()} {value} and {rank_text}",
                  f"{max(value, rank)} dice, {min(value, rank)} upgraded to proficiency", spec)


def own_check_effects(c: Combatant, characteristic: str, combat: bool
                      ) -> list[tuple[str, dict[str, int]]]:
    """Dice a combatant's own injuries and conditions add to its checks."""
    out: list[tuple[str, dict[str, int]]] = []
    table = injuries()
    for name in c.state.critical_injuries:
        row = table.by_name(name)
        if row is None or row.effects.checks is None:
            continue
        eff = row.effects.checks
        if eff.characteristics and characteristic not in eff.characteristics:
            continue
        if eff.combat_only and not combat:
            continue
        dice = {"setback": eff.setback, "difficulty": eff.difficulty,
                "upgrade_difficulty": eff.upgrade_difficulty, "no_boost": int(eff.no_boost)}
        out.append((f"Critical Injury {name}", {k: v for k, v in dice.items() if v}))
    if st.has(c, "disoriented"):
        out.append(("disoriented", {"setback": 1}))
    if combat and st.has(c, "guarded"):
        out.append(("Guarded Stance", {"setback": 1}))
    for token in c.state.next_check if combat else ():
        out.append((f"next-check effect ({token})", {token: 1}))
    return out


def defense_value(target: Combatant, melee: bool, max_defense: int) -> tuple[int, str]:
    """The target's melee or ranged defense, with Defensive/Deflection and bonuses."""
    sheet: Sheet = target.sheet
    kind = "melee" if melee else "ranged"
    if st.has(target, "exposed"):
        return 0, f"{kind} defense negated this round"
    value = sheet.defense.melee if melee else sheet.defense.ranged
    parts = [f"{kind} defense {value}"]
    quality = "Defensive" if melee else "Deflection"
    in_use = sheet.weapon(target.state.wielding)
    best = in_use.rating(quality) if in_use is not None else 0
    if in_use is not None and best:
        value += best
        parts.append(f"{quality} {best} (the {in_use.name} in use)")
    if st.has(target, "defended"):
        value += 1
        parts.append("+1 defense bought with advantage")
    if melee and st.has(target, "guarded"):
        value += 1
        parts.append("Guarded Stance +1")
    if value > max_defense:
        parts.append(f"capped at {max_defense} ({DEFAULT} · max_defense)")
        value = max_defense
    return value, ", ".join(parts)


def attack_pool(defaults: Any, attacker: Combatant, target: Combatant, weapon: Weapon,
                options: Options, auto_fire: bool, band: str, band_note: str,
                auto_note: str = "") -> tuple[PoolSpec, list[Event], bool]:
    """The attack's pool and the events explaining it; the bool: boost dice removed."""
    skill = skills()[weapon.skill]
    melee = skill.combat == "melee"
    b = PoolBuilder(attacker.id)
    b.base(attacker, weapon.skill)
    if melee:
        n = ranges().melee
        b.step(POOL_RULE, "melee attack", f"always {difficulty_name(n)}: +{n} difficulty",
               add(b.spec, difficulty=n))
    else:
        n = ranges().bands[band]  # type: ignore[index]
        b.step(POOL_RULE + " (Table I.6-1)", f"ranged attack at {band} range{band_note}",
               f"{difficulty_name(n)}: +{n} difficulty", add(b.spec, difficulty=n))
    if auto_fire:
        extra = qualities()["Auto-fire"].difficulty
        b.step(f"{SEED} · Step 4: item qualities", f"Auto-fire{auto_note}",
               f"+{extra} difficulty",
               add(b.spec, difficulty=extra))
    defense, text = defense_value(target, melee, defaults.max_defense)
    if defense:
        b.step(POOL_RULE, f"{target.name}'s {text}", f"+{defense} setback",
               add(b.spec, setback=defense))
    for name, effect in (("Accurate", "boost"), ("Inaccurate", "setback")):
        r = weapon.rating(name)
        if r:
            b.step(f"{SEED} · Step 4: item qualities", f"{name} {r}", f"+{r} {effect}",
                   add(b.spec, **{effect: r}))
    if options.aim:
        b.step(POOL_RULE, f"Aim ({options.aim} maneuver{'s' if options.aim > 1 else ''})",
               f"+{options.aim} boost", add(b.spec, boost=options.aim))
    if st.has(target, "prone"):
        if melee and defaults.prone_melee_boost:
            n = defaults.prone_melee_boost
            b.step(f"{DEFAULT} · prone", f"{target.name} is prone (melee)", f"+{n} boost",
                   add(b.spec, boost=n))
        elif not melee and defaults.prone_ranged_setback:
            n = defaults.prone_ranged_setback
            b.step(f"{DEFAULT} · prone", f"{target.name} is prone (ranged)", f"+{n} setback",
                   add(b.spec, setback=n))
    if options.boost or options.setback:
        b.step(POOL_RULE, "conditions given with the attack",
               f"+{options.boost} boost, +{options.setback} setback",
               add(b.spec, boost=options.boost, setback=options.setback))
    _talents(b, attacker, weapon, options)
    return _finish(defaults, b, attacker, skill.characteristic, options)


def _talents(b: PoolBuilder, attacker: Combatant, weapon: Weapon, options: Options) -> None:
    """The attacker's talents that add dice or upgrades to this check (seed 004, Step 2:
    "any applicable talents"), per rank when ranked; data/talents.yaml."""
    table = talents()
    for name, rank in attacker.sheet.talents:
        t = table[name]
        if (t.skills and weapon.skill not in t.skills) or (t.aiming and not options.aim):
            continue
        n = rank if t.ranked else 1
        changes, spec = [], b.spec
        if t.boost:
            spec = add(spec, boost=t.boost * n)
            changes.append(f"+{t.boost * n} boost")
        if t.remove_setback:
            gone = min(spec.count("setback"), t.remove_setback * n)
            spec = dataclasses.replace(spec, setback=spec.count("setback") - gone)
            changes.append(f"-{gone} setback")
        if t.upgrade_ability:
            spec = upgrade(spec, t.upgrade_ability * n, True)
            changes.append(f"{count(t.upgrade_ability * n, 'upgrade')} of ability")
        if changes:
            b.step(TALENTS, f"talent {name}" + (f" {rank}" if t.ranked else ""),
                   ", ".join(changes), spec)


def _finish(defaults: Any, b: PoolBuilder, c: Combatant, characteristic: str,
            options: Options | None) -> tuple[PoolSpec, list[Event], bool]:
    up_a = options.upgrade_ability if options else 0
    up_d = options.upgrade_difficulty if options else 0
    down_a = options.downgrade_ability if options else 0
    down_d = options.downgrade_difficulty if options else 0
    no_boost = False
    for source, dice in own_check_effects(c, characteristic, options is not None):
        up_a += dice.get("upgrade_ability", 0)
        up_d += dice.get("upgrade_difficulty", 0)
        no_boost = no_boost or bool(dice.get("no_boost"))
        plain = {k: v for k, v in dice.items() if k in ("boost", "setback", "difficulty")}
        if plain:
            b.step(POOL_RULE, source, ", ".join(f"+{v} {k}" for k, v in plain.items()),
                   add(b.spec, **plain))
    rule = f"{POOL_RULE} (upgrades)"
    if up_a:
        b.step(rule, "upgrade the ability", count(up_a, "time"), upgrade(b.spec, up_a, True))
    if up_d:
        b.step(rule, "upgrade the difficulty", count(up_d, "time"), upgrade(b.spec, up_d, False))
    mode = defaults.downgrade_without_die
    drule = f"{rule}; {DEFAULT} · downgrade_without_die={mode}"
    if down_a:
        b.step(drule, "downgrade the ability", count(down_a, "time"),
               downgrade(b.spec, down_a, True, mode))
    if down_d:
        b.step(drule, "downgrade the difficulty", count(down_d, "time"),
               downgrade(b.spec, down_d, False, mode))
    if no_boost and b.spec.boost:
        b.step(f"{SEED} · Critical Injury effects", "Scattered Senses", "all boost dice removed",
               dataclasses.replace(b.spec, boost=0))
    return b.spec, b.events, no_boost


def simple_pool(defaults: Any, c: Combatant, skill: str) -> tuple[PoolSpec, tuple[Event, ...]]:
    """A Simple check (no difficulty), e.g. initiative (cached by what it reads of the
    combatant: its id and sheet, injuries, standing minions and conditions)."""
    s = c.state
    return _simple_pool(defaults, skill, Read((c,), (c.id, s.critical_injuries, s.members,
                                                      s.conditions)))


@lru_cache(maxsize=1024)
def _simple_pool(defaults: Any, skill: str, read: Read) -> tuple[PoolSpec, tuple[Event, ...]]:
    c = read.combatants[0]
    b = PoolBuilder(c.id)
    b.base(c, skill)
    spec, events, _ = _finish(defaults, b, c, skills()[skill].characteristic, None)
    return spec, tuple(events)


class Read:
    """Combatants as a rule reads them, as a cache key: ``key`` is what the rule reads of
    their state (and ids, names); equal when the keys and the combatants' sheets are,
    hashed by the key alone (the sheets stay the same through a fight, and a pydantic
    model hashes slowly). The rule is handed ``combatants``, whatever else they hold
    (wounds, strain, initiative) left unread."""

    __slots__ = ("_hash", "combatants", "key", "sheets")

    def __init__(self, combatants: tuple[Combatant, ...], key: tuple[Any, ...]) -> None:
        self.combatants, self.key = combatants, key
        self.sheets = tuple(c.sheet for c in combatants)
        self._hash = hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Read) and self._hash == other._hash and (
            self.key == other.key and self.sheets == other.sheets)
