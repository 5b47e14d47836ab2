"""The six-step combat check (seed 004), written once against a roller.

``resolve_attack`` rolls the whole pool once, then hands the rest to
``_finish`` through ``roller.resolve``: under the exact roller that step is
computed once per distinct pool result. Its Critical Injury rolls are a further
``roller.resolve`` sub-step (``_injure``) keyed by the settled roster, the triggers
and who went past a threshold only, so the injury table is enumerated once per
distinct settled state, not once per pool result.

Under a roller that does not narrate (:func:`~fracas.dice.rollers.narrated`: the
simulation's lean loop keeps the changes and outcomes alone) the steps build no event
that only tells (the plan's, the roll's, the spending's, the damage's, the notes):
the same dice are drawn and the same changes and outcome made. Each step reads the
flag from the roller that plays it; the settled step and the injury events are cached
with it in their keys.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from fracas.core.events import Event, Note, Outcome
from fracas.core.model import Action, Combatant, Resolution, Roster
from fracas.dice.rollers import Roller, announce, narrated, summaries_only
from fracas.frozen import HashOnce, cached_hash
from fracas.systems.genesys import harm
from fracas.systems.genesys import state as st
from fracas.systems.genesys.check import DEFAULT, Read, attack_pool
from fracas.systems.genesys.dice import PoolResult, PoolSpec
from fracas.systems.genesys.events import GenesysDamage
from fracas.systems.genesys.harm import STEP6, Tracker
from fracas.systems.genesys.pool import GenesysPool
from fracas.systems.genesys.rolled import advantage_spent, rolled, threat_spent
from fracas.systems.genesys.sheet import Options, Sheet, Weapon
from fracas.systems.genesys.spending import Context, Spend, person_spends
from fracas.systems.genesys.tables import qualities, skills

STEP1 = "seed 004 · Step 1: declare the attack"


@dataclass(frozen=True)
class Plan(HashOnce):
    """Everything fixed before the dice are rolled (hashed once: a plan is made once per
    attacker and defender as they stand, and keys the steps after the roll)."""

    spec: PoolSpec
    events: tuple[Event, ...]
    weapon: Weapon
    band: str
    melee: bool
    auto_fire: bool
    pool: GenesysPool  # made once: its exact distribution is cached on it
    base: int  # the weapon's base damage (Brawn + N for Brawl and Melee)

    def __hash__(self) -> int:
        return cached_hash(self, lambda: hash((self.spec, self.events, self.weapon,
                                               self.band, self.melee, self.auto_fire,
                                               self.pool, self.base)))


def plan_attack(system: Any, action: Action, roster: Roster) -> Plan:
    """Steps 1 and 2: the declared attack and its assembled pool (cached by what they
    read of the two combatants, not by the whole roster: a fight seldom meets the same
    roster twice, but often the same attacker against the same defender). They read
    the ids, names and sheets; the attacker's injuries, standing minions, conditions and
    next-check effects; the defender's conditions and weapon in use; not the wounds,
    strain or initiative."""
    attacker, target = roster[action.actor], roster[action.target or ""]
    a, t = attacker.state, target.state
    return _plan(system, action, Read((attacker, target), (
        attacker.id, attacker.name, a.critical_injuries, a.members, a.conditions,
        a.next_check, target.id, target.name, t.conditions, t.wielding)))


@lru_cache(maxsize=4096)
def _plan(system: Any, action: Action, read: Read) -> Plan:
    attacker, target = read.combatants
    sheet: Sheet = attacker.sheet
    weapon = sheet.weapon(action.weapon)
    assert weapon is not None and isinstance(action.options, Options)
    opts = action.options
    melee = skills()[weapon.skill].combat == "melee"
    band_note = ""
    if melee:
        band = "engaged"
    elif opts.range is not None:
        band = opts.range
    else:
        band = system.defaults.ranged_band
        band_note = f" ({DEFAULT} · ranged_band)"
    has_auto = weapon.quality("Auto-fire") is not None
    auto_default = has_auto and opts.auto_fire is None
    auto_fire = (has_auto and system.defaults.auto_fire) if opts.auto_fire is None else (
        opts.auto_fire)
    events: list[Event] = [Note(STEP1, f"{attacker.name} attacks {target.name} with "
                                       f"{weapon.name} ({weapon.skill}, "
                                       f"{'melee' if melee else band + ' range'})")]
    spec, pool_events, _ = attack_pool(system.defaults, attacker, target, weapon, opts,
                                       auto_fire, band, band_note,
                                       f" ({DEFAULT} · auto_fire)" if auto_default else "")
    events += pool_events
    return Plan(spec, tuple(events), weapon, band, melee, auto_fire, GenesysPool(spec),
                weapon.base_damage(sheet.characteristics.brawn))


def resolve_attack(system: Any, roller: Roller, action: Action, roster: Roster) -> Resolution:
    plan = plan_attack(system, action, roster)
    target = roster[action.target].name if action.target is not None and (
        action.target in roster) else "the target"
    announce(roller, action.actor, f"attack on {target}", "1 net success to hit")
    result = roller.roll(plan.pool)
    done: _Done = roller.resolve(_finish, system, plan, action, roster, result)
    return done.resolution


class _Done:
    """A resolution, told apart by the settled step and the injuries it was built from
    (each hashed once, when first asked: the random roller never asks): the exact roller
    looks the results of a memoised step up again at every branch, and a Resolution
    would hash all its events each time."""

    __slots__ = ("_hash", "_parts", "resolution")

    def __init__(self, resolution: Resolution, parts: tuple[Hashable, ...]) -> None:
        self.resolution = resolution
        self._parts = parts
        self._hash: int | None = None

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._parts)
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled without its hash (hashes differ from process to process)."""
        return (_Done, (self.resolution, self._parts))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Done) and (
            self is other or (hash(self) == hash(other) and self._parts == other._parts))


