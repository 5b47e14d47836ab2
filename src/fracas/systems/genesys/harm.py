"""Wounds, strain, incapacitation, minion groups and Critical Injuries (seed 004 · Step 6),
as Changed events on a working copy of the roster."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fracas.core.events import EFFECTS, Changed, Event, Note
from fracas.core.model import Combatant, Roster
from fracas.core.words import count
from fracas.dice.rollers import Roller, announce
from fracas.frozen import replaced
from fracas.systems.genesys import state as st
from fracas.systems.genesys.events import GenesysCriticalInjury
from fracas.systems.genesys.injuries import CriticalRoll, InjuryResult
from fracas.systems.genesys.sheet import Sheet
from fracas.systems.genesys.tables import injuries, talents

STEP6 = "seed 004 · Step 6: soak, wounds, Critical Injuries"
WOUNDS = "public fact · wound threshold"
ADVERSARIES = "public fact · adversaries"


class Tracker:
    """The roster as events change it, and the events so far.

    Each :class:`Changed` event is applied to its combatant alone, as
    :func:`~fracas.core.model.apply_event` does but by :func:`~fracas.frozen.replaced`
    (a :class:`~fracas.systems.genesys.state.GenesysState` has no ``__post_init__``, no
    cached hash and no slots: the copy equals what ``evolve`` gives, without running
    ``__init__``); the roster is put together again only when read, not once per event.
    (The field exists: :func:`~fracas.systems.genesys.state.change` read it.)

    ``told``: whether the rules narrate (:func:`~fracas.dice.rollers.narrated`); when
    not (the simulation's lean loop keeps the changes and outcomes only), :meth:`add`
    keeps no event that only tells, and the rules skip building those that cost much."""

    __slots__ = ("_base", "_now", "_roster", "events", "told")

    def __init__(self, roster: Roster, told: bool = True) -> None:
        self._base = roster
        self._now: dict[str, Combatant] = {}  # the combatants changed since, by id
        self._roster: Roster | None = roster
        self.events: list[Event] = []
        self.told = told

    @property
    def roster(self) -> Roster:
        if self._roster is None:
            self._roster = self._base.replace(*self._now.values())
        return self._roster

    @roster.setter
    def roster(self, roster: Roster) -> None:
        self._base, self._now, self._roster = roster, {}, roster

    def changed(self) -> tuple[Combatant, ...]:
        """The combatants changed since the roster was given (or last set), as changed."""
        return tuple(self._now.values())

    def c(self, cid: str) -> Combatant:
        now = self._now.get(cid)
        return self._base[cid] if now is None else now

    def add(self, *events: Event) -> None:
        for e in events:
            if not self.told and not isinstance(e, EFFECTS):
                continue  # nobody reads what only tells
            self.events.append(e)
            if isinstance(e, Changed):
                c = self.c(e.target)
                self._now[e.target] = replaced(c, state=replaced(c.state,
                                                                  **{e.field: e.after}))
                self._roster = None

    def set(self, rule: str, cid: str, name: str, after: Any) -> None:
        e = st.change(rule, self.c(cid), name, after)
        if e is not None:
            self.add(e)

    def condition(self, rule: str, cid: str, text: str) -> None:
        c = self.c(cid)
        self.set(rule, cid, "conditions", st.with_condition(c.state.conditions, text))


def group_threshold(sheet: Sheet) -> int:
    """A minion group's wound threshold is its members' added up."""
    return sheet.wound_threshold * sheet.group


def suffer_wounds(tr: Tracker, rule: str, cid: str, n: int, again: bool = False) -> bool:
    """Add wounds; True when a PC or nemesis has just gone past its wound threshold,
    whatever else had incapacitated it (strain: seed 004 · Step 6, a Critical Injury when
    "the target suffers a number of wounds greater than its wound threshold"); with
    ``again``, also when it was past it already (threshold_injury_when_incapacitated)."""
    if n <= 0:
        return False
    c = tr.c(cid)
    sheet: Sheet = c.sheet
    after = c.state.wounds + n
    tr.set(rule, cid, "wounds", after)
    if sheet.adversary == "minion":
        fallen = min(sheet.group, max(0, (after - 1) // sheet.wound_threshold))
        standing = sheet.group - fallen
        if standing < c.state.members:
            tr.set(f"{ADVERSARIES} · minion groups: wounds spill over the members", cid,
                   "members", standing)
        if standing == 0 and not c.state.incapacitated:
            tr.set(f"{ADVERSARIES} · minion groups", cid, "incapacitated", True)
        return False
    if after > sheet.wound_threshold and not c.state.incapacitated:
        tr.set(f"{WOUNDS}: wounds past the threshold", cid, "incapacitated", True)
    if c.state.wounds <= sheet.wound_threshold < after:
        return sheet.adversary in ("pc", "nemesis")
    if again and c.state.wounds > sheet.wound_threshold and sheet.adversary in ("pc",
                                                                                "nemesis"):
        tr.add(Note("seed 004 · Step 6 (threshold_injury_when_incapacitated=true)",
                    f"{c.name} is already past its wound threshold and suffers "
                    "wounds again: a number of wounds greater than its wound "
                    "threshold, a Critical Injury for this attack"))
        return True
    return False


def suffer_strain(tr: Tracker, rule: str, cid: str, n: int) -> bool:
    """Add strain (minions and rivals suffer it as wounds); True as in suffer_wounds."""
    if n <= 0:
        return False
    c = tr.c(cid)
    sheet: Sheet = c.sheet
    if sheet.adversary in ("minion", "rival") or sheet.strain_threshold is None:
        tr.add(Note(ADVERSARIES, f"{c.name} has no strain threshold: {n} strain is "
                                 "suffered as wounds"))
        return suffer_wounds(tr, rule, cid, n)
    after = c.state.strain + n
    tr.set(rule, cid, "strain", after)
    if after > sheet.strain_threshold and not c.state.incapacitated:
        tr.set(f"{WOUNDS}: strain past the strain threshold", cid, "incapacitated", True)
    return False


def recover_strain(tr: Tracker, rule: str, cid: str, n: int) -> None:
    c = tr.c(cid)
    tr.set(rule, cid, "strain", max(0, c.state.strain - n))


def injury_modifier(c: Combatant, extra_triggers: int, vicious: int,
                    by: Combatant | None = None) -> tuple[tuple[str, int], ...]:
    """The additions to the d100: extra triggers, untreated injuries, Vicious, and the
    talents of the one inflicting it (``by``) and of the one suffering it (seed 004,
    Step 6: "Some weapons and talents modify this Critical Injury roll")."""
    parts = []
    if extra_triggers:
        parts.append((count(extra_triggers, "extra trigger"), 10 * extra_triggers))
    untreated = len(c.state.critical_injuries)
    if untreated:
        parts.append((f"{untreated} untreated Critical Injur{'y' if untreated == 1 else 'ies'}",
                      10 * untreated))
    if vicious:
        parts.append((f"Vicious {vicious}", 10 * vicious))
    table = talents()
    for who, key in ((by, "critical_inflicted"), (c, "critical_suffered")):
        if who is None:
            continue
        for name, rank in who.sheet.talents:
            t = table[name]
            amount = getattr(t, key) * (rank if t.ranked else 1)
            if amount:
                parts.append((f"{who.name}'s talent {name}" + (f" {rank}" if t.ranked else ""),
                              amount))
    return tuple(parts)


def critical_injury(roller: Roller, tr: Tracker, defaults: Any, cid: str, extra_triggers: int,
                    vicious: int, why: str, by: str | None = None) -> str | None:
    """Inflict one Critical Injury on ``cid``: roll it (or defeat a minion); its severity."""
    c = tr.c(cid)
    sheet: Sheet = c.sheet
    if sheet.adversary == "minion" and defaults.minion_critical == "defeat_one":
        rule = "table default · A Critical Injury defeats one minion"
        if c.state.members <= 0:
            return None
        fallen = sheet.group - c.state.members + 1
        need = fallen * sheet.wound_threshold + 1 - c.state.wounds
        tr.add(Note(rule, f"a Critical Injury on the minion group {c.name} ({why}): one "
                          "member is defeated"))
        suffer_wounds(tr, rule, cid, max(need, 0))
        return "minion defeated"
    parts = injury_modifier(c, extra_triggers, vicious, None if by is None else tr.c(by))
    modifier = sum(v for _, v in parts)
    announce(roller, by or "gm", f"Critical Injury roll against {c.name}",
             f"nothing: {modifier:+d} is added" if modifier else "")
    result: InjuryResult = roller.roll(CriticalRoll(modifier, cid))
    events, roster = _injury_events(tr.roster, cid, parts, result, result.natural, result.d10,
                                    tr.told)
    tr.events.extend(events)
    tr.roster = roster
    return result.row.severity


@lru_cache(maxsize=8192)
def _injury_events(roster: Roster, cid: str, parts: tuple[tuple[str, int], ...],
                   result: InjuryResult, natural: int | None, d10: int | None, told: bool
                   ) -> tuple[tuple[Event, ...], Roster]:
    """The events of one rolled injury (cached: exact odds meet each row many times;
    ``natural`` and ``d10`` are in the key because the events show them, ``told``
    because only then is the roll told)."""
    tr = Tracker(roster, told)
    if told:
        modifier = sum(v for _, v in parts)
        row = result.row
        total = None if natural is None else natural + modifier
        effect = row.text
        if result.characteristic:
            effect += f" (d10 {d10}: {result.characteristic.capitalize()})" if (
                d10 is not None) else f" ({result.characteristic.capitalize()})"
        tr.add(GenesysCriticalInjury(f"{STEP6} (Table I.6-10)", cid, natural, parts,
                                     total, result.full_name, row.severity, effect))
    apply_injury(tr, cid, result)
    return tuple(tr.events), tr.roster


def apply_injury(tr: Tracker, cid: str, result: InjuryResult) -> None:
    """Record the injury and apply its immediate effects."""
    rule = f"{STEP6} (Table I.6-10: {result.name})"
    c = tr.c(cid)
    tr.set(rule, cid, "critical_injuries", (*c.state.critical_injuries, result.full_name))
    eff = result.row.effects
    if eff.strain:
        suffer_strain(tr, rule, cid, eff.strain)
    if eff.next_check:
        tr.set(rule, cid, "next_check", (*tr.c(cid).state.next_check, *eff.next_check))
    if eff.condition:
        tr.condition(rule, cid, eff.condition.replace(":0", "") if eff.condition.endswith(
            ":0") else eff.condition)
    if eff.dies == "next_round":
        tr.condition(rule, cid, "dying:1")
    if eff.dies == "now":
        tr.condition(rule, cid, "dead")
        tr.set(rule, cid, "incapacitated", True)


def bleeding(c: Combatant) -> bool:
    table = injuries()
    return any((row := table.by_name(n)) is not None and row.effects.bleeding
               for n in c.state.critical_injuries)


def action_strain(c: Combatant) -> int:
    table = injuries()
    return sum(row.effects.action_strain for n in c.state.critical_injuries
               if (row := table.by_name(n)) is not None)
