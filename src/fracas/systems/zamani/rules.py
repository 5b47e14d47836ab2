"""The Zamani rule system (seed 002): percentile skill rolls on an action table, the 10-to-1
initiative countdown with extra segments, guard, focus, sacrifice and surprise."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from fracas.core.events import Event, Note
from fracas.core.model import Action, Combatant, Resolution, Roster, Slot
from fracas.core.system import RuleSystem
from fracas.dice.rollers import Roller, narrated
from fracas.errors import InputError

from .actions import actions_for, check, reactions_for, resolve_other, round_choices
from .attack import resolve_attack
from .countdown import Countdown, countdown, segments_for
from .sheet import CONDITIONS, Defaults, Options, Sheet
from .state import (
    DEFAULT,
    SEED,
    Changes,
    State,
    ZamaniCountdown,
    ZamaniInitiative,
    ZamaniTieBreak,
)
from .table import ActionTable, load_action_table, resolve_table_file

FOCUS_INITIATIVE = 5
ROUNDS_PER_TURN = 10


def default_in_hand(sheet: Sheet) -> tuple[str, ...]:
    """The first weapon that takes hands, plus the shield if a hand is left."""
    held = [w for w in sheet.weapons if w.hands > 0][:1]
    names = [w.name for w in held]
    if sheet.shield is not None and sum(w.hands for w in held) <= 1:
        names.append(sheet.shield.name)
    return tuple(names)


def _countdown(roller: Roller, inits: tuple[tuple[str, int], ...],
               fitness: tuple[tuple[str, int], ...], spirit: tuple[tuple[str, int], ...],
               die: int, names: tuple[tuple[str, str], ...] = ()) -> Countdown:
    """The round's countdown (seed 002 · Segment & Initiatives), ties broken by Fitness,
    Spirit, then the GM's tie die (``names``: the tied as the table calls them)."""
    return countdown(dict(inits), dict(fitness), dict(spirit), roller, die, dict(names))


@lru_cache(maxsize=256)
def _slots(places: tuple[Any, ...], round_number: int) -> tuple[Slot, ...]:
    """A round's slots, one per place in its countdown (the countdown's one offensive
    action may be taken on any of the segments)."""
    slots = []
    for place in places:
        extra: tuple[tuple[str, Any], ...] = (
            ("segment", place.segment), ("action", place.action), ("round", round_number))
        label = f"countdown {place.segment}" + ("" if place.action == 1 else " (extra)")
        slots.append(Slot((place.name,), label, True, extra))
    return tuple(slots)


