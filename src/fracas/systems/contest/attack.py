"""One attack, Steps 1 to 4 of seed 001: declare, defend, contest, damage."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fracas.core.errors import RulesError
from fracas.core.events import Event, Note, Outcome
from fracas.core.model import Action, Combatant, Resolution, Roster
from fracas.dice import Roller
from fracas.systems.contest.checks import (
    DYING,
    FIGHTING_DEFENSIVELY,
    blow,
    has_parry,
    held_weapons,
    make_check,
    usable_weapon,
)
from fracas.systems.contest.contest import (
    ContestResult,
    ContestRules,
    ContestSetup,
)
from fracas.systems.contest.damage import Blow, Guard, Harm, harm
from fracas.systems.contest.events import (
    CONTEST,
    DAMAGE,
    DECLARE,
    DEFENSE,
    HIT_POINTS,
    O_CRIT_MELEE,
    O_HALVING,
    O_UNTRAINED,
    R_CALLED,
    R_CHECK,
    R_DEFENSIVE,
    SPONGE,
    ContestArmour,
    ContestBoons,
    ContestDamage,
    ContestWounded,
    Tracker,
)
from fracas.systems.contest.narrate import Narrated, Side, dice_text, narrated_contest
from fracas.systems.contest.sheet import Defaults, Options, Sheet, Trait, Weapon, lookup

MODES = {"normal": "fighting normally", "called_shot": "a called shot",
         "defensive": "fighting defensively"}
FUMBLES = {"": "none", "fumble": "weapon kept", "disarmed": "disarmed"}


@dataclass(frozen=True)
class Defense:
    """The defense declared (Step 2) and what it uses."""

    kind: str
    skill: str
    item: Weapon | None  # the blocking item, or the counter-attack weapon
    parry: bool


def _side(c: Combatant) -> Side:
    return Side(c.id, c.name, c.state.conditions, c.state.dropped)


def block_item(t: Combatant, name: str | None) -> Weapon | None:
    """The named blocking item, else the held item with the best block value."""
    held = [w for w in held_weapons(t) if w.block > 0]
    if name is not None:
        return next((w for w in held if w.name.casefold() == name.casefold()), None)
    return max(held, key=lambda w: w.block, default=None)


def counter_weapon(t: Combatant, name: str | None) -> Weapon | None:
    """The named counter-attack weapon, else the first held weapon."""
    held = held_weapons(t)
    if name is not None:
        return next((w for w in held if w.name.casefold() == name.casefold()), None)
    return held[0] if held else None


def declare_defense(t: Combatant, opts: Options, traits: Mapping[str, Trait]) -> Defense:
    """Step 2: the defense and its item; a RulesError when the defender cannot use it."""
    kind = opts.defense
    if kind == "block":
        item = block_item(t, opts.block_item)
        if item is None:
            raise RulesError(f"{t.name} holds no blocking item"
                             + (f" named {opts.block_item!r}" if opts.block_item else ""))
        return Defense(kind, "block", item, False)
    if kind == "counter":
        item = counter_weapon(t, opts.counter_weapon)
        if item is None:
            raise RulesError(f"{t.name} holds no weapon to counter-attack with"
                             + (f" named {opts.counter_weapon!r}" if opts.counter_weapon else ""))
        return Defense(kind, item.skill, item, has_parry(t, traits))
    if kind == "sponge":
        sheet: Sheet = t.sheet
        if sheet.armour is None or t.state.armour_hp <= 0:
            raise RulesError(f"{t.name} wears no armour able to sponge (broken at 0 HP)")
    return Defense(kind, kind, None, False)


def _defense_text(a: Combatant, t: Combatant, d: Defense) -> str:
    if d.kind == "dodge":
        return f"{t.name} declares Dodge: winning the contest avoids all damage"
    if d.kind == "block":
        assert d.item is not None
        return (f"{t.name} declares Block with the {d.item.name}: winning the contest reduces "
                f"the damage by {d.item.block}")
    if d.kind == "sponge":
        armour = t.sheet.armour
        return (f"{t.name} declares Sponge: the attack hits, and winning the sponge contest "
                f"lets the {armour.name} (DR {armour.dr}, {t.state.armour_hp} HP) take it")
    assert d.item is not None
    parry = (f"; with Parry, winning also means taking no damage from {a.name}"
             if d.parry else "")
    return (f"{t.name} declares a Counter Attack with the {d.item.name}: {a.name} hits either "
            f"way, and winning the contest deals the {d.item.name}'s damage to {a.name}{parry}")


def contest_rules(df: Defaults) -> ContestRules:
    c = df.contest
    return ContestRules(df.check.critical_threat, df.check.critical_failure,
                        c.ties_to == "defender", df.weapon_roll.difficulty, c.rolls,
                        c.wins_needed, c.defender_threat_counts, c.attacker_threat_ends_contest,
                        c.counter_makes_all_rolls)


def boon_sources(a: Combatant, t: Combatant, opts: Options, df: Defaults
                 ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """Each side's boons (+) and banes (-) by source (Step 3: totals per player)."""
    mine: list[tuple[str, int]] = []
    if opts.mode == "called_shot" and df.called_shot.banes:
        mine.append(("called shot", -df.called_shot.banes))
    defensive = opts.mode == "defensive" or FIGHTING_DEFENSIVELY in a.state.conditions
    if defensive and df.fight_defensively.attack_banes:
        mine.append(("fighting defensively", -df.fight_defensively.attack_banes))
    mine += [("situational", n) for n in (opts.boons, -opts.banes) if n]
    theirs: list[tuple[str, int]] = []
    if FIGHTING_DEFENSIVELY in t.state.conditions and df.fight_defensively.reaction_boons:
        theirs.append(("fighting defensively", df.fight_defensively.reaction_boons))
    theirs += [("situational", n) for n in (opts.defender_boons, -opts.defender_banes) if n]
    return mine, theirs