def _finish(roller: Roller, system: Any, plan: Plan, action: Action, roster: Roster,
            result: PoolResult) -> _Done:
    """Steps 3 to 6 for one pool result."""
    pre, harmed = _steps(roller, system, plan, action, roster, result)
    done = _resolution(action, roster, pre, harmed)
    if summaries_only(roller):  # exact odds: results with equal summaries merge here
        return _Done(done, done.summary())
    return _Done(done, (pre, harmed))


def _soak(target: Any, weapon: Weapon) -> tuple[int, str]:
    """Soak after Pierce and Breach (Breach: 10 soak per rating)."""
    return _soak_left(target.sheet.soak, weapon)


@lru_cache(maxsize=1024)
def _soak_left(soak: int, weapon: Weapon) -> tuple[int, str]:
    """(Worked out once per soak and weapon.)"""
    notes = []
    pierce, breach = weapon.rating("Pierce"), weapon.rating("Breach")
    if pierce:
        notes.append(f"Pierce {pierce}")
    if breach:
        notes.append(f"Breach {breach}: {10 * breach}")
    left = max(0, soak - pierce - 10 * breach)
    if notes:
        return left, f"{soak} less " + ", ".join(notes)
    return left, ""


@dataclass(frozen=True)
class _Settled(HashOnce):
    """Steps 3 to 5 and the hits of Step 6 for one pool result (before any injury roll):
    the events and the combatants they changed, as changed (the rest of the roster is as
    the attack met it: the events and the roster before tell the roster after); hashed
    once, when first asked (it is cached, and the exact roller hashes it at every branch;
    the random roller never does)."""

    events: tuple[Event, ...]
    changed: tuple[Combatant, ...]
    bought: tuple[Spend, ...]
    crossed: tuple[tuple[str, bool], ...]
    hit: bool
    before: tuple[int, int]
    weapon: Weapon

    def __hash__(self) -> int:
        return cached_hash(self, lambda: hash((self.events, self.changed)))

    def after(self, cid: str, roster: Roster) -> Combatant:
        """``cid`` as settled, from the roster the attack met."""
        return next((c for c in self.changed if c.id == cid), None) or roster[cid]


