"""The steps every tristat action shares: the attack roll, the defense, damage, Health.

Each step appends events to a :class:`Ctx`; state changes go through :meth:`Ctx.change`,
which emits a ``Changed`` event from the running value (so two changes to one field in
one resolution chain correctly).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from fracas.core.events import Changed, Compared, Event, Note, Outcome, Rolled, Total
from fracas.core.model import Action, Combatant, Resolution, Roster
from fracas.dice import TWO_D6, Mapped, Roller, d
from fracas.dice.reading import Reading
from fracas.dice.rollers import announce
from fracas.errors import RulesError
from fracas.systems.tristat import rulebook as R
from fracas.systems.tristat.events import TristatMultiplied
from fracas.systems.tristat.sheet import AttackMode, Defaults, Options, StyledPenalty, Weapon
from fracas.systems.tristat.state import (
    combat_value,
    defense_value,
    optimal_defenses,
    skill_level,
    strength,
)

Part = tuple[str, int]


@dataclass
class Ctx:
    """One resolution in progress: the action, the roster, the events so far."""

    defaults: Defaults
    action: Action
    roster: Roster
    events: list[Event] = field(default_factory=list)
    overlay: dict[tuple[str, str], Any] = field(default_factory=dict)

    @property
    def opts(self) -> Options:
        assert isinstance(self.action.options, Options)
        return self.action.options

    @property
    def actor(self) -> Combatant:
        return self.roster[self.action.actor]

    @property
    def target(self) -> Combatant:
        return self.roster[self.action.target or ""]

    def get(self, cid: str, name: str) -> Any:
        key = (cid, name)
        if key in self.overlay:
            return self.overlay[key]
        return getattr(self.roster[cid].state, name)

    def change(self, rule: str, cid: str, name: str, after: Any) -> None:
        before = self.get(cid, name)
        if before != after:
            self.overlay[(cid, name)] = after
            self.events.append(Changed(rule, cid, name, before, after))

    def add(self, *events: Event) -> None:
        self.events.extend(events)

    def finish(self, outcome: str, hit: bool, damage: int = 0,
               details: tuple[tuple[str, Any], ...] = (), rule: str = R.ATTACK) -> Resolution:
        """The Outcome event and the Resolution (taken out: the target is at 0 Health or less)."""
        target = self.action.target or ""
        self.add(Outcome(rule, self.actor.name, self.target.name if target else "",
                         outcome, hit, damage))
        out = bool(target) and damage > 0 and self.get(target, "health") <= 0
        return Resolution(outcome, hit, damage, tuple(self.events), taken_out=out,
                          details=details)


def weapon_of(c: Combatant, name: str | None) -> Weapon | None:
    if name is None:
        return None
    weapons: tuple[Weapon, ...] = c.sheet.weapons
    for w in weapons:
        if w.name == name:
            return w
    raise RulesError(f"{c.name} has no weapon {name!r}")


def mode_of(weapon: Weapon | None) -> AttackMode:
    return "unarmed" if weapon is None else weapon.kind


def signed(n: int) -> str:
    """+2, −4 (a true minus sign, as the events print)."""
    return f"+{n}" if n >= 0 else f"−{-n}"


def label(name: str) -> str:
    return name.replace("_", " ").title() if name.islower() else name


def attack_skill(ctx: Ctx, weapon: Weapon | None) -> tuple[str, str]:
    """The attacking skill's name, and a note when a table default chose it."""
    if ctx.opts.skill:
        return ctx.opts.skill, ""
    if weapon is not None and weapon.skill:
        return weapon.skill, ""
    mode = mode_of(weapon)
    name = getattr(ctx.defaults.attack_skill, mode)
    return name, f"{label(name)} is the table-default skill for {mode} attacks"


def styled(ctx: Ctx, penalty: StyledPenalty, base: int, mode: AttackMode, what: str) -> Part:
    """A named penalty, cut by the Kensei (melee, unarmed) or Gun Bunny (ranged) levels on it."""
    attrs = ctx.actor.sheet.attributes
    style, levels = (("Gun Bunny", attrs.gun_bunny.get(penalty, 0)) if mode == "ranged"
                     else ("Kensei", attrs.kensei.get(penalty, 0)))
    if not levels:
        return what, base
    if penalty == "lightning_draw":
        return f"{what}, none with {style} (Lightning Draw)", 0
    value = min(0, base + levels * ctx.defaults.style_reduction_per_level)
    return f"{what} {signed(base)} cut by {style} {levels}", value