@dataclass(frozen=True)
class Prepared:
    """What an attack is before any die is rolled."""

    weapon: Weapon
    defense: Defense
    setup: ContestSetup
    opening: tuple[Event, ...]
    counter_weapon: str | None
    blows: Mapping[tuple[str, bool], Blow]


class AttackResolver:
    """Resolves one attack action into events and a Resolution."""

    def __init__(self, df: Defaults, traits: Mapping[str, Trait]):
        self.df, self.traits = df, traits
        self._prepared: dict[tuple[Action, Combatant, Combatant], Prepared] = {}

    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        a, t = roster[action.actor], roster[action.target or ""]
        p = self.prepare(action, a, t)
        tracker = Tracker()
        tracker.seed(p.opening)
        told: Narrated = roller.resolve(narrated_contest, p.setup, _side(a), _side(t),
                                        p.weapon.name, p.counter_weapon)
        tracker.seed(told.events)
        events = [*p.opening, *told.events]
        assert isinstance(action.options, Options)
        return self._consequences(roller, a, t, p, action.options, told.result, tracker,
                                  events)

    def prepare(self, action: Action, a: Combatant, t: Combatant) -> Prepared:
        """Steps 1 and 2 and the checks of Step 3: they depend only on the action and the
        two combatants, so they are worked out once (the exact roller re-runs
        :meth:`resolve` once per path)."""
        key = (action, a, t)
        found = self._prepared.get(key)
        if found is None:
            if len(self._prepared) > 256:
                self._prepared.clear()
            found = self._prepared[key] = self._prepare(action, a, t)
        return found

    def _prepare(self, action: Action, a: Combatant, t: Combatant) -> Prepared:
        df = self.df
        if a.id == t.id:
            raise RulesError(f"{a.name} cannot attack themself")
        opts = action.options
        assert isinstance(opts, Options)
        weapon = usable_weapon(a, action.weapon)
        defense = declare_defense(t, opts, self.traits)
        tracker = Tracker()
        events: list[Event] = [
            Note(DECLARE, f"{a.name} attacks {t.name} with the {weapon.name}, "
                          f"{MODES[opts.mode]}"),
            Note(DEFENSE, _defense_text(a, t, defense)),
        ]
        if opts.mode == "defensive":
            events.append(Note(DECLARE, f"{a.name} fights defensively: a bane on checks to hit, "
                                        "a boon on reactions, until the start of the next turn"))
            events += tracker.add(R_DEFENSIVE, a.id, "conditions", a.state.conditions,
                                  FIGHTING_DEFENSIVELY)
        mine, theirs = boon_sources(a, t, opts, df)
        a_net, d_net = sum(n for _, n in mine), sum(n for _, n in theirs)
        counter = defense.item if defense.kind == "counter" else None
        setup = ContestSetup(
            attack=make_check(a, weapon.skill, f"{weapon.name} attack", a_net, df, weapon.kind),
            defense=self._defense_check(t, defense, d_net),
            kind=defense.kind,
            attack_weapon_roll=make_check(a, weapon.skill, "weapon roll", 0, df, weapon.kind),
            defense_weapon_roll=(make_check(t, counter.skill, "weapon roll", 0, df,
                                            counter.kind) if counter else None),
            rules=contest_rules(df))
        for check in (setup.attack, setup.defense):
            missing = [f"no {label[:-11]} skill on the sheet, rank {amount} (untrained)"
                       for label, amount in check.parts() if label.endswith(", untrained")]
            missing += [f"no {label[:-18]} on the sheet, modifier {amount}"
                        for label, amount in check.parts()
                        if label.endswith(", not on the sheet")]
            if missing:
                events.append(Note(O_UNTRAINED, f"{check.who}'s {check.label} check: "
                                   + "; ".join(missing)))
        for who, sources, check in ((a, mine, setup.attack), (t, theirs, setup.defense)):
            if sources:
                rule = R_CALLED if any(s == "called shot" for s, _ in sources) else (
                    R_DEFENSIVE if any(s == "fighting defensively" for s, _ in sources)
                    else R_CHECK)
                events.append(ContestBoons(rule, who.name, tuple(sources), check.net,
                                           dice_text(check)))
        blows = {(who.id, crit): blow(who, w, crit, df, self.traits)
                 for who, w in ((a, weapon), (t, counter)) if w is not None
                 for crit in (False, True)}
        return Prepared(weapon, defense, setup, tuple(events),
                        counter.name if counter else None, blows)

    def _defense_check(self, t: Combatant, d: Defense, net: int) -> Any:
        if d.kind == "counter":
            assert d.item is not None
            return make_check(t, d.item.skill, f"{d.item.name} counter attack", net, self.df,
                              d.item.kind)
        return make_check(t, d.skill, d.kind, net, self.df)

    def _consequences(self, roller: Roller, a: Combatant, t: Combatant, p: Prepared,
                      opts: Options, c: ContestResult, tracker: Tracker,
                      events: list[Event]) -> Resolution:
        weapon, d = p.weapon, p.defense
        threat, critical = c.a_crit != "", c.a_crit == "confirmed"
        won = c.winner
        parried = d.kind == "counter" and d.parry and won == "defender" and not threat
        if d.kind in ("sponge", "counter"):
            deals = not parried
        else:
            deals = won == "attacker" or threat or (d.kind == "block" and won == "defender")
        details: list[tuple[str, Any]] = [
            ("contest", won or "deadlock"),
            ("attacker_critical", c.a_crit or "none"),
            ("defender_critical", c.d_crit or "none"),
            ("attacker_fumble", FUMBLES[c.a_fumble]),
            ("defender_fumble", self._defender_fumble(d.kind, c.d_fumble)),
        ]
        if threat and won != "attacker" and d.kind in ("dodge", "block"):
            events.append(Note(CONTEST, f"{t.name} {'won' if won else 'deadlocked'} the "
                                        f"contest, but {a.name}'s critical threat deals damage "
                                        "regardless"))
        if critical:
            events.append(Note(CONTEST, f"a confirmed critical with a weapon skill is a "
                                        f"Critical Hit: the {weapon.name}'s roll × "
                                        f"{weapon.crit_multiplier}"))
            events += self._melee_on_critical(a, weapon)
        guard, armour_notes = self._guard(a, t, d, opts, c, critical, deals)
        events += armour_notes
        damage, outcome = 0, ""
        if parried:
            events.append(Note(DEFENSE, f"{t.name} wins the counter attack with Parry: no "
                                        f"damage from {a.name}'s {weapon.name}"))
        if deals:
            hit_blow = p.blows[(a.id, critical)]
            h = roller.resolve(harm, hit_blow, guard, t.state.hp, t.state.armour_hp)
            events += self._harm_events(t, hit_blow, guard, h, tracker)
            damage = t.state.hp - h.hp_after
            if d.kind == "sponge":
                details.append(("armour_hp_after", h.armour_after))
            outcome = ("critical" if critical else "blocked" if guard.kind == "block"
                       else "sponged" if guard.kind == "sponge" else "hit")
        else:
            if d.kind == "sponge":
                details.append(("armour_hp_after", t.state.armour_hp))
            if d.kind == "dodge" and won == "defender":
                events.append(Note(DEFENSE, f"{t.name} wins the dodge: no damage"))
            outcome = "parried" if parried else "dodged" if won == "defender" else "deadlock"
            if outcome == "deadlock":
                events.append(Note(CONTEST, "the attack is deadlocked: no damage"))
        if d.kind == "counter":
            events += self._counter(roller, a, t, p, c, tracker, details)
        hp_after = tracker.get(t.id, "hp", t.state.hp)
        assert isinstance(hp_after, int)
        hit = won == "attacker" or d.kind in ("sponge", "counter") or threat
        events.append(Outcome(CONTEST, a.id, t.id, outcome, hit, damage))
        return Resolution(outcome, hit, damage, tuple(events), taken_out=hp_after <= 0,
                          details=tuple(details))

    def _melee_on_critical(self, c: Combatant, weapon: Weapon) -> list[Event]:
        """Say so when the table leaves the melee bonus off a critical's damage."""
        attribute = self.df.damage.melee_bonus_attribute
        if (weapon.kind != "melee" or self.df.damage.melee_bonus_on_critical
                or lookup(c.sheet.attributes, attribute) is None):
            return []
        return [Note(O_CRIT_MELEE, f"a critical's damage is the roll × the multiplier plus "
                                   f"trait bonuses: no melee bonus ({attribute})")]

    @staticmethod
    def _defender_fumble(kind: str, fumble: str) -> str:
        if not fumble:
            return "none"
        if kind == "dodge":
            return "prone"
        if kind in ("block", "sponge"):
            return "knocked back"
        return FUMBLES[fumble]

    def _guard(self, a: Combatant, t: Combatant, d: Defense, opts: Options, c: ContestResult,
               critical: bool, deals: bool) -> tuple[Guard, list[Event]]:
        df = self.df
        notes: list[Event] = []
        if not deals or c.winner != "defender":
            if d.kind == "sponge":
                notes.append(Note(SPONGE, f"{t.name} does not win the sponge contest: the "
                                          "armour does not help"))
            return Guard(), notes
        if d.kind == "block":
            assert d.item is not None
            return Guard("block", block=d.item.block), notes
        if d.kind != "sponge":
            return Guard(), notes
        if critical:
            notes.append(Note(SPONGE, "critical hit damage is not sponged by armour, even "
                                      "though the sponge contest was won"))
            return Guard(), notes
        dr = t.sheet.armour.dr
        if opts.mode == "called_shot" and df.called_shot.ignores_dr:
            notes.append(Note(R_CALLED, f"a called shot: the {t.sheet.armour.name}'s DR "
                                        "does not apply"))
            dr = 0
        divisor = 1
        if c.d_crit == "confirmed":
            divisor = df.sponge.critical_divisor
            notes.append(Note(SPONGE, f"a confirmed critical sponge: the damage is divided by "
                                      f"{divisor} after damage reduction"))
            notes.append(Note(O_HALVING, f"fractions round {df.sponge.rounding}"))
        return Guard("sponge", dr=dr, divisor=divisor,
                     round_up=df.sponge.rounding == "up"), notes

    def _harm_events(self, t: Combatant, b: Blow, guard: Guard, h: Harm, tracker: Tracker
                     ) -> list[Event]:
        out: list[Event] = [self._damage_event(b, h)]
        if guard.kind == "block":
            out.append(Note(DEFENSE, f"{t.name}'s block takes {h.blocked} off: {h.through} "
                                     "gets through"))
        if guard.kind == "sponge":
            armour = t.sheet.armour
            before = t.state.armour_hp
            out.append(ContestArmour(SPONGE, t.name, armour.name, h.total, guard.dr, h.halved,
                                     h.absorbed, before, h.armour_after, h.through))
            out += tracker.change(SPONGE, t.id, "armour_hp", before, h.armour_after)
            if h.armour_after == 0 < before:
                out.append(Note(SPONGE, f"the {armour.name} is broken: no more sponging or "
                                        "damage reduction, its other effects stay"))
        out += self._wound(t, h.through, h.hp_after, tracker)
        return out

    @staticmethod
    def _damage_event(b: Blow, h: Harm) -> Event:
        rule = DAMAGE
        if any(label.startswith("melee bonus") for label, _ in b.bonuses):
            rule = f"{DAMAGE} (+ RULES.md default · Melee bonus damage)"
        return ContestDamage(rule, b.who, b.weapon, b.dice, h.roll, b.multiplier, b.bonuses,
                             h.total)

    @staticmethod
    def _wound(c: Combatant, through: int, hp_after: int, tracker: Tracker) -> list[Event]:
        if through <= 0:
            return [Note(HIT_POINTS, f"{c.name} is unhurt")]
        out: list[Event] = [ContestWounded(HIT_POINTS, c.name, through, c.state.hp, hp_after)]
        out += tracker.change(HIT_POINTS, c.id, "hp", c.state.hp, hp_after)
        if hp_after <= 0:
            out += tracker.add(HIT_POINTS, c.id, "conditions", c.state.conditions, DYING)
        return out

    def _counter(self, roller: Roller, a: Combatant, t: Combatant, p: Prepared,
                 c: ContestResult, tracker: Tracker, details: list[tuple[str, Any]]
                 ) -> list[Event]:
        """The counter attack lands when the defender wins, or on its critical threat."""
        d = p.defense
        assert d.item is not None
        lands = c.winner == "defender" or c.d_crit != ""
        if not lands:
            details.append(("counter_damage", 0))
            return [Note(DEFENSE, f"{t.name} does not win the contest: the counter attack "
                                  "deals no damage")]
        out: list[Event] = []
        critical = c.d_crit == "confirmed"
        if c.winner != "defender":
            out.append(Note(CONTEST, f"{t.name}'s critical threat: the counter attack deals "
                                     "damage regardless"))
        else:
            out.append(Note(DEFENSE, f"{t.name} wins the contest: the counter attack deals "
                                     f"the {d.item.name}'s damage to {a.name}"))
        if critical:
            out.append(Note(CONTEST, f"a confirmed critical with a weapon skill is a Critical "
                                     f"Hit: the {d.item.name}'s roll × {d.item.crit_multiplier}"))
            out += self._melee_on_critical(t, d.item)
        b = p.blows[(t.id, critical)]
        h = roller.resolve(harm, b, Guard(), a.state.hp, a.state.armour_hp)
        out.append(self._damage_event(b, h))
        out += self._wound(a, h.through, h.hp_after, tracker)
        details.append(("counter_damage", a.state.hp - h.hp_after))
        return out