class Zamani(RuleSystem):
    """Zamani, seed 002."""

    id = "zamani"
    title = "Zamani"
    seed = "002_8f1f8e2b32a59ce2.txt"
    commands = "fracas.systems.zamani.cli"
    summary = ("percentile skills on an action table, 10-to-1 initiative countdown with "
               "segments, guard, focus, sacrifice, surprise")
    sheet_model = Sheet
    options_model = Options
    defaults_model = Defaults
    outcomes = ("miss", "avoided", "light", "medium", "heavy", "extreme", "critical",
                "controlled", "guarding", "focusing", "moved", "readied", "stood",
                "sacrificed", "focus_declared", "waited")
    dice_order = ("d100 rolls in order: with surprise, the attacker's stealth or ambush roll "
                  "and then the target's Fitness (or ambush) roll; then the attack roll")
    demo_examples = ("regular_melee.yaml", "controlled_disarm.yaml", "firearm_cover.yaml",
                     "surprise_stealth.yaml", "guard_another.yaml")

    @classmethod
    def resolve_files(cls, rules: Mapping[str, Any], folder: Path | None) -> dict[str, Any]:
        """A GM's table file is read from the scenario's folder or below, never outside it
        (and never without a folder)."""
        out = dict(rules)
        if "action_table" in out:
            out["action_table"] = resolve_table_file(out["action_table"], folder)
        return out

    @classmethod
    def inline_files(cls, rules: Mapping[str, Any], folder: Path) -> dict[str, Any]:
        """A GM's table file, read from the scenario's folder, put inline."""
        out = cls.resolve_files(rules, folder)
        if isinstance(out.get("action_table"), str) and out["action_table"] != "default":
            out["action_table"] = load_action_table(out["action_table"]).to_mapping()
        return out

    def __init__(self, rules: Any = None):
        super().__init__(rules)
        self.table  # load and validate the action table now  # noqa: B018

    @cached_property
    def table(self) -> ActionTable:
        """The action table in force (the default, or the GM's own)."""
        defaults: Defaults = self.defaults
        return load_action_table(defaults.action_table)

    # -- combatants ---------------------------------------------------------------
    def check_sheet(self, sheet: Any) -> None:
        assert isinstance(sheet, Sheet)
        names = [w.name for w in sheet.weapons]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise InputError(f"two weapons are named {name!r}", path=f"weapons[{i}].name",
                                 allowed="a unique name per weapon")
        if sheet.shield is not None and sheet.shield.name in names:
            raise InputError(f"the shield shares the name {sheet.shield.name!r} with a weapon",
                             path="shield.name", allowed="a name no weapon has")
        if sheet.in_hand is not None:
            known = [*names, *([sheet.shield.name] if sheet.shield else [])]
            hands = 0
            for i, name in enumerate(sheet.in_hand):
                if name not in known:
                    raise InputError(f"{name!r} is not a weapon or shield on this sheet",
                                     path=f"in_hand[{i}]", allowed=", ".join(known) or "none")
                w = sheet.weapon(name)
                hands += w.hands if w is not None else 1
            if hands > 2:
                raise InputError(f"{', '.join(sheet.in_hand)} need {hands} hands",
                                 path="in_hand", allowed="at most 2 hands")
        for i, cond in enumerate(sheet.conditions):
            if cond not in CONDITIONS:
                raise InputError(f"unknown starting condition {cond!r}",
                                 path=f"conditions[{i}]", allowed=", ".join(CONDITIONS))

    def initial_state(self, sheet: Any) -> State:
        assert isinstance(sheet, Sheet)
        in_hand = sheet.in_hand if sheet.in_hand is not None else default_in_hand(sheet)
        return State(wounds=sheet.wounds.now, max_wounds=sheet.wounds.max,
                     conditions=tuple(sheet.conditions), in_hand=tuple(in_hand),
                     sacrifice=sheet.sacrifice)

    def check_action(self, action: Action, roster: Roster) -> None:
        check(self, action, roster)

    # -- resolution -----------------------------------------------------------------
    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        if action.kind == "attack":
            return resolve_attack(self, roller, action, roster)
        return resolve_other(self, action, roster)

    # -- fights ------------------------------------------------------------------------
    def initiative_parts(self, c: Combatant) -> tuple[tuple[str, int], ...]:
        """Initiative = Dexterity + traits that add to it + sacrifice + a focus for speed."""
        sheet: Sheet = c.sheet
        parts: list[tuple[str, int]] = [("Dexterity", sheet.attributes["dexterity"])]
        parts += [(f"trait {t.name}", t.initiative) for t in sheet.traits if t.initiative]
        if c.state.sacrifice:
            parts.append((f"sacrifice {c.state.sacrifice}", c.state.sacrifice))
        if c.state.focus == "speed":
            parts.append(("focus for speed", FOCUS_INITIATIVE))
        return tuple(parts)

    def countdown_of(self, roster: Roster, roller: Roller) -> Countdown:
        """The countdown of the active combatants of ``roster``: a sub-step of its own,
        keyed by the initiatives and the stats that break their ties (a simulation's memo
        then walks the tie dice again rather than working the countdown out)."""
        active = [c for c in roster.values() if self.is_active(c)]
        inits = tuple((c.id, sum(v for _, v in self.initiative_parts(c))) for c in active)
        fitness = tuple((c.id, c.sheet.attributes["fitness"]) for c in active)
        spirit = tuple((c.id, c.sheet.attributes["spirit"]) for c in active)
        names = tuple((c.id, c.name) for c in active)
        return roller.resolve(_countdown, inits, fitness, spirit, self.defaults.tie_die, names)

    def round_representative(self, round_number: int) -> int:
        """Round 1 is the opening; after it the hooks only read the round within its turn
        of 10 (a turn begins at rounds 11, 21, ...), so round 12 acts like round 2."""
        return round_number if round_number <= 11 else (round_number - 2) % 10 + 2

    def initiative(self, roller: Roller, roster: Roster, round_number: int) -> tuple[
            tuple[Slot, ...], tuple[Event, ...]]:
        cd = self.countdown_of(roster, roller)
        slots = _slots(cd.places, round_number)
        if not narrated(roller):
            return slots, ()
        events: list[Event] = []
        turn, within = divmod(round_number - 1, ROUNDS_PER_TURN)
        if within == 0:
            events.append(Note(f"{SEED} · Time Scale", f"Turn {turn + 1} begins "
                                                       "(a turn is 10 rounds)"))
        for cid in cd.order:
            c = roster[cid]
            parts = self.initiative_parts(c)
            value = sum(v for _, v in parts)
            events.append(ZamaniInitiative(f"{SEED} · Segment & Initiatives", c.name, parts,
                                           value, segments_for(value)))
        for tie in cd.ties:
            rule = (f"{SEED} · Segment & Initiatives" if not tie.by.startswith("d")
                    else f"{DEFAULT} · Initiative tie die")
            events.append(ZamaniTieBreak(rule, tie.initiative, tie.by,
                                         tuple(roster[n].name for n in tie.names), tie.values))
        events.append(ZamaniCountdown(f"{SEED} · Segment & Initiatives", round_number, tuple(
            (s, tuple(roster[n].name for n in cd.segment(s))) for s in range(10, 0, -1))))
        return slots, tuple(events)

    def round_choices(self, actor: str, roster: Roster, round_number: int) -> list[Action]:
        """Before initiative: the sacrifice at the start of a Turn, the use of a focus, a
        surprise attack that opens the combat (see :func:`.actions.round_choices`)."""
        turn_starts = (round_number - 1) % ROUNDS_PER_TURN == 0
        return round_choices(self, actor, roster, round_number == 1, turn_starts)

    def actions(self, actor: str, roster: Roster, slot: Slot | None = None) -> list[Action]:
        return actions_for(self, actor, roster, slot)

    def reactions(self, action: Action, roster: Roster) -> list[Action]:
        return reactions_for(action, roster)

    def first_reaction(self, action: Action, roster: Roster) -> Action:
        """The action itself: the attack as declared is the first reaction
        (:func:`.actions.reactions_for`)."""
        return action

    def health(self, combatant: Combatant) -> tuple[int, int]:
        return combatant.state.wounds, combatant.state.max_wounds

    def out_at(self, combatant: Combatant) -> int:
        return int(self.defaults.out_at)

    def ranking_state(self, combatant: Combatant, health: bool = False) -> Any:
        """The policies rank options, unless ``health``, with wounds as at full (an attack
        reads them only to tell whether the target is out); everything else as it is."""
        state = combatant.state
        if health or state.wounds == state.max_wounds:
            return state
        return dataclasses.replace(state, wounds=state.max_wounds)

    def bystander_state(self, combatant: Combatant, parties: Collection[str]) -> State:
        """An attack reads a combatant other than its attacker and its target only to find
        a guard over the target (seed 002 · Guard): one standing guard over a party is
        ranked as it is, anyone else as not guarding, the rest set aside (as the sheet
        starts it)."""
        state = combatant.state
        assert isinstance(state, State)
        if state.guarding in parties:
            return state
        return self.set_aside(combatant, guarding="")  # type: ignore[no-any-return]

    def is_active(self, combatant: Combatant) -> bool:
        return bool(combatant.state.wounds > self.defaults.out_at
                    and "unconscious" not in combatant.state.conditions)

    def start_turn(self, roller: Roller, actor: str, roster: Roster) -> tuple[Event, ...]:
        """Standing guard lasts until the guard's next turn (its first segment of the next
        round: through its own extra segments)."""
        ch = Changes(roster)
        if roster[actor].state.guarding:
            ch.set(f"{SEED} · Guarding", actor, "guarding", "")
        return tuple(ch.events)

    def end_round(self, roller: Roller, roster: Roster, round_number: int) -> tuple[Event, ...]:
        """Per-round counters reset; a round of focus becomes its benefit (its use declared
        as the next round begins, unless declared already); speed is spent."""
        ch = Changes(roster)
        seg = f"{SEED} · Segment & Initiatives"
        for cid, c in roster.items():
            st = c.state
            ch.set(f"{SEED} · Defense", cid, "blocks_used", ())
            ch.set(f"{SEED} · Defense", cid, "acrobatics_used", False)
            ch.set(f"{SEED} · Defense", cid, "wounded_this_round", False)
            ch.set(seg, cid, "offensive_used", False)
            ch.set(f"{SEED} · Movement & Attacks", cid, "half_moves", 0)
            ch.set(seg, cid, "segments_used", 0)
            ch.set(f"{SEED} · Surprise", cid, "lost_round", False)
            ch.set(seg, cid, "chosen", ())
            ch.set(f"{SEED} · Focusing", cid, "focused_round", False)
            if st.focus == "speed":
                ch.set(f"{SEED} · Focusing", cid, "focus", "")
            elif st.focus == "focusing":
                ch.set(f"{SEED} · Focusing", cid, "focus", "ready")
            elif st.focus.startswith("focusing:"):
                ch.set(f"{SEED} · Focusing", cid, "focus", st.focus.split(":", 1)[1])
        return tuple(ch.events)
