"""Steps 1 and 2 of seed 001 (declare an attack, declare a defense) and everything the
contest needs before a die is rolled: the checks, boons and banes, the possible blows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from fracas.core.events import Event, Note
from fracas.core.model import Action, Combatant
from fracas.errors import RulesError
from fracas.systems.contest.aftermath import Plan
from fracas.systems.contest.checks import (
    FIGHTING_DEFENSIVELY,
    blow,
    has_parry,
    held_weapons,
    make_check,
    usable_weapon,
)
from fracas.systems.contest.contest import Check, ContestResult, ContestRules, ContestSetup
from fracas.systems.contest.damage import Blow
from fracas.systems.contest.events import (
    DECLARE,
    DEFENSE,
    O_COUNTER_BANE,
    O_UNTRAINED,
    R_CALLED,
    R_CHECK,
    R_DEFENSIVE,
    ContestBoons,
    Tracker,
)
from fracas.systems.contest.narrate import dice_text
from fracas.systems.contest.sheet import Defaults, Options, Sheet, Trait, Weapon

MODES = {"normal": "fighting normally", "called_shot": "a called shot",
         "defensive": "fighting defensively"}


@dataclass(frozen=True)
class Defense:
    """The defense declared (Step 2) and what it uses."""

    kind: str
    skill: str
    item: Weapon | None  # the blocking item, or the counter-attack weapon
    parry: bool


def block_item(t: Combatant, name: str | None) -> Weapon | None:
    """The named blocking item, else the held item with the best block value."""
    held = [w for w in held_weapons(t) if w.block > 0]
    if name is not None:
        return next((w for w in held if w.name.casefold() == name.casefold()), None)
    return max(held, key=lambda w: w.block, default=None)


def counter_weapon(t: Combatant, name: str | None) -> Weapon | None:
    """The named counter-attack weapon, else the first held weapon."""
    held = held_weapons(t)
    if name is not None:
        return next((w for w in held if w.name.casefold() == name.casefold()), None)
    return held[0] if held else None


def declare_defense(t: Combatant, opts: Options, traits: Mapping[str, Trait]) -> Defense:
    """Step 2: the defense and its item; a RulesError when the defender cannot use it."""
    kind = opts.defense
    if kind == "block":
        item = block_item(t, opts.block_item)
        if item is None:
            raise RulesError(f"{t.name} holds no blocking item"
                             + (f" named {opts.block_item!r}" if opts.block_item else ""))
        return Defense(kind, "block", item, False)
    if kind == "counter":
        item = counter_weapon(t, opts.counter_weapon)
        if item is None:
            raise RulesError(f"{t.name} holds no weapon to counter-attack with"
                             + (f" named {opts.counter_weapon!r}" if opts.counter_weapon else ""))
        return Defense(kind, item.skill, item, has_parry(t, traits))
    if kind == "sponge":
        sheet: Sheet = t.sheet
        if sheet.armour is None or t.state.armour_hp <= 0:
            raise RulesError(f"{t.name} wears no armour able to sponge (broken at 0 HP)")
    return Defense(kind, kind, None, False)


def _defense_text(a: Combatant, t: Combatant, d: Defense) -> str:
    if d.kind == "dodge":
        return f"{t.name} declares Dodge: winning the contest avoids all damage"
    if d.kind == "block":
        assert d.item is not None
        return (f"{t.name} declares Block with the {d.item.name}: winning the contest reduces "
                f"the damage by {d.item.block}")
    if d.kind == "sponge":
        armour = t.sheet.armour
        return (f"{t.name} declares Sponge: the attack hits, and winning the sponge contest "
                f"lets the {armour.name} (DR {armour.dr}, {t.state.armour_hp} HP) take it")
    assert d.item is not None
    parry = (f"; with Parry, winning also means taking no damage from {a.name}"
             if d.parry else "")
    return (f"{t.name} declares a Counter Attack with the {d.item.name}: {a.name} hits either "
            f"way, and winning the contest deals the {d.item.name}'s damage to {a.name}{parry}")


def contest_rules(df: Defaults) -> ContestRules:
    c = df.contest
    return ContestRules(df.check.critical_threat, df.check.critical_failure,
                        c.ties_to == "defender", df.weapon_roll.difficulty, c.rolls,
                        c.wins_needed, c.defender_threat_counts, c.attacker_threat_ends_contest,
                        c.counter_makes_all_rolls)


def boon_sources(a: Combatant, t: Combatant, opts: Options, df: Defaults
                 ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """Each side's boons (+) and banes (-) by source (Step 3: totals per player)."""
    mine: list[tuple[str, int]] = []
    if opts.mode == "called_shot" and df.called_shot.banes:
        mine.append(("called shot", -df.called_shot.banes))
    defensive = opts.mode == "defensive" or FIGHTING_DEFENSIVELY in a.state.conditions
    if defensive and df.fight_defensively.attack_banes:
        mine.append(("fighting defensively", -df.fight_defensively.attack_banes))
    mine += [("situational", n) for n in (opts.boons, -opts.banes) if n]
    theirs: list[tuple[str, int]] = []
    fd = df.fight_defensively
    if FIGHTING_DEFENSIVELY in t.state.conditions:
        if fd.reaction_boons:
            theirs.append(("fighting defensively", fd.reaction_boons))
        if opts.defense == "counter" and fd.counter_takes_bane and fd.attack_banes:
            theirs.append(("fighting defensively, a counter attack is a check to hit",
                           -fd.attack_banes))
    theirs += [("situational", n) for n in (opts.defender_boons, -opts.defender_banes) if n]
    return mine, theirs


