"""Grappling and what follows it: grapple, escape, strangle/crush, throw (seed 003)."""

from __future__ import annotations

from fracas.core.events import Compared, Note, Rolled, SlotAdded
from fracas.core.model import Resolution
from fracas.core.words import count
from fracas.dice import TWO_D6, Roller
from fracas.dice.rollers import announce
from fracas.systems.tristat import rulebook as R
from fracas.systems.tristat.events import TristatMultiplied
from fracas.systems.tristat.state import attacks_per_round, combat_value, skill_level
from fracas.systems.tristat.steps import (
    SNAKE_EYES_NOTE,
    Ctx,
    Part,
    actor_parts,
    attack_roll,
    critical_die,
    damage,
    damage_parts,
    defend,
    grapple_penalty,
    hurt,
    label,
    signed,
    snake_eyes,
    spend_attack,
    target_total,
    willpower,
)


def _unarmed_parts(ctx: Ctx) -> tuple[list[Part], str]:
    a = ctx.actor
    skill = ctx.opts.skill or ctx.defaults.attack_skill.unarmed
    note = "" if ctx.opts.skill else (
        f"{label(skill)} is the table-default skill for unarmed attacks")
    parts: list[Part] = [("Combat Value", combat_value(a.sheet)),
                         (label(skill), skill_level(a.sheet, skill))]
    return parts, note


def resolve_grapple(roller: Roller, ctx: Ctx) -> Resolution:
    """An unarmed attack that deals no damage: the target is held (cannot move, -2)."""
    a, t = ctx.actor, ctx.target
    ctx.add(Note(R.GRAPPLING, f"{a.name} tries to grapple {t.name}: an unarmed attack "
                              "that deals no damage"))
    parts, note = _unarmed_parts(ctx)
    parts += actor_parts(ctx, None)
    target = target_total(ctx, R.GRAPPLING, f"{a.name}'s grapple target", parts, note)
    spend_attack(ctx, R.GRAPPLING)
    _roll, success, critical = attack_roll(roller, ctx, target, R.GRAPPLING, "grapple")
    if not success:
        return ctx.finish("miss", False, rule=R.GRAPPLING)
    if defend(roller, ctx, critical=critical):
        return ctx.finish("defended", False, rule=R.GRAPPLING)
    if critical:
        ctx.add(Note(R.GRAPPLING, "snake eyes, but a grapple deals no damage: "
                                  "no critical die"))
    ctx.change(R.GRAPPLING, t.id, "grappled_by", a.id)
    held = grapple_penalty(ctx, t.id, extreme=False)
    extreme = grapple_penalty(ctx, t.id, extreme=True)
    assert held and extreme
    halved = ", halved: much stronger" if "halved" in held[0] else ""
    ctx.add(Note(R.GRAPPLING, f"{t.name} is held: it cannot move until it breaks free and "
                              f"takes {signed(held[1])} to attacks and defenses "
                              f"({signed(extreme[1])} for extreme mobility){halved}"))
    return ctx.finish("grappled", True, rule=R.GRAPPLING)


def _contest_roll(roller: Roller, ctx: Ctx, who: str, parts: list[Part]) -> int:
    """One side of the contest: Body + Brawl; the degree is target − roll."""
    c = ctx.roster[who]
    target = target_total(ctx, R.ESCAPING, f"{c.name}'s Body + Brawl", parts)
    announce(roller, who, "Body + Brawl roll", f"{target} or less")
    roll = roller.roll(TWO_D6)
    snake = snake_eyes(ctx, roll)
    ctx.add(Rolled(R.ESCAPING, c.name, "2d6", roll, SNAKE_EYES_NOTE if snake else ""))
    degree = max(target - roll, 0) if snake else target - roll
    ctx.add(Compared(R.ESCAPING, "roll", roll, "≤" if degree >= 0 else ">", "target", target,
                     f"{c.name} succeeds by {degree}" if degree >= 0
                     else f"{c.name} fails by {-degree}"))
    return degree


