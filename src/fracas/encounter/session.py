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

import contextlib
from collections.abc import Collection, Iterator, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from fracas.core.events import (
    Changed,
    Event,
    TurnStarted,
    event_from_dict,
)
from fracas.core.scenario import Scenario
from fracas.core.words import count
from fracas.dice.variables import Variable
from fracas.encounter.answers import answer_entry
from fracas.encounter.carried import carried, last_targets
from fracas.encounter.decisions import Decision, DiceRequest, Needed, Option
from fracas.encounter.edits import apply_live, check_gm, fold_live
from fracas.encounter.engine import FightSetup, setup_from_scenario
from fracas.encounter.gm_events import (
    RULE_GM,
    ConditionCleared,
    ConditionEnded,
    ConditionSet,
    ControllerSet,
    DiceSet,
    rules_condition,
)
from fracas.encounter.hand_edits import HandEdits
from fracas.encounter.inputs import SavedInputs
from fracas.encounter.live import PERSON, Feed, run_turn
from fracas.encounter.narration import Names
from fracas.encounter.policies import POLICIES
from fracas.encounter.state import FightState
from fracas.encounter.typed_dice import dice_error
from fracas.encounter.undo import plan_undo, rolled_as
from fracas.encounter.who_rolls import (
    DiceTurns,
    check_dice_set,
    check_rollers,
    gm_side_parts,
    known_names,
    rollers_of,
)
from fracas.encounter.words_mark import mark_of
from fracas.errors import FracasError, InputError, ScriptError
from fracas.registry.scenarios import scenario_from_mapping

__all__ = ["RULE_GM", "Decision", "DiceRequest", "Option", "Session"]

SESSION_VERSION = 1