def grapple_penalty(ctx: Ctx, cid: str, extreme: bool) -> Part | None:
    """−2 (−4 for extreme mobility) while held, halved when much stronger than the grabber."""
    holder = ctx.get(cid, "grappled_by")
    if holder is None:
        return None
    base = R.GRAPPLED_EXTREME_PENALTY if extreme else R.GRAPPLED_PENALTY
    me, them = ctx.roster[cid], ctx.roster[holder]
    what = f"held by {them.name}" + (", extreme mobility" if extreme else "")
    if strength(me.sheet, ctx.defaults) >= strength(them.sheet, ctx.defaults) + R.MUCH_STRONGER_BY:
        return f"{what}, halved: much stronger", base // 2
    return what, base


def willpower(ctx: Ctx, cid: str) -> Part:
    """Spend 5 Energy for +1 (Focus adds more): one Changed event, one part."""
    w, c = ctx.defaults.willpower, ctx.roster[cid]
    energy = ctx.get(cid, "energy")
    if energy < w.cost:
        raise RulesError(f"{c.name} has {energy} Energy, not the {w.cost} willpower costs")
    ctx.change(R.WILLPOWER, cid, "energy", energy - w.cost)
    focus = c.sheet.attributes.focus
    bonus = w.bonus + focus * w.focus_bonus_per_level
    return ("willpower" + (f", Focus {focus}" if focus else "")), bonus


def actor_parts(ctx: Ctx, weapon: Weapon | None, extreme: bool = False) -> list[Part]:
    """The modifiers on any roll the actor makes: total attack, held, loosened, willpower."""
    o, a = ctx.opts, ctx.actor
    parts: list[Part] = []
    if o.trick_shot:
        parts.append(("trick shot", -o.trick_shot))
    if o.total_attack or ctx.get(a.id, "total_attack"):
        parts.append(("total attack", R.TOTAL_ATTACK_BONUS))
    two_handed = (weapon is not None and weapon.hands == 2
                  and ctx.defaults.two_handed_extreme_mobility)
    held = grapple_penalty(ctx, a.id, extreme or o.extreme_mobility or two_handed)
    if held:
        parts.append(held)
    if weapon is not None and ctx.get(a.id, "loosened") == weapon.name:
        parts.append((f"loosened grip on the {weapon.name}", R.LOOSENED_PENALTY))
    if o.willpower:
        parts.append(willpower(ctx, a.id))
    return parts


def drawing(ctx: Ctx, weapon: Weapon | None, mode: AttackMode) -> Part | None:
    """Drawing the weapon as part of the attack: −3 (the option, or a sheathed weapon);
    the weapon is drawn afterwards, so later attacks with it take no penalty."""
    if weapon is None:
        return None
    sheathed = ctx.get(ctx.actor.id, "sheathed")
    if not (ctx.opts.drawing or weapon.name in sheathed):
        return None
    ctx.change(R.DRAWING, ctx.actor.id, "sheathed", tuple(n for n in sheathed
                                                         if n != weapon.name))
    return styled(ctx, "lightning_draw", R.DRAW_PENALTY, mode, f"drawing the {weapon.name}")