def resolve_escape(roller: Roller, ctx: Ctx) -> Resolution:
    """Contested Body + Brawl; the greater degree wins; a tie frees the target, no new action."""
    a, t, o = ctx.actor, ctx.target, ctx.opts
    ctx.add(Note(R.ESCAPING, f"{a.name} uses an attack to break {t.name}'s hold"))
    skill = ctx.defaults.escape_skill
    mine: list[Part] = [("Body", a.sheet.body), (label(skill), skill_level(a.sheet, skill))]
    held = grapple_penalty(ctx, a.id, extreme=o.extreme_mobility)
    if held:
        mine.append(held)
    if o.willpower:
        mine.append(willpower(ctx, a.id))
    theirs: list[Part] = [("Body", t.sheet.body), (label(skill), skill_level(t.sheet, skill))]
    if o.defense_willpower:
        theirs.append(willpower(ctx, t.id))
    mine_degree = _contest_roll(roller, ctx, a.id, mine)
    their_degree = _contest_roll(roller, ctx, t.id, theirs)
    used = ctx.get(a.id, "attacks_used")
    if mine_degree > their_degree:
        result, outcome = f"{a.name} escapes and may take another action at once", "escaped"
    elif mine_degree == their_degree:
        result, outcome = f"a tie: {a.name} escapes but gains no new action", "escaped_tie"
    else:
        result, outcome = (f"{t.name} wins: {a.name} loses its remaining attacks this round "
                           "and may not defend until its next turn"), "held"
    ctx.add(Compared(R.ESCAPING, f"{a.name}'s degree", mine_degree,
                     ">" if mine_degree > their_degree else
                     "=" if mine_degree == their_degree else "<",
                     f"{t.name}'s degree", their_degree, result))
    if outcome == "escaped":
        ctx.change(R.ESCAPING, a.id, "grappled_by", None)
        ctx.add(SlotAdded(R.ESCAPING, a.id, f"{a.name}'s extra action after escaping"))
    elif outcome == "escaped_tie":
        ctx.change(R.ESCAPING, a.id, "attacks_used", used + 1)
        ctx.change(R.ESCAPING, a.id, "grappled_by", None)
    else:
        ctx.change(R.ESCAPING, a.id, "attacks_used",
                   max(used + 1, attacks_per_round(a.sheet, ctx.defaults)))
        ctx.change(R.ESCAPING, a.id, "no_defense", True)
    return ctx.finish(outcome, outcome != "held", rule=R.ESCAPING)


def resolve_strangle(roller: Roller, ctx: Ctx) -> Resolution:
    """Automatic success, defendable at the held penalty; damage = CV + attribute bonuses."""
    a, t = ctx.actor, ctx.target
    ctx.add(Note(R.STRANGLING, f"{a.name} strangles/crushes {t.name}, whom it holds: "
                               "an automatic success"))
    spend_attack(ctx, R.STRANGLING)
    if defend(roller, ctx, R.STRANGLING):
        return ctx.finish("defended", False, rule=R.STRANGLING)
    parts = damage_parts(ctx, ("strangle/crush base", 0))
    armored = ctx.defaults.strangle_armor
    if not armored:
        ctx.add(Note(R.TABLE, "armor does not stop strangling/crushing (table rule)"))
    dealt = damage(ctx, parts, [], armor=armored)
    hurt(ctx, t.id, dealt, R.STRANGLING)
    return ctx.finish("hit", True, dealt, rule=R.STRANGLING)


def resolve_throw(roller: Roller, ctx: Ctx) -> Resolution:
    """Attack at +2; ends the grapple; 5 + CV damage, prone, thrown the margin in squares."""
    a, t, o = ctx.actor, ctx.target, ctx.opts
    ctx.add(Note(R.THROWING, f"{a.name} throws {t.name}, whom it holds"))
    parts, note = _unarmed_parts(ctx)
    parts.append(("throw", R.THROW_BONUS))
    parts += actor_parts(ctx, None)
    target = target_total(ctx, R.THROWING, f"{a.name}'s throw target", parts, note)
    spend_attack(ctx, R.THROWING)
    roll, success, critical = attack_roll(roller, ctx, target, R.THROWING, "throw",
                                          margin=True)
    defended = success and defend(roller, ctx, R.THROWING, critical=critical)
    ctx.change(R.THROWING, t.id, "grappled_by", None)
    ctx.add(Note(R.THROWING, "a throw always ends the grapple"))
    if not success or defended:
        return ctx.finish("defended" if defended else "miss", False, rule=R.THROWING)
    factors = [critical_die(roller, ctx)] if critical else []
    dealt = damage(ctx, damage_parts(ctx, ("throw base", R.THROW_BASE_DAMAGE)), factors)
    hurt(ctx, t.id, dealt, R.THROWING)
    squares = max(0, target - roll)
    conditions = ctx.get(t.id, "conditions")
    if "prone" not in conditions:
        ctx.change(R.THROWING, t.id, "conditions", tuple(sorted({*conditions, "prone"})))
    ctx.add(Note(R.THROWING, f"{t.name} is knocked prone and thrown "
                             f"{count(squares, 'square')} (the throw's margin)"))
    extra = 0
    if o.wall_at is not None and squares > o.wall_at:
        blocked = squares - o.wall_at
        counted = min(blocked, ctx.defaults.throw_wall_max_squares)
        extra = counted * ctx.defaults.throw_wall_damage_per_square
        capped = f", at most {counted} count" if counted < blocked else ""
        ctx.add(Note(R.THROWING, f"a wall stops {t.name} after "
                                 f"{count(o.wall_at, 'square')}: "
                                 f"{count(blocked, 'square')} it cannot move{capped}"))
        ctx.add(TristatMultiplied(R.THROWING, "wall damage, direct to Health", counted,
                                  (("damage a square, table default",
                                    ctx.defaults.throw_wall_damage_per_square),), extra))
        hurt(ctx, t.id, extra, R.THROWING)
    details: tuple[tuple[str, object], ...] = (("squares", squares),)
    if critical:
        details += (("critical", f"x{factors[0][1]}"),)
    return ctx.finish("thrown", True, dealt + extra, details, rule=R.THROWING)
