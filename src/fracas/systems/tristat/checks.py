"""Is an action legal? One function serves scenario loading (InputError naming the field)
and resolution (RulesError for a state the rules forbid)."""

from __future__ import annotations

from fracas.core.model import Action, Combatant, Roster
from fracas.core.words import count
from fracas.errors import InputError
from fracas.systems.tristat.sheet import Defaults, Options
from fracas.systems.tristat.state import attacks_per_round

KINDS = ("attack", "grapple", "escape", "strangle", "throw", "disarm", "total_defense")
_DEFENDED = frozenset({"flanked", "total_defense", "defense_willpower", "defense_number",
                       "defense_skill"})
_ROLLED = frozenset({"trick_shot", "total_attack", "willpower", "skill", "extreme_mobility"})
KIND_OPTIONS: dict[str, frozenset[str]] = {
    "attack": _DEFENDED | _ROLLED | {"vital_target", "chink", "two_weapons", "off_hand",
                                        "drawing"},
    "grapple": _DEFENDED | _ROLLED,
    "escape": frozenset({"willpower", "defense_willpower", "extreme_mobility"}),
    "strangle": _DEFENDED,
    "throw": _DEFENDED | _ROLLED | {"wall_at"},
    "disarm": _DEFENDED | _ROLLED | {"target_weapon", "two_handed_grip", "body_check_modifier",
                                     "no_body_check", "body_check_willpower", "drawing"},
    "total_defense": frozenset(),
}
_UNARMED = frozenset({"grapple", "escape", "strangle", "throw"})


def _weapons(c: Combatant) -> list[str]:
    return [w.name for w in c.sheet.weapons]


def check_roster(roster: Roster) -> None:
    """Each sheet's ``grappled_by`` names another combatant."""
    for i, (cid, sheet) in enumerate(roster.sheets()):
        holder = sheet.grappled_by
        if holder is not None and (holder not in roster or holder == cid):
            raise InputError(f"{holder!r} is not another combatant of this scenario",
                             path=f"combatants[{i}].grappled_by",
                             allowed=", ".join(k for k in roster if k != cid))


def check(action: Action, roster: Roster, defaults: Defaults) -> None:
    """Raise InputError naming the field when the action does not fit the rules or the state."""
    check_roster(roster)
    kind = action.kind
    if kind not in KINDS:
        raise InputError(f"unknown tristat action {kind!r}", path="attack.action",
                         allowed=", ".join(KINDS))
    o = action.options
    assert isinstance(o, Options)
    for name in o.model_dump(exclude_defaults=True):
        if name not in KIND_OPTIONS[kind]:
            raise InputError(f"the option {name} does not apply to a {kind}",
                             path=f"attack.options.{name}",
                             allowed=", ".join(sorted(KIND_OPTIONS[kind])) or "no options")
    a = roster[action.actor]
    if a.state.health <= 0:
        why = "dead" if "dead" in a.state.conditions else "unconscious"
        raise InputError(f"{a.name} is {why} and cannot act", path="attack.attacker")
    if kind == "total_defense":
        if action.target is not None or action.weapon is not None:
            raise InputError("a total defense has no defender and no weapon",
                             path="attack.defender" if action.target else "attack.weapon")
        return
    if action.target is None:
        raise InputError(f"a {kind} needs a defender", path="attack.defender",
                         allowed=", ".join(k for k in roster if k != a.id))
    if action.target == a.id:
        raise InputError(f"{a.name} cannot {kind} itself", path="attack.defender")
    t = roster[action.target]
    _check_weapon(action, a, kind)
    _check_turn(action, a, t, o, defaults)
    _check_grapple(kind, a, t)
    _check_options(action, a, t, o, defaults)


def _check_weapon(action: Action, a: Combatant, kind: str) -> None:
    if action.weapon is None:
        return
    if kind in _UNARMED:
        raise InputError(f"a {kind} is made unarmed", path="attack.weapon",
                         allowed="no weapon")
    if action.weapon not in _weapons(a):
        raise InputError(f"{action.weapon!r} is not on {a.name}'s sheet", path="attack.weapon",
                         allowed=", ".join(_weapons(a)) or "none (an unarmed strike)")
    if action.weapon in a.state.disarmed:
        raise InputError(f"{a.name} was disarmed of the {action.weapon}", path="attack.weapon",
                         allowed=", ".join(w for w in _weapons(a) if w not in a.state.disarmed)
                         or "none (an unarmed strike)")


def _check_turn(action: Action, a: Combatant, t: Combatant, o: Options,
                defaults: Defaults) -> None:
    if a.state.total_defense:
        raise InputError(f"{a.name} is on total defense: no attacks until its next turn",
                         path="attack.attacker")
    follow_up = (o.two_weapons is not None and action.weapon is not None
                 and a.state.paired_weapon == action.weapon)
    if follow_up:
        _check_follow_up(a, t, o)
        return
    most = attacks_per_round(a.sheet, defaults)
    if a.state.attacks_used >= most:
        raise InputError(f"{a.name} has used its {count(most, 'attack')} this round",
                         path="attack.attacker")


