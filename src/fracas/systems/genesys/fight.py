"""Fight hooks: initiative slots, the actions an actor has, turn and round effects."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fracas.core.events import Changed, Event, Note, Outcome
from fracas.core.model import Action, Resolution, Roster, Slot
from fracas.dice.rollers import Roller, announce, narrated
from fracas.systems.genesys import harm
from fracas.systems.genesys import state as st
from fracas.systems.genesys.check import DEFAULT, simple_pool
from fracas.systems.genesys.events import GenesysDamage, GenesysRolled
from fracas.systems.genesys.harm import Tracker
from fracas.systems.genesys.pool import GenesysPool
from fracas.systems.genesys.sheet import Options, Sheet
from fracas.systems.genesys.tables import BANDS, skills

INITIATIVE = "public fact · Initiative"
STANCE = "Genesys maneuver · Guarded Stance"
CONDITIONS = "genesys conditions (docs/systems/genesys.md)"


def guarded_stance(action: Action, roster: Roster, told: bool = True) -> Resolution:
    """+1 melee defense and a setback die on its own combat checks until the end of
    its next turn (counted as the end of the next round); ``told``: whether the rules
    narrate (see :class:`~fracas.systems.genesys.harm.Tracker`)."""
    tr = Tracker(roster, told)
    tr.add(Note(STANCE, f"{roster[action.actor].name} takes a Guarded Stance: +1 melee defense, a "
                        "setback die on its combat checks"))
    tr.condition(STANCE, action.actor, "guarded:1")
    tr.add(Outcome(STANCE, action.actor, "", "guarded stance", False, 0))
    return Resolution("guarded stance", False, 0, tuple(tr.events))


def _is_pc(sheet: Sheet) -> bool:
    return sheet.adversary == "pc"


def initiative(system: Any, roller: Roller, roster: Roster, round_number: int
               ) -> tuple[tuple[Slot, ...], tuple[Event, ...]]:
    """Cool (Vigilance when surprised) checks, once per encounter; slots by successes
    then advantage; any PC may take a PC slot, any NPC an NPC slot. The state keeps each
    combatant's place in the order (not the roll), so later rounds reuse it. An
    incapacitated character's slot leaves the order, or stays for another of its kind
    (table default ``incapacitated_slot``: a reading, the rules are silent)."""
    events: list[Event] = []
    told = narrated(roller)
    defaults = system.defaults
    active = [cid for cid in roster if system.is_active(roster[cid])]
    placed = active if defaults.incapacitated_slot == "drop" else list(roster)
    kept = sorted((cid for cid in placed if roster[cid].state.initiative),
                  key=lambda cid: roster[cid].state.initiative[0])
    results: dict[str, tuple[int, int]] = {}
    for cid in active:
        c = roster[cid]
        if c.state.initiative:
            continue
        surprised = st.has(c, "surprised")
        skill = defaults.surprised_skill if surprised else defaults.initiative_skill
        if skill not in skills():
            skill = "Cool" if not surprised else "Vigilance"
        spec, pool_events = simple_pool(defaults, c, skill)
        if told:
            events.append(Note(f"{INITIATIVE}; {DEFAULT} · "
                               f"{'Surprised skill' if surprised else 'Initiative skill'}",
                               f"{c.name} rolls {skill} for initiative"
                               + (" (surprised)" if surprised else "")))
            events += pool_events
        announce(roller, cid, f"initiative ({skill})")
        r = roller.roll(GenesysPool(spec))
        if told:
            events.append(GenesysRolled(INITIATIVE, cid, spec.notation(), r.symbols or "",
                                        r.successes, r.advantage, r.triumphs, r.despairs,
                                        r.describe()))
        results[cid] = (r.successes, r.advantage)
    pc_first = defaults.initiative_tie == "pc"
    rolled = sorted(results, key=lambda cid: (
        -results[cid][0], -results[cid][1],
        (0 if _is_pc(roster[cid].sheet) else 1) if pc_first else
        (1 if _is_pc(roster[cid].sheet) else 0)))
    order = kept + rolled
    for place, cid in enumerate(order, 1):
        if cid in results:
            events.append(Changed(INITIATIVE, cid, "initiative", roster[cid].state.initiative,
                                  (place,)))
    slots, labels = _slots(tuple((cid, _is_pc(roster[cid].sheet)) for cid in order))
    if not told:  # the lean loop keeps the changes only
        return slots, tuple(events)
    rule = f"{INITIATIVE}; {DEFAULT} · Initiative ties go to the " + (
        "PCs" if pc_first else "NPCs")
    if results:
        events.append(Note(rule, "order by successes, then advantage: " + ", ".join(
            f"{roster[cid].name} ({results[cid][0]}/{results[cid][1]})" if cid in results
            else roster[cid].name for cid in order)))
    events.append(Note(rule, f"round {round_number} slots: {labels}"))
    return slots, tuple(events)


@lru_cache(maxsize=1024)
def _slots(order: tuple[tuple[str, bool], ...]) -> tuple[tuple[Slot, ...], str]:
    """The slots of an initiative order (each id, and whether it is a PC's) and their
    labels in a line: made once per order, which later rounds keep."""
    pcs = tuple(cid for cid, pc in order if pc)
    npcs = tuple(cid for cid, pc in order if not pc)
    slots = []
    counts = {"PC": 0, "NPC": 0}
    for _, pc in order:
        kind = "PC" if pc else "NPC"
        counts[kind] += 1
        slots.append(Slot(pcs if pc else npcs, f"{kind} slot {counts[kind]}"))
    return tuple(slots), ", ".join(s.label for s in slots)


def actions(system: Any, actor: str, roster: Roster) -> list[Action]:
    """Every attack (each enemy, each usable weapon, with and without Aim), then a
    Guarded Stance."""
    me = roster[actor]
    if not system.is_active(me):
        return []
    targets = () if st.has(me, "staggered") else tuple(
        e.id for e in roster.enemies_of(actor) if system.is_active(e))
    return list(_offers(system, me.sheet, actor, targets, tuple(
        c for c in me.state.conditions if c.startswith("out_of_ammo:"))))


@lru_cache(maxsize=1024)
def _offers(system: Any, sheet: Sheet, actor: str, targets: tuple[str, ...],
            no_ammo: tuple[str, ...]) -> tuple[Action, ...]:
    """The actions on offer against these targets, with these weapons out of ammunition
    (made once: the same offers come back turn after turn)."""
    out: list[Action] = []
    for target in targets:
        for w in sheet.weapons:
            if f"out_of_ammo:{w.name}" in no_ammo:
                continue
            melee = skills()[w.skill].combat == "melee"
            reach = min(BANDS.index(system.defaults.fight_band), BANDS.index(w.range))
            band = None if melee else BANDS[reach]
            for aim in (0, 1):
                out.append(_attack(actor, target, w.name, band, aim))
    out.append(_stance(actor))
    return tuple(out)


@lru_cache(maxsize=4096)
def _attack(actor: str, target: str, weapon: str, band: str | None, aim: int) -> Action:
    """An attack on offer, made once: the same offers come back turn after turn, and a
    made action keeps its hash."""
    return Action(actor, target, weapon, "attack", Options(range=band, aim=aim))


@lru_cache(maxsize=1024)
def _stance(actor: str) -> Action:
    """A Guarded Stance on offer, made once."""
    return Action(actor, None, None, "guarded_stance", Options(), offensive=False)


def start_turn(system: Any, roller: Roller, actor: str, roster: Roster) -> tuple[Event, ...]:
    """Standing up from prone, burning, and Bleeding Out, as the turn begins (told only
    under a roller that narrates: :func:`~fracas.dice.rollers.narrated`)."""
    tr = Tracker(roster, narrated(roller))
    me = tr.c(actor)
    if not system.is_active(me):
        return ()
    if st.has(me, "prone"):
        tr.add(Note(CONDITIONS, f"{me.name} spends a maneuver to stand up"))
        tr.set(CONDITIONS, actor, "conditions", st.without(me.state.conditions, "prone"))
    burning = st.find(tr.c(actor).state.conditions, "burning")
    if burning is not None:
        _, turns, damage = burning.split(":")
        soak = tr.c(actor).sheet.soak
        suffered = max(0, int(damage) - soak)
        rule = "seed 004 · item qualities (Burn)"
        tr.add(GenesysDamage(rule, actor, "Burning", int(damage), soak, "", suffered,
                             "wounds"))
        crossed = harm.suffer_wounds(tr, rule, actor, suffered)
        left = int(turns) - 1
        conds = st.without(tr.c(actor).state.conditions, "burning")
        tr.set(rule, actor, "conditions", (*conds, f"burning:{left}:{damage}") if left > 0
               else conds)
        if crossed:
            harm.critical_injury(roller, tr, system.defaults, actor, 0, 0, "wound threshold")
    if harm.bleeding(tr.c(actor)):
        bleed(system, roller, tr, actor)
    return tuple(tr.events)


def bleed(system: Any, roller: Roller, tr: Tracker, cid: str) -> None:
    """Bleeding Out: 1 wound and 1 strain; one more Critical Injury for every 5 wounds
    past the wound threshold; the wound that first goes past it inflicts one as any harm
    does (seed 004 · Step 6)."""
    rule = "seed 004 · Critical Injury (Bleeding Out)"
    sheet: Sheet = tr.c(cid).sheet
    past_before = max(0, tr.c(cid).state.wounds - sheet.wound_threshold) // 5
    crossed = harm.suffer_wounds(tr, rule, cid, 1)
    harm.suffer_strain(tr, rule, cid, 1)
    if crossed:
        harm.critical_injury(roller, tr, system.defaults, cid, 0, 0, "wound threshold")
    past_after = max(0, tr.c(cid).state.wounds - sheet.wound_threshold) // 5
    for _ in range(past_after - past_before):
        harm.critical_injury(roller, tr, system.defaults, cid, 0, 0,
                             "5 more wounds past the threshold")


def end_round(system: Any, roller: Roller, roster: Roster, round_number: int
              ) -> tuple[Event, ...]:
    """Counted conditions count down; The End is Nigh comes due; an incapacitated
    character who is Bleeding Out (and has no turns) bleeds at the end of the round
    (told only under a roller that narrates)."""
    tr = Tracker(roster, narrated(roller))
    for cid in roster:
        c = tr.c(cid)
        if c.state.incapacitated and "dead" not in c.state.conditions and harm.bleeding(c):
            bleed(system, roller, tr, cid)
            c = tr.c(cid)
        conds = st.tick_round(c.state.conditions)
        dying = st.find(conds, "dying")
        if dying == "dying:1":
            conds = (*st.without(conds, "dying"), "dying:0")
        elif dying == "dying:0":
            conds = (*st.without(conds, "dying"), "dead")
            tr.add(Note("seed 004 · Critical Injury (The End is Nigh)",
                        f"{c.name} dies after the last initiative slot"))
        if conds != c.state.conditions:
            tr.set(f"{CONDITIONS}: end of round {round_number}", cid, "conditions", conds)
        if "dead" in conds and not tr.c(cid).state.incapacitated:
            tr.set("seed 004 · Critical Injury", cid, "incapacitated", True)
    return tuple(tr.events)
