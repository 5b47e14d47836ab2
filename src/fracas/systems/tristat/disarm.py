"""Disarming (seed 003 · Disarming by Brawl or Melee, Disarming by Ranged Attacks)."""

from __future__ import annotations

from fracas.core.events import Compared, Note, Rolled
from fracas.core.model import Resolution
from fracas.dice import TWO_D6, Roller
from fracas.dice.rollers import announce
from fracas.systems.tristat import rulebook as R
from fracas.systems.tristat.state import combat_value, skill_level
from fracas.systems.tristat.steps import (
    SNAKE_EYES_NOTE,
    Ctx,
    Part,
    actor_parts,
    attack_roll,
    attack_skill,
    defend,
    drawing,
    label,
    mode_of,
    snake_eyes,
    spend_attack,
    styled,
    target_total,
    weapon_of,
    willpower,
)


def held_weapon(ctx: Ctx) -> tuple[str, str]:
    """The weapon to knock away: the one the options name, else the target's first one held."""
    t = ctx.target
    if ctx.opts.target_weapon:
        return ctx.opts.target_weapon, ""
    gone = ctx.get(t.id, "disarmed")
    name = next(w.name for w in t.sheet.weapons if w.name not in gone)
    return name, f"the first weapon {t.name} holds: {name}"


def resolve_disarm(roller: Roller, ctx: Ctx) -> Resolution:
    """Melee at -2 (Body check to hold on), ranged at -4 (knocked away)."""
    a, t, o = ctx.actor, ctx.target, ctx.opts
    weapon = weapon_of(a, ctx.action.weapon)
    mode = mode_of(weapon)
    ranged = mode == "ranged"
    rule = R.DISARM_RANGED if ranged else R.DISARM_MELEE
    their_name, which = held_weapon(ctx)
    their = weapon_of(t, their_name)
    assert their is not None
    how = f"with the {weapon.name}" if weapon else "unarmed"
    ctx.add(Note(rule, f"{a.name} tries to disarm {t.name} of the {their.name} ({how})"
                 + (f"; {which}" if which else "")))
    skill, note = attack_skill(ctx, weapon)
    parts: list[Part] = [("Combat Value", combat_value(a.sheet)),
                         (label(skill), skill_level(a.sheet, skill))]
    parts.append(styled(ctx, "disarm", R.DISARM_RANGED_PENALTY if ranged
                        else R.DISARM_MELEE_PENALTY, mode, "disarm"))
    drawn = drawing(ctx, weapon, mode)
    if drawn:
        parts.append(drawn)
    parts += actor_parts(ctx, weapon)
    target = target_total(ctx, rule, f"{a.name}'s disarm target", parts, note)
    spend_attack(ctx, rule)
    _roll, success, _critical = attack_roll(roller, ctx, target, rule, "disarm")
    if not success:
        return ctx.finish("miss", False, rule=rule)
    grip = their.hands == 2 if o.two_handed_grip is None else o.two_handed_grip
    extra: tuple[Part, ...] = ()
    if grip and not ranged:
        extra = (("two hands on the weapon", R.TWO_HANDED_GRIP_BONUS),)
    if defend(roller, ctx, rule, extra=extra):
        return ctx.finish("defended", False, rule=rule)
    if ranged:
        ctx.add(Note(rule, f"the {their.name} is knocked from {t.name}'s hand "
                           "(and most likely damaged)"))
        return _lose(ctx, their.name, rule)
    ctx.add(Note(rule, f"{a.name} has grabbed or struck {t.name}'s {their.name}"))
    if o.no_body_check:
        ctx.add(Note(rule, f"{t.name} is denied a Body check"))
        return _lose(ctx, their.name, rule)
    modifier = ctx.defaults.body_check_modifier + o.body_check_modifier
    check: list[Part] = [("Body", t.sheet.body)]
    if modifier:
        check.append(("Body check modifier", modifier))
    if o.body_check_willpower:
        check.append(willpower(ctx, t.id))
    value = target_total(ctx, R.BODY_CHECK, f"{t.name}'s Body check", check,
                         "a Body check is 2d6 ≤ Body (table default)")
    announce(roller, t.id, "Body check", f"{value} or less")
    roll = roller.roll(TWO_D6)
    snake = snake_eyes(ctx, roll)
    ctx.add(Rolled(R.BODY_CHECK, t.name, "2d6", roll, SNAKE_EYES_NOTE if snake else ""))
    kept = roll <= value or snake
    ctx.add(Compared(R.BODY_CHECK, "roll", roll, "≤" if roll <= value else ">", "Body check",
                     value, f"{t.name} holds on" if kept else f"{t.name} loses its grip"))
    if not kept:
        return _lose(ctx, their.name, rule)
    ctx.change(rule, t.id, "loosened", their.name)
    ctx.change(rule, t.id, "loosened_turn", False)
    ctx.add(Note(rule, f"{t.name} keeps the {their.name} at {R.LOOSENED_PENALTY} to use it "
                       "until the end of its turn"))
    return ctx.finish("weapon_kept", True, rule=rule)


def _lose(ctx: Ctx, weapon: str, rule: str) -> Resolution:
    t = ctx.target
    ctx.change(rule, t.id, "disarmed", (*ctx.get(t.id, "disarmed"), weapon))
    if ctx.get(t.id, "loosened") == weapon:
        ctx.change(rule, t.id, "loosened", None)
        ctx.change(rule, t.id, "loosened_turn", False)
    return ctx.finish("disarmed", True, rule=rule)