def _check_follow_up(a: Combatant, t: Combatant, o: Options) -> None:
    """The second attack of a two-weapon pair goes where the first declared (seed 003 ·
    Attacking with 2 Weapons): the same target at −4 each, or another target at −6 each."""
    first = a.state.paired_target
    declared = a.state.paired_mode or ("same_target" if first == t.id else "two_targets")
    if o.two_weapons != declared:
        raise InputError(f"{a.name}'s first attack declared the pair {declared} (on "
                         f"{first}): the second attack is {declared} too",
                         path="attack.options.two_weapons", allowed=declared)
    if declared == "same_target" and t.id != first:
        raise InputError(f"the pair was declared at one target: the second attack goes at "
                         f"{first} too", path="attack.defender", allowed=str(first))
    if declared == "two_targets" and t.id == first:
        raise InputError(f"the pair was declared at two targets: the second attack goes at "
                         f"another target than {first}", path="attack.defender",
                         allowed=f"an enemy other than {first}")


def _check_grapple(kind: str, a: Combatant, t: Combatant) -> None:
    if kind == "grapple" and t.state.grappled_by is not None:
        raise InputError(f"{t.name} is already held by {t.state.grappled_by}",
                         path="attack.defender")
    if kind == "escape" and a.state.grappled_by != t.id:
        raise InputError(f"{a.name} is not held by {t.name}", path="attack.defender",
                         allowed=a.state.grappled_by or "nobody: nothing to escape")
    if kind in ("strangle", "throw") and t.state.grappled_by != a.id:
        raise InputError(f"{a.name} does not hold {t.name}: grapple it first",
                         path="attack.defender")


def _check_options(action: Action, a: Combatant, t: Combatant, o: Options,
                   defaults: Defaults) -> None:
    cost = defaults.willpower.cost
    if o.willpower and a.state.energy < cost:
        raise InputError(f"{a.name} has {a.state.energy} Energy; willpower costs {cost}",
                         path="attack.options.willpower")
    spends = [n for n in ("defense_willpower", "body_check_willpower") if getattr(o, n)]
    if spends and t.state.energy < cost * len(spends):
        raise InputError(f"{t.name} has {t.state.energy} Energy; willpower costs {cost} a roll"
                         + (f", {cost * len(spends)} for both" if len(spends) > 1 else ""),
                         path=f"attack.options.{spends[-1]}")
    if o.chink and (t.sheet.armor is None or t.sheet.armor.rating == 0):
        raise InputError(f"{t.name} wears no armor: there is no chink to aim for",
                         path="attack.options.chink")
    if o.drawing and action.weapon is None:
        raise InputError("drawing needs a weapon to draw", path="attack.options.drawing")
    if o.two_weapons:
        one_handed = [w.name for w in a.sheet.weapons
                      if w.hands == 1 and w.name not in a.state.disarmed]
        if action.weapon not in one_handed or len(one_handed) < 2:
            raise InputError(f"two weapons need a one-handed weapon in each hand; {a.name} "
                             f"has {count(len(one_handed), 'one-handed weapon')}"
                             + ("" if action.weapon in one_handed or action.weapon is None
                                else f" and the {action.weapon} is not one"),
                             path="attack.options.two_weapons",
                             allowed="an attack with one of two one-handed weapons")
        others = [w for w in one_handed if w != action.weapon]
        if o.off_hand is not None and o.off_hand not in others:
            raise InputError(f"{o.off_hand!r} is not another one-handed weapon {a.name} holds",
                             path="attack.options.off_hand", allowed=", ".join(others))
    elif o.off_hand is not None:
        raise InputError("off_hand names the other weapon of a two-weapon attack",
                         path="attack.options.off_hand", allowed="with two_weapons only")
    if action.kind == "disarm":
        held = [w for w in _weapons(t) if w not in t.state.disarmed]
        if o.target_weapon is not None and o.target_weapon not in held:
            raise InputError(f"{t.name} holds no {o.target_weapon!r}",
                             path="attack.options.target_weapon",
                             allowed=", ".join(held) or "nothing: it is unarmed")
        if not held:
            raise InputError(f"{t.name} holds no weapon to disarm", path="attack.defender")
        if o.body_check_willpower and (o.no_body_check or _ranged(action, a)):
            raise InputError(f"{t.name} makes no Body check here ("
                             + ("it is denied one" if o.no_body_check else
                                "a ranged disarm knocks the weapon away") + ")",
                             path="attack.options.body_check_willpower",
                             allowed="a melee or unarmed disarm with a Body check")


def _ranged(action: Action, a: Combatant) -> bool:
    return any(w.name == action.weapon and w.kind == "ranged" for w in a.sheet.weapons)