@dataclass(frozen=True)
class _Harmed(HashOnce):
    """The Critical Injury part of Step 6: its events, the roster after, the severity
    (hashed once, when first asked)."""

    events: tuple[Event, ...]
    roster: Roster
    severity: str | None

    def __hash__(self) -> int:
        return cached_hash(self, lambda: hash((self.events, self.roster)))


_UNHARMED = _Harmed((), Roster(), None)


def _steps(roller: Roller, system: Any, plan: Plan, action: Action, roster: Roster,
           result: PoolResult) -> tuple[_Settled, _Harmed]:
    """Steps 3 to 5 and the hits (cached per pool result), then the injuries as a
    sub-step keyed by what they depend on (its roster holds the injured only)."""
    live = getattr(roller, "choose", None) is not None  # a live session asks people
    pre = _settle(system, plan, action, roster, result, result.symbols, narrated(roller),
                  cast(Hashable, roller) if live else None)
    a_id, t_id = action.actor, action.target or ""
    triggers = sum(1 for s in pre.bought if s.effect == "critical")
    if not triggers and not any(went for _, went in pre.crossed):
        return pre, _UNHARMED  # no injury to roll
    harmed: _Harmed = roller.resolve(_injure, system, _involved(pre, roster, a_id, t_id),
                                     pre.weapon.rating("Vicious"), a_id, t_id, triggers,
                                     pre.crossed)
    return pre, harmed


def _involved(pre: _Settled, roster: Roster, a_id: str, t_id: str) -> Roster:
    """The injury step's roster: who may be injured, as settled, and the attacker (whose
    talents count) as before the attack unless injured too, so that the step's key does
    not change with what the attacker spent. Kept on the settled step (which belongs to
    one attack on one roster): the exact roller asks again for every injury it
    enumerates, and the same roster keys its memo at once (its hash is kept)."""
    involved: Roster | None = pre.__dict__.get("_involved")
    if involved is None:
        hurt = (t_id, *(cid for cid, _ in pre.crossed if cid != t_id))
        involved = Roster([*(pre.after(c, roster) for c in hurt),
                           *([] if a_id in hurt else [roster[a_id]])])
        object.__setattr__(pre, "_involved", involved)
    return involved


def _injure(roller: Roller, system: Any, involved: Roster, vicious: int, a_id: str,
            t_id: str, triggers: int, crossed: tuple[tuple[str, bool], ...]) -> _Harmed:
    """Step 6's Critical Injuries, on the combatants they involve only."""
    tr = Tracker(involved, narrated(roller))
    severity = _criticals(roller, tr, system, vicious, a_id, t_id, triggers, dict(crossed))
    if summaries_only(roller):  # exact odds: the same injuries by other rolls merge
        return _Harmed((), tr.roster, severity)
    return _Harmed(tuple(tr.events), tr.roster, severity)


def _resolution(action: Action, roster: Roster, pre: _Settled, harmed: _Harmed
                ) -> Resolution:
    """The outcome of the whole attack from its settled part and its injuries (a
    Resolution carries events, not a roster: the target as the injuries left it)."""
    t_id = action.target or ""
    severity = harmed.severity
    after = harmed.roster[t_id] if t_id in harmed.roster else pre.after(t_id, roster)
    lost = (after.state.wounds - pre.before[0]) + max(0, after.state.strain - pre.before[1])
    blast_miss = not pre.hit and any(s.effect == "blast" for s in pre.bought)
    outcome = ("critical injury" if severity else "plain hit") if pre.hit else (
        "blast" if blast_miss else "miss")
    events = (*pre.events, *harmed.events, Outcome(STEP6, action.actor, t_id, outcome,
                                                   pre.hit, lost))
    details: list[tuple[str, Any]] = []
    if severity:
        details.append(("critical injury", severity))
    if after.sheet.adversary == "minion":
        details.append(("minions standing", after.state.members))
    return Resolution(outcome, pre.hit, lost, events, after.state.incapacitated,
                      tuple(details))