def spend_attack(ctx: Ctx, rule: str = R.ATTACK) -> None:
    """Use one of the actor's attacks this round (or the second of a two-weapon pair)."""
    a = ctx.actor
    o = ctx.opts
    if o.two_weapons and ctx.action.weapon is not None and (
            ctx.get(a.id, "paired_weapon") == ctx.action.weapon):
        ctx.change(R.TWO_WEAPONS, a.id, "paired_weapon", None)
        ctx.change(R.TWO_WEAPONS, a.id, "paired_target", None)
        ctx.change(R.TWO_WEAPONS, a.id, "paired_mode", None)
        ctx.add(Note(R.TWO_WEAPONS, f"{a.name} strikes with the other hand: the same action"))
        return
    ctx.change(rule, a.id, "attacks_used", ctx.get(a.id, "attacks_used") + 1)
    if o.two_weapons:
        other = o.off_hand or next(w.name for w in a.sheet.weapons if w.hands == 1 and w.name
                                   != ctx.action.weapon and w.name not in ctx.get(a.id, "disarmed"))
        why = "" if o.off_hand else " (the next one-handed weapon on the sheet)"
        at = (f"at {ctx.target.name} again" if o.two_weapons == "same_target"
              else f"at another target than {ctx.target.name}")
        ctx.add(Note(R.TWO_WEAPONS, f"{a.name}'s other hand holds the {other}{why}: "
                                    f"it strikes next, in the same action, {at}"))
        ctx.change(R.TWO_WEAPONS, a.id, "paired_weapon", other)
        ctx.change(R.TWO_WEAPONS, a.id, "paired_target", ctx.action.target)
        ctx.change(R.TWO_WEAPONS, a.id, "paired_mode", o.two_weapons)
    if o.total_attack:
        ctx.change(R.TOTAL_ATTACK, a.id, "total_attack", True)


def target_total(ctx: Ctx, rule: str, name: str, parts: list[Part], note: str = "") -> int:
    value = sum(v for _, v in parts)
    ctx.add(Total(rule, name, tuple(parts), value, note))
    return value


def attack_roll(roller: Roller, ctx: Ctx, target: int, rule: str = R.ATTACK,
                what: str = "attack", margin: bool = False) -> tuple[int, bool, bool]:
    """2d6 <= target succeeds; snake eyes (2) is a critical success. (roll, success, critical)

    The dice are read as what the rules need of them (:func:`attack_2d6`): the exact
    roller then branches once per result, not once per face. ``margin``: the caller reads
    the roll itself (a throw's squares), so every face is its own result."""
    always = ctx.defaults.snake_eyes_always_succeeds
    announce(roller, ctx.actor.id, what, f"{target} or less")
    roll = roller.roll(attack_2d6(target, always, margin)).face
    snake = roll == 2
    ctx.add(Rolled(rule, ctx.actor.name, "2d6", roll,
                   "snake eyes: a critical success" if snake else ""))
    success = roll <= target
    if success:
        result = f"the {what} succeeds" + (f" by {target - roll}" if target > roll else "")
    elif snake and always:
        success = True
        result = f"snake eyes: the {what} succeeds anyway (table default)"
    else:
        result = f"the {what} fails"
    ctx.add(Compared(rule, "roll", roll, "≤" if roll <= target else ">", f"{what} target",
                     target, result))
    return roll, success, snake and success


@lru_cache(maxsize=4096)
def attack_2d6(target: int, snake_always: bool, margin: bool) -> Mapped[int, Reading]:
    """An attack's 2d6 against ``target``: success and critical (and the face itself when
    the caller reads the margin)."""
    def read(roll: int) -> Reading:
        success = roll <= target or (roll == 2 and snake_always)
        critical = roll == 2 and success
        return Reading((success, critical, roll if margin else None), roll)
    return Mapped(TWO_D6, read)


@lru_cache(maxsize=4096)
def defense_2d6(value: int, snake_succeeds: bool) -> Mapped[int, Reading]:
    """A defense's 2d6 against ``value``: defended or not (strictly under, or snake eyes
    when the table option says so)."""
    return Mapped(TWO_D6, lambda roll: Reading((roll < value or (roll == 2 and snake_succeeds),),
                                            roll))


def can_defend(ctx: Ctx, critical: bool) -> bool:
    """Whether the target may roll a defense at all (and a note when it may not)."""
    t = ctx.target
    if ctx.get(t.id, "health") <= 0:
        ctx.add(Note(R.HEALTH, f"{t.name} is unconscious: no defense roll"))
        return False
    if ctx.get(t.id, "total_attack"):
        ctx.add(Note(R.TOTAL_ATTACK, f"{t.name} is on a total attack: no defense rolls "
                                     "until its next turn"))
        return False
    if ctx.get(t.id, "no_defense"):
        ctx.add(Note(R.ESCAPING, f"{t.name} lost an escape: no defense rolls until its next turn"))
        return False
    if critical and not ctx.defaults.critical_defendable:
        ctx.add(Note(R.TABLE, "a critical cannot be defended (table rule)"))
        return False
    return True


