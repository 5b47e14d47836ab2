"""Non-attack actions and the choices an actor has (seed 002 · Guarding, Focusing,
Movement & Attacks, Segment & Initiatives).

Kinds: ``guard`` (self: +5 ranks; or over an ally within reach: the guard's defense
replaces theirs; a self-guard may retreat a half move), ``focus`` (skip the round:
+25% to the next roll or +5 initiative next round), ``move`` (``half`` or ``full``;
a full move leaves no attack this countdown), ``ready`` (change weapons) and
``stand`` (get up from prone); ``delay`` (act after the next slot; the fight loop moves
the slot). Before a round's initiative (:func:`round_choices`): ``sacrifice`` (at the
start of a Turn), ``focus_use`` (a focus used for effect or speed) and, as the combat
opens, a surprise attack or ``wait``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from fracas.core.events import Note, Outcome
from fracas.core.model import DELAY, Action, Combatant, Resolution, Roster, Slot
from fracas.core.words import count
from fracas.errors import InputError

from .attack import after_action
from .defense import LIMITED, can_guard, choices, choose
from .sheet import STANDARD_EFFECTS, Options, Sheet
from .state import SEED, Changes

if TYPE_CHECKING:
    from .rules import Zamani

KINDS = ("attack", "guard", "focus", "move", "ready", "stand", "sacrifice", "focus_use", "wait")
OUTCOME_OF = {"guard": "guarding", "focus": "focusing", "move": "moved", "ready": "readied",
              "stand": "stood", "sacrifice": "sacrificed", "focus_use": "focus_declared",
              "wait": "waited"}
#: choices made before a round's initiative: they use no segment
BEFORE_INITIATIVE = ("sacrifice", "focus_use", "wait")


def hands_after_ready(sheet: Sheet, in_hand: tuple[str, ...], name: str) -> tuple[str, ...]:
    """What is in hand after readying ``name``: others are put away until it fits 2 hands."""
    def hands(n: str) -> int:
        w = sheet.weapon(n)
        return w.hands if w is not None else 1  # the shield

    kept = [n for n in in_hand if n != name]
    while kept and sum(map(hands, kept)) + hands(name) > 2:
        weapons = [n for n in kept if sheet.weapon(n) is not None]
        kept.remove(weapons[0] if weapons else kept[0])
    return (*kept, name)


def resolve_other(system: Zamani, action: Action, roster: Roster) -> Resolution:
    """A non-attack action: its note, its state changes, its outcome."""
    me = roster[action.actor]
    opts = action.options if isinstance(action.options, Options) else Options()
    ch = Changes(roster)
    ev = ch.events
    kind = action.kind
    if kind == "guard":
        rule = f"{SEED} · Guarding"
        ward = action.target if action.target not in (None, me.id) else None
        if ward is None:
            ev.append(Note(rule, f"{me.name} stands guard: +5 ranks to defense until "
                                 "the next action"))
        else:
            ev.append(Note(rule, f"{me.name} stands guard over {roster[ward].name} (within "
                                 f"1 m): {me.name}'s defense replaces theirs; no attacking"))
        ch.set(rule, me.id, "guarding", ward or "self")
        if opts.move == "half":
            ev.append(Note(rule, f"{me.name} retreats a half move while on guard"))
            ch.set(rule, me.id, "half_moves", me.state.half_moves + 1)
    elif kind == "focus":
        rule = f"{SEED} · Focusing"
        what = {"speed": "+5 initiative next round",
                "effect": "+25% (5 ranks) to the next action"}.get(
            opts.focus, "for effect (+25%) or speed (+5 initiative), declared when used")
        tail = "; it does not compound" if me.state.focus in ("ready", "effect", "speed") else ""
        ev.append(Note(rule, f"{me.name} focuses, skipping this round: {what}{tail}"))
        ch.set(rule, me.id, "focus", "focusing" if opts.focus == "none"
               else f"focusing:{opts.focus}")
        ch.set(rule, me.id, "focused_round", True)
    elif kind == "focus_use":
        rule = f"{SEED} · Focusing"
        use = "speed" if opts.focus == "speed" else "effect"
        what = ("+5 initiative this round" if use == "speed"
                else "+25% (5 ranks) to the next action")
        ev.append(Note(rule, f"{me.name} uses the focus for {use}: {what}"))
        ch.set(rule, me.id, "focus", use)
        ch.set(rule, me.id, "chosen", (*me.state.chosen, "focus"))
    elif kind == "sacrifice":
        rule = f"{SEED} · Sacrifice"
        n = opts.ranks
        ev.append(Note(rule, f"{me.name} sacrifices {count(n, 'rank')} for this Turn: −{5 * n}% on "
                             f"rolled skills, +{n} initiative" if n else
                             f"{me.name} sacrifices nothing this Turn"))
        ch.set(rule, me.id, "sacrifice", n)
        ch.set(rule, me.id, "chosen", (*me.state.chosen, "sacrifice"))
    elif kind == "wait":
        rule = f"{SEED} · Surprise"
        ev.append(Note(rule, f"{me.name} does not open the combat with a surprise attack"))
        ch.set(rule, me.id, "chosen", (*me.state.chosen, "opening"))
    elif kind == "move":
        rule = f"{SEED} · Movement & Attacks"
        if opts.move == "full":
            ev.append(Note(rule, f"{me.name} makes a full move, and cannot attack this round"))
            ch.set(rule, me.id, "half_moves", 2)
            ch.set(rule, me.id, "offensive_used", True)
        else:
            ev.append(Note(rule, f"{me.name} makes a half move"))
            ch.set(rule, me.id, "half_moves", me.state.half_moves + 1)
    elif kind == "ready":
        rule = f"{SEED} · Segment & Initiatives"
        name = action.weapon or ""
        ev.append(Note(rule, f"{me.name} readies the {name} (changing weapons)"))
        ch.set(rule, me.id, "in_hand", hands_after_ready(me.sheet, me.state.in_hand, name))
    elif kind == "stand":
        rule = f"{SEED} · Movement & Attacks"
        ev.append(Note(rule, f"{me.name} gets up"))
        ch.set(rule, me.id, "conditions", tuple(c for c in me.state.conditions if c != "prone"))
    if kind not in BEFORE_INITIATIVE:
        if kind != "focus":
            _spend_focus(system, ch, me, kind)
        after_action(ch, me.id, offensive=False)
    outcome = OUTCOME_OF[kind]
    ev.append(Outcome(rule, me.id, action.target or "", outcome, False, 0))
    return Resolution(outcome, False, 0, tuple(ev))


def _spend_focus(system: Zamani, ch: Changes, me: Combatant, kind: str) -> None:
    """Seed 002 · Focusing: "a bonus to the next action": a focus for effectiveness is spent
    by the next action even when it rolls nothing (table option ``focus_effect``)."""
    if me.state.focus == "effect" and system.defaults.focus_effect == "next_action":
        rule = f"{SEED} · Focusing"
        what = {"guard": "standing guard", "move": "a move", "ready": "readying a weapon",
                "stand": "getting up"}.get(kind, kind)
        ch.events.append(Note(rule, f"{me.name}'s focus (+25%) goes to the next action, "
                                    f"{what}, which rolls nothing: it is spent"))
        ch.set(rule, me.id, "focus", "")


def check(system: Zamani, action: Action, roster: Roster) -> None:
    """Cross-field checks of an action (InputError naming the field and what is allowed)."""
    if action.kind not in KINDS:
        raise InputError(f"unknown action {action.kind!r}", path="attack.action",
                         allowed=", ".join(KINDS))
    opts = action.options if isinstance(action.options, Options) else Options()
    me = roster[action.actor]
    if opts.ranks and action.kind != "sacrifice":
        raise InputError("ranks are given up by a sacrifice only", path="attack.options.ranks",
                         allowed="0, or action: sacrifice")
    if action.kind == "attack":
        _check_attack(action, roster, opts)
    elif action.kind == "guard":
        if not can_guard(me.sheet, me.state):
            raise InputError(f"{me.id} needs a shield or a blocking weapon in hand to guard",
                             path="attack.attacker", allowed="a character with one in hand")
        if action.target not in (None, me.id) and opts.move != "none":
            raise InputError("a guard over another cannot move out of reach",
                             path="attack.options.move", allowed="none")
    elif action.kind == "sacrifice" and opts.ranks > system.defaults.max_sacrifice:
        raise InputError(f"a sacrifice of {opts.ranks} ranks", path="attack.options.ranks",
                         allowed=f"0 to {system.defaults.max_sacrifice} (table default "
                                 "max_sacrifice)")
    elif action.kind == "move" and opts.move not in ("half", "full"):
        raise InputError("say how far", path="attack.options.move", allowed="half, full")
    elif action.kind == "ready":
        names = [w.name for w in me.sheet.weapons] + (
            [me.sheet.shield.name] if me.sheet.shield else [])
        if action.weapon not in names:
            raise InputError(f"{action.weapon!r} is not on {me.id}'s sheet",
                             path="attack.weapon", allowed=", ".join(names) or "none")


def _check_attack(action: Action, roster: Roster, opts: Options) -> None:
    me = roster[action.actor]
    if action.target is None or action.target == me.id:
        raise InputError("an attack needs a defender other than the attacker",
                         path="attack.defender", allowed=", ".join(
                             c for c in roster if c != me.id))
    usable = [n for n in me.state.in_hand] + [w.name for w in me.sheet.weapons
                                              if w.hands == 0 and w.name not in me.state.in_hand]
    weapon = me.sheet.weapon(action.weapon)
    if weapon is None or weapon.name not in usable:
        where = "not in hand (ready it first, or list it in in_hand)" if weapon else \
            "not on the sheet"
        raise InputError(f"{action.weapon!r} is {where}", path="attack.weapon",
                         allowed=", ".join(n for n in usable if me.sheet.weapon(n)) or "none")
    if opts.controlled:
        if weapon.kind != "melee":
            raise InputError("a controlled attack needs a non-missile (melee) weapon",
                             path="attack.options.controlled", allowed="false")
        if not opts.effect:
            raise InputError("a controlled attack declares its effect first",
                             path="attack.options.effect",
                             allowed=", ".join(STANDARD_EFFECTS) + " or your own (e.g. blinded)")
        if opts.surprise != "none":
            raise InputError("a surprise attack cannot be a controlled attack",
                             path="attack.options.surprise", allowed="none")
        if opts.move == "half_after":
            raise InputError("only a successful regular attack may be followed by a half move",
                             path="attack.options.move", allowed="none, half_before")
    elif opts.effect:
        raise InputError("an effect is declared only for a controlled attack",
                         path="attack.options.effect", allowed="controlled: true, or no effect")
    if opts.move not in ("none", "half_before", "half_after"):
        raise InputError(f"move {opts.move!r} leaves no attack", path="attack.options.move",
                         allowed="none, half_before, half_after")
    if opts.focus == "speed":
        raise InputError("a focus for speed changes initiative, not the attack roll",
                         path="attack.options.focus", allowed="none, effect")
    t = roster[action.target]
    if opts.guard is not None:
        _check_guard(opts.guard, action, roster)
    if opts.cover and opts.defense in ("block", "shield", "acrobatics"):
        raise InputError(f"{opts.defense} cannot be combined with hiding behind cover",
                         path="attack.options.defense", allowed="best, dexterity")
    if opts.defense not in ("best", "dexterity"):
        have = [c for c in choices(t.sheet, t.state, weapon.kind, opts.cover)
                if c.name == opts.defense]
        if not have:
            raise InputError(f"{t.id} has no {opts.defense} defense", path="attack.options.defense",
                             allowed=", ".join(sorted({"best", "dexterity"} | {
                                 c.name for c in choices(t.sheet, t.state, weapon.kind, False)})))
        if all(c.reason for c in have):
            raise InputError(f"{opts.defense} cannot be used: {have[0].reason}",
                             path="attack.options.defense", allowed="best, dexterity")


def _check_guard(guard: str, action: Action, roster: Roster) -> None:
    if guard == "self":
        who = roster[action.target or ""]
    else:
        if guard not in roster or guard in (action.actor, action.target):
            raise InputError(f"{guard!r} cannot guard the defender", path="attack.options.guard",
                             allowed="self, or the id of another character within reach: " +
                             ", ".join(c for c in roster if c not in (action.actor,
                                                                      action.target)))
        who = roster[guard]
    if not can_guard(who.sheet, who.state):
        raise InputError(f"{who.id} needs a shield or a blocking weapon in hand to stand guard",
                         path="attack.options.guard", allowed="a character with one in hand")


def _usable_weapons(me: Combatant) -> list[str]:
    names = [n for n in me.state.in_hand if me.sheet.weapon(n) is not None]
    return names + [w.name for w in me.sheet.weapons if w.hands == 0 and w.name not in names]


def round_choices(system: Zamani, actor: str, roster: Roster, opening: bool,
                  turn_starts: bool) -> list[Action]:
    """What ``actor`` chooses before this round's initiative, one choice at a time: the
    sacrifice as a Turn starts (the sheet's plan first), then a focus used for speed or
    effect, then, as the combat opens, a surprise attack or ``wait`` (seed 002 ·
    Sacrifice, Focusing, Surprise)."""
    me = roster[actor]
    st = me.state
    calm = _PLAIN
    if turn_starts and "sacrifice" not in st.chosen:
        planned = min(me.sheet.sacrifice, system.defaults.max_sacrifice)
        ranks = [planned] + [n for n in range(system.defaults.max_sacrifice + 1)
                             if n != planned]
        return [Action(actor, None, None, "sacrifice", Options(ranks=n), offensive=False)
                for n in ranks]
    if st.focus == "ready" and "focus" not in st.chosen:
        return [Action(actor, None, None, "focus_use", Options(focus=f), offensive=False)
                for f in ("effect", "speed")]
    if (opening and "opening" not in st.chosen and _may_surprise(system, me)
            and not any(c.state.offensive_used for c in roster.values())
            and not set(LIMITED) & set(st.conditions)):
        out = [Action(actor, e.id, name, "attack", Options(surprise=s))
               for name in _usable_weapons(me) for e in roster.enemies_of(actor)
               if system.is_active(e) for s in _surprise_skills(system, me)]
        if out:
            return [*out, Action(actor, None, None, "wait", calm, offensive=False)]
    return []


def _surprise_skills(system: Zamani, me: Combatant) -> list[str]:
    if not system.defaults.surprise_needs_skill:
        return ["stealth", "ambush"]
    return [s for s in ("stealth", "ambush") if me.sheet.rank(s) is not None]


def _may_surprise(system: Zamani, me: Combatant) -> bool:
    return bool(_surprise_skills(system, me))


# the options of the actions on offer (frozen: made once)
_PLAIN = Options()
_MOVING = (Options(move="half_before"), Options(move="half_after"))
_CONTROLLED = tuple(Options(controlled=True, effect=x) for x in STANDARD_EFFECTS)
_HALF_MOVE = Options(move="half")
_FULL_MOVE = Options(move="full")


def actions_for(system: Zamani, actor: str, roster: Roster, slot: Slot | None) -> list[Action]:
    """Every action ``actor`` may take now; attacks first. The countdown's one offensive
    action may be taken on any of its segments; standing guard means no attack in that
    round."""
    me = roster[actor]
    st = me.state
    if (not system.is_active(me) or set(LIMITED) & set(st.conditions) or st.lost_round
            or st.focused_round):
        return []
    offensive = not st.offensive_used and not st.guarding
    prone = "prone" in st.conditions
    enemies = [e for e in roster.enemies_of(actor) if system.is_active(e)]
    out: list[Action] = []
    if offensive:
        for weapon_name in _usable_weapons(me):
            weapon = me.sheet.weapon(weapon_name)
            assert weapon is not None
            for e in enemies:
                out += _attacks(actor, e.id, weapon_name, not prone and st.half_moves < 2,
                                weapon.kind == "melee")
    if can_guard(me.sheet, st) and not st.offensive_used:
        out.append(_offer(actor, None, None, "guard"))
        out += [_offer(actor, ally.id, None, "guard") for ally in roster.allies_of(actor)]
    if st.segments_used == 0:
        out.append(_offer(actor, None, None, "focus"))
    if not prone and st.half_moves < 2:
        out.append(_offer(actor, None, None, "move", "half"))
        if st.half_moves == 0 and not st.offensive_used:
            out.append(_offer(actor, None, None, "move", "full"))
    if prone:
        out.append(_offer(actor, None, None, "stand"))
    held = set(st.in_hand)
    for name in [w.name for w in me.sheet.weapons if w.hands > 0] + (
            [me.sheet.shield.name] if me.sheet.shield else []):
        if name not in held:
            out.append(_offer(actor, None, name, "ready"))
    out.append(_offer(actor, None, None, DELAY))
    return out


@lru_cache(maxsize=4096)
def _attacks(actor: str, target: str, weapon: str, moving: bool, melee: bool
             ) -> tuple[Action, ...]:
    """The attacks on offer with one weapon at one enemy, made once (the same offers come
    back turn after turn, and a made action keeps its hash): plain, with a half move
    before or after (when the attacker may still move), a controlled attack (melee)."""
    variants = (_PLAIN, *(_MOVING if moving else ()), *(_CONTROLLED if melee else ()))
    return tuple(Action(actor, target, weapon, "attack", o) for o in variants)


@lru_cache(maxsize=4096)
def _offer(actor: str, target: str | None, weapon: str | None, kind: str, move: str = ""
           ) -> Action:
    """An action on offer that is no attack, made once; ``move``: a half or full move."""
    opts = {"half": _HALF_MOVE, "full": _FULL_MOVE}.get(move, _PLAIN)
    return Action(actor, target, weapon, kind, opts, offensive=False)


def reactions_for(action: Action, roster: Roster) -> list[Action]:
    """The attack as declared (``defense: best`` unless chosen) first, then one variant per
    other defense its target may choose."""
    if action.kind != "attack" or action.target is None:
        return [action]
    opts = action.options if isinstance(action.options, Options) else Options()
    t = roster[action.target]
    if set(LIMITED) & set(t.state.conditions) or opts.unseen:
        return [action]  # no defense to choose: not even Dexterity (seed 002 · Defense)
    weapon = roster[action.actor].sheet.weapon(action.weapon)
    kind = weapon.kind if weapon is not None else "melee"
    options = choices(t.sheet, t.state, kind, opts.cover)
    # a defense that comes to the same as one listed before it (a block no better than
    # Dexterity defends with Dexterity) is not offered again
    used = [choose(options, opts.defense)[0]]
    names: list[str] = []
    for c in options:
        if not c.reason and c.name not in names and c.name != opts.defense:
            picked = choose(options, c.name)[0]
            if picked not in used:
                used.append(picked)
                names.append(c.name)
    return [action] + [_defended(action, n) for n in names]


@lru_cache(maxsize=4096)
def _defended(action: Action, defense: str) -> Action:
    """The attack with its target's choice of defense, made once per attack and defense."""
    opts = action.options if isinstance(action.options, Options) else Options()
    return Action(action.actor, action.target, action.weapon, action.kind,
                  opts.model_copy(update={"defense": defense}), action.offensive)