@lru_cache(maxsize=128)
def _settle(system: Any, plan: Plan, action: Action, roster: Roster, result: PoolResult,
            symbols: str | None, told: bool = True, chooser: Any = None) -> _Settled:
    """(``plan`` is the attack's, as ``plan_attack`` made it; ``symbols`` is part of the
    cache key: what the dice showed is in the events; ``told``: whether to build the
    events that only tell, the changes alone when not; ``chooser`` is a live session's
    roller, asked how people spend.) A small cache: the exact roller plays an attack's
    last steps again for each injury it enumerates, one after another, and finds the
    settled step here; a random roller never meets one again, and a large cache would
    only keep thousands of them alive for the garbage collector to walk through."""
    weapon, opts = plan.weapon, action.options
    assert isinstance(opts, Options)
    a_id, t_id = action.actor, action.target or ""
    tr = Tracker(roster, told)
    if told:
        tr.events.extend(plan.events)
    attacker, target = tr.c(a_id), tr.c(t_id)
    if attacker.state.wielding != weapon.name:
        tr.set(STEP1, a_id, "wielding", weapon.name)
    if attacker.state.next_check:
        tr.set("next-check effects are used up by this check", a_id, "next_check", ())
    brink = harm.action_strain(attacker)
    if brink:
        harm.suffer_strain(tr, f"{STEP6} (At the Brink)", a_id, brink)
    step3 = rolled(plan, a_id, result, result.symbols)
    if told:
        tr.add(*step3.events)
    successes, advantage = result.successes, step3.advantage
    hit, per_hit = step3.hit, step3.per_hit
    soak, _ = _soak(target, weapon)
    crit_possible = hit and per_hit > soak
    knockdown = qualities()["Knockdown"]
    ctx = Context(hit, crit_possible, weapon.crit, weapon, plan.auto_fire,
                  knockdown.cost + knockdown.cost_per_silhouette
                  * max(0, target.sheet.silhouette - 1), attacker.state.strain,
                  st.has(attacker, "prone"), not plan.melee,
                  any(t != t_id for t in opts.blast_targets), st.has(target, "prone"),
                  any(system.is_active(c) for c in roster.allies_of(a_id)))
    a_policy = opts.advantage_policy or system.defaults.advantage_policy
    h_policy = opts.threat_policy or system.defaults.threat_policy
    spend, gm_spend = opts.spend, opts.gm_spend
    shown = ""
    if chooser is not None:  # a live session: people may spend by hand
        faces = "" if result.symbols is None else (  # None: drawn by fracas, no faces kept
            f"{result.symbols if result.symbols.strip('- ') else 'blanks'} → ")
        # what the hit is worth, as spending is weighed (Step 3's damage; soak is the
        # target's, which a player may not see)
        shown = (f"{attacker.name} rolled {faces}{result.describe()}: " + (
            f"a hit of {per_hit} damage before soak" if hit else "a miss"))
        spend, a_policy = person_spends(chooser, a_id, attacker.name, "advantage", ctx,
                                        advantage, result.triumphs, spend, a_policy, shown)
    bought, events = advantage_spent(ctx, advantage, result.triumphs, spend, a_policy,
                                     (a_id, attacker.name), opts.advantage_policy is not None)
    if told:
        tr.add(*events)
    spender, spender_name = threat_spender(system, attacker, target)
    if chooser is not None:
        gm_spend, h_policy = person_spends(chooser, spender, spender_name, "threat", ctx,
                                           -advantage, result.despairs, gm_spend, h_policy,
                                           shown)
    gm, events = threat_spent(ctx, -advantage, result.despairs, gm_spend, h_policy,
                              spender_name, opts.threat_policy is not None)
    if told:
        tr.add(*events)
    before = (target.state.wounds, target.state.strain)
    crossed = _hits(tr, plan, weapon, a_id, t_id, opts, bought, per_hit, successes, hit,
                    system.defaults.threshold_injury_when_incapacitated)
    boosted = any(s.effect == "ally_boost" for s in bought)  # which ally: asked only then
    _effects(tr, a_id, t_id, weapon, bought, gm, per_hit, plan.base,
             next_ally(system, roster, a_id) if boosted else "")
    return _Settled(tuple(tr.events), tr.changed(), bought, tuple(crossed.items()), hit,
                    before, weapon)