def flanking(ctx: Ctx) -> str:
    """The flanking penalty's name when the defender is flanked by the attacker, else "":
    the action says so (``flanked``), or, under the table option ``flanking: ally``, a melee
    or unarmed attacker has another active ally (seed 003 · Flanking needs an ally on the
    defender's opposite side; tristat keeps no positions)."""
    if ctx.opts.flanked:
        return "flanked"
    if ctx.defaults.flanking != "ally" or mode_of(weapon_of(ctx.actor, ctx.action.weapon)) == (
            "ranged"):
        return ""
    a = ctx.actor
    allies = [c.name for c in ctx.roster.allies_of(a.id) if ctx.get(c.id, "health") > 0]
    if not allies:
        return ""
    return f"flanked by {a.name} and {allies[0]} (table option flanking: ally)"


def defend(roller: Roller, ctx: Ctx, rule: str = R.DEFEND, critical: bool = False,
           extra: tuple[Part, ...] = ()) -> bool:
    """Defense Value + skill; 2d6 strictly under it defends. True when the target defends."""
    if not can_defend(ctx, critical):
        return False
    o, t = ctx.opts, ctx.target
    number = o.defense_number or ctx.get(t.id, "defenses_used") + 1
    free = optimal_defenses(t.sheet, ctx.defaults)
    skill = o.defense_skill or getattr(ctx.defaults.defense_skill,
                                       mode_of(weapon_of(ctx.actor, ctx.action.weapon)))
    parts: list[Part] = [("Defense Value", defense_value(t.sheet, ctx.defaults)),
                         (label(skill), skill_level(t.sheet, skill))]
    notes = []
    if t.sheet.defense_value is None:
        offset = ctx.defaults.defense_value_offset
        notes.append("Defense Value = Combat Value" + (f" {signed(offset)}" if offset else "")
                     + " (table default)")
    if number > free:
        parts.append((f"defense #{number} this round", R.EXTRA_DEFENSE_PENALTY * (number - free)))
    else:
        notes.append(f"defense #{number} this round: no penalty")
    if o.trick_shot:
        parts.append(("trick shot", -o.trick_shot))
    flanked = flanking(ctx)
    if flanked:
        parts.append((flanked, R.FLANKED_PENALTY))
    if o.total_defense or ctx.get(t.id, "total_defense"):
        parts.append(("total defense", R.TOTAL_DEFENSE_BONUS))
    held = grapple_penalty(ctx, t.id, extreme=False)
    if held:
        parts.append(held)
    parts.extend(extra)
    if o.defense_willpower:
        parts.append(willpower(ctx, t.id))
    value = target_total(ctx, rule, f"{t.name}'s defense target", parts, "; ".join(notes))
    ctx.change(rule, t.id, "defenses_used", max(number, ctx.get(t.id, "defenses_used")))
    announce(roller, t.id, "defence", f"{value - 1} or less")
    roll = roller.roll(defense_2d6(value, ctx.defaults.snake_eyes_on_other_rolls)).face
    snake = snake_eyes(ctx, roll)
    ctx.add(Rolled(rule, t.name, "2d6", roll, SNAKE_EYES_NOTE if snake else ""))
    defended = roll < value or snake
    ctx.add(Compared(rule, "roll", roll, "<" if roll < value else "≥", "defense target", value,
                     f"{t.name} defends" + (" (snake eyes)" if roll >= value else "")
                     if defended else "the defense fails (it must roll under)"))
    return defended


SNAKE_EYES_NOTE = "snake eyes: a critical success, it succeeds (table default)"


def snake_eyes(ctx: Ctx, roll: int) -> bool:
    """A 2 on a defense roll, Body check or escape roll always succeeds (table option)."""
    return roll == 2 and ctx.defaults.snake_eyes_on_other_rolls


def critical_die(roller: Roller, ctx: Ctx) -> Part:
    """The critical d6: 1-3 double, 4-5 triple, 6 quadruple damage."""
    announce(roller, ctx.actor.id, "critical die")
    face = roller.roll(d(6))
    factor = R.CRITICAL_TABLE[face]
    ctx.add(Rolled(R.CRITICAL, ctx.actor.name, "the critical die (d6)", face,
                   R.CRITICAL_WORDS[factor]))
    return "critical", factor


