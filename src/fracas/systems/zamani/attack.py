"""Resolving a Zamani attack, step by step (seed 002 · Regular Attack, Controlled Attack,
Surprise, Defense; public facts · skill rolls, action table, damage).

1. optional half move first; focus and sacrifice adjust the roll;
2. surprise (stealth or ambush): an opposed roll; success puts the target on the
   action table's first column and costs everyone else the round;
3. the attack roll: d100 <= (skill + attribute) x 5 %, margin = target - roll;
4. the defense ranks pick the column, the margin the row: a result code;
5. a controlled attack needs H, X or C (else it misses as A) and then deals Light
   damage and its declared effect; a regular one deals rating x the grade's
   multiplier, less armor unless the result bypasses it, plus the table's effects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.core.events import Note, Outcome
from fracas.core.model import Action, Resolution, Roster
from fracas.dice.rollers import Roller, announce

from .defense import LIMITED, Defense, can_guard, own_defense
from .percentile import AttackRoll, Contest, skill_base
from .sheet import STANDARD_EFFECTS, Defaults, Options
from .state import (
    DEFAULT,
    PUBLIC,
    SEED,
    Changes,
    ZamaniDamage,
    ZamaniDefense,
    ZamaniLookup,
    ZamaniRoll,
    ZamaniTarget,
)
from .table import EFFECT_WORDS, GRADES, parse_code

if TYPE_CHECKING:
    from .rules import Zamani

FOCUS_PERCENT = 25
PERCENT_PER_RANK = 5


def _focus_lost(ch: Changes, cid: str, name: str, why: str) -> None:
    if ch.get(cid, "focus"):
        ch.events.append(Note(f"{SEED} · Focusing", f"{name} loses the focus benefit ({why})"))
        ch.set(f"{SEED} · Focusing", cid, "focus", "")


def _surprise(system: Zamani, roller: Roller, action: Action, roster: Roster, opts: Options,
              sacrifice: int, ch: Changes) -> bool:
    """Stealth (vs Fitness x 5) or ambush (vs the target's ambush skill or Fitness x 5)."""
    a, t = roster[action.actor], roster[action.target or ""]
    rule = f"{SEED} · Surprise"
    base = skill_base(a.sheet, opts.surprise, system.defaults)
    mods = ((f"sacrifice {sacrifice}", -PERCENT_PER_RANK * sacrifice),) if sacrifice else ()
    mine = base.percent + sum(v for _, v in mods)
    ch.events.append(ZamaniTarget(rule, a.name, opts.surprise, base.rank, base.attribute,
                                  base.attribute_rank, mods, mine,
                                  "" if base.trained else "untrained: rank 0"))
    their_rank = t.sheet.rank("ambush") if opts.surprise == "ambush" else None
    if their_rank is not None:
        tb = skill_base(t.sheet, "ambush", system.defaults)
        tmods = ((f"sacrifice {t.state.sacrifice}", -PERCENT_PER_RANK * t.state.sacrifice),
                 ) if t.state.sacrifice else ()
        theirs = tb.percent + sum(v for _, v in tmods)
        ch.events.append(ZamaniTarget(rule, t.name, "ambush", tb.rank, tb.attribute,
                                      tb.attribute_rank, tmods, theirs, "resists with ambush"))
        their_what = "ambush"
    else:
        fitness = t.sheet.attributes["fitness"]
        theirs = fitness * 5
        ch.events.append(Note(rule, f"{t.name} resists with Fitness × 5: {fitness} × 5 = "
                                    f"{theirs}%"))
        their_what = "Fitness"
    ties = system.defaults.surprise_ties
    ch.events.append(Note(f"{DEFAULT} · Surprise contest",
                          f"Opposed roll: the {opts.surprise} roll must succeed and beat "
                          f"{t.name}'s margin (a tie goes to the {ties})"))
    announce(roller, "gm", f"surprise contest: {a.name}'s {opts.surprise} roll, then "
             f"{t.name}'s {their_what} roll",
             f"{a.name} at most {mine}% and beating {t.name}'s margin")
    result = roller.roll(Contest(mine, theirs, ties == "attacker", "d100 twice"))
    ch.events.append(ZamaniRoll(rule, a.name, opts.surprise, result.attacker_roll, mine))
    ch.events.append(ZamaniRoll(rule, t.name, their_what, result.defender_roll, theirs))
    if not result.surprised:
        ch.events.append(Note(rule, f"No surprise: {t.name} sees it coming and defends "
                                    "normally"))
        return False
    ch.events.append(Note(rule, f"Surprise! {t.name} defends on the first column of the action "
                                "table; nobody else can act this round"))
    for cid in roster:
        if cid != a.id:
            ch.set(rule, cid, "lost_round", True)
    return True


def _guard_of(system: Zamani, action: Action, roster: Roster, opts: Options) -> str | None:
    """Who stands guard over the target (the option, or a guard in the fight)."""
    if opts.guard and opts.guard != "self":
        return opts.guard
    for cid, c in roster.items():
        if cid not in (action.actor, action.target) and c.state.guarding == action.target and (
                system.is_active(c)):
            return cid
    return None


def _defense(system: Zamani, action: Action, roster: Roster, opts: Options, kind: str,
             surprised: bool, ch: Changes) -> Defense:
    t = roster[action.target or ""]
    defaults: Defaults = system.defaults
    if surprised:
        return Defense(0, (), "surprised: as if no defensive skill", t.id)
    guard_id = _guard_of(system, action, roster, opts) if kind != "area" else None
    if guard_id is not None:
        g = roster[guard_id]
        why = ("has no shield or blocking weapon in hand" if not can_guard(g.sheet, g.state)
               else "is stunned or unconscious" if set(LIMITED) & set(g.state.conditions)
               else "lost this round to surprise" if g.state.lost_round else "")
        if not why:
            gd = own_defense(g, kind, False, "best", False, defaults)
            note = (f"{g.name} stands guard over {t.name} within reach: {g.name}'s defense "
                    f"replaces {t.name}'s (no guard bonus)")
            return Defense(gd.ranks, gd.parts, gd.basis, g.id, gd.use, (note, *gd.notes))
        ch.events.append(Note(f"{SEED} · Guarding", f"{g.name} cannot guard {t.name}: {why}"))
    limited = [c for c in LIMITED if c in t.state.conditions]
    if limited or opts.unseen:  # area weapons too: raw Dexterity is still Dexterity
        why = limited[0] if limited else "cannot see the attack"
        return Defense(0, (), f"{why}: not even Dexterity", t.id)
    guard_self = opts.guard == "self" or t.state.guarding == "self"
    return own_defense(t, kind, opts.cover, opts.defense, guard_self, defaults)


def _use_defense(defense: Defense, roster: Roster, ch: Changes) -> None:
    """Blocking and Acrobatics work once per combat round: record the use."""
    if not defense.use:
        return
    rule = f"{SEED} · Defense"
    who = defense.defender
    if defense.use == "acrobatics":
        ch.set(rule, who, "acrobatics_used", True)
        return
    item = defense.use.split(":", 1)[1]
    used: tuple[str, ...] = ch.get(who, "blocks_used")
    ch.set(rule, who, "blocks_used", (*used, item))


def _apply_effect(effect: str, target: str, roster: Roster, defaults: Defaults, ch: Changes,
                  rule: str) -> None:
    t = roster[target]
    if effect == "limb":
        n = ch.get(target, "limb_strikes") + 1
        penalty = defaults.limb_strike_penalty
        ch.events.append(Note(rule, f"Limb/joint strike: {t.name} has −{penalty} rank to "
                                    "defense and weapon attacks for the rest of the combat"))
        ch.set(rule, target, "limb_strikes", n)
    elif effect == "disarm":
        held = [n for n in ch.get(target, "in_hand") if (w := t.sheet.weapon(n)) is not None
                and w.hands > 0]
        if not held:
            ch.events.append(Note(rule, f"Disarm: {t.name} holds no weapon to drop"))
            return
        ch.events.append(Note(rule, f"Disarm: {t.name} drops the {held[0]} (readying it again "
                                    "takes an action)"))
        ch.set(rule, target, "in_hand", tuple(n for n in ch.get(target, "in_hand")
                                              if n != held[0]))
    elif effect == "prone":
        ch.events.append(Note(rule, f"{t.name} is knocked prone"))
        ch.add_condition(rule, target, "prone")
        _focus_lost(ch, target, t.name, "knocked prone")
    elif effect == "armor":
        ch.events.append(Note(rule, "The blow slips past armor"))
    else:
        ch.events.append(Note(rule, f"{t.name} suffers the declared effect: {effect}"))
        ch.add_condition(rule, target, effect)
        if effect in ("stunned", "unconscious"):
            _focus_lost(ch, target, t.name, effect)


def resolve_attack(system: Zamani, roller: Roller, action: Action, roster: Roster) -> Resolution:
    """One attack, from the first movement to the last state change."""
    defaults: Defaults = system.defaults
    table = system.table
    opts = action.options if isinstance(action.options, Options) else Options()
    a, t = roster[action.actor], roster[action.target or ""]
    weapon = a.sheet.weapon(action.weapon)
    assert weapon is not None
    ch = Changes(roster)
    ev = ch.events
    table_rule = (f"{DEFAULT} · Action table" if table.source == "default"
                  else f"GM's action table · {table.name}")
    for warning in table.warnings:
        ev.append(Note(table_rule, f"Action table warning (not monotone): {warning}"))
    move_rule = f"{SEED} · Movement & Attacks"
    if opts.move == "half_before":
        ev.append(Note(move_rule, f"{a.name} makes a half move towards {t.name}, then attacks"))
        ch.set(move_rule, a.id, "half_moves", a.state.half_moves + 1)
    sacrifice = a.state.sacrifice  # chosen at the start of the Turn

    surprised = False
    if opts.surprise != "none":
        surprised = _surprise(system, roller, action, roster, opts, sacrifice, ch)

    attack_rule = f"{SEED} · {'Controlled' if opts.controlled else 'Regular'} Attack"
    base = skill_base(a.sheet, weapon.skill_name, defaults, weapon)
    mods: list[tuple[str, int]] = []
    if sacrifice:
        mods.append((f"sacrifice {sacrifice}", -PERCENT_PER_RANK * sacrifice))
    if opts.focus == "effect" or a.state.focus == "effect":
        mods.append(("focus", FOCUS_PERCENT))
        if a.state.focus == "effect":
            ch.set(f"{SEED} · Focusing", a.id, "focus", "")
    if a.state.limb_strikes:
        ranks = a.state.limb_strikes * defaults.limb_strike_penalty
        mods.append((f"limb strike x{a.state.limb_strikes}", -PERCENT_PER_RANK * ranks))
    target = base.percent + sum(v for _, v in mods)
    ev.append(ZamaniTarget(f"{PUBLIC} · Skill roll", a.name, base.skill, base.rank,
                           base.attribute, base.attribute_rank, tuple(mods), target,
                           "" if base.trained else "untrained: rank 0"))
    announce(roller, a.id, f"{weapon.name} roll ({base.skill})", f"{target}% or less")
    roll = roller.roll(AttackRoll(target, table.margins)).face
    ev.append(ZamaniRoll(f"{PUBLIC} · Skill roll", a.name, f"{weapon.name} ({base.skill})",
                         roll, target))
    details: list[tuple[str, Any]] = []
    if opts.surprise != "none":
        details.append(("surprise", surprised))

    outcome, hit, lost = "miss", False, 0
    effects: tuple[str, ...] = ()
    if roll > target:
        ev.append(Note(attack_rule, f"{a.name} misses {t.name}"))
    else:
        defense = _defense(system, action, roster, opts, weapon.kind, surprised, ch)
        for note in defense.notes:
            ev.append(Note(f"{SEED} · Defense", note))
        owner = roster[defense.defender].name
        ev.append(ZamaniDefense(f"{SEED} · Defense", owner, defense.basis, defense.parts,
                                defense.ranks))
        _use_defense(defense, roster, ch)
        margin = target - roll
        r, c, code = table.lookup(margin, defense.ranks)
        result = parse_code(code)
        ev.append(ZamaniLookup(table_rule, table.name, margin, table.row_labels[r],
                               defense.ranks, table.column_labels[c], code, result.meaning()))
        details.append(("result", code))
        if opts.controlled and result.grade not in "HXC":
            ev.append(Note(attack_rule, f"A controlled attack needs H, X or C; {code} misses "
                                        "the intended target as if it were A"))
            outcome = "avoided"
        elif result.grade == "A":
            ev.append(Note(attack_rule, f"{t.name} avoids the attack"))
            outcome = "avoided"
        else:
            hit = True
            if opts.controlled:
                effect = opts.effect or ""
                effects = (effect,)
                word = EFFECT_WORDS.get(effect, effect)
                ev.append(Note(attack_rule, f"Controlled attack lands ({code}): the table's "
                                            f"effect is ignored; {word} applies, with Light "
                                            "damage"))
                grade, bypass, outcome = "L", effect == "armor", "controlled"
                details.append(("effect", effect))
            else:
                effects = result.effects
                grade, bypass, outcome = result.grade, result.bypasses_armor, GRADES[result.grade]
            lost = _damage(system, ch, weapon.name, weapon.rating, grade, bypass, action, roster)
            effect_rule = (attack_rule if opts.controlled
                           else f"{DEFAULT} · Strike effects")
            for effect in effects:
                if effect == "armor" and not opts.controlled:
                    continue  # shown with the damage
                _apply_effect(effect, t.id, roster, defaults, ch, effect_rule)

    if opts.move == "half_after":
        if hit and not opts.controlled:
            ev.append(Note(move_rule, f"The attack succeeded: {a.name} may make a half move "
                                      "afterwards"))
            ch.set(move_rule, a.id, "half_moves", ch.get(a.id, "half_moves") + 1)
        else:
            ev.append(Note(move_rule, f"The attack did not succeed: {a.name} cannot move "
                                      "afterwards"))
    after_action(ch, a.id, offensive=True)
    taken_out = ch.get(t.id, "wounds") <= defaults.out_at
    ev.append(Outcome(attack_rule, a.id, t.id, outcome, hit, lost))
    return Resolution(outcome, hit, lost, tuple(ev), taken_out, tuple(details))


def _damage(system: Zamani, ch: Changes, weapon: str, rating: int, grade: str, bypass: bool,
            action: Action, roster: Roster) -> int:
    """Rating x multiplier, less armor unless bypassed; wounds fall; at 0 the target is out."""
    t = roster[action.target or ""]
    defaults: Defaults = system.defaults
    multiplier = defaults.multipliers[grade]
    armor: int = t.sheet.armor.absorption
    raw = rating * multiplier
    value = raw if bypass else max(0, raw - armor)
    rule = f"{PUBLIC} · Damage" if grade in "LH" else f"{DEFAULT} · Damage multipliers"
    ch.events.append(ZamaniDamage(rule, weapon, rating, GRADES[grade], multiplier, armor, bypass,
                                  value))
    before: int = ch.get(t.id, "wounds")
    lost = min(value, before)
    if not lost:
        return 0
    ch.set(f"{PUBLIC} · Damage", t.id, "wounds", before - lost)
    ch.set(f"{SEED} · Defense", t.id, "wounded_this_round", True)
    if before - lost <= defaults.out_at:
        out_rule = f"{DEFAULT} · Wounds"
        ch.events.append(Note(out_rule, f"{t.name} is out (wounds {before - lost})"))
        ch.add_condition(out_rule, t.id, "unconscious")
        _focus_lost(ch, t.id, t.name, "knocked out")
    return lost


def after_action(ch: Changes, cid: str, offensive: bool) -> None:
    """Bookkeeping: one more segment used; an attack spends the countdown's offensive action
    (standing guard lasts until the guard's next turn: a guard does not attack)."""
    rule = f"{SEED} · Segment & Initiatives"
    ch.set(rule, cid, "segments_used", ch.get(cid, "segments_used") + 1)
    if offensive:
        ch.set(rule, cid, "offensive_used", True)


__all__ = ["STANDARD_EFFECTS", "after_action", "resolve_attack"]
