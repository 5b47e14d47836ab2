"""Fight hooks: initiative, the actions an actor has, reactions, turn and round upkeep."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from fracas.core.events import Changed, Event, Note, Rolled
from fracas.core.legal import LegalActions
from fracas.core.model import Action, Combatant, Roster, Slot, apply_events
from fracas.dice import Roller, nd
from fracas.dice.rollers import announce, roll_off
from fracas.systems.tristat import rulebook as R
from fracas.systems.tristat.checks import check
from fracas.systems.tristat.sheet import Defaults, Options
from fracas.systems.tristat.state import attacks_per_round, combat_value

_PLAIN = Options()
# the option variants offered with each weapon (frozen: made once)
_CALLED = (Options(vital_target=True), Options(trick_shot=2), Options(total_attack=True))
_CHINK = Options(chink=True)
_WILLPOWER = Options(willpower=True)
_SAME_TARGET = Options(two_weapons="same_target")
_TWO_TARGETS = Options(two_weapons="two_targets")


def active(c: Combatant) -> bool:
    return bool(c.state.health > 0)


def roll_initiative(roller: Roller, roster: Roster, defaults: Defaults) -> list[Event]:
    """2d6 + Combat Value for each combatant, once per fight; ties go to the higher Combat
    Value, then a roll-off. The state keeps each one's place in the order (1 acts first):
    the order is all later rounds need, and keeping only it lets fights that differ only in
    the values rolled share their states."""
    if all(c.state.initiative is not None for c in roster.values()):
        return []
    events: list[Event] = []
    dice = nd(defaults.initiative.dice, 6)
    with_cv = defaults.initiative.add_combat_value
    values: dict[str, int] = {}
    for cid, c in roster.items():
        announce(roller, cid, "initiative")
        roll = roller.roll(dice)
        cv = combat_value(c.sheet) if with_cv else 0
        events.append(Rolled(R.INITIATIVE, c.name, f"{dice.label} for initiative", roll,
                             f"+ Combat Value {cv} = {roll + cv}" if with_cv else ""))
        values[cid] = roll + cv
    groups: dict[tuple[int, int], list[str]] = {}
    for cid, c in roster.items():
        groups.setdefault((values[cid], combat_value(c.sheet)), []).append(cid)
    order: list[str] = []
    for key in sorted(groups, reverse=True):
        ids = groups[key]
        if len(ids) > 1:
            # a roll-off repeated while tied: exactly a uniformly random order of the tied
            ids = roll_off(roller, ids, [roster[i].name for i in ids], dice,
                           defaults.initiative.roll_off, events)
            events.append(Note(R.INITIATIVE, f"initiative {key[0]} and Combat Value {key[1]} "
                               f"tied: the roll-off puts {', '.join(roster[i].name for i in ids)} "
                               "in that order"))
        order.extend(ids)
    for place, cid in enumerate(order, start=1):
        c = roster[cid]
        events.append(Changed(R.INITIATIVE, cid, "initiative", c.state.initiative, place))
    return events


def initiative(roller: Roller, roster: Roster, round_number: int, defaults: Defaults
               ) -> tuple[tuple[Slot, ...], tuple[Event, ...]]:
    """In initiative order (rolled once per fight); one slot per attack."""
    events = roll_initiative(roller, roster, defaults)
    rolled = apply_events(roster, events)
    order = sorted((c for c in rolled.values() if active(c)),
                   key=lambda c: c.state.initiative or 0)
    slots: list[Slot] = []
    for c in order:
        n = attacks_per_round(c.sheet, defaults)
        for k in range(n):
            text = f"initiative place {c.state.initiative}" + (
                f", attack {k + 1} of {n}" if n > 1 else "")
            slots.append(Slot((c.id,), text, extra=(("attack", k + 1),)))
        if len([w for w in c.sheet.weapons if w.hands == 1]) >= 2:
            slots.append(Slot((c.id,), f"initiative place {c.state.initiative}, second weapon",
                              extra=(("second_weapon", True),)))
    return tuple(slots), tuple(events)


def _legal(action: Action, roster: Roster, defaults: Defaults) -> bool:
    try:
        check(action, roster, defaults)
    except ValueError:
        return False
    return True


def _candidates(actor: str, roster: Roster, defaults: Defaults) -> Iterator[Action]:
    me = roster[actor]
    st = me.state
    pending = st.paired_weapon is not None and st.paired_target is not None
    if pending:
        # the second attack of the pair: where the first declared it (checked below)
        for enemy in roster.enemies_of(actor):
            if active(enemy):
                same = enemy.id == st.paired_target
                yield Action(actor, enemy.id, st.paired_weapon, "attack", Options(
                    two_weapons=st.paired_mode or ("same_target" if same else "two_targets")))
    held = [w for w in me.sheet.weapons if w.name not in st.disarmed]
    can_will = st.energy >= defaults.willpower.cost
    others = [e for e in roster.enemies_of(actor) if active(e)]
    for enemy in roster.enemies_of(actor):
        if not active(enemy):
            continue
        if st.grappled_by == enemy.id:
            yield Action(actor, enemy.id, None, "escape", _PLAIN)
        if enemy.state.grappled_by == actor:
            yield Action(actor, enemy.id, None, "strangle", _PLAIN)
            yield Action(actor, enemy.id, None, "throw", _PLAIN)
        for weapon in [*(w.name for w in held), None]:
            yield Action(actor, enemy.id, weapon, "attack", _PLAIN)
            variants = list(_CALLED)
            if enemy.sheet.armor is not None and enemy.sheet.armor.rating:
                variants.append(_CHINK)
            if can_will:
                variants.append(_WILLPOWER)
            if (weapon is not None and not pending
                    and len([w for w in held if w.hands == 1]) >= 2):
                variants.append(_SAME_TARGET)
                if len(others) >= 2:  # the second weapon may go at another enemy
                    variants.append(_TWO_TARGETS)
            for opts in variants:
                yield Action(actor, enemy.id, weapon, "attack", opts)
        if enemy.state.grappled_by is None and st.grappled_by is None:
            yield Action(actor, enemy.id, None, "grapple", _PLAIN)
        if any(w.name not in enemy.state.disarmed for w in enemy.sheet.weapons):
            yield Action(actor, enemy.id, held[0].name if held else None, "disarm", _PLAIN)
    yield Action(actor, None, None, "total_defense", _PLAIN, offensive=False)


def legal_actions(actor: str, roster: Roster, slot: Slot | None, defaults: Defaults
                  ) -> LegalActions:
    """Every legal choice now, each checked when looked at: attacks (each weapon, unarmed,
    the option variants), grappling moves, disarms, then total defense (not offensive)."""
    me = roster[actor]
    if not active(me):
        return LegalActions(())
    candidates: Iterable[Action] = _candidates(actor, roster, defaults)
    if slot is not None and dict(slot.extra).get("second_weapon", False):
        # the second weapon's slot: only the pair's follow-up
        candidates = (a for a in candidates
                      if isinstance(a.options, Options) and a.options.two_weapons is not None
                      and me.state.paired_weapon == a.weapon)
    return LegalActions(candidates, lambda action: _legal(action, roster, defaults))


def actions(actor: str, roster: Roster, slot: Slot | None, defaults: Defaults) -> list[Action]:
    """Every legal choice now (:func:`legal_actions`, all listed)."""
    return list(iter(legal_actions(actor, roster, slot, defaults)))


def _defends(action: Action, target: Combatant) -> bool:
    """Whether the target may roll against the action (the grabber always rolls against
    an escape; a defense needs a conscious defender not on a total attack and not
    barred by a lost escape)."""
    if action.kind == "escape":
        return True
    st = target.state
    return st.health > 0 and not st.total_attack and not st.no_defense


def _body_check(action: Action, roster: Roster) -> bool:
    """Whether a failed defense against the action leads to the target's Body check (a
    melee or unarmed disarm that does not deny it)."""
    opts = action.options
    assert isinstance(opts, Options)
    if action.kind != "disarm" or opts.no_body_check:
        return False
    weapon = next((w for w in roster[action.actor].sheet.weapons if w.name == action.weapon),
                  None)
    return weapon is None or weapon.kind != "ranged"


def reactions(action: Action, roster: Roster, defaults: Defaults) -> list[Action]:
    """The target may spend willpower (+1 for 5 Energy, seed 003 · Willpower: "any die
    roll") on each roll it makes against the action: its defense (the grabber's escape
    roll) and, after a melee disarm, its Body check. Only rolls it will really make are
    offered (none on a total attack: it makes no defense rolls); no willpower first."""
    opts = action.options
    if action.kind == "total_defense" or action.target is None or not isinstance(opts, Options):
        return [action]
    target = roster[action.target]
    rolls = []
    if not opts.defense_willpower and _defends(action, target):
        rolls.append("defense_willpower")
    if not opts.body_check_willpower and _body_check(action, roster):
        rolls.append("body_check_willpower")
    out = [action]
    for n in range(1, len(rolls) + 1):
        for names in combinations(rolls, n):
            variant = Action(action.actor, action.target, action.weapon, action.kind,
                             opts.model_copy(update=dict.fromkeys(names, True)),
                             action.offensive)
            if _legal(variant, roster, defaults):  # the Energy for every roll chosen
                out.append(variant)
    return out


def start_turn(actor: str, roster: Roster) -> tuple[Event, ...]:
    """Total attack, total defense and a lost escape end as the actor's next turn begins;
    a loosened weapon's penalty lasts until the end of its holder's turn."""
    events: list[Event] = []
    me = roster[actor]
    for name, rule in (("total_attack", R.TOTAL_ATTACK), ("total_defense", R.TOTAL_DEFENSE),
                       ("no_defense", R.ESCAPING)):
        if getattr(me.state, name):
            events.append(Changed(rule, actor, name, True, False))
    for name in ("paired_weapon", "paired_target", "paired_mode"):
        if getattr(me.state, name) is not None:
            events.append(Changed(R.TWO_WEAPONS, actor, name, getattr(me.state, name), None))
    for cid, c in roster.items():
        if cid != actor and c.state.loosened_turn:
            events += _unloosen(c)
    if me.state.loosened is not None and not me.state.loosened_turn:
        events.append(Changed(R.DISARM_MELEE, actor, "loosened_turn", False, True))
    return tuple(events)


def _unloosen(c: Combatant) -> list[Event]:
    return [Note(R.DISARM_MELEE, f"{c.name}'s turn is over: its grip on the "
                                 f"{c.state.loosened} is firm again"),
            Changed(R.DISARM_MELEE, c.id, "loosened", c.state.loosened, None),
            Changed(R.DISARM_MELEE, c.id, "loosened_turn", True, False)]


def end_round(roster: Roster, defaults: Defaults) -> tuple[Event, ...]:
    """Attacks and defenses refresh; the unconscious lose 1 Health (dead at -20)."""
    events: list[Event] = []
    for cid, c in roster.items():
        st = c.state
        if st.attacks_used:
            events.append(Changed(R.ATTACK, cid, "attacks_used", st.attacks_used, 0))
        if st.defenses_used:
            events.append(Changed(R.DEFEND, cid, "defenses_used", st.defenses_used, 0))
        if st.loosened_turn:
            events += _unloosen(c)
        if st.health <= 0 and "dead" not in st.conditions and defaults.bleed_per_round:
            after = st.health - defaults.bleed_per_round
            events.append(Note(R.HEALTH, f"{c.name} is unconscious and loses "
                                         f"{defaults.bleed_per_round} Health"))
            events.append(Changed(R.HEALTH, cid, "health", st.health, after))
            if after <= defaults.dead_at:
                events.append(Changed(R.HEALTH, cid, "conditions", st.conditions, tuple(sorted(
                    {*st.conditions, "dead"} - {"unconscious"}))))
                events.append(Note(R.HEALTH, f"{c.name} dies at {after} Health"))
    return tuple(events)
