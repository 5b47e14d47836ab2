"""Making an attack (seed 000): the weapon card, Accuracy against Avoidance, damage, and
the seed's order of reductions: 1) graze halving, 2) the defender's reaction, 3) Armor
less Pierce.

The arithmetic is in :func:`plan` and :func:`reduce` (pure numbers, also used by the
default split policy to compare expected damage); :func:`resolve_attack` walks the
same steps and says each one as an event.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from fracas.core.choices import Choice, ask
from fracas.core.events import Changed, Compared, Event, Note, Outcome, Total
from fracas.core.model import Action, Combatant, Resolution, Roster
from fracas.dice.cards import Card
from fracas.dice.rollers import Roller
from fracas.errors import RulesError
from fracas.systems.c22.conf import Conf
from fracas.systems.c22.decks import Drawing
from fracas.systems.c22.events import (
    C22Maneuver,
    C22Moved,
    C22Reduced,
    C22Split,
    public,
    seed,
    table,
)
from fracas.systems.c22.grid import step_toward
from fracas.systems.c22.moves import move_along, occupied_by_others
from fracas.systems.c22.sheet import (
    REACTIONS,
    Maneuver,
    Option,
    Options,
    ReactionEffects,
    Weapon,
)

TURN = public("Turn: draw 2 cards")
SPLIT = table("split policy")
MANEUVER = public("Maneuvers")
EVASIVE = table("maneuvers: Evasive, until the next turn")
ACCURACY = seed("Weapon card")
DAMAGE = seed("Weapon card")
GRAZE = seed("Calculating Damage, 1. graze")
REACTION = table("reactions")
CHOICE = seed("Calculating Damage: once the extent of damage is determined")
ARMOR = seed("Calculating Damage, 3. Armor")
HEALTH = table("Health 0: unconscious")
LOSS = seed("Glossary: Damage, Health")
BLOCK = seed("Example: One Tough Lizard")


@dataclass(frozen=True)
class Plan:
    """The numbers of one split of the hand: what the attack does before any reaction."""

    weapon_card: Card
    maneuver_card: Card
    option: Option | None
    raised: bool
    accuracy: int
    avoidance: int
    damage: int
    after_graze: int
    pierce: int

    @property
    def graze(self) -> bool:
        return self.accuracy <= self.avoidance


@dataclass(frozen=True)
class Attack:
    """Who attacks whom with what, under which table defaults."""

    conf: Conf
    attacker: Combatant
    defender: Combatant
    weapon: Weapon
    maneuver: Maneuver | None
    opts: Options

    def option(self, card: Card) -> tuple[Option | None, bool]:
        """The maneuver option this maneuver card allows: raised when the card matches the
        raised option's suit and minimum value (and the options ask to raise)."""
        if self.maneuver is None:
            return None, False
        up = self.maneuver.raised
        if self.opts.raised and self.conf.values.meets(card, up.suit, up.min_value):
            return up, True
        return self.maneuver.base, False

    def avoidance(self) -> int:
        return int(self.defender.sheet.avoidance + self.defender.state.avoidance_bonus)

    def trained_bonus(self) -> int:
        return int(self.conf.d.trained_damage_bonus) if self.weapon.name in (
            self.attacker.sheet.trained) else 0

    def general_bonus(self) -> int:
        return int(self.conf.d.general_accuracy_per_rank * self.attacker.sheet.rank("general"))


