"""Spending advantage and triumph (seed 004 · Step 4) and threat and despair (Step 5).

An explicit list of choices is honoured first, in order (a choice that cannot be
paid or does not apply is skipped with a note); the side's policy then spends
what is left. Policies (table defaults ``advantage_policy`` / ``threat_policy``):

* ``critical_first``: trigger the Critical rating as often as advantage allows (a
  triumph if advantage cannot), then extra hits, then other active qualities, then
  recover strain; leftover triumphs upgrade the target's next check;
* ``hits_first`` / ``qualities_first`` / ``strain_first``: the same steps, reordered;
* ``strain_first`` (GM): each threat is 1 strain on the attacker, each despair
  upgrades the attacker's next check; ``prone_first`` buys prone with three threat
  first; ``none`` spends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fracas.core.choices import Choice, ask
from fracas.core.words import count, fill
from fracas.dice.rollers import Roller
from fracas.systems.genesys.sheet import Weapon
from fracas.systems.genesys.tables import qualities, spend_option, spending

STEP4 = "seed 004 · Step 4: advantage and triumph"
STEP5 = "seed 004 · Step 5: threat and despair"


@dataclass(frozen=True)
class Spend:
    """One option bought: what was paid and what it does."""

    key: str
    label: str
    paid: int  # advantage (threat)
    paid_big: int  # triumph (despair)
    effect: str | None
    text: str
    rule: str

    def cost(self, small: str, big: str) -> str:
        return (small * self.paid) + (big * self.paid_big) or "nothing"


#: What spending gives: (bought, notes, left, big left, how many bought were explicit).
Spent = tuple[tuple[Spend, ...], tuple[str, ...], int, int, int]


@dataclass(frozen=True)
class Context:
    """What the options depend on (both sides' spending is cached by it)."""

    hit: bool
    crit_possible: bool
    crit_rating: int
    weapon: Weapon
    auto_fire: bool
    knockdown_cost: int
    attacker_strain: int
    attacker_prone: bool
    ranged: bool
    blast_targets: bool = False
    target_prone: bool = False
    ally: bool = False  # an allied active character to give a boost die to its next check


@dataclass
class _Purse:
    small: int
    big: int
    bought: list[Spend] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def times(self, key: str) -> int:
        return sum(1 for s in self.bought if s.key == key)

    def spent(self, chosen: int) -> Spent:
        return tuple(self.bought), tuple(self.notes), self.small, self.big, chosen


@dataclass(frozen=True)
class _Offer:
    key: str
    label: str
    small: int | None
    big: int | None
    effect: str | None
    text: str
    rule: str
    limit: int | None  # None: any number of times


_QUALITY_EFFECT = {
    "extra_hit": "one more hit (base damage plus net successes)",
    "blast": "each character engaged with the target is hit too",
    "burn": "the target burns for {r} [round|rounds]",
    "ensnare": "the target is immobilized for {r} [round|rounds]",
    "knockdown": "the target is knocked prone",
    "stun": "the target suffers {r} strain",
    "disorient": "the target is disoriented for {r} [round|rounds]",
}


def _advantage_offer(key: str, ctx: Context) -> _Offer | str:
    """The option ``key`` on the advantage side, or why it does not apply."""
    if key == "critical":
        if not ctx.hit:
            return "a Critical Injury needs a successful hit"
        if not ctx.crit_possible:
            return "a Critical Injury needs a hit that deals damage past soak"
        return _Offer(key, f"Critical rating {ctx.crit_rating}", ctx.crit_rating, 1, "critical",
                      "one Critical Injury (each extra trigger +10 to the roll)", STEP4, None)
    table = qualities()
    if key in table:
        q = ctx.weapon.quality(key)
        info = table[key]
        if q is None:
            return f"{ctx.weapon.name} has no {key} quality"
        if info.kind != "active":
            return f"{key} is passive: it always applies"
        cost = info.cost
        if info.effect == "blast" and not ctx.hit:
            if info.miss_cost is None:
                return "Blast does not trigger on a miss"
            cost = info.miss_cost
        elif not ctx.hit:
            return f"{key} needs a successful hit"
        elif info.effect == "blast" and not ctx.blast_targets:
            return "nobody else is engaged with the target (options: blast_targets)"
        if info.effect == "knockdown" and ctx.target_prone:
            return "the target is already prone"
        if info.effect == "extra_hit" and key == "Auto-fire" and not ctx.auto_fire:
            return "the attack was not made on auto-fire"
        if info.effect == "knockdown":
            cost = ctx.knockdown_cost
        limit: int | None = 1
        if info.repeatable is True:
            limit = None
        elif info.repeatable == "rating":
            limit = q.rating or 1
        text = fill(_QUALITY_EFFECT.get(info.effect, info.text), r=q.rating or 1)
        return _Offer(key, q.label(), cost, 1, info.effect, text, f"{STEP4}: item qualities",
                      limit)
    option = spend_option("advantage", key)
    if option is None:
        return "no such option"
    if option.effect == "recover_strain" and ctx.attacker_strain <= 0:
        return "the attacker has no strain to recover"
    if option.effect == "ally_boost" and not ctx.ally:
        return "the attacker has no allied active character"
    return _Offer(key, key.replace("_", " "), option.advantage, option.triumph, option.effect,
                  option.text, f"{STEP4} (Table I.6-2)", None if option.repeatable else 1)


def _threat_offer(key: str, ctx: Context) -> _Offer | str:
    option = spend_option("threat", key)
    if option is None:
        return "no such option"
    if option.effect == "attacker_prone" and ctx.attacker_prone:
        return "the attacker is already prone"
    if option.effect == "out_of_ammo" and not ctx.ranged:
        return "only a ranged weapon runs out of ammunition"
    return _Offer(key, key.replace("_", " "), option.threat, option.despair, option.effect,
                  option.text, f"{STEP5} (Table I.6-3)", None if option.repeatable else 1)


def _buy(purse: _Purse, offer: _Offer, big_ok: bool = True, explicit: bool = False) -> bool:
    if offer.limit is not None and purse.times(offer.key) >= offer.limit:
        if explicit:
            purse.notes.append(f"{offer.label}: already bought {count(offer.limit, 'time')}")
        return False
    if offer.small is not None and purse.small >= offer.small:
        purse.small -= offer.small
        purse.bought.append(Spend(offer.key, offer.label, offer.small, 0, offer.effect,
                                  offer.text, offer.rule))
        return True
    if big_ok and offer.big is not None and purse.big >= offer.big:
        purse.big -= offer.big
        purse.bought.append(Spend(offer.key, offer.label, 0, offer.big, offer.effect,
                                  offer.text, offer.rule))
        return True
    if explicit:
        purse.notes.append(f"{offer.label}: not enough to pay for it")
    return False


def _repeat(purse: _Purse, offer: _Offer | str, big_ok: bool = False, cap: int = 99) -> None:
    if isinstance(offer, str):
        return
    n = 0
    while n < cap and _buy(purse, offer, big_ok):
        n += 1


def _policy_steps(policy: str) -> tuple[str, ...]:
    return {"critical_first": ("critical", "hits", "qualities", "strain"),
            "hits_first": ("hits", "critical", "qualities", "strain"),
            "qualities_first": ("qualities", "hits", "critical", "strain"),
            "strain_first": ("strain", "critical", "hits", "qualities")}.get(policy, ())


def spend_advantage(ctx: Context, advantage: int, triumphs: int, explicit: tuple[str, ...],
                    policy: str) -> Spent:
    """Spend advantage and triumph: (bought, notes, advantage left, triumphs left, how
    many of the bought were explicit choices)."""
    purse = _Purse(max(0, advantage), triumphs)
    for key in explicit:
        offer = _advantage_offer(key, ctx)
        if isinstance(offer, str):
            purse.notes.append(f"{key}: {offer}")
        else:
            _buy(purse, offer, explicit=True)
    chosen = len(purse.bought)
    active = [q.name for q in ctx.weapon.qualities if qualities()[q.name].kind == "active"]
    hits = [n for n in active if qualities()[n].effect == "extra_hit"]
    others = [n for n in active if qualities()[n].effect != "extra_hit"]
    for step in _policy_steps(policy):
        if step == "critical":
            offer = _advantage_offer("critical", ctx)
            if not isinstance(offer, str):
                _repeat(purse, offer)
                if purse.times("critical") == 0:
                    _buy(purse, offer)
        elif step == "hits":
            for name in hits:
                _repeat(purse, _advantage_offer(name, ctx))
        elif step == "qualities":
            for name in others:
                offer = _advantage_offer(name, ctx)
                if not isinstance(offer, str) and purse.times(name) == 0:
                    _buy(purse, offer, big_ok=False)
        elif step == "strain":
            offer = _advantage_offer("recover_strain", ctx)
            recovered = purse.times("recover_strain")
            _repeat(purse, offer, cap=max(0, ctx.attacker_strain - recovered))
    if policy != "none":
        offer = _advantage_offer("upgrade_target", ctx)
        if not isinstance(offer, str):
            while purse.big and _buy(purse, offer):
                pass
    return purse.spent(chosen)


def spend_threat(ctx: Context, threat: int, despairs: int, explicit: tuple[str, ...],
                 policy: str) -> Spent:
    """The GM spends threat and despair: (bought, notes, threat left, despairs left,
    how many of the bought were explicit choices)."""
    purse = _Purse(max(0, threat), despairs)
    for key in explicit:
        offer = _threat_offer(key, ctx)
        if isinstance(offer, str):
            purse.notes.append(f"{key}: {offer}")
        else:
            _buy(purse, offer, explicit=True)
    chosen = len(purse.bought)
    if policy == "none":
        return purse.spent(chosen)
    if policy == "prone_first":
        offer = _threat_offer("prone", ctx)
        if not isinstance(offer, str) and purse.times("prone") == 0:
            _buy(purse, offer, big_ok=False)
    _repeat(purse, _threat_offer("strain", ctx))
    offer = _threat_offer("upgrade_attacker", ctx)
    if not isinstance(offer, str):
        while purse.big and _buy(purse, offer):
            pass
    return purse.spent(chosen)


def _price(offer: _Offer, purse: _Purse, small: str, big: str) -> str:
    if offer.small is not None and purse.small >= offer.small:
        return small * offer.small
    return big * (offer.big or 0)


POLICY_REST = "let fracas spend the rest"
KEEP_REST = "spend nothing more"


def person_spends(roller: Roller, who: str, name: str, side: str, ctx: Context, amount: int,
                  big: int, explicit: tuple[str, ...], policy: str, shown: str = ""
                  ) -> tuple[tuple[str, ...], str]:
    """Hook ``spend`` (:mod:`fracas.core.choices`): whoever spends (the attacker its
    advantage and triumph, the GM threat and despair; seed 004 · Steps 4-5) picks options
    one at a time, then lets the policy spend the rest or keeps it; ``shown`` (what the
    dice showed and what it means) opens the question. Returns the explicit
    list to spend and the policy for the rest; a policy (the default answer) leaves both
    as they were."""
    offer_of = _advantage_offer if side == "advantage" else _threat_offer
    small_sign, big_sign = ("a", "t") if side == "advantage" else ("h", "d")
    purse = _Purse(max(0, amount), big)
    for key in explicit:
        offer = offer_of(key, ctx)
        if not isinstance(offer, str):
            _buy(purse, offer, explicit=True)
    keys = [o.key for o in getattr(spending(), side)]
    if side == "advantage":
        keys = ["critical", *(q.name for q in ctx.weapon.qualities
                              if qualities()[q.name].kind == "active"), *keys]
    chosen = list(explicit)
    while purse.small or purse.big:
        offers = [o for o in (offer_of(k, ctx) for k in keys) if not isinstance(o, str)
                  and (o.limit is None or purse.times(o.key) < o.limit)
                  and ((o.small is not None and purse.small >= o.small)
                       or (o.big is not None and purse.big >= o.big))]
        if not offers:
            break
        labels = tuple(f"{o.label} ({_price(o, purse, small_sign, big_sign)}): {o.text}"
                       for o in offers)
        big_name = "triumph" if side == "advantage" else "despair"
        left = f"{purse.small} {side}" + (f", {purse.big} {big_name}" if purse.big else "")
        head = f"{shown}; " if shown else ""
        picked = ask(roller, Choice("spend", who, f"{head}{name} spends {left}",
                                    (*labels, f"{POLICY_REST} ({policy})", KEEP_REST),
                                    len(labels)))
        if picked == len(labels):
            return tuple(chosen), policy
        if picked == len(labels) + 1:
            return tuple(chosen), "none"
        _buy(purse, offers[picked])
        chosen.append(offers[picked].key)
    return tuple(chosen), policy if chosen == list(explicit) else "none"
