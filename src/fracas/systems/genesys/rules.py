"""The genesys RuleSystem: sheets, checks of input, resolution and the fight hooks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fracas.core.events import Note
from fracas.core.model import Action, Combatant, Resolution, Roster, Slot
from fracas.core.system import RuleSystem
from fracas.core.unknown import unknown_message
from fracas.dice.rollers import Roller, narrated
from fracas.errors import InputError
from fracas.systems.genesys import fight, roll
from fracas.systems.genesys import state as st
from fracas.systems.genesys.attack import resolve_attack
from fracas.systems.genesys.dice import DIE_ORDER, PoolSpec
from fracas.systems.genesys.harm import Tracker, group_threshold
from fracas.systems.genesys.roll import PoolRoll
from fracas.systems.genesys.sheet import Defaults, Options, Sheet
from fracas.systems.genesys.state import GenesysState
from fracas.systems.genesys.tables import BANDS, injuries, qualities, skills, spending, talents

CONDITIONS = ("prone", "staggered", "disoriented", "immobilized", "surprised", "guarded",
              "defended", "exposed", "burning", "dying", "dead", "out_of_ammo")


class Genesys(RuleSystem):
    """Genesys narrative dice: pools, the six-step combat check, soak, wounds, strain,
    Critical Injuries, minion groups and initiative slots (seed 004)."""

    id = "genesys"
    title = "Genesys narrative dice"
    seed = "004_a5294c7e4e09e98b.txt"
    summary = ("Narrative dice pools (exact by dense convolution), six-step combat check, "
               "advantage/threat spending, soak, Critical Injuries, minion groups")
    sheet_model = Sheet
    options_model = Options
    defaults_model = Defaults
    outcomes = ("miss", "blast", "plain hit", "critical injury", "guarded stance")
    dice_order = ("the symbols the attack's pool showed (e.g. 'ss a t f'), then a d100 for "
                  "each Critical Injury (and a d10 after it for Horrific or Gruesome Injury)")
    demo_examples = ("brawl.yaml", "ranged_long.yaml", "minions.yaml", "vicious_pierce.yaml",
                     "autofire.yaml")

    # -- combatants ---------------------------------------------------------------
    def initial_state(self, sheet: Any) -> GenesysState:
        s: Sheet = sheet
        members = s.group
        incapacitated = False
        if s.adversary == "minion":
            fallen = min(s.group, max(0, (s.wounds - 1) // s.wound_threshold))
            members = s.group - fallen
            incapacitated = members == 0
        else:
            incapacitated = s.wounds > s.wound_threshold or (
                s.strain_threshold is not None and s.strain > s.strain_threshold)
        incapacitated = incapacitated or "dead" in s.conditions
        wielding = s.wielding or (s.weapons[0].name if s.weapons else None)
        return GenesysState(s.wounds, s.strain, members, incapacitated,
                            tuple(s.critical_injuries), tuple(s.conditions),
                            wielding=wielding)

    def check_sheet(self, sheet: Any) -> None:
        s: Sheet = sheet
        known = skills()
        if s.wielding is not None and s.weapon(s.wielding) is None:
            raise InputError(f"wielding {s.wielding!r}, which is not among the weapons",
                             path="wielding",
                             allowed=", ".join(w.name for w in s.weapons) or "no weapon")
        known_talents = talents()
        for name, rank in s.talents:
            talent = known_talents.get(name)
            if talent is None:
                raise InputError(f"unknown talent {name!r}", path=f"talents.{name}",
                                 allowed=", ".join(known_talents) + " (data/talents.yaml)")
            if rank > 1 and not talent.ranked:
                raise InputError(f"{name} is not ranked", path=f"talents.{name}",
                                 allowed="1")
        for name, rank in s.skills:
            if name not in known:
                raise InputError(unknown_message("skill", name, list(known)),
                                 path=f"skills.{name}",
                                 allowed=", ".join(known))
            if s.adversary == "minion" and rank != 0:
                raise InputError("a minion group's rank is its members minus one: list the "
                                 "group skill with rank 0", path=f"skills.{name}",
                                 allowed="0")
        if s.adversary == "minion" and s.group_size is None:
            raise InputError("a minion group needs its size", path="group_size",
                             allowed="a whole number from 1 to 20")
        if s.adversary != "minion" and s.group_size is not None:
            raise InputError("only a minion group has a group size", path="group_size",
                             allowed="adversary: minion, or no group_size")
        if s.adversary in ("minion", "rival") and s.strain_threshold is not None:
            raise InputError("minions and rivals have no strain threshold (strain is "
                             "suffered as wounds)", path="strain_threshold",
                             allowed="no strain_threshold")
        if s.adversary in ("pc", "nemesis") and s.strain_threshold is None:
            raise InputError(f"a {s.adversary} needs a strain threshold",
                             path="strain_threshold", allowed="a whole number >= 1")
        self._check_weapons(s)
        table = injuries()
        for i, name in enumerate(s.critical_injuries):
            row = table.by_name(name)
            if row is None or (name != row.name and not row.effects.characteristic):
                raise InputError(f"unknown Critical Injury {name!r}",
                                 path=f"critical_injuries[{i}]",
                                 allowed=", ".join(r.name for r in table.injuries))
        for i, text in enumerate(s.conditions):
            if st.condition_name(text) not in CONDITIONS:
                raise InputError(f"unknown condition {text!r}", path=f"conditions[{i}]",
                                 allowed=", ".join(CONDITIONS))

    def _check_weapons(self, s: Sheet) -> None:
        names: set[str] = set()
        for i, w in enumerate(s.weapons):
            where = f"weapons[{i}]"
            if w.name in names:
                raise InputError(f"two weapons are named {w.name!r}", path=f"{where}.name",
                                 allowed="a unique name per weapon")
            names.add(w.name)
            skill = skills().get(w.skill)
            if skill is None or skill.combat is None:
                combat = [k for k, v in skills().items() if v.combat]
                raise InputError(f"{w.skill!r} is not a combat skill", path=f"{where}.skill",
                                 allowed=", ".join(combat))
            if skill.combat == "melee" and w.range != "engaged":
                raise InputError("a melee weapon reaches only engaged", path=f"{where}.range",
                                 allowed="engaged")
            if isinstance(w.damage, str) and skill.combat != "melee":
                raise InputError("+N damage (Brawn + N) is for Brawl and Melee weapons",
                                 path=f"{where}.damage", allowed="a number")
            for j, q in enumerate(w.qualities):
                info = qualities().get(q.name)
                if info is None:
                    raise InputError(f"unknown quality {q.name!r}",
                                     path=f"{where}.qualities[{j}]",
                                     allowed=", ".join(qualities()))
                if info.rated and q.rating is None:
                    raise InputError(f"{q.name} needs a rating ({q.name} 2)",
                                     path=f"{where}.qualities[{j}]", allowed="a rating 1-10")
                if not info.rated and q.rating is not None:
                    raise InputError(f"{q.name} has no rating", path=f"{where}.qualities[{j}]",
                                     allowed=q.name)

    def check_action(self, action: Action, roster: Roster) -> None:
        me = roster[action.actor]
        if me.state.incapacitated:
            raise InputError(f"{me.id} is incapacitated and cannot act", path="attack.attacker")
        if action.kind == "guarded_stance":
            return
        if action.kind != "attack":
            raise InputError(f"unknown action {action.kind!r}", path="attack.action",
                             allowed="attack, guarded_stance")
        if st.has(me, "staggered"):
            raise InputError(f"{me.id} is staggered and cannot attack", path="attack.attacker")
        if action.target is None or action.target == action.actor:
            raise InputError("an attack needs a target other than the attacker",
                             path="attack.defender", allowed=", ".join(
                                 c for c in roster if c != action.actor))
        sheet: Sheet = me.sheet
        weapon = sheet.weapon(action.weapon)
        if weapon is None:
            raise InputError(f"{action.weapon!r} is not on {me.id}'s sheet",
                             path="attack.weapon", allowed=", ".join(w.name for w in sheet.weapons)
                             or "no weapons on the sheet")
        if st.find(me.state.conditions, "out_of_ammo") == f"out_of_ammo:{weapon.name}":
            raise InputError(f"{weapon.name} is out of ammunition", path="attack.weapon")
        opts = action.options
        assert isinstance(opts, Options)
        melee = skills()[weapon.skill].combat == "melee"
        if opts.range is not None:
            if melee and opts.range != "engaged":
                raise InputError("a melee attack is made at engaged range",
                                 path="attack.options.range", allowed="engaged")
            if BANDS.index(opts.range) > BANDS.index(weapon.range):
                raise InputError(f"{weapon.name} reaches only {weapon.range} range",
                                 path="attack.options.range",
                                 allowed=", ".join(BANDS[:BANDS.index(weapon.range) + 1]))
        if opts.auto_fire and weapon.quality("Auto-fire") is None:
            raise InputError(f"{weapon.name} has no Auto-fire quality",
                             path="attack.options.auto_fire", allowed="false")
        for field in ("extra_targets", "blast_targets"):
            for i, cid in enumerate(getattr(opts, field)):
                if cid not in roster or cid == action.actor:
                    raise InputError(f"no other combatant {cid!r}",
                                     path=f"attack.options.{field}[{i}]",
                                     allowed=", ".join(c for c in roster if c != action.actor))
        self._check_spend(opts)

    def _check_spend(self, opts: Options) -> None:
        table = spending()
        active = [name for name, q in qualities().items() if q.kind == "active"]
        a_keys = ["critical", *active, *(o.key for o in table.advantage)]
        h_keys = [o.key for o in table.threat]
        for field, keys in (("spend", a_keys), ("gm_spend", h_keys)):
            for i, key in enumerate(getattr(opts, field)):
                if key not in keys:
                    raise InputError(f"unknown option {key!r}",
                                     path=f"attack.options.{field}[{i}]", allowed=", ".join(keys))

    # -- resolution ----------------------------------------------------------------
    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        if action.kind == "guarded_stance":
            return fight.guarded_stance(action, roster, narrated(roller))
        return resolve_attack(self, roller, action, roster)

    def parse_roll(self, expression: str) -> PoolRoll | None:
        return roll.parse_roll(expression)

    def roll_problem(self, expression: str) -> None:
        """Raise an error about pools when ``expression`` is a pool written wrongly."""
        roll.roll_problem(expression)

    def dice_words(self, die: str) -> str | None:
        """A pool a screen asks the symbols of, its letters in words (the dice's names in
        ``data/dice.yaml``): ``pool PA-DDS`` -> ``PA-DDS: 1 proficiency, 1 ability against
        2 difficulty, 1 setback``; None for anything else."""
        notation = die.removeprefix("pool ").strip()
        try:
            spec = PoolSpec.parse(notation)
        except ValueError:
            return None
        words = [", ".join(f"{spec.count(n)} {n}" for n in names if spec.count(n))
                 for names in (DIE_ORDER[:3], DIE_ORDER[3:])]
        return f"{notation}: " + " against ".join(w for w in words if w)

    # -- fights ----------------------------------------------------------------------
    def round_representative(self, round_number: int) -> int:
        """The hooks read the round number only to name it in their explanations."""
        return 1

    def initiative(self, roller: Roller, roster: Roster, round_number: int) -> tuple[
            tuple[Slot, ...], tuple[Any, ...]]:
        return fight.initiative(self, roller, roster, round_number)

    def actions(self, actor: str, roster: Roster, slot: Slot | None = None) -> list[Action]:
        return fight.actions(self, actor, roster)

    def is_player(self, combatant: Combatant) -> bool:
        """A player character: a sheet of adversary type ``pc`` (seed 004)."""
        return bool(combatant.sheet.adversary == "pc")

    def is_active(self, combatant: Combatant) -> bool:
        s: GenesysState = combatant.state
        return not s.incapacitated and s.members > 0 and "dead" not in s.conditions

    def health(self, combatant: Combatant) -> tuple[int, int]:
        sheet: Sheet = combatant.sheet
        top = group_threshold(sheet)
        return max(0, top - combatant.state.wounds), top

    def health_words(self, combatant: Combatant) -> str:
        """Health as a Genesys table counts it, up from zero to the threshold, by the data
        pack's labels: ``wounds 6 of 14, strain 1 of 12`` (a rival or a minion group has
        no strain threshold: wounds alone)."""
        sheet: Sheet = combatant.sheet
        out = f"{self.words.field('wounds')} {combatant.state.wounds} of " \
              f"{group_threshold(sheet)}"
        return ", ".join([out, *self._strain(combatant)])

    def _strain(self, combatant: Combatant) -> list[str]:
        sheet: Sheet = combatant.sheet
        if sheet.adversary in ("minion", "rival") or sheet.strain_threshold is None:
            return []
        return [f"{self.words.field('strain')} {combatant.state.strain} of "
                f"{sheet.strain_threshold}"]

    def glance(self, combatant: Combatant, names: Mapping[str, str] | None = None
               ) -> list[str]:
        """Strain as a Genesys table counts it (``strain 1 of 12``; the wounds are the
        health bar), a minion group's members left, then the data pack's ``glance:``."""
        sheet: Sheet = combatant.sheet
        members = [f"{self.words.field('members')} {combatant.state.members}"
                   ] if sheet.adversary == "minion" else []
        return [*self._strain(combatant), *members, *super().glance(combatant, names)]

    def harm_by_hand(self, combatant: Combatant, amount: int) -> tuple[str, Any, Any]:
        """Wounds count up (seed 004 · Step 6); healing takes them off, down to none."""
        before = combatant.state.wounds
        return "wounds", before, max(0, before + amount) if amount < 0 else before + amount

    def start_turn(self, roller: Roller, actor: str, roster: Roster) -> tuple[Any, ...]:
        return fight.start_turn(self, roller, actor, roster)

    def end_round(self, roller: Roller, roster: Roster, round_number: int) -> tuple[Any, ...]:
        return fight.end_round(self, roller, roster, round_number)

    def start_fight(self, roller: Roller, roster: Roster) -> tuple[Any, ...]:
        if not narrated(roller):  # a note only
            return ()
        tr = Tracker(roster)
        tr.add(Note("seed 004 · encounters", "the encounter begins: initiative is rolled once "
                                             "and its slots are kept every round"))
        return tuple(tr.events)
