"""One turn of a live fight, paused wherever a person must answer.

:func:`run_turn` runs the pure :func:`fracas.encounter.engine.step` from the turn's
start with the inputs given so far: a :class:`LiveRoller` serves the dice entered
(or rolled) for this turn, and a :class:`Person` controller serves the answers
given. When either runs out it raises :class:`Needed` with what is asked next, and
the turn is run again from its start once the answer is in, so rule code never has
to stop half-way. Policies stay what they are: controllers that answer by themselves.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from fracas.core.choices import Choice
from fracas.core.events import Event, Rolled
from fracas.core.model import PASS, Action, Roster
from fracas.core.system import RuleSystem
from fracas.core.words import plain
from fracas.dice.joint import Split, split
from fracas.dice.rollers import Part, Roller
from fracas.dice.variables import RollOff, Variable
from fracas.encounter.decisions import (
    Decision,
    DiceRequest,
    LaterOdds,
    Needed,
    Option,
    build_menu,
)
from fracas.encounter.engine import FightSetup, step
from fracas.encounter.labels import action_words, reaction_words
from fracas.encounter.modes import Live
from fracas.encounter.narration import Names
from fracas.encounter.policies import POLICIES, Policy
from fracas.encounter.state import FightState
from fracas.encounter.typed_dice import dice_allowed, dice_count, dice_prompt, scripted
from fracas.errors import FracasError, InputError

PERSON = "person"


def roll_rng(seed: int, number: int) -> np.random.Generator:
    """The generator of the session's ``number``-th "roll it": fixed by the seed and the
    number alone, so a replay draws the same value."""
    return np.random.Generator(np.random.PCG64([seed, number]))


@dataclass
class Feed:
    """The inputs of one turn: dice entries (in the order rolled) and answers (in the
    order asked); ``added`` collects dice the session rolled by itself on the way."""

    rolls: list[dict[str, Any]]
    answers: list[dict[str, Any]]
    seed: int
    next_roll: int  # the number of the next "roll it"
    auto: Callable[[Variable[Any], str], bool]
    person: Callable[[str], bool]
    added: list[dict[str, Any]] = field(default_factory=list)
    seen: list[Event] = field(default_factory=list)  # the turn's events so far
    told: list[Event] = field(default_factory=list)  # the resolution under way's, so far
    used_rolls: int = 0
    used_answers: int = 0
    odds: bool = True  # show each option's odds
    trial: np.random.Generator | None = None  # a trial run: missing inputs are made up
    streams: list[str] = field(default_factory=list)  # the stream of every roll made
    context: str = "the start of the fight"
    context_start: int = 0  # the rolls made before the context was set
    actor: str = "gm"
    target: str | None = None
    names: dict[str, str] = field(default_factory=dict)  # combatant id -> name
    previous: Mapping[str, str] = field(default_factory=dict)  # actor -> last target
    announced: tuple[str, str, str] | None = None  # the next roll: who, what for, needs
    owners: tuple[Part, ...] = ()  # the next roll's parts: whose, what for, bonus, needs
    bonus: str = ""  # what the next roll's roller adds to the die
    drawn_values: list[tuple[dict[str, Any], Any]] = field(default_factory=list)  # draws read
    # the roll each draw fracas made by itself was for, by its entry's id
    asked: dict[int, tuple[dict[str, Any], Callable[[], DiceRequest]]] = field(
        default_factory=dict)
    player: Callable[[str], bool] = lambda cid: False  # a player's combatant: its dice typed

    def saw(self, event: Event) -> None:
        """An event of the turn, as it happens: what was told of the resolution under
        way is in the resolution's own events, which replace it."""
        self.told.clear()
        self.seen.append(event)

    def shown(self) -> list[Event]:
        """The turn so far, as the table has heard it (a resolution's events told so far
        included)."""
        return [*self.seen, *self.told]

    def about(self, actor: str, context: str, target: str | None) -> None:
        """Name what the next rolls are for (an action just chosen, and its target)."""
        self.actor, self.context, self.context_start = actor, context, self.used_rolls
        self.target = target

    def name(self, cid: str) -> str:
        return self.names.get(cid, cid)

    def unattended(self) -> bool:
        """No person takes part in the action now resolving (a policy-controlled combatant
        acting on another, or on nobody): its dice are rolled by the session."""
        return self.actor != "gm" and not self.person(self.actor) and (
            self.target is None or not self.person(self.target))

    def unread(self) -> bool:
        """Are inputs left that the turn has not read (when it stops to ask)?"""
        return self.used_rolls < len(self.rolls) or self.used_answers < len(self.answers)

    def skipping(self, who: str) -> bool:
        """Is the next answer the GM's "skip this turn" for ``who`` (taken if so)?"""
        if self.used_answers < len(self.answers) and self.answers[self.used_answers].get(
                "skip") and self.answers[self.used_answers].get("decision") == "action":
            self._same_question(self.answers[self.used_answers], who, None)
            self.used_answers += 1
            return True
        return False

    def _same_question(self, entry: Mapping[str, Any], who: str, prompt: str | None) -> None:
        """An answer is read only for the question it was given to (who was asked, and
        what): a GM's edit that changes the turn (a combatant out, a slot gone) never turns
        an answer given to one question into the answer of another. Answers of older logs,
        which do not say, are read in order."""
        given = (entry.get("who"), entry.get("asked"))
        if (given[0] is not None and given[0] != who) or (
                prompt is not None and given[1] is not None and given[1] != prompt):
            raise InputError(f"answer {self.used_answers + 1} was given to "
                             f"{given[1] or given[0]}, but the rules ask "
                             f"{prompt or who}", path="answers", allowed=prompt or who)

    def answer(self, kind: str, count: int, ask: Callable[[], Decision],
               auto: Callable[[str], int] | None = None, *, who: str = "gm",
               prompt: str | None = None) -> int:
        """The index of the option given for a ``kind`` decision of ``count`` options
        asked of ``who`` (``prompt``: the question), or raise :class:`Needed` with the
        decision ``ask`` builds (odds are only computed when the question is really
        asked). An answer ``{"policy": name}`` lets that policy choose (``auto``; the
        rules' default where there is none)."""
        if self.used_answers >= len(self.answers):
            if self.trial is not None:
                return 0
            raise Needed(ask())
        entry = self.answers[self.used_answers]
        if entry.get("decision") != kind:
            raise InputError(f"answer {self.used_answers + 1} is for a {entry.get('decision')}"
                             f" decision, but the rules ask for a {kind}",
                             path="answers", allowed=kind)
        self._same_question(entry, who, prompt)
        if entry.get("policy") is not None:
            self.used_answers += 1
            return auto(str(entry["policy"])) if auto is not None else 0
        option = str(entry.get("option"))
        ids = [str(i + 1) for i in range(count)]
        if option not in ids:
            raise InputError(f"{option!r} is not an option of this {kind}", path="option",
                             allowed=", ".join(ids))
        self.used_answers += 1
        return int(option) - 1