@dataclass(frozen=True)
class Prepared:
    """What an attack is before any die is rolled."""

    weapon: Weapon
    defense: Defense
    setup: ContestSetup
    opening: tuple[Event, ...]
    counter_weapon: str | None
    blows: Mapping[tuple[str, bool], Blow]
    plans: dict[ContestResult, Plan] = field(default_factory=dict, compare=False)


def prepare(action: Action, a: Combatant, t: Combatant, df: Defaults,
            traits: Mapping[str, Trait]) -> Prepared:
    """Steps 1 and 2, and the checks of Step 3: everything before the first die."""
    if a.id == t.id:
        raise RulesError(f"{a.name} cannot attack themself")
    opts = action.options
    assert isinstance(opts, Options)
    weapon = usable_weapon(a, action.weapon)
    defense = declare_defense(t, opts, traits)
    tracker = Tracker()
    events: list[Event] = [
        Note(DECLARE, f"{a.name} attacks {t.name} with the {weapon.name}, "
                      f"{MODES[opts.mode]}"),
        Note(DEFENSE, _defense_text(a, t, defense)),
    ]
    if opts.mode == "defensive":
        events.append(Note(DECLARE, f"{a.name} fights defensively: a bane on checks to hit, "
                                    "a boon on reactions, until the start of the next turn"))
        events += tracker.add(R_DEFENSIVE, a.id, "conditions", a.state.conditions,
                              FIGHTING_DEFENSIVELY)
    mine, theirs = boon_sources(a, t, opts, df)
    a_net, d_net = sum(n for _, n in mine), sum(n for _, n in theirs)
    counter = defense.item if defense.kind == "counter" else None
    setup = ContestSetup(
        attack=make_check(a, weapon.skill, f"{weapon.name} attack", a_net, df, weapon.kind),
        defense=_defense_check(t, defense, d_net, df),
        kind=defense.kind,
        attack_weapon_roll=make_check(a, weapon.skill, "weapon roll", 0, df, weapon.kind),
        defense_weapon_roll=(make_check(t, counter.skill, "weapon roll", 0, df,
                                        counter.kind) if counter else None),
        rules=contest_rules(df))
    for check in (setup.attack, setup.defense):
        missing = [f"no {label[:-11]} skill on the sheet, rank {amount} (untrained)"
                   for label, amount in check.parts() if label.endswith(", untrained")]
        missing += [f"no {label[:-18]} on the sheet, modifier {amount}"
                    for label, amount in check.parts()
                    if label.endswith(", not on the sheet")]
        if missing:
            events.append(Note(O_UNTRAINED, f"{check.who}'s {check.label} check: "
                               + "; ".join(missing)))
    for who, sources, check in ((a, mine, setup.attack), (t, theirs, setup.defense)):
        if sources:
            rule = R_CALLED if any(s == "called shot" for s, _ in sources) else (
                R_DEFENSIVE if any(s == "fighting defensively" for s, _ in sources)
                else R_CHECK)
            events.append(ContestBoons(rule, who.name, tuple(sources), check.net,
                                       dice_text(check)))
    if any(src.startswith("fighting defensively, a counter") for src, _ in theirs):
        events.append(Note(O_COUNTER_BANE, f"{t.name} fights defensively and counter attacks: "
                                           "the counter is a check to hit, so it takes the "
                                           "bane as well as the boon"))
    blows = {(who.id, crit): blow(who, w, crit, df, traits)
             for who, w in ((a, weapon), (t, counter)) if w is not None
             for crit in (False, True)}
    return Prepared(weapon, defense, setup, tuple(events),
                    counter.name if counter else None, blows)


def _defense_check(t: Combatant, d: Defense, net: int, df: Defaults) -> Check:
    if d.kind == "counter":
        assert d.item is not None
        return make_check(t, d.item.skill, f"{d.item.name} counter attack", net, df,
                          d.item.kind)
    return make_check(t, d.skill, d.kind, net, df)