def _hit_on(tr: Tracker, label: str, cid: str, damage: int, weapon: Weapon,
            again: bool = False) -> bool:
    """One hit on ``cid``: soak, then wounds (or strain for Stun Damage)."""
    target = tr.c(cid)
    soak, note = _soak(target, weapon)
    suffered = max(0, damage - soak)
    stun = weapon.quality("Stun Damage") is not None
    if tr.told:
        tr.add(GenesysDamage(STEP6, cid, label, damage, soak, note, suffered,
                             "strain (Stun Damage)" if stun else "wounds"))
    if stun:
        return harm.suffer_strain(tr, STEP6, cid, suffered)
    return harm.suffer_wounds(tr, STEP6, cid, suffered, again)


def _hits(tr: Tracker, plan: Plan, weapon: Weapon, a_id: str, t_id: str, opts: Options,
          bought: Sequence[Spend], per_hit: int, successes: int, hit: bool, again: bool
          ) -> dict[str, bool]:
    """Every hit of the attack (the first, extra hits, Blast); who went past threshold.
    One Critical Injury per attack and target (seed 004 · Step 6: "An attack may also
    generate a Critical Injury"): a hit on a target this attack already took past its
    threshold is not a new wounding past it (``again`` only until then)."""
    crossed: dict[str, bool] = {}
    if hit:
        crossed[t_id] = _hit_on(tr, "Hit", t_id, per_hit, weapon, again)
        extra = [s for s in bought if s.effect == "extra_hit"]
        others = [t for t in opts.extra_targets if t != t_id]
        for i, s in enumerate(extra, 2):
            cid = others[i - 2] if i - 2 < len(others) else t_id
            went = _hit_on(tr, f"Hit {i} ({s.label})", cid, per_hit, weapon,
                           again and not crossed.get(cid, False))
            crossed[cid] = crossed.get(cid, False) or went
    blast = next((s for s in bought if s.effect == "blast"), None)
    if blast is not None:
        rating = weapon.rating("Blast")
        victims = [t for t in opts.blast_targets if t != t_id]
        damage = rating + successes if hit else rating
        if not hit:
            victims = [t_id, *victims]
        for cid in victims:
            went = _hit_on(tr, f"Blast {rating}", cid, damage, weapon,
                           again and not crossed.get(cid, False))
            crossed[cid] = crossed.get(cid, False) or went
    return crossed


def _criticals(roller: Roller, tr: Tracker, system: Any, vicious: int, a_id: str, t_id: str,
               triggers: int, crossed: dict[str, bool]) -> str | None:
    """Critical Injuries: one roll for the ``triggers`` of the Critical rating (+10 per
    extra, +10 per rank of Vicious), and one for wounds past the threshold (the table
    default threshold_injury)."""
    mode = system.defaults.threshold_injury
    severity = None
    main_crossed = crossed.get(t_id, False)
    if triggers:
        extra = triggers - 1
        if main_crossed and mode == "extra_trigger":
            tr.add(Note(f"{DEFAULT} · threshold_injury=extra_trigger",
                        f"{tr.c(t_id).name} also went past its wound threshold: one more trigger "
                        "(+10)"))
            extra += 1
            main_crossed = False
        severity = harm.critical_injury(roller, tr, system.defaults, t_id, extra, vicious,
                                        "Critical rating", a_id)
    for cid, went in crossed.items():
        if not went or (cid == t_id and not main_crossed):
            continue
        tr.add(Note(harm.WOUNDS, f"{tr.c(cid).name} suffered wounds past its wound threshold: "
                                 "one Critical Injury"))
        got = harm.critical_injury(roller, tr, system.defaults, cid, 0, vicious,
                                   "wound threshold", a_id)
        if cid == t_id:
            severity = severity or got
    return severity