class LiveRoller:
    """The session's roller: dice entered or rolled so far, then a request (or, for
    dice the session rolls by itself, a draw it records)."""

    kind = "live"

    def __init__(self, feed: Feed):
        self.feed = feed

    def _draw(self, var: Variable[Any], number: int) -> Any:
        return var.sample(roll_rng(self.feed.seed, number))

    def announce(self, who: str, what: str, needs: str = "",
                 owners: tuple[Part, ...] = (), bonus: str = "") -> None:
        """What the next roll is for (see :func:`fracas.dice.rollers.announce`)."""
        self.feed.announced = (who, what, needs)
        self.feed.owners, self.feed.bonus = owners, bonus

    def tell(self, events: tuple[Event, ...]) -> None:
        """What the resolution under way has found so far (see
        :func:`fracas.dice.rollers.tell`): shown while the turn waits for the next roll."""
        self.feed.told.extend(events)

    def roll(self, var: Variable[Any]) -> Any:
        feed = self.feed
        announced, feed.announced = feed.announced, None
        owners, feed.owners = feed.owners, ()
        bonus, feed.bonus = feed.bonus, ""
        who = var.stream if var.stream not in ("dice", "policy") else feed.actor
        if announced is not None:  # an id, or a combatant's name
            who = self._owner(announced[0])
        if isinstance(var, RollOff) and self._off_by_owner(var):
            return self._roll_off(var)
        parts = split(var) if owners else None
        if (parts is not None and len(parts.parts) == len(owners)
                and self._by_parts(var, who)):
            return self._joint(var, parts, owners)
        feed.streams.append(var.stream)
        if feed.trial is not None and feed.used_rolls >= len(feed.rolls):
            feed.used_rolls += 1
            return var.sample(feed.trial)
        if feed.used_rolls < len(feed.rolls):
            entry = feed.rolls[feed.used_rolls]
            _same_roller(entry, who, feed.used_rolls)
            if entry.get("auto"):  # what fracas rolled by itself, as it was asked (the
                # words are worked out only if a screen tells the roll)
                feed.asked[id(entry)] = (entry, functools.partial(
                    self._request, var, who, announced, bonus, self._at()))
            feed.used_rolls += 1
            if "rolled" in entry:
                value = self._draw(var, int(entry["rolled"]))
                feed.drawn_values.append((entry, value))
                return value
            return scripted(var, entry)
        if var.stream == "policy" or feed.unattended() or feed.auto(var, who):
            entry = {"kind": "dice", "rolled": feed.next_roll, "auto": True}
            feed.next_roll += 1
            feed.added.append(entry)
            feed.rolls.append(entry)
            feed.used_rolls += 1
            return self._draw(var, int(entry["rolled"]))
        request = self._request(var, who, announced, bonus)
        raise Needed(Decision("dice", who, dice_prompt(request), dice=request))

    def _at(self) -> tuple[str, str, str, int]:
        """Where the turn is for the next roll: the actor, the target, what the rolls are
        for, and which of them the next is."""
        feed = self.feed
        return (feed.actor, feed.target or "", feed.context,
                feed.used_rolls - feed.context_start + 1)

    def _request(self, var: Variable[Any], who: str, announced: tuple[str, str, str] | None,
                 bonus: str, at: tuple[str, str, str, int] | None = None) -> DiceRequest:
        """The roll as a person is asked for it: what for, the die, the need (``at``:
        where the turn was when it was rolled, else where it is now)."""
        feed = self.feed
        actor, target, context, number = at or self._at()
        needs = ""
        if announced is not None:
            said = announced[1].format(actor=feed.name(actor),
                                       target=feed.name(target)).strip()
            announced = (announced[0], said, announced[2])
            what = said[:1].upper() + said[1:]
            if who != "gm":
                what = f"{feed.name(who)}'s {announced[1]}"
            needs = announced[2].replace("{actor}", feed.name(actor)).replace(
                "{target}", feed.name(target))
        else:
            what = context + (f", roll {number}" if number > 1 else "")
        die = var.label
        if die.startswith(f"{who}'s "):  # a deck's cards, named by their owner's id
            die = "the " + die[len(who) + 3:]
        die = Names(feed.names).label(die)
        return DiceRequest(die, who, what, dice_count(var), dice_allowed(var),
                           var.stream, needs, var.typed, bonus=bonus)

    def _off_by_owner(self, var: RollOff) -> bool:
        """Is a roll-off asked die by die of each tied one's roller? So when a player's
        combatant is in the tie (the player types that die), and in a log that gives it so;
        a roll-off of the GM's side alone is one roll (``d20 each``), as older logs have it."""
        feed = self.feed
        if feed.used_rolls < len(feed.rolls):
            return feed.rolls[feed.used_rolls].get("owner") in var.names
        return feed.trial is None and any(feed.player(n) for n in var.names)

    def _roll_off(self, var: RollOff) -> tuple[str, ...]:
        """A roll-off die by die: each tied one's die asked of its roller (a player's typed,
        the GM side's rolled by fracas or typed by the GM, as who rolls says), again for
        those still tied; highest first, as :meth:`RollOff.from_script` reads it."""
        feed = self.feed
        keys: dict[str, tuple[int, ...]] = dict.fromkeys(var.names, ())
        again = ""
        while True:
            groups: dict[tuple[int, ...], list[str]] = {}
            for n in var.names:
                groups.setdefault(keys[n], []).append(n)
            tied = [g for g in groups.values() if len(g) > 1]
            if not tied:
                return tuple(sorted(var.names, key=lambda n: keys[n], reverse=True))
            for group in tied:  # the GM side's dice first: told before a player is asked
                for n in sorted(group, key=feed.player):
                    others = " and ".join(feed.name(o) for o in group if o != n)
                    said = f"{var.name} against {others}{again}"
                    self.announce(n, said.replace("{", "{{").replace("}", "}}"))
                    added = len(feed.added)
                    value = self.roll(var.die)
                    keys[n] = (*keys[n], value)
                    for entry in feed.added[added:]:  # read back as this one's die
                        entry.setdefault("owner", n)
                    # told while the others roll (a screen shows what fracas rolled)
                    self.tell((Rolled(var.name, feed.name(n), f"{var.die.label} for the "
                                      f"{var.name}{again}", value),))
            again = ", tied again"

    def _by_parts(self, var: Variable[Any], who: str) -> bool:
        """Is a roll of several people's dice asked of each owner, part by part? So in
        a log that gives it by parts, and where nothing is given yet and a person asks
        for it; a log of the whole roll (older logs), and dice the session rolls by
        itself, keep the whole roll (the same draw)."""
        feed = self.feed
        if feed.used_rolls < len(feed.rolls):
            return "part" in feed.rolls[feed.used_rolls]
        return feed.trial is None and not (
            var.stream == "policy" or feed.unattended() or feed.auto(var, who))

    def _joint(self, var: Variable[Any], sp: Split, owners: tuple[Part, ...]) -> Any:
        """A roll of several people's dice, each part given by its owner (typed, or
        rolled: every part rolled draws from one "roll it" number, so parts all rolled
        are the very draw of the whole roll)."""
        feed = self.feed
        count = len(sp.parts)
        got: dict[int, dict[str, Any]] = {}
        while (len(got) < count and feed.used_rolls < len(feed.rolls)
               and "part" in feed.rolls[feed.used_rolls]):
            entry = feed.rolls[feed.used_rolls]
            k = entry["part"]
            if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= count or (
                    k in got):
                raise InputError(f"dice entry {feed.used_rolls + 1} gives part {k!r} of "
                                 f"{var.label}", path="part",
                                 allowed=", ".join(str(j) for j in range(1, count + 1)
                                                   if j not in got))
            _same_roller(entry, self._owner(owners[k - 1].who), feed.used_rolls)
            got[k] = entry
            feed.used_rolls += 1
            feed.streams.append(var.stream)
        shared = next((int(e["rolled"]) for e in got.values() if "rolled" in e), None)
        drawn = None if shared is None else sp.sample_parts(roll_rng(feed.seed, shared))
        values: list[Any] = []
        known: dict[int, Any] = {}
        owner = tuple(self._owner(o.who) for o in owners)
        for k, part in enumerate(sp.parts, start=1):
            if k in got:
                entry = got[k]
                if entry.get("auto"):  # a part fracas rolled by itself, as it was asked
                    feed.asked[id(entry)] = (entry, functools.partial(
                        self._part, var, sp, owners, owner, k, None))
                known[k] = (drawn[k - 1] if "rolled" in entry and drawn is not None
                            else scripted(part, entry))
                values.append(known[k])
                feed.drawn_values.append((entry, values[-1]))
            elif feed.trial is not None:
                values.append(part.sample(feed.trial))
        if len(values) == count:
            return sp.join(tuple(values))
        missing = [k for k in range(1, count + 1) if k not in got]
        k = missing[0]
        earlier = tuple(known[j] for j in range(1, k)) if all(
            j in known for j in range(1, k)) else None
        request = replace(
            self._part(var, sp, owners, owner, k, earlier), shared=shared,
            rest=tuple((j, owner[j - 1]) for j in missing[1:]),
            then=tuple(self._part(var, sp, owners, owner, j, None) for j in missing[1:]))
        raise Needed(Decision("dice", owner[k - 1], dice_prompt(request), dice=request))

    def _part(self, var: Variable[Any], sp: Split, owners: tuple[Part, ...],
              owner: tuple[str, ...], k: int, earlier: tuple[Any, ...] | None
              ) -> DiceRequest:
        """Part ``k`` of a roll of several people's dice as its owner is asked for it: what
        for, the die, what the roller adds, and what it needs where the parts before it
        (``earlier``, their values; None while not all known) tell."""
        feed = self.feed
        asked = owners[k - 1]

        def named(text: str) -> str:
            return text.replace("{actor}", feed.name(feed.actor)).replace(
                "{target}", feed.name(feed.target or ""))
        needs = named(asked.needs_after(earlier)) if earlier is not None else (
            "" if callable(asked.needs) else named(asked.needs))
        part = sp.parts[k - 1]
        return DiceRequest(Names(feed.names).label(part.label), owner[k - 1],
                           f"{feed.name(owner[k - 1])}'s {named(asked.what)}",
                           dice_count(part), dice_allowed(part), var.stream, needs,
                           part.typed, part=k, parts=len(sp.parts), bonus=asked.bonus)

    def _owner(self, said: str) -> str:
        """Whose a roll or a part of one is: ``{actor}``, ``{target}``, a combatant's id
        or name (anything else: the GM's)."""
        feed = self.feed
        if said == "{actor}":
            return feed.actor
        if said == "{target}":
            return feed.target or "gm"
        by_name = {n: i for i, n in feed.names.items()}
        return said if said in feed.names else by_name.get(said, "gm")

    def resolve(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(self, *args)

    def choose(self, choice: Choice) -> int:
        """A mid-resolution choice (see :mod:`fracas.core.choices`): a person-controlled
        combatant answers, anybody else takes the rules' default."""
        who = next((c for c in choice.among if self.feed.person(c)), choice.who)
        if not self.feed.person(who):
            return choice.default
        options = tuple(Option(str(i + 1), plain(label))
                        for i, label in enumerate(choice.options))
        return self.feed.answer(choice.kind, len(options), lambda: Decision(
            choice.kind, who, choice.prompt, options), lambda name: choice.default,
            who=who, prompt=choice.prompt)


def _same_roller(entry: Mapping[str, Any], who: str, index: int) -> None:
    """Dice are read only for the roll they were given to (whose it is): a GM's edit that
    changes the turn never makes one combatant's roll another's. Dice of older logs, and
    dice the session rolled by itself, do not say, and are read in order. A GM's die
    reads a combatant's die of an older log: Zamani's initiative tie-break was asked of
    each tied combatant before it was the GM's (seed 002 · Segment & Initiatives), and a
    table's old log still reads back; the GM is no combatant, so no roll becomes another
    combatant's."""
    owner = entry.get("owner")
    if owner is not None and owner != who and who != "gm":
        raise InputError(f"dice entry {index + 1} was given for {owner}'s roll, but the "
                         f"rules ask for {who}'s", path="dice", allowed=who)


class Person(Policy):
    """A person-controlled combatant: answers from the feed, else asks."""

    name = PERSON

    def __init__(self, feed: Feed):
        self.feed = feed

    def choose(self, roller: Roller, system: RuleSystem, actor: str,
               actions: Sequence[Action], roster: Roster) -> Action:
        return self._ask(roller, system, actor, actions, roster,
                         f"{roster[actor].name}'s action")

    def choose_before_round(self, roller: Roller, system: RuleSystem, actor: str,
                            actions: Sequence[Action], roster: Roster) -> Action:
        return self._ask(roller, system, actor, actions, roster,
                         f"{roster[actor].name}'s choice before the round's initiative")

    def _ask(self, roller: Roller, system: RuleSystem, actor: str,
             actions: Sequence[Action], roster: Roster, heading: str) -> Action:
        name = roster[actor].name
        words = system.words

        def label(a: Action) -> str:
            return action_words(a, roster, words)

        def ask() -> Decision:
            menu = build_menu(actor, actions, roster, words, label,
                              self.feed.previous.get(actor))
            return Decision("action", actor, heading, tuple(
                Option(str(i + 1), label(a), _later(system, a, roster) if self.feed.odds
                       else None)
                for i, a in enumerate(actions)), menu=menu)
        if self.feed.skipping(actor):
            return Action(actor, kind=PASS, offensive=False)

        def auto(policy: str) -> int:
            return actions.index(POLICIES[policy].choose(roller, system, actor, actions,
                                                         roster))
        action = actions[self.feed.answer("action", len(actions), ask, auto, who=actor,
                                          prompt=heading)]
        self.feed.about(actor, f"{name}'s {_lower(label(action))}", action.target)
        return action

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        target = variants[0].target or ""
        words = system.words
        prompt = (f"{roster[target].name}'s reaction to {roster[variants[0].actor].name}'s "
                  f"{_lower(action_words(variants[0], roster, words))}")

        def ask() -> Decision:
            return Decision("reaction", target, prompt, tuple(
                Option(str(i + 1), reaction_words(v, variants[0], words, variants),
                       _later(system, v, roster) if self.feed.odds else None)
                for i, v in enumerate(variants)))

        def auto(policy: str) -> int:
            return variants.index(POLICIES[policy].react(roller, system, variants, roster))
        return variants[self.feed.answer("reaction", len(variants), ask, auto, who=target,
                                         prompt=prompt)]


class _Watch(Policy):
    """A policy that also notes the action in the feed, for the dice prompts."""

    def __init__(self, inner: Policy, feed: Feed):
        self.inner, self.feed, self.name = inner, feed, inner.name  # type: ignore[misc]

    def choose(self, roller: Roller, system: RuleSystem, actor: str,
               actions: Sequence[Action], roster: Roster) -> Action:
        return self._noted(self.inner.choose(roller, system, actor, actions, roster),
                           system, roster)

    def choose_before_round(self, roller: Roller, system: RuleSystem, actor: str,
                            actions: Sequence[Action], roster: Roster) -> Action:
        return self._noted(self.inner.choose_before_round(roller, system, actor, actions,
                                                          roster), system, roster)

    def _noted(self, action: Action, system: RuleSystem, roster: Roster) -> Action:
        label = action_words(action, roster, system.words)
        self.feed.about(action.actor, f"{roster[action.actor].name}'s {_lower(label)}",
                        action.target)
        return action

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        return self.inner.react(roller, system, variants, roster)


def _later(system: RuleSystem, action: Action, roster: Roster) -> LaterOdds:
    """The odds of ``action``, computed when first read."""
    return LaterOdds(system, action, roster)


def _lower(label: str) -> str:
    """A label inside a sentence: ``Attack Rin`` → ``attack Rin``."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


@dataclass(frozen=True)
class TurnResult:
    """A finished turn: the state after it, its events, and how many dice entries and
    answers it used."""

    state: FightState
    events: tuple[Event, ...]
    rolls: int
    answers: int


def run_turn(setup: FightSetup, state: FightState, feed: Feed,
             controllers: Mapping[str, str]) -> TurnResult:
    """Run one turn from ``state`` with the feed's inputs; raises :class:`Needed` when an
    answer is missing (and ``InputError`` when an input does not fit the rules)."""
    feed.actor = "gm"
    feed.context = (f"initiative for round {state.round + 1}"
                    if state.next_slot >= len(state.slots) else "the turn")
    feed.names.update({cid: c.name for cid, c in state.roster.items()})
    people: dict[str, Policy] = {}
    for cid in state.roster:
        name = controllers.get(cid, setup.policy_of(cid))
        people[cid] = Person(feed) if name == PERSON else _Watch(POLICIES[name], feed)
    roller = LiveRoller(feed)
    new, events = step(roller, setup, state, Live(people, feed.saw))
    return TurnResult(new, events, feed.used_rolls, feed.used_answers)


def whose_roll(setup: FightSetup, state: FightState, feed: Feed,
               controllers: Mapping[str, str]) -> str | None:
    """Who makes the roll ``feed`` waits for, read off a trial run of the turn (the
    missing dice drawn, the missing answers the first option): when the turn's ``Rolled``
    events match its rolls one to one, the one at the roll's place names the roller.
    None when they do not match (the request then names the acting combatant)."""
    trial = Feed(list(feed.rolls), list(feed.answers), feed.seed, feed.next_roll,
                 feed.auto, feed.person, odds=False, trial=np.random.Generator(
                     np.random.PCG64(0)))
    try:
        result = run_turn(setup, state, trial, controllers)
    except (Needed, FracasError, ValueError):
        return None
    rolls = [s for s in trial.streams if s != "policy"]
    place = len([s for s in trial.streams[:len(feed.rolls)] if s != "policy"])
    rolled = [e for e in result.events if e.rolled_by() is not None]
    if len(rolled) != len(rolls) or place >= len(rolled):
        return None
    names = {**{c.name: cid for cid, c in state.roster.items()}, **{
        cid: cid for cid in state.roster}}
    return names.get(str(rolled[place].rolled_by()))