def plan(att: Attack, weapon_card: Card, maneuver_card: Card) -> Plan:
    """Accuracy, damage and the graze of one split (seed: Weapon card)."""
    option, raised = att.option(maneuver_card)
    accuracy = (att.conf.values.value(weapon_card) + att.general_bonus()
                + (option.accuracy if option else 0))
    damage = att.weapon.damage + att.trained_bonus() + (option.damage if option else 0)
    avoidance = att.avoidance()
    after = -(-damage // 2) if accuracy <= avoidance else damage
    pierce = att.weapon.pierce + (option.pierce if option else 0)
    return Plan(weapon_card, maneuver_card, option, raised, accuracy, avoidance, damage,
                max(0, after), pierce)


def reaction_of(att: Attack, p: Plan) -> str:
    """The reaction the defender's plan takes once the extent of damage is known (seed:
    "Once the extent of damage the attack deals is determined, the target has a few
    options"): its ``on_graze`` choice for a graze, its ``on_hit`` choice for a hit."""
    return att.opts.reaction.for_extent(p.graze)


def react_on(damage: int, armor: int, fx: ReactionEffects) -> tuple[int, int]:
    """A successful reaction's effects, all of them, in the table's order: +Armor,
    -damage, then halving (rounded down). Returns (damage, Armor)."""
    damage = max(0, damage - fx.damage)
    if fx.halve:
        damage //= 2
    return damage, armor + fx.armor


def reduce(att: Attack, p: Plan, success: bool, name: str | None = None
           ) -> tuple[int, int, int]:
    """Steps 2 and 3: (damage after the reaction, Armor after Pierce, final damage);
    ``name``: the reaction taken (default: the plan's for this extent)."""
    damage, armor = p.after_graze, att.defender.sheet.armor
    name = reaction_of(att, p) if name is None else name
    if success and name not in ("none", "choose"):
        damage, armor = react_on(damage, armor, getattr(att.conf.d.reactions, name))
    effective = max(0, armor - p.pierce)
    return damage, effective, max(0, damage - effective)


@dataclass(frozen=True)
class ReactionOutlook:
    """A reaction the defender may choose once Accuracy and damage are known: its chance
    (the number cards left that make card + rank ≥ Accuracy, of all number cards it may
    draw) and the damage it takes if the reaction succeeds and if it fails."""

    name: str
    rank: int
    succeeds_on: int
    of: int
    if_success: int
    if_failure: int

    @property
    def chance(self) -> Fraction:
        return Fraction(self.succeeds_on, self.of) if self.of else Fraction(0)

    @property
    def expected(self) -> Fraction:
        return self.chance * self.if_success + (1 - self.chance) * self.if_failure

    def taken_out(self, health: int) -> Fraction:
        return (self.chance * (self.if_success >= health)
                + (1 - self.chance) * (self.if_failure >= health))

    def label(self, accuracy: int) -> str:
        if self.name == "none":
            return f"no reaction: take {self.if_failure} damage (no card drawn)"
        title = self.name.capitalize()
        return (f"{title}: succeeds on {self.succeeds_on} of {self.of} number cards "
                f"(card + rank {self.rank} ≥ Accuracy {accuracy}: {float(self.chance):.0%}); "
                f"take {self.if_success} damage if it succeeds, {self.if_failure} if not "
                f"(expected {float(self.expected):.2f})")


def reaction_outlooks(att: Attack, p: Plan, pile: tuple[Card, ...],
                      discard: tuple[Card, ...]) -> list[ReactionOutlook]:
    """No reaction, then each reaction on the defender's sheet, as seen once Accuracy and
    damage are known. The check's card is the first number card of the draw pile, equally
    likely any number card in it (the discard pile's too when the draw pile holds none:
    it is shuffled back in first)."""
    numbers = [c for c in pile if not c.is_joker] or [
        c for c in (*pile, *discard) if not c.is_joker]
    t, values = att.defender, att.conf.values
    failed = reduce(att, p, False, "none")[2]
    out = [ReactionOutlook("none", 0, 0, 0, failed, failed)]
    for name in REACTIONS:
        if t.sheet.has_skill(name):
            rank = t.sheet.rank(name)
            wins = sum(values.value(c) + rank >= p.accuracy for c in numbers)
            out.append(ReactionOutlook(name, rank, wins, len(numbers),
                                       reduce(att, p, True, name)[2], failed))
    return out


def least_harm(outlooks: list[ReactionOutlook], health: int) -> int:
    """The index of the reaction of least expected damage, then least chance to be taken
    out; ties go to the earlier one (no reaction first: no card spent)."""
    return min(range(len(outlooks)), key=lambda i: (outlooks[i].expected,
                                                    outlooks[i].taken_out(health), i))


def expected_damage(att: Attack, p: Plan) -> Fraction:
    """The split's damage before any reaction: the attacker splits its hand before the
    defender chooses, so the split may not read the defender's reaction."""
    return Fraction(reduce(att, p, False)[2])


def choose_split(att: Attack, hand: tuple[Card, Card]) -> tuple[Plan, str]:
    """The split of the hand into weapon card and maneuver card, by the ``weapon_card``
    option (auto: the better expected damage; ties: the raised maneuver, then the higher
    Accuracy, then the first card drawn as the weapon card)."""
    first, second = plan(att, hand[0], hand[1]), plan(att, hand[1], hand[0])
    choice, why = att.opts.weapon_card, ""
    if choice not in ("auto", "first", "second", "higher", "lower"):
        if choice == hand[0].label:
            return first, f"weapon card: {choice}"
        if choice == hand[1].label:
            return second, f"weapon card: {choice}"
        why = f"{choice} was not drawn; "
        choice = "auto"
    if choice == "first":
        return first, "weapon card: first"
    if choice == "second":
        return second, "weapon card: second"
    values = att.conf.values
    if choice in ("higher", "lower"):
        sign = 1 if choice == "higher" else -1
        best = max((first, second), key=lambda p: (sign * values.value(p.weapon_card),
                                                   p.raised))
        return best, why + f"weapon card: {choice}"
    scored = [(expected_damage(att, p), p.raised, p.accuracy, -i, p)
              for i, p in enumerate((first, second))]
    best_score = max(scored, key=lambda s: s[:4])
    e = best_score[0]
    return best_score[4], why + f"default policy: the better split, expected damage {e}"


def person_split(roller: Roller, att: Attack, hand: tuple[Card, Card], p: Plan, why: str
                 ) -> tuple[Plan, str]:
    """Hook ``split`` (:mod:`fracas.core.choices`): with ``weapon_card: auto`` the attacker
    may split the hand either way (seed: Weapon card); a policy keeps the default split.
    Each option shows its Accuracy, damage and expected damage."""
    if att.opts.weapon_card != "auto":
        return p, why
    plans = (plan(att, hand[0], hand[1]), plan(att, hand[1], hand[0]))
    default = 0 if plans[0] == p else 1
    name = att.maneuver.name if att.maneuver is not None else ""
    raised = tuple(("raises the " if q.raised else "does not raise the ") + name
                   if name and att.opts.raised else "" for q in plans)
    labels = tuple(f"weapon card {q.weapon_card.label}, maneuver card {q.maneuver_card.label}"
                   + (f" ({up})" if up else "")
                   + f": Accuracy {q.accuracy}, damage {q.damage}, expected damage "
                   f"{float(expected_damage(att, q)):.2f}" for q, up in zip(plans, raised,
                                                                            strict=True))
    who = att.attacker
    picked = ask(roller, Choice("split", who.id, f"{who.name}'s hand {hand[0].label}, "
                                f"{hand[1].label}: which is the weapon card?", labels, default))
    if picked == default:
        return p, why
    return plans[picked], f"chosen by {who.name}"


def resolve_attack(conf: Conf, roller: Roller, action: Action, roster: Roster) -> Resolution:
    """One attack, step by step, in the seed's order."""
    a, t = roster[action.actor], roster[action.target or ""]
    opts = action.options
    assert isinstance(opts, Options)
    weapon = a.sheet.weapon(action.weapon)
    assert weapon is not None
    att = Attack(conf, a, t, weapon, conf.maneuver(opts.maneuver), opts)
    drawing = Drawing(roster, conf.cards)
    ev = drawing.events
    word = opts.weapon_card
    label = None if word in ("auto", "first", "second", "higher", "lower") else word
    up = att.maneuver.raised if att.maneuver is not None and opts.raised else None
    hand = drawing.hand(roller, a.id, 2, "for the turn", TURN, label,
                        ordered=word in ("first", "second"),
                        own=((up.suit, up.min_value),) if up else ())
    p, why = person_split(roller, att, (hand[0], hand[1]), *choose_split(att, (hand[0], hand[1])))
    ev.append(C22Split(SPLIT if "default" in why else TURN, a.name, p.weapon_card.label,
                       p.maneuver_card.label, why))
    details: list[tuple[str, str | int]] = []
    _say_maneuver(att, p, ev, details)

    if opts.path:
        moved = move_along(conf, a, opts.path, p.option, roster, ev)
        a = a.evolve(position=moved)
        att = replace(att, attacker=a)
        if t.state.position is not None and conf.grid.distance(
                moved, t.state.position) > weapon.range:
            raise RulesError(f"{t.name} is out of range of the {weapon.name} after the move")
    if p.option is not None and p.option.avoidance:
        ev.append(Changed(conf.cite(p.option), a.id, "avoidance_bonus", a.state.avoidance_bonus,
                          p.option.avoidance))

    _say_totals(att, p, ev)

    used, success = _react(att, p, roller, drawing, roster, details)
    damage, effective, final = reduce(att, p, success, used)
    armor_parts = [("Armor", t.sheet.armor)]
    if success and getattr(conf.d.reactions, used).armor:
        armor_parts.append((used.capitalize(), getattr(conf.d.reactions, used).armor))
    armor = sum(v for _, v in armor_parts)
    if len(armor_parts) > 1:
        ev.append(Total(ARMOR, "Armor", tuple(armor_parts), armor))
    if p.pierce:
        ev.append(Total(ARMOR, "Armor after Pierce", (("Armor", armor), ("Pierce", -p.pierce)),
                        effective, note=f"Pierce {p.pierce} ignores {armor - effective} "
                                        f"of the {armor} Armor"))
    ev.append(C22Reduced(ARMOR, "Armor", damage, final, f"Armor {effective} reduces it by "
                                                        f"{damage - final}"))
    lost = min(final, int(t.state.health))
    after = t.state.health - lost
    if lost:
        ev.append(Changed(LOSS, t.id, "health", t.state.health, after))
    out = after <= 0
    if out and "unconscious" not in t.state.conditions:
        ev.append(Changed(HEALTH, t.id, "conditions", t.state.conditions,
                          (*t.state.conditions, "unconscious")))
        ev.append(Note(HEALTH, f"{t.name} is knocked unconscious at 0 Health"))
    outcome = "graze" if p.graze else "hit"  # a graze does not beat Avoidance: hit=False
    ev.append(Outcome(seed("Calculating Damage"), a.name, t.name, outcome, not p.graze,
                      lost))
    if lost < final:
        ev.append(Note(LOSS, f"{t.name} had only {t.state.health} Health left: the attack "
                             f"deals {final} damage, {t.name} loses {lost} Health"))
    drawing.finish()
    details += [("damage_dealt", final), ("health_lost", lost)]
    return Resolution(outcome, not p.graze, lost, tuple(ev), taken_out=out,
                      details=tuple(details))


def _say_totals(att: Attack, p: Plan, ev: list[Event]) -> None:
    """The plan's damage, Accuracy and Avoidance, and whether it grazes or hits in full."""
    conf, a, t, weapon = att.conf, att.attacker, att.defender, att.weapon
    parts = [(weapon.name, weapon.damage), ("trained", att.trained_bonus())]
    if att.maneuver is not None:
        parts.append((att.maneuver.name, p.option.damage if p.option else 0))
    ev.append(Total(DAMAGE, "Damage", tuple(parts), p.damage))
    acc = [(f"weapon card {p.weapon_card.label}", conf.values.value(p.weapon_card)),
           (f"General rank {a.sheet.rank('general')}", att.general_bonus())]
    if p.option is not None and p.option.accuracy:
        acc.append((att.maneuver.name if att.maneuver else "", p.option.accuracy))
    ev.append(Total(ACCURACY, "Accuracy", tuple(acc), p.accuracy))
    if t.state.avoidance_bonus:
        ev.append(Total(EVASIVE, "Avoidance", (("Avoidance", t.sheet.avoidance),
                                                ("maneuver bonus", t.state.avoidance_bonus)),
                        p.avoidance))
    if p.graze:
        ev.append(Compared(ACCURACY, "Accuracy", p.accuracy, "≤", "Avoidance", p.avoidance,
                           "a graze (half damage, rounded up)"))
        ev.append(C22Reduced(GRAZE, "Graze", p.damage, p.after_graze, "half, rounded up"))
    else:
        ev.append(Compared(ACCURACY, "Accuracy", p.accuracy, ">", "Avoidance", p.avoidance,
                           "a full hit (full damage)"))


def _say_maneuver(att: Attack, p: Plan, ev: list[Event],
                  details: list[tuple[str, str | int]]) -> None:
    who = att.attacker.name
    if att.maneuver is None:
        ev.append(Note(MANEUVER, f"{who} plays no maneuver: {p.maneuver_card.label} has no "
                                 "effect"))
        return
    up = att.maneuver.raised
    if p.raised:
        why = f"{p.maneuver_card.label} meets {up.needs()}"
    elif not att.opts.raised:
        why = "not raised, by choice"
    else:
        why = f"{p.maneuver_card.label} does not meet {up.needs()} to raise it"
    option = p.option or att.maneuver.base
    rule = att.conf.cite(option)
    ev.append(C22Maneuver(rule, who, att.maneuver.name, "raised" if p.raised else "base",
                          option.effects(), why))
    details.append(("maneuver", "raised" if p.raised else "base"))


def _choose(att: Attack, p: Plan, roller: Roller, drawing: Drawing) -> str | None:
    """Hook ``reaction`` (:mod:`fracas.core.choices`): the defender chooses its reaction
    now that Accuracy and damage are known (seed: "Once the extent of damage the attack
    deals is determined, the target has a few options"). A person is asked, with each
    reaction's chance and damage; anybody else takes the reaction of least expected
    damage (:func:`least_harm`). None when its sheet has no reaction: nothing to choose."""
    t = att.defender
    deck = drawing.deck(t.id)
    outlooks = reaction_outlooks(att, p, deck.draw_pile, deck.discard)
    if len(outlooks) == 1:
        return None
    default = least_harm(outlooks, int(t.state.health))
    extent = "a graze" if p.graze else "a full hit"
    picked = ask(roller, Choice(
        "reaction", t.id, f"{t.name}'s reaction to {att.attacker.name}'s attack: {extent}, "
        f"Accuracy {p.accuracy} against Avoidance {p.avoidance}, {p.after_graze} damage "
        f"before Armor", tuple(o.label(p.accuracy) for o in outlooks), default))
    return outlooks[picked].name


def _react(att: Attack, p: Plan, roller: Roller, drawing: Drawing, roster: Roster,
           details: list[tuple[str, str | int]]) -> tuple[str, bool]:
    """Step 2: once hit or graze is known, the reaction the defender's plan takes for it
    (or, for ``choose``, the one it chooses now), a skill check drawn from its own deck;
    every effect of a success applies and is said. Returns the reaction and its success."""
    plan_ = att.opts.reaction
    if not plan_.names():
        return "none", False
    name = reaction_of(att, p)
    t, ev = att.defender, drawing.events
    extent = "a graze" if p.graze else "a full hit"
    if name == "choose":
        chosen = _choose(att, p, roller, drawing)
        if chosen is None:
            return "none", False
        name = chosen
        shown = "no reaction" if name == "none" else name.capitalize()
        ev.append(Note(CHOICE, f"{t.name} sees {extent} coming (Accuracy {p.accuracy}, "
                               f"{p.after_graze} damage) and chooses {shown}"))
    elif plan_.on_hit != plan_.on_graze:
        ev.append(Note(CHOICE, f"{t.name} sees {extent} coming and chooses "
                               f"{'no reaction' if name == 'none' else name.capitalize()} "
                               f"(plan: {plan_})"))
    if name == "none":
        details.append(("reaction", "none"))
        return name, False
    title = name.capitalize()
    cards = drawing.until_number(roller, t.id, f"for {title}", REACTION)
    card = cards[-1]
    rank = t.sheet.rank(name)
    check = att.conf.values.value(card) + rank
    ev.append(Total(REACTION, f"{title} check", ((card.label, att.conf.values.value(card)),
                                                 (f"{title} rank", rank)), check))
    success = check >= p.accuracy
    ev.append(Compared(REACTION, f"{title} check", check, "≥" if success else "<", "Accuracy",
                       p.accuracy, f"the {name} succeeds" if success else f"the {name} fails"))
    details.append(("reaction", "succeeded" if success else "failed"))
    if not success:
        return name, False
    fx = getattr(att.conf.d.reactions, name)
    if fx.armor:
        rule = BLOCK if name == "block" and fx.armor == 2 else REACTION
        ev.append(Note(rule, f"{title}: +{fx.armor} Armor against this attack"))
    before = p.after_graze
    if fx.damage:
        ev.append(C22Reduced(REACTION, title, before, max(0, before - fx.damage),
                             f"−{fx.damage}"))
        before = max(0, before - fx.damage)
    if fx.halve:
        ev.append(C22Reduced(REACTION, title, before, before // 2, "halved, rounded down"))
    if fx.move and t.state.position is not None and att.attacker.state.position is not None:
        _advance(att, fx.move, roster, ev)
    elif fx.move:
        ev.append(Note(REACTION, f"{title}: no grid positions, so {t.name} does not move"))
    if not (fx.armor or fx.damage or fx.halve or fx.move):
        ev.append(Note(REACTION, f"{title} succeeds but has no effect (its table entry "
                                 "is empty)"))
    return name, True


def _advance(att: Attack, spaces: int, roster: Roster, ev: list[Event]) -> None:
    t = att.defender
    grid = att.conf.grid
    here, path = t.state.position, []
    taken = occupied_by_others(roster, t.id)
    for _ in range(spaces):
        nxt = step_toward(grid, here, att.attacker.state.position, taken)
        if nxt is None:
            break
        path.append(nxt)
        here = nxt
    if path:
        ev.append(C22Moved(REACTION, t.name, tuple(path), len(path),
                           len(path) * grid.metres_per_space, ""))
        ev.append(Changed(REACTION, t.id, "position", t.state.position, here))
    else:
        ev.append(Note(REACTION, f"{t.name} advances no further: already next to "
                                 f"{att.attacker.name} or blocked"))