def threat_spender(system: Any, attacker: Any, target: Any) -> tuple[str, str]:
    """Who spends the threat and despair of a check (seed 004 · Step 5): the GM ("gm"), or,
    when the table lets players spend an NPC's (``npc_threat: players``), the player of
    the PC it attacked."""
    if (system.defaults.npc_threat == "players" and attacker.sheet.adversary != "pc"
            and target.sheet.adversary == "pc"):
        return target.id, f"{target.name} (a player, spending the NPC's threat)"
    return "gm", "the GM"


def next_ally(system: Any, roster: Roster, a_id: str) -> str:
    """The next allied active character after ``a_id`` (seed 004 · Table I.6-2: a boost die
    "on the next allied active character's check"): the first ally to act after it in the
    initiative order (wrapping round), or, before initiative is rolled, the next in the
    roster; "" when it has no active ally."""
    ids = list(roster)
    allies = [c for c in roster.allies_of(a_id) if system.is_active(c)]
    if not allies:
        return ""
    me = roster[a_id].state.initiative
    if me and all(c.state.initiative for c in allies):
        mine = me[0]
        n = 1 + max(mine, *(c.state.initiative[0] for c in allies))
        return min(allies, key=lambda c: (c.state.initiative[0] - mine) % n).id
    here = ids.index(a_id)
    return min(allies, key=lambda c: (ids.index(c.id) - here) % len(ids)).id


def _effects(tr: Tracker, a_id: str, t_id: str, weapon: Weapon, bought: Sequence[Spend],
             gm: Sequence[Spend], per_hit: int, base: int, ally: str = "") -> None:
    """The effects of active qualities and of the spending tables."""
    for s in bought:
        rating = weapon.rating(s.key) if s.key in qualities() else 0
        rule = s.rule
        if s.effect == "burn":
            tr.condition(rule, t_id, f"burning:{rating}:{base}")
        elif s.effect == "ensnare":
            tr.condition(rule, t_id, f"immobilized:{rating}")
        elif s.effect == "disorient":
            tr.condition(rule, t_id, f"disoriented:{rating}")
        elif s.effect == "knockdown":
            tr.condition(rule, t_id, "prone")
        elif s.effect == "stun":
            harm.suffer_strain(tr, rule, t_id, rating)
        elif s.effect == "recover_strain":
            harm.recover_strain(tr, rule, a_id, 1)
        elif s.effect == "negate_defense":
            tr.condition(rule, t_id, "exposed:0")
        elif s.effect == "self_defense":
            tr.condition(rule, a_id, "defended:1")
        elif s.effect in ("target_setback", "target_upgrade_difficulty"):
            token = "setback" if s.effect == "target_setback" else "upgrade_difficulty"
            tr.set(rule, t_id, "next_check", (*tr.c(t_id).state.next_check, token))
        elif s.effect in ("self_boost", "self_upgrade_ability"):
            token = "boost" if s.effect == "self_boost" else "upgrade_ability"
            tr.set(rule, a_id, "next_check", (*tr.c(a_id).state.next_check, token))
        elif s.effect == "ally_boost" and ally:
            tr.set(rule, ally, "next_check", (*tr.c(ally).state.next_check, "boost"))
    for s in gm:
        rule = s.rule
        if s.effect == "attacker_strain":
            harm.suffer_strain(tr, rule, a_id, 1)
        elif s.effect == "attacker_prone":
            tr.condition(rule, a_id, "prone")
        elif s.effect == "out_of_ammo":
            tr.condition(rule, a_id, f"out_of_ammo:{weapon.name}")
        elif s.effect in ("attacker_setback", "attacker_upgrade_difficulty"):
            token = "setback" if s.effect == "attacker_setback" else "upgrade_difficulty"
            tr.set(rule, a_id, "next_check", (*tr.c(a_id).state.next_check, token))
        elif s.effect == "target_boost":
            tr.set(rule, t_id, "next_check", (*tr.c(t_id).state.next_check, "boost"))