class Session(SavedInputs, HandEdits, DiceTurns):
    """A fight in progress at the table (see the module docstring); the GM's tools beyond
    these are in :mod:`fracas.encounter.gm`."""

    def __init__(self, scenario: Scenario, setup: FightSetup, controllers: Mapping[str, str],
                 seed: int, roll_all: bool = False, odds: bool = True,
                 gm_dice: str | None = None, players: Collection[str] = (),
                 dice: Mapping[str, str] | None = None):
        self.scenario = scenario
        self.setup = setup
        self.controllers = dict(controllers)
        self.seed = seed
        self.roll_all = roll_all
        self.gm_dice = gm_dice  # who rolls the GM side's dice (None: as logs before it)
        self.players = frozenset(players)  # the players' combatants: their dice typed
        self.dice = dict(dice or {})  # who rolls a combatant's dice, set at the start
        self.odds = odds
        self.current = dict(self.controllers)  # as GM edits have changed them since
        self.entries = []
        self.drawn = 0  # how many "roll it"s the session has drawn (numbers are never reused)
        self.redo_stack: list[list[dict[str, Any]]] = []
        self.retold: list[tuple[int, str]] = []  # read from a log: texts not fracas's words
        self._replay()

    # -- starting ---------------------------------------------------------------------
    @classmethod
    def start(cls, scenario: Scenario, *, seed: int | None = None,
              controllers: Mapping[str, str] | None = None, roll_all: bool = False,
              max_rounds: int | None = None, odds: bool = True,
              gm_dice: str | None = None, players: Collection[str] = (),
              dice: Mapping[str, str] | None = None, roll_now: bool = True) -> Session:
        """A new session. ``controllers``: combatant id -> ``"person"`` or a policy name
        (default: the scenario's policy), and ``"gm"`` -> ``"person"`` for the GM to make
        the GM's mid-resolution choices by hand (Genesys threat and despair; default: the
        system's policy); ``roll_all``: the session rolls every die by itself; ``odds``
        False leaves the options without odds (faster, e.g. for checks); ``gm_dice``:
        who rolls the dice of the combatants no player holds (``players``): ``fracas``
        or ``typed`` (see :mod:`fracas.encounter.who_rolls`; None: a person is asked for
        every die of an action a person takes part in, as logs before the setting);
        ``dice``: combatant id -> ``typed`` or ``fracas``, that combatant's own setting;
        ``roll_now`` False: the first dice fracas rolls wait for :meth:`roll_gm_side` (a
        server's, until the players are invited)."""
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
        check_rollers(gm_dice, [*(players or ()), *(dice or {})], scenario.roster)
        for cid, roller in (dice or {}).items():
            check_rollers(roller, (), scenario.roster, (f"dice.{cid}", "dice"))
        session = cls(scenario, setup, chosen, seed, roll_all, odds, gm_dice, players, dice)
        if roll_now:
            session.roll_gm_side()
        return session

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
        return Feed(list(rolls), list(answers), self.seed, self.drawn,
                    self._auto, self.is_person, odds=self.odds, previous=self._previous(),
                    player=self.players.__contains__)

    def _previous(self) -> dict[str, str]:
        """Each combatant's last target before the pending turn, carried on from the last
        call while the events before stay the same (a long fight's turn then costs what
        a short one's does: :mod:`fracas.encounter.carried`)."""
        return carried(self, "targets", last_targets).over(self.events, self._base_len)

    def _replay(self) -> None:
        """Fold the whole log: the state, the events, and what is asked now."""
        self.state = FightState(self.scenario.roster)
        self.current = dict(self.controllers)
        self.events: list[Event] = []
        self.pending: Decision | None = None
        self._turn_start = 0  # where the pending turn's entries begin
        self._base = self.state  # the state as the pending turn began
        self._base_len = 0  # the events before the pending turn
        self._timers: list[list[Any]] = []  # the GM's timed conditions: [mark, turns left]
        self.dice_set: dict[str, str] = dict(self.dice)  # who rolls whose dice, as set since
        self._values: dict[int, Any] = {}  # the value each drawn roll showed, by its entry
        self.asked: dict[int, Any] = {}  # the pending turn's draws fracas made: their rolls
        self.told: list[tuple[dict[str, Any], str]] = []  # what fracas rolled by itself
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
                self._values.update((id(e), v) for e, v in feed.drawn_values)
                self.asked = feed.asked  # the pending turn's (re-run from its start)
                self.drawn = max(self.drawn, feed.next_roll)
                if end != len(self.entries):
                    raise InputError("the log stops in the middle of a turn before a GM "
                                     "edit", path=f"entries[{end}]") from None
                if feed.unread():  # given for a question the turn no longer asks
                    raise InputError("an input given does not fit the turn",
                                     path=f"entries[{index}]") from None
                self.entries.extend(feed.added)
                self.pending = self._named(need.decision, feed)
                self._turn_start = index
                shown = feed.shown()  # the turn so far, shown while it waits
                for event in shown:
                    self.state = self.state.apply(event)
                self.events.extend(shown)
                return tuple(new)
            self.drawn = max(self.drawn, feed.next_roll)
            self._values.update((id(e), v) for e, v in feed.drawn_values)
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
            self._expire(result.events)
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

    def _expire(self, turn: tuple[Event, ...]) -> None:
        """After a turn: count down the GM's timed conditions by the turns it began, and
        end those whose time is up (the rules' condition with the GM's mark)."""
        actors = [e.actor for e in turn if isinstance(e, TurnStarted)]
        for timer in list(self._timers):
            mark = timer[0]
            timer[1] -= actors.count(mark.whose_turns())
            if timer[1] > 0:
                continue
            self._timers.remove(timer)
            c = self.state.roster.get(mark.combatant)
            if c is None:
                continue
            ended: list[Event] = [ConditionEnded(RULE_GM, mark.combatant, mark.name,
                                                 mark.condition)]
            ruled = rules_condition(self.system, c.state, mark.condition)
            held = getattr(c.state, "conditions", ())
            if ruled is not None and ruled in held:
                ended.append(Changed(RULE_GM, mark.combatant, "conditions", held,
                                     tuple(x for x in held if x != ruled)))
            for event in ended:
                self.state = self._base = apply_live(self.scenario, self.state, event)
                self.events.append(event)
            self._base_len = len(self.events)

    def _apply_gm(self, event: Event) -> None:
        check_gm(self.state, event)
        if isinstance(event, ControllerSet):
            self.current[event.combatant] = event.controller
        if isinstance(event, DiceSet):
            check_dice_set(event, self.state.roster)
            self.dice_set[event.combatant] = event.roller
        if isinstance(event, ConditionSet | ConditionCleared):
            self._timers = [t for t in self._timers if (t[0].combatant, t[0].condition) != (
                event.combatant, event.condition)]
            if isinstance(event, ConditionSet) and event.rounds:
                self._timers.append([event, event.turns()])
        self.state = self._base = apply_live(self.scenario, self.state, event)
        self.events.append(event)
        self._base_len = len(self.events)

    # -- answering ---------------------------------------------------------------------
    def decide(self, answer: Mapping[str, Any], *, by: str = "gm",
               group: int | None = None) -> tuple[Event, ...]:
        """Answer the pending decision: ``{"option": "3"}``, ``{"dice": [3, 5]}`` (Genesys
        symbols as one text for the whole pool: ``{"dice": "ss a t"}``, ``""`` for none),
        ``{"roll": True}``, ``{"skip": True}`` (the turn passes), or ``{"policy": name}``
        (that policy answers this and every further question to the same combatant in
        this turn; ``"turn": False`` for this question only). ``by`` is ``"gm"`` or the id
        of the answering combatant's controller; ``group``: the undo step it belongs to
        (:meth:`one_step`). Returns the events of the turns it
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
        if (by == "gm" and answer.get("roll") is True and self.gm_dice is not None
                and pending.dice is not None and pending.dice.part):
            # the GM's r at a roll of several people's dice: all of its GM side's parts
            return self.roll_parts(gm_side_parts(self, pending.dice), group)
        if pending.dice is not None and pending.dice.then and isinstance(
                answer.get("dice"), list | tuple):
            more = self._pair_typed(pending, list(answer["dice"]), by, group)
            if more is not None:
                return more
        entry = answer_entry(pending, answer, by, self.draw)
        entry["n"] = self._stamp()
        if entry["kind"] == "answer":  # read back only for this question (Feed.answer)
            entry["who"], entry["asked"] = pending.who, pending.prompt
        elif pending.dice is not None:  # and dice only for the roll asked (LiveRoller)
            entry["owner"] = pending.dice.asked_of()
        cut = len(self.events)
        if (answer.get("policy") is not None and answer.get("turn", True)
                and entry["kind"] == "answer"):  # a roll handed over is drawn: no more
            # "let fracas decide this turn": the policy answers every further question to
            # the same combatant in this turn too (one undo step)
            entry["group"], entry["for"] = len(self.entries), pending.who
        if group is not None:
            entry["group"] = group
        self._add([entry])
        self._delegated()
        self.roll_gm_side()
        return tuple(self.events[cut:])

    def _delegated(self) -> None:
        """Answer by policy what the GM let fracas decide for this turn."""
        while self.pending is not None:
            given = next((e for e in self.entries[self._turn_start:]
                          if e.get("for") == self.pending.who and e.get("policy")), None)
            if given is None:
                return
            more = answer_entry(self.pending, {"policy": given["policy"]}, given["by"],
                                self.draw)
            more["group"], more["n"] = given["group"], self._stamp()
            if more["kind"] == "answer":
                more["who"], more["asked"] = self.pending.who, self.pending.prompt
            self._add([more], keep_redo=True)

    def _add(self, added: list[dict[str, Any]], keep_redo: bool = False
             ) -> tuple[Event, ...]:
        """Append inputs and play on from the pending turn; on a bad input, restore."""
        saved = self._snapshot()
        start = self._turn_start
        cut = len(self.events)
        try:
            self.entries.extend(added)
            # the pending turn is re-run from its start with every input given so far
            self._advance(start)
        except (FracasError, ValueError) as err:
            self._restore(saved)
            if isinstance(err, ScriptError) and self.pending is not None:
                typed = next((len(e.get("dice", ())) for e in reversed(added)
                              if e.get("kind") == "dice"), 0)
                raise dice_error(err, self.pending, Names(known_names(self)), typed) from None
            if isinstance(err, InputError):
                raise
            raise InputError(str(err), path="decide") from None
        if not keep_redo:  # a new input: what undo took back is gone
            self.redo_stack.clear()
        return tuple(self.events[cut:])

    # -- GM tools ----------------------------------------------------------------------
    # The GM's tools (:mod:`fracas.encounter.gm`) check what the GM asks for and build its
    # events (:mod:`fracas.encounter.gm_events`); the session alone changes its log, through
    # the methods below.
    @property
    def turn_events(self) -> tuple[Event, ...]:
        """The events of the pending turn so far (shown while it waits)."""
        return tuple(self.events[self._base_len:])

    def record(self, event: Event, group: int | None = None) -> Event:
        """A GM edit: it goes into the log before the pending turn, which is then played
        again from its start with the answers already given (those that still fit).
        ``group``: edits made as one undo step share it (:meth:`one_step`)."""
        entry: dict[str, Any] = {"kind": "gm", "event": event.to_dict(), "by": "gm",
                                 "n": self._stamp()}
        if group is not None:
            entry["group"] = group
        self._insert([entry])
        self.redo_stack.clear()
        self.roll_gm_side()
        return event

    @contextlib.contextmanager
    def one_step(self) -> Iterator[int]:
        """Several inputs made as one undo step: yields the step's group number for
        :meth:`record` and :meth:`decide`; an :class:`InputError` inside takes every one of
        them back (the log as it was) and is raised again."""
        saved = (list(self.entries), self.drawn)
        try:
            yield len(self.entries)
        except InputError:
            self.entries, self.drawn = saved
            self._replay()
            raise

    def draw(self) -> int:
        """The number of a new roll the session makes (a number is never drawn twice)."""
        self.drawn += 1
        return self.drawn - 1

    def roll_parts(self, parts: Sequence[int], group: int | None = None) -> tuple[Event, ...]:
        """Roll the given parts of the pending roll of several people's dice (the same draw
        as its parts already rolled)."""
        request = self.pending.dice if self.pending is not None else None
        if request is None or not request.part:
            raise InputError("no roll of several people's dice is asked now", path="parts")
        shared = request.shared if request.shared is not None else self.draw()
        stamp = self._stamp()
        extra = {} if group is None else {"group": group}
        cut = len(self.events)
        self._add([{"kind": "dice", "part": k, "rolled": shared, "by": "gm",
                    "n": stamp + i, **extra} for i, k in enumerate(parts)])
        self.roll_gm_side()
        return tuple(self.events[cut:])

    def _insert(self, new: list[dict[str, Any]]) -> None:
        """GM edits into the log before the pending turn, which is played again from its
        start with the inputs already given (those that still fit)."""
        start = self._turn_start
        # the pending turn's inputs, dice the session rolled included: nothing already
        # rolled is rolled again
        pending_entries = list(self.entries[start:])
        saved = self._snapshot()
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
        if pending_entries:  # what undoing the edit puts back (dice fracas rolled kept)
            new[-1]["turn"] = [dict(e) for e in pending_entries]
        if kept:
            self._delegated()
            return
        try:
            self.entries = list(saved.entries)
            del self.entries[start:]
            self.entries.extend(new)
            self._replay()
        except (FracasError, ValueError) as err:
            self._restore(saved)
            raise InputError(str(err), path="gm") from None
        try:  # all at once, so the dice rolled before are read where they were rolled
            self._add(pending_entries, keep_redo=True)
        except InputError:  # the edit changed the turn: keep the inputs that still fit
            for entry in pending_entries:  # an answer to a question no longer asked drops
                if entry.get("auto"):
                    continue
                try:
                    self._add([entry], keep_redo=True)
                except InputError:
                    if "asked" not in entry and "owner" not in entry:
                        break
        self._delegated()

    # -- undo and redo -----------------------------------------------------------------
    def undo(self, steps: int = 1) -> None:
        """Take back the last ``steps`` inputs (an answer, dice, a GM edit), with the dice
        the session rolled by itself after them; inputs made as one (a GM's free-form
        action and its effects) are one step. More steps than there are inputs is an
        :class:`InputError` that changes nothing."""
        entries, taken, middle = plan_undo(self.entries, steps)
        if not taken:
            return
        with self._atomic():
            if middle:
                self._settle(entries)
            else:
                self.entries = entries
                self._refold()
            self.redo_stack.extend(taken)

    def redo(self, steps: int = 1) -> None:
        """Put back the last ``steps`` inputs taken back by :meth:`undo`."""
        if steps > len(self.redo_stack):
            raise InputError(f"only {count(len(self.redo_stack), 'step')} to redo", path="redo")
        with self._atomic():
            for _ in range(steps):
                put = self.redo_stack.pop()
                if put and put[0].get("kind") == "reinsert":
                    self._insert(list(put[0]["entries"]))
                elif any(e["kind"] == "gm" for e in put):
                    self._settle([*self._before_turn(put), *put])
                else:
                    self.entries.extend(put)
                    self._refold()

    def _before_turn(self, put: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The log without the dice of the pending turn that undoing a GM edit of ``put``
        kept (see :func:`~fracas.encounter.undo.kept_dice`): redo puts the inputs as they
        were after the edit."""
        turn = next((e["turn"] for e in put if e.get("turn")), None) or []
        ours = {rolled_as(e) for e in [*turn, *put] if "rolled" in e}
        cut = len(self.entries)
        while cut > 0 and self.entries[cut - 1].get("auto") and rolled_as(
                self.entries[cut - 1]) in ours:
            cut -= 1
        return self.entries[:cut]

    def _snapshot(self) -> SimpleNamespace:
        """Everything a change may touch, to be put back if it fails."""
        return SimpleNamespace(
            entries=list(self.entries), state=self.state, events=list(self.events),
            pending=self.pending, turn_start=self._turn_start, drawn=self.drawn,
            base=self._base, base_len=self._base_len, current=dict(self.current),
            redo=[list(g) for g in self.redo_stack])

    def _restore(self, saved: SimpleNamespace) -> None:
        self.entries, self.state, self.events = saved.entries, saved.state, saved.events
        self.pending, self._turn_start, self.drawn = saved.pending, saved.turn_start, saved.drawn
        self._base, self._base_len, self.current = saved.base, saved.base_len, saved.current
        self.redo_stack = saved.redo

    @contextlib.contextmanager
    def _atomic(self) -> Iterator[None]:
        """Everything the block changes, or (on an error) nothing: a log is never left
        holding inputs the session could not play."""
        saved = self._snapshot()
        try:
            yield
        except (FracasError, ValueError) as err:
            self._restore(saved)
            if isinstance(err, InputError):
                raise
            raise InputError(str(err), path="undo") from None

    def _settle(self, entries: list[dict[str, Any]]) -> None:
        """Play ``entries``; where some no longer fit (a GM edit taken back or put back
        changed the turn they were given in), keep those that still fit, in order."""
        try:
            self.entries = list(entries)
            self._replay()
            return
        except (FracasError, ValueError):
            pass
        self.entries = []
        self._replay()
        for entry in entries:
            try:
                if entry["kind"] == "gm":
                    self._insert([entry])
                else:
                    self._add([entry], keep_redo=True)
            except InputError:
                continue  # it no longer fits: left out

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
        return [self.header(), *({"type": "Input", **e} for e in self.entries)]

    def header(self) -> dict[str, Any]:
        """The log's first record: the scenario, the seed and the settings it was begun
        with, and how many numbered rolls have been drawn."""
        header = {"type": "LiveSession", "version": SESSION_VERSION, "seed": self.seed,
                  "system": self.system.id, "scenario": dict(self.scenario.raw),
                  "file": self.scenario.path, "controllers": self.controllers,
                  "max_rounds": self.setup.max_rounds, "roll_all": self.roll_all,
                  "drawn": self.drawn, "words": mark_of(self.system)}
        if self.gm_dice is not None:  # who rolls which die (none in older logs)
            header.update(gm_dice=self.gm_dice, players=sorted(self.players), dice=self.dice)
        return header

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
        self.gm_dice, self.players, self.dice = rollers_of(header, scenario.roster, file)
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

    def replayed(self) -> FightState:
        """The state rebuilt from the events alone (a check on the log)."""
        return fold_live(self.scenario, self.events)