def armor_value(ctx: Ctx, chink: bool) -> tuple[int, str]:
    """The target's armor, or what its chinks leave of it."""
    armor = ctx.target.sheet.armor
    if armor is None or armor.rating == 0:
        return 0, ""
    if not chink:
        return armor.rating, f"{ctx.target.name}'s {armor.name}"
    kind = armor.chink or ctx.defaults.chink
    if kind == "none":
        return 0, f"chink in the {armor.name}: no protection instead of {armor.rating}"
    half = armor.rating // 2 if ctx.defaults.half_armor_rounding == "down" else -(
        -armor.rating // 2)
    return half, f"chink in the {armor.name}: half of {armor.rating}"


def damage(ctx: Ctx, parts: list[Part], factors: list[Part], chink: bool = False,
           armor: bool = True) -> int:
    """Base + Combat Value + bonuses, minus armor, then every multiplier (after armor)."""
    raw = target_total(ctx, R.DAMAGE, "damage", parts)
    after = raw
    if armor:
        value, what = armor_value(ctx, chink)
        if what:
            after = max(0, raw - value)
            note = "" if not chink else ("table default for armor that does not say"
                                         if ctx.target.sheet.armor and
                                         ctx.target.sheet.armor.chink is None else "")
            ctx.add(Total(R.CHINK if chink else R.DAMAGE, "after armor",
                          (("damage", raw), (what, -value)), after, note))
    if not factors:
        return after
    if ctx.defaults.multipliers == "multiply":
        final = after
        for _, f in factors:
            final *= f
    else:
        final = after * (1 + sum(f - 1 for _, f in factors))
    rule = R.CRITICAL if any(n == "critical" for n, _ in factors) else R.VITAL
    ctx.add(TristatMultiplied(rule, "damage after multipliers", after, tuple(factors), final))
    return final


def damage_parts(ctx: Ctx, base: Part) -> list[Part]:
    """The weapon's (or the move's) base damage + Combat Value + attribute bonuses."""
    a = ctx.actor.sheet
    parts = [base, ("Combat Value", combat_value(a))]
    if a.attributes.focused_damage:
        parts.append((f"Focused Damage {a.attributes.focused_damage}",
                      a.attributes.focused_damage * ctx.defaults.focused_damage_per_level))
    return parts


def hurt(ctx: Ctx, cid: str, amount: int, rule: str = R.DAMAGE) -> None:
    """Lose Health; at 0 or less unconscious, at -20 or less dead."""
    if amount <= 0:
        return
    c = ctx.roster[cid]
    after = ctx.get(cid, "health") - amount
    ctx.change(rule, cid, "health", after)
    conditions = ctx.get(cid, "conditions")
    if after <= ctx.defaults.dead_at and "dead" not in conditions:
        ctx.change(R.HEALTH, cid, "conditions", tuple(sorted(
            {*conditions, "dead"} - {"unconscious"})))
        ctx.add(Note(R.HEALTH, f"{c.name} is dead ({after} Health)"))
    elif after <= 0 and not {"dead", "unconscious"} & set(conditions):
        ctx.change(R.HEALTH, cid, "conditions", tuple(sorted({*conditions, "unconscious"})))
        ctx.add(Note(R.HEALTH, f"{c.name} falls unconscious at {after} Health "
                               "and loses 1 Health a round"))
    if after <= 0 and ctx.defaults.out_grabber_releases:
        release_holds(ctx, cid)


def release_holds(ctx: Ctx, cid: str) -> None:
    """A grabber that can no longer act loses its hold (table reading of seed 003 ·
    Grappling: the grapple is something the grabber keeps doing)."""
    for other in ctx.roster.values():
        if other.id != cid and ctx.get(other.id, "grappled_by") == cid:
            ctx.add(Note(R.GRAPPLING, f"{ctx.roster[cid].name} can no longer act and loses "
                                      f"its hold on {other.name} (table default)"))
            ctx.change(R.GRAPPLING, other.id, "grappled_by", None)
