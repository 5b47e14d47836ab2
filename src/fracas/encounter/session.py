"""A live fight at the table: people decide, dice come from the table or are rolled.

:class:`Session` wraps a fight: it says what is asked now (:attr:`Session.pending`,
a :class:`~fracas.encounter.live.Decision`: an action, a reaction, dice, or a rule's
mid-resolution choice) and who must answer, takes the answer (:meth:`Session.decide`),
and keeps the log: every input given (answers, dice, GM edits) in order. The state
is a pure function of the scenario, the controllers, the seed and that log, so undo,
redo, saving and resuming are replaying it (see :mod:`fracas.encounter.live`).

>>> from fracas.registry.scenarios import load_scenario
>>> s = Session.start(load_scenario("examples/tristat/duel-fight.yaml"), seed=1,
...                   controllers={"rin": "person", "gorr": "person"})
>>> s.pending.kind, s.pending.prompt
('dice', "Rin's initiative: 2d6")
>>> _ = s.decide({"dice": [3, 5]}); _ = s.decide({"roll": True})
>>> s.pending.kind, s.pending.who
('action', 'gorr')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

from fracas.core.events import (
    ActionChosen,
    Changed,
    Event,
    FightEnded,
    event_from_dict,
    from_jsonable,
)
from fracas.core.scenario import Scenario
from fracas.core.words import count
from fracas.dice.variables import Variable
from fracas.encounter.decisions import Decision, DiceRequest, Needed, Option
from fracas.encounter.edits import apply_live, check_gm, fold_live
from fracas.encounter.engine import FightSetup, setup_from_scenario
from fracas.encounter.gm import RULE_GM, CombatantAdded, CombatantRemoved, ControllerSet
from fracas.encounter.hand import hand_value
from fracas.encounter.live import PERSON, Feed, dice_error, dice_prompt, run_turn, whose_roll
from fracas.encounter.narration import Names
from fracas.encounter.policies import POLICIES
from fracas.encounter.state import FightState
from fracas.errors import FracasError, InputError, ScriptError
from fracas.registry.scenarios import scenario_from_mapping

__all__ = ["RULE_GM", "Decision", "DiceRequest", "Option", "Session"]

SESSION_VERSION = 1


def known_names(session: Session) -> dict[str, str]:
    """Every combatant the fight has known, by id (those added and removed included)."""
    names = {cid: c.name for cid, c in session.scenario.roster.items()}
    for event in session.events:
        if isinstance(event, CombatantAdded):
            entry = dict(event.entry)
            names[str(entry.get("id"))] = str(entry.get("name") or entry.get("id"))
    names.update({cid: c.name for cid, c in session.state.roster.items()})
    return names


class Session:
    """A fight in progress at the table (see the module docstring); the GM's tools beyond
    these are in :mod:`fracas.encounter.gm`."""

    def __init__(self, scenario: Scenario, setup: FightSetup, controllers: Mapping[str, str],
                 seed: int, roll_all: bool = False, odds: bool = True):
        self.scenario = scenario
        self.setup = setup
        self.controllers = dict(controllers)
        self.seed = seed
        self.roll_all = roll_all
        self.odds = odds
        self.current = dict(self.controllers)  # as GM edits have changed them since
        self.entries: list[dict[str, Any]] = []
        self.drawn = 0  # how many "roll it"s the session has drawn (numbers are never reused)
        self.redo_stack: list[list[dict[str, Any]]] = []
        self._replay()

    # -- starting ---------------------------------------------------------------------
    @classmethod
    def start(cls, scenario: Scenario, *, seed: int | None = None,
              controllers: Mapping[str, str] | None = None, roll_all: bool = False,
              max_rounds: int | None = None, odds: bool = True) -> Session:
        """A new session. ``controllers``: combatant id -> ``"person"`` or a policy name
        (default: the scenario's policy), and ``"gm"`` -> ``"person"`` for the GM to make
        the GM's mid-resolution choices by hand (Genesys threat and despair; default: the
        system's policy); ``roll_all``: the session rolls every die by itself; ``odds``
        False leaves the options without odds (faster, e.g. for checks)."""
        setup = setup_from_scenario(scenario, max_rounds)
        chosen = {cid: setup.policy_of(cid) for cid in scenario.roster}
        allowed = ", ".join([PERSON, *POLICIES])
        for cid, name in dict(controllers or {}).items():
            if cid == "gm" and name in (PERSON, "policy"):  # the GM's own choices
                chosen[cid] = name
                continue
            if cid == "gm" and cid not in scenario.roster:
                raise InputError(f"the GM's own choices cannot be made by {name!r}",
                                 path="controllers.gm", allowed="gm=person (by hand) or "
                                 "gm=policy (the system's policy)")
            if cid not in scenario.roster:
                raise InputError(f"no combatant with id {cid!r}", path="controllers",
                                 allowed=", ".join(scenario.roster))
            if name != PERSON and name not in POLICIES:
                raise InputError(f"unknown controller {name!r} for {cid}",
                                 path=f"controllers.{cid}", allowed=allowed)
            chosen[cid] = name
        if seed is None:
            import secrets

            seed = secrets.randbits(32)
        return cls(scenario, setup, chosen, seed, roll_all, odds)

    # -- what is asked -----------------------------------------------------------------
    @property
    def system(self) -> Any:
        return self.setup.system

    @property
    def turn_base(self) -> FightState:
        """The state as the pending turn began, before its entries (read only: the GM's
        edits go in through this class's methods)."""
        return self._base

    def is_person(self, cid: str) -> bool:
        return self.current.get(cid) == PERSON

    def _auto(self, var: Variable[Any], who: str) -> bool:
        return self.roll_all

    def _feed(self, entries: Sequence[dict[str, Any]]) -> Feed:
        rolls = [e for e in entries if e["kind"] == "dice"]
        answers = [e for e in entries if e["kind"] == "answer"]
        previous = {e.actor: e.target for e in self.events[:self._base_len]
                    if isinstance(e, ActionChosen) and e.target}
        return Feed(list(rolls), list(answers), self.seed, self.drawn,
                    self._auto, self.is_person, odds=self.odds, previous=previous)

    def _replay(self) -> None:
        """Fold the whole log: the state, the events, and what is asked now."""
        self.state = FightState(self.scenario.roster)
        self.current = dict(self.controllers)
        self.events: list[Event] = []
        self.pending: Decision | None = None
        self._turn_start = 0  # where the pending turn's entries begin
        self._base = self.state  # the state as the pending turn began
        self._base_len = 0  # the events before the pending turn
        self._advance(0)

    def _advance(self, index: int) -> tuple[Event, ...]:
        """Play turns from entry ``index`` until something is asked or the fight ends;
        returns the events of the turns finished. Dice the session rolls by itself are
        added to the log as they are drawn."""
        new: list[Event] = []
        del self.events[self._base_len:]
        self.state = self._base
        while not self.state.over:
            if index < len(self.entries) and self.entries[index]["kind"] == "gm":
                event = event_from_dict(dict(self.entries[index]["event"]))
                self._apply_gm(event)
                new.append(event)
                index += 1
                continue
            end = next((j for j in range(index, len(self.entries))
                        if self.entries[j]["kind"] == "gm"), len(self.entries))
            chunk = self.entries[index:end]
            feed = self._feed(chunk)
            try:
                result = run_turn(self.setup, self.state, feed, self.current)
            except Needed as need:
                self.drawn = max(self.drawn, feed.next_roll)
                if end != len(self.entries):
                    raise InputError("the log stops in the middle of a turn before a GM "
                                     "edit", path=f"entries[{end}]") from None
                self.entries.extend(feed.added)
                self.pending = self._named(need.decision, feed)
                self._turn_start = index
                for event in feed.seen:  # the turn so far, shown while it waits
                    self.state = self.state.apply(event)
                self.events.extend(feed.seen)
                return tuple(new)
            self.drawn = max(self.drawn, feed.next_roll)
            rolls = result.rolls - len(feed.added)
            given = rolls + result.answers
            if (sum(e["kind"] == "dice" for e in chunk[:given]) != rolls
                    or (feed.added and given != len(chunk))):
                raise InputError("the log's inputs do not fit the turns they belong to",
                                 path=f"entries[{index}]")
            self.entries[index + given:index + given] = feed.added
            index += given + len(feed.added)
            self.state = self._base = result.state
            self.events.extend(result.events)
            self._base_len = len(self.events)
            new.extend(result.events)
        self.pending = None
        rest = self.entries[index:]
        if any(e["kind"] != "gm" for e in rest):
            raise InputError(f"{count(len(rest), 'input')} after the end of the fight",
                             path=f"entries[{index}]")
        for entry in rest:  # GM edits after the end (a value set right)
            event = event_from_dict(dict(entry["event"]))
            self._apply_gm(event)
            new.append(event)
        self._turn_start = len(self.entries)
        return tuple(new)

    def _named(self, decision: Decision, feed: Feed) -> Decision:
        """A dice request naming who rolls, where a trial run of the turn can tell."""
        if decision.dice is None or decision.dice.part:  # a part names its owner
            return decision
        who = whose_roll(self.setup, self._base, feed, self.current)
        if who is None or who == decision.who:
            return decision
        name = self._base.roster[who].name
        request = replace(decision.dice, who=who, what=f"{decision.dice.what} ({name})")
        return replace(decision, who=who, prompt=dice_prompt(request), dice=request)

    def _apply_gm(self, event: Event) -> None:
        check_gm(self.state, event)
        if isinstance(event, ControllerSet):
            self.current[event.combatant] = event.controller
        self.state = self._base = apply_live(self.scenario, self.state, event)
        self.events.append(event)
        self._base_len = len(self.events)

    # -- answering ---------------------------------------------------------------------
    def decide(self, answer: Mapping[str, Any], *, by: str = "gm") -> tuple[Event, ...]:
        """Answer the pending decision: ``{"option": "3"}``, ``{"dice": [3, 5]}`` (Genesys
        symbols as one text for the whole pool: ``{"dice": "ss a t"}``, ``""`` for none),
        ``{"roll": True}``, ``{"skip": True}`` (the turn passes), or ``{"policy": name}``
        (that policy answers this and every further question to the same combatant in
        this turn; ``"turn": False`` for this question only). ``by`` is ``"gm"`` or the id
        of the answering combatant's controller. Returns the events of the turns it
        finished. A wrong controller, an illegal choice or bad dice raise
        :class:`InputError` and change nothing."""
        pending = self.pending
        if pending is None:
            raise InputError("nothing to decide: the fight is over", path="decide",
                             allowed="undo, or start a new fight")
        if by != "gm" and by != pending.who:
            who = pending.who
            raise InputError(f"{pending.prompt} is for {who} to answer, not {by}", path="by",
                             allowed=f"gm or {who}" if who != "gm" else "gm")
        entry = self._entry(pending, answer, by)
        entry["n"] = self._stamp()
        cut = len(self.events)
        if answer.get("policy") is not None and answer.get("turn", True):
            # "let fracas decide this turn": the policy answers every further question to
            # the same combatant in this turn too (one undo step)
            entry["group"], entry["for"] = len(self.entries), pending.who
        self._add([entry])
        self._delegated()
        return tuple(self.events[cut:])

    def _delegated(self) -> None:
        """Answer by policy what the GM let fracas decide for this turn."""
        while self.pending is not None:
            given = next((e for e in self.entries[self._turn_start:]
                          if e.get("for") == self.pending.who and e.get("policy")), None)
            if given is None:
                return
            more = self._entry(self.pending, {"policy": given["policy"]}, given["by"])
            more["group"], more["n"] = given["group"], self._stamp()
            self._add([more])

    def _entry(self, pending: Decision, answer: Mapping[str, Any], by: str) -> dict[str, Any]:
        policy = answer.get("policy")
        if policy is not None and str(policy) not in POLICIES:
            raise InputError(f"unknown policy {policy!r}", path="policy",
                             allowed=", ".join(POLICIES))
        if answer.get("skip"):
            if pending.kind != "action":
                raise InputError(f"only a turn can be skipped, not: {pending.prompt}",
                                 path="skip", allowed="skip at an action decision")
            return {"kind": "answer", "decision": "action", "skip": True, "by": by}
        if policy is not None and pending.kind != "dice":
            return {"kind": "answer", "decision": pending.kind, "policy": str(policy),
                    "by": by}
        if pending.kind == "dice":
            part = {"part": pending.dice.part} if pending.dice and pending.dice.part else {}
            if answer.get("roll") or policy is not None:
                if pending.dice is not None and pending.dice.shared is not None:
                    # a part of a roll another part of which was rolled: the same draw
                    return {"kind": "dice", **part, "rolled": pending.dice.shared, "by": by}
                self.drawn += 1
                return {"kind": "dice", **part, "rolled": self.drawn - 1, "by": by}
            values = answer.get("dice")
            symbols = pending.dice is not None and pending.dice.typed == "symbols"
            if symbols and (isinstance(values, str) or (
                    isinstance(values, list | tuple) and len(values) != 1)):
                # the symbols of the whole pool are one value: "ss a t", "2s 1a", "" (none)
                text = values if isinstance(values, str) else " ".join(map(str, values))
                values = [text.strip() or "-"]
            if isinstance(values, str):
                values = [v.strip() for v in values.replace(" ", ",").split(",") if v.strip()]
            if not isinstance(values, list | tuple) or not values:
                shown = pending.dice.allowed if pending.dice else "the die's values"
                raise InputError(f"{pending.prompt}: give the dice", path="dice",
                                 allowed=f"a list of values ({shown}), or roll: true")
            return {"kind": "dice", **part, "dice": [_number(v) for v in values], "by": by}
        option = answer.get("option")
        ids = [o.id for o in pending.options]
        if str(option) not in ids:
            raise InputError(f"{option!r} is not an option of: {pending.prompt}",
                             path="option", allowed=", ".join(ids))
        return {"kind": "answer", "decision": pending.kind, "option": str(option), "by": by}

    def _add(self, added: list[dict[str, Any]]) -> tuple[Event, ...]:
        """Append inputs and play on from the pending turn; on a bad input, restore."""
        saved = (list(self.entries), self.state, list(self.events), self.pending,
                 self._turn_start, self.drawn, self._base, self._base_len)
        start = self._turn_start
        cut = len(self.events)
        try:
            self.entries.extend(added)
            # the pending turn is re-run from its start with every input given so far
            self._advance(start)
        except (FracasError, ValueError) as err:
            (self.entries, self.state, self.events, self.pending, self._turn_start,
             self.drawn, self._base, self._base_len) = saved
            if isinstance(err, ScriptError) and self.pending is not None:
                typed = next((len(e.get("dice", ())) for e in reversed(added)
                              if e.get("kind") == "dice"), 0)
                raise dice_error(err, self.pending, Names(known_names(self)), typed) from None
            if isinstance(err, InputError):
                raise
            raise InputError(str(err), path="decide") from None
        self.redo_stack.clear()
        return tuple(self.events[cut:])

    # -- GM tools ----------------------------------------------------------------------
    def _gm(self, event: Event, group: int | None = None) -> Event:
        """A GM edit: it goes into the log before the pending turn, which is then played
        again from its start with the answers already given (those that still fit).
        ``group``: edits made as one undo step share it."""
        entry: dict[str, Any] = {"kind": "gm", "event": event.to_dict(), "by": "gm",
                                 "n": self._stamp()}
        if group is not None:
            entry["group"] = group
        self._insert([entry])
        self.redo_stack.clear()
        return event

    def _stamp(self) -> int:
        """The number of the next input made (undo takes back the newest first)."""
        return 1 + max((int(e.get("n", 0)) for e in self.entries), default=0)

    def _insert(self, new: list[dict[str, Any]]) -> None:
        """GM edits into the log before the pending turn, which is played again from its
        start with the inputs already given (those that still fit)."""
        start = self._turn_start
        # the pending turn's inputs, dice the session rolled included: nothing already
        # rolled is rolled again
        pending_entries = list(self.entries[start:])
        saved = (list(self.entries), self.state, list(self.events), self.pending, start,
                 self.drawn, self._base, self._base_len)
        try:
            del self.entries[start:]
            self.entries.extend(new)
            # the pending turn's inputs stay in the log as the edit is played in front of
            # them: the dice the session rolled by itself (every initiative roll of a
            # server-rolled encounter, an attack waiting for its spending) are read where
            # they were rolled, never drawn afresh
            self.entries.extend(pending_entries)
            self._replay()
            kept = True
        except (FracasError, ValueError):  # the edit changed the turn: given again below
            kept = False
        if kept:
            self._delegated()
            return
        try:
            self.entries = list(saved[0])
            del self.entries[start:]
            self.entries.extend(new)
            self._replay()
        except (FracasError, ValueError) as err:
            (self.entries, self.state, self.events, self.pending, self._turn_start,
             self.drawn, self._base, self._base_len) = saved
            raise InputError(str(err), path="gm") from None
        try:  # all at once, so the dice rolled before are read where they were rolled
            self._add(pending_entries)
        except InputError:  # the edit changed the turn: keep the inputs that still fit
            for entry in pending_entries:
                if entry.get("auto"):
                    continue
                try:
                    self._add([entry])
                except InputError:
                    break
        self._delegated()

    def adjust(self, combatant: str, field: str, value: Any) -> Event:
        """Set a state value by hand (health, armour HP, strain, a condition, a deck)."""
        if combatant not in self.state.roster:
            raise InputError(f"no combatant with id {combatant!r}", path="combatant",
                             allowed=", ".join(self.state.roster))
        c = self.state.roster[combatant]
        names = [f.name for f in fields(c.state)]
        if field not in names:
            raise InputError(f"{combatant} has no value {field!r}", path="field",
                             allowed=", ".join(names))
        before = getattr(c.state, field)
        after = hand_value(type(c.state), field, value)
        return self._gm(Changed(RULE_GM, combatant, field, before, after))

    def add_combatant(self, entry: Mapping[str, Any]) -> Event:
        """Bring in a combatant given as a scenario entry (id, name, side, sheet)."""
        if not isinstance(entry, Mapping):
            raise InputError(f"a combatant entry is a mapping, not {_kind(entry)}",
                             path="entry", allowed='{"id": ..., "name": ..., "side": ..., '
                             "and the sheet's fields}")
        cid = str(entry.get("id", ""))
        if cid in self.state.roster:
            raise InputError(f"the id {cid!r} is already in the fight", path="id",
                             allowed="a new id")
        self.check_entry(entry)
        return self._gm(CombatantAdded(RULE_GM, from_jsonable(dict(entry))))

    def check_entry(self, entry: Mapping[str, Any]) -> None:
        """Check a combatant entry by the system's model (errors name the field)."""
        raw = dict(self.scenario.raw)
        raw["combatants"] = [dict(entry)]
        raw.pop("attack", None)
        raw.pop("dice", None)
        try:
            scenario_from_mapping(raw)
        except InputError as err:
            # the entry typed is alone, not the first of a scenario's combatants
            if not (err.path or "").startswith("combatants[0]"):
                raise
            raise InputError(err.message, file=err.file, allowed=err.allowed,
                             path="entry" + (err.path or "").removeprefix("combatants[0]")
                             ) from None

    def remove_combatant(self, cid: str) -> Event:
        """Take a combatant out of the fight."""
        if cid not in self.state.roster:
            raise InputError(f"no combatant with id {cid!r}", path="combatant",
                             allowed=", ".join(self.state.roster))
        return self._gm(CombatantRemoved(RULE_GM, cid))

    def end_fight(self, reason: str) -> Event:
        """End the fight now (no winner)."""
        if self.state.over:
            raise InputError("the fight is already over", path="end")
        return self._gm(FightEnded(RULE_GM, "", self.state.round,
                                   f"the GM ends the fight: {reason}"))

    # -- undo and redo -----------------------------------------------------------------
    def undo(self, steps: int = 1) -> None:
        """Take back the last ``steps`` inputs (an answer, dice, a GM edit), with the dice
        the session rolled by itself after them; inputs made as one (a GM's free-form
        action and its effects) are one step. More steps than there are inputs is an
        :class:`InputError` that changes nothing."""
        entries = list(self.entries)
        taken: list[list[dict[str, Any]]] = []
        middle = False
        for done in range(steps):
            made = [i for i, e in enumerate(entries) if not e.get("auto")]
            if not made:
                raise InputError("nothing to undo" if not done else
                                 f"only {count(done, 'step')} to undo", path="undo",
                                 allowed=f"undo 1 to {done}" if done else "a decision first")
            last = max(made, key=lambda i: (int(entries[i].get("n", 0)), i))
            group = entries[last].get("group")
            members = [i for i in made if i == last or (
                group is not None and entries[i].get("group") == group)]
            first = min(members)
            if all(entries[j].get("auto") or j in members for j in range(first, len(entries))):
                taken.append(entries[first:])  # the newest input, at the log's end
                del entries[first:]
                continue
            # a GM edit made before the pending turn's inputs: it alone is taken out
            middle = True
            taken.append([{"kind": "reinsert", "entries": [entries[i] for i in members]}])
            for i in sorted(members, reverse=True):
                del entries[i]
        if not taken:
            return
        self.entries = entries
        self.redo_stack.extend(taken)
        if middle:
            self._replay()
        else:
            self._refold()

    def redo(self, steps: int = 1) -> None:
        """Put back the last ``steps`` inputs taken back by :meth:`undo`."""
        if steps > len(self.redo_stack):
            raise InputError(f"only {count(len(self.redo_stack), 'step')} to redo", path="redo")
        for _ in range(steps):
            put = self.redo_stack.pop()
            if put and put[0].get("kind") == "reinsert":
                self._insert(list(put[0]["entries"]))
            else:
                self.entries.extend(put)
                self._refold()

    def _refold(self) -> None:
        """After the log changed at its end: play the pending turn again from its start
        when the change is inside it, else the whole log."""
        if self.pending is not None and self._turn_start <= len(self.entries) and all(
                e["kind"] != "gm" for e in self.entries[self._turn_start:]):
            self._advance(self._turn_start)
        else:
            self._replay()

    # -- saving ------------------------------------------------------------------------
    def to_records(self) -> list[dict[str, Any]]:
        """Everything needed to resume, JSON-able: a header, then one input a record."""
        header = {"type": "LiveSession", "version": SESSION_VERSION, "seed": self.seed,
                  "system": self.system.id, "scenario": dict(self.scenario.raw),
                  "file": self.scenario.path, "controllers": self.controllers,
                  "max_rounds": self.setup.max_rounds, "roll_all": self.roll_all,
                  "drawn": self.drawn}
        return [header, *({"type": "Input", **e} for e in self.entries)]

    @classmethod
    def from_records(cls, records: Sequence[Mapping[str, Any]],
                     file: str | None = None) -> Session:
        """A session from :meth:`to_records`, replayed (errors name the record)."""
        if not records or records[0].get("type") != "LiveSession":
            raise InputError("not a live session log", file=file, path="record 1",
                             allowed="a log written by fracas play --log")
        header = records[0]
        scenario = scenario_from_mapping(header.get("scenario"), file=file)
        setup = setup_from_scenario(scenario, int(header.get("max_rounds") or 0) or None)
        self = cls.__new__(cls)
        self.scenario, self.setup = scenario, setup
        if header.get("system") != scenario.system.id:
            raise InputError("the system does not match the scenario's", file=file,
                             path="record 1.system", allowed=repr(scenario.system.id))
        self.controllers = {str(k): str(v) for k, v in dict(header["controllers"]).items()}
        for cid, name in self.controllers.items():
            fits = name in (PERSON, "policy") if cid == "gm" else (
                cid in scenario.roster and (name == PERSON or name in POLICIES))
            if not fits:
                raise InputError(f"a controller {cid}: {name!r} that does not fit the "
                                 "scenario", file=file, path=f"record 1.controllers.{cid}",
                                 allowed=", ".join([PERSON, *POLICIES]) + " for a "
                                 "combatant of the scenario; gm: person or policy")
        self.seed, self.roll_all = int(header["seed"]), bool(header.get("roll_all"))
        self.odds = True
        self.redo_stack = []
        self.entries = []
        self.drawn = int(header.get("drawn", 0))
        for n, record in enumerate(records[1:], start=2):
            entry = {k: v for k, v in record.items() if k != "type"}
            if record.get("type") != "Input" or entry.get("kind") not in (
                    "dice", "answer", "gm"):
                raise InputError("not an input record", file=file, path=f"record {n}",
                                 allowed="kind: dice, answer or gm")
            self.entries.append(entry)
        try:
            self._replay()
        except InputError as err:
            raise err.located(file=file) from None
        return self

    def play_first(self, limit: int) -> int:
        """Answer up to ``limit`` decisions with their first option (a die: rolled), as
        nobody at a table would: a fight played through to warm a server up or in a test.
        How many were answered."""
        for done in range(limit):
            pending = self.pending
            if pending is None:
                return done
            self.decide({"option": pending.options[0].id} if pending.options
                        else {"roll": True}, by="gm")
        return limit

    def replayed(self) -> FightState:
        """The state rebuilt from the events alone (a check on the log)."""
        return fold_live(self.scenario, self.events)


def _number(value: Any) -> Any:
    """A value typed for a die: a whole number as a number; ``00`` stays as typed (a d100's
    100 as percentile dice show it, refused on any other die: the die reads it)."""
    if isinstance(value, str) and value.strip() == "00":
        return "00"
    digits = value.strip().removeprefix("-") if isinstance(value, str) else ""
    if digits.isascii() and digits.isdigit() and len(digits) <= 30:  # "--5", 5,000 digits: text
        return int(value)
    return value


def _kind(value: Any) -> str:
    return {list: "a list", str: "text", dict: "a mapping", type(None): "nothing"}.get(
        type(value), f"a {type(value).__name__}")
