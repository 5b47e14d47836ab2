"""An attack (seed 003 · How to Attack, Defend, Damage, and the Modifiers and Complications)."""

from __future__ import annotations

from fracas.core.events import Note
from fracas.core.model import Resolution
from fracas.dice import Roller
from fracas.systems.tristat import rulebook as R
from fracas.systems.tristat.state import combat_value, skill_level
from fracas.systems.tristat.steps import (
    Ctx,
    Part,
    actor_parts,
    attack_roll,
    attack_skill,
    critical_die,
    damage,
    damage_parts,
    defend,
    drawing,
    hurt,
    label,
    mode_of,
    spend_attack,
    styled,
    target_total,
    weapon_of,
)


def resolve_attack(roller: Roller, ctx: Ctx) -> Resolution:
    """Roll 2d6 <= CV + skill; the target defends; damage, armor, multipliers, Health."""
    a, t, o = ctx.actor, ctx.target, ctx.opts
    weapon = weapon_of(a, ctx.action.weapon)
    mode = mode_of(weapon)
    with_what = (f"the {weapon.name} ({mode}, {weapon.damage} base damage)" if weapon
                 else "an unarmed strike (0 base damage)")
    ctx.add(Note(R.ATTACK, f"{a.name} attacks {t.name} with {with_what}"))
    skill, note = attack_skill(ctx, weapon)
    parts: list[Part] = [("Combat Value", combat_value(a.sheet)),
                         (label(skill), skill_level(a.sheet, skill))]
    if o.vital_target:
        parts.append(styled(ctx, "vital_target", R.VITAL_PENALTY, mode, "vital target"))
    if o.chink:
        parts.append(styled(ctx, "chink", R.CHINK_PENALTY, mode, "aiming for a chink"))
    if o.two_weapons:
        parts.append(styled(ctx, "two_weapons", R.TWO_WEAPONS_PENALTY[o.two_weapons], mode,
                            "two weapons, " + o.two_weapons.replace("_", " ")))
    drawn = drawing(ctx, weapon, mode)
    if drawn:
        parts.append(drawn)
    parts += actor_parts(ctx, weapon)
    target = target_total(ctx, R.ATTACK, f"{a.name}'s attack target", parts, note)
    spend_attack(ctx)
    _roll, success, critical = attack_roll(roller, ctx, target)
    if not success:
        return ctx.finish("miss", False)
    if defend(roller, ctx, critical=critical):
        return ctx.finish("defended", False)
    factors: list[Part] = []
    if critical:
        factors.append(critical_die(roller, ctx))
    if o.vital_target:
        factors.insert(0, ("vital target", R.VITAL_MULTIPLIER))
    base = (f"{weapon.name} base", weapon.damage) if weapon else ("unarmed base", 0)
    dealt = damage(ctx, damage_parts(ctx, base), factors, chink=o.chink)
    hurt(ctx, t.id, dealt)
    details = (("critical", f"x{dict(factors)['critical']}"),) if critical else ()
    return ctx.finish("critical" if critical else "hit", True, dealt, details)
