"""One turn of a live fight, paused wherever a person must answer.

:func:`run_turn` runs the pure :func:`fracas.encounter.engine.step` from the turn's
start with the inputs given so far: a :class:`LiveRoller` serves the dice entered
(or rolled) for this turn, and a :class:`Person` controller serves the answers
given. When either runs out it raises :class:`Needed` with what is asked next, and
the turn is run again from its start once the answer is in, so rule code never has
to stop half-way. Policies stay what they are: controllers that answer by themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fracas.core.choices import Choice
from fracas.core.events import Event
from fracas.core.model import PASS, Action, Roster
from fracas.core.system import RuleSystem
from fracas.dice.rollers import Roller
from fracas.dice.variables import Variable
from fracas.encounter.engine import FightSetup, step
from fracas.encounter.labels import describe_action
from fracas.encounter.policies import POLICIES, Policy
from fracas.encounter.state import FightState
from fracas.errors import FracasError, InputError, ScriptError
from fracas.odds.cache import cached_odds
from fracas.odds.text import fraction_text

PERSON = "person"


@dataclass(frozen=True)
class Odds:
    """The exact odds of one option, from the rule code: chance to hit, expected damage,
    chance to take the target out (exact fractions as text, and floats)."""

    p_hit: str
    expected_damage: str
    p_taken_out: str

    def to_dict(self) -> dict[str, Any]:
        return {"p_hit": self.p_hit, "expected_damage": self.expected_damage,
                "p_taken_out": self.p_taken_out}

    def short(self) -> str:
        def pct(text: str) -> str:
            num, _, den = text.partition("/")
            return f"{100 * int(num) / int(den or 1):.0f}%"
        exp = self.expected_damage.partition("/")
        dmg = int(exp[0]) / int(exp[2] or 1)
        return f"hit {pct(self.p_hit)}, dmg {dmg:.2f}, out {pct(self.p_taken_out)}"


def action_odds(system: RuleSystem, action: Action, roster: Roster) -> Odds | None:
    """The odds of an offensive action on a target (None for the others), memoised."""
    if not action.offensive or action.target is None or action.target not in roster:
        return None
    odds = cached_odds(system, action, roster)
    return Odds(fraction_text(odds.p_hit), fraction_text(odds.expected_damage),
                fraction_text(odds.p_taken_out))


@dataclass(frozen=True)
class Option:
    """One choice on offer: its id (``"1"``, ``"2"``, ...), label and odds (None where
    there are none, e.g. a non-offensive action)."""

    id: str
    label: str
    odds: Odds | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label,
                "odds": None if self.odds is None else self.odds.to_dict()}


@dataclass(frozen=True)
class DiceRequest:
    """A roll the rules make now: the die's label, whose roll (a combatant id or ``gm``),
    what for, how many values (None: as many as the rules read, e.g. cards until a
    number card), and what a value may be."""

    die: str
    who: str
    what: str
    count: int | None
    allowed: str
    stream: str = "dice"

    def to_dict(self) -> dict[str, Any]:
        return {"die": self.die, "who": self.who, "what": self.what, "count": self.count,
                "allowed": self.allowed, "stream": self.stream}


@dataclass(frozen=True)
class Decision:
    """What is asked now: ``kind`` (``action``, ``reaction``, ``dice``, or a rule's own
    mid-resolution choice such as ``spend`` or ``split``), who must answer, a prompt,
    the options (empty for dice) and, for dice, the request."""

    kind: str
    who: str
    prompt: str
    options: tuple[Option, ...] = ()
    dice: DiceRequest | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "who": self.who, "prompt": self.prompt,
                "options": [o.to_dict() for o in self.options],
                "dice": None if self.dice is None else self.dice.to_dict()}


class Needed(Exception):
    """Raised out of a turn when an answer is needed that has not been given yet."""

    def __init__(self, decision: Decision):
        super().__init__(decision.prompt)
        self.decision = decision


def dice_count(var: Variable[Any]) -> int | None:
    """How many values a person enters for ``var`` (None: as many as the rules read)."""
    from fracas.dice.cards import DrawCard
    from fracas.dice.variables import Die, Faces, Group, Keep, Mapped, Pool, Sum

    if isinstance(var, Die | Faces | DrawCard):
        return 1
    if isinstance(var, Pool):
        inner = dice_count(var.die)
        return None if inner is None else var.count * inner
    if isinstance(var, Keep):
        return var.count
    if isinstance(var, Mapped):
        return dice_count(var.source)
    if isinstance(var, Sum | Group):
        parts = [p for _, p in var.parts] if isinstance(var, Sum) else list(var.parts)
        counts = [dice_count(p) for p in parts]
        return None if any(c is None for c in counts) else sum(c or 0 for c in counts)
    for name in ("count", "ids", "names"):  # hands, everybody's initiative, a roll-off
        value = getattr(var, name, None)
        if isinstance(value, int):
            return value
        if isinstance(value, tuple):
            return len(value)
    return None if type(var).__name__ in ("UntilNumber", "CriticalRoll") else 1


class _Probe:
    """A script that gives one impossible value: the error it causes names what is allowed."""

    def take(self, die: str, stream: str = "dice") -> tuple[object, int]:
        return "?", 1


def dice_allowed(var: Variable[Any]) -> str:
    """What a value of ``var``'s first die may be: the cards left for a draw, else what
    the rules' own check says of an impossible value."""
    from fracas.dice.cards import Card

    pile = getattr(var, "pile", None)
    if pile is None:
        pile = getattr(getattr(var, "deck", None), "draw_pile", None)
    if isinstance(pile, tuple) and all(isinstance(c, Card) for c in pile):
        return ", ".join(c.label for c in pile) or "none: the draw pile is empty"
    try:
        var.from_script(_Probe())
    except ScriptError as err:
        return err.allowed or err.message
    except (InputError, ValueError, TypeError) as err:
        return str(err)
    return "any value"


class _Values:
    """The values a person entered for one roll, served in order to ``from_script``."""

    def __init__(self, values: Sequence[object]):
        self.values = list(values)
        self.used = 0

    def take(self, die: str, stream: str = "dice") -> tuple[object, int]:
        if self.used >= len(self.values):
            raise ScriptError(f"needs more than the {len(self.values)} value(s) given",
                              die=die, position=self.used + 1,
                              allowed=f"at least {self.used + 1} values")
        self.used += 1
        return self.values[self.used - 1], self.used


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
    used_rolls: int = 0
    used_answers: int = 0
    odds: bool = True  # show each option's odds
    trial: np.random.Generator | None = None  # a trial run: missing inputs are made up
    streams: list[str] = field(default_factory=list)  # the stream of every roll made
    context: str = "the start of the fight"
    context_start: int = 0  # the rolls made before the context was set
    actor: str = "gm"

    target: str | None = None

    def about(self, actor: str, context: str, target: str | None) -> None:
        """Name what the next rolls are for (an action just chosen, and its target)."""
        self.actor, self.context, self.context_start = actor, context, self.used_rolls
        self.target = target

    def unattended(self) -> bool:
        """No person takes part in the action now resolving (a policy-controlled combatant
        acting on another, or on nobody): its dice are rolled by the session."""
        return self.actor != "gm" and not self.person(self.actor) and (
            self.target is None or not self.person(self.target))

    def skipping(self) -> bool:
        """Is the next answer the GM's "skip this turn" (taken if so)?"""
        if self.used_answers < len(self.answers) and self.answers[self.used_answers].get(
                "skip") and self.answers[self.used_answers].get("decision") == "action":
            self.used_answers += 1
            return True
        return False

    def answer(self, kind: str, count: int, ask: Callable[[], Decision],
               auto: Callable[[str], int] | None = None) -> int:
        """The index of the option given for a ``kind`` decision of ``count`` options, or
        raise :class:`Needed` with the decision ``ask`` builds (odds are only computed
        when the question is really asked). An answer ``{"policy": name}`` lets that
        policy choose (``auto``; the rules' default where there is none)."""
        if self.used_answers >= len(self.answers):
            if self.trial is not None:
                return 0
            raise Needed(ask())
        entry = self.answers[self.used_answers]
        if entry.get("decision") != kind:
            raise InputError(f"answer {self.used_answers + 1} is for a {entry.get('decision')}"
                             f" decision, but the rules ask for a {kind}",
                             path="answers", allowed=kind)
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

    def roll(self, var: Variable[Any]) -> Any:
        feed = self.feed
        who = var.stream if var.stream not in ("dice", "policy") else feed.actor
        feed.streams.append(var.stream)
        if feed.trial is not None and feed.used_rolls >= len(feed.rolls):
            feed.used_rolls += 1
            return var.sample(feed.trial)
        if feed.used_rolls < len(feed.rolls):
            entry = feed.rolls[feed.used_rolls]
            feed.used_rolls += 1
            if "rolled" in entry:
                return self._draw(var, int(entry["rolled"]))
            values = _Values(list(entry.get("dice", [])))
            value = var.from_script(values)
            if values.used != len(values.values):
                extra = values.values[values.used:]
                raise ScriptError(f"{len(extra)} value(s) too many "
                                  f"({', '.join(map(str, extra))})", die=var.label,
                                  position=values.used + 1,
                                  allowed=f"exactly {values.used} value(s)")
            return value
        if var.stream == "policy" or feed.unattended() or feed.auto(var, who):
            entry = {"kind": "dice", "rolled": feed.next_roll, "auto": True}
            feed.next_roll += 1
            feed.added.append(entry)
            feed.rolls.append(entry)
            feed.used_rolls += 1
            return self._draw(var, int(entry["rolled"]))
        number = feed.used_rolls - feed.context_start + 1
        what = feed.context + (f", roll {number}" if number > 1 else "")
        request = DiceRequest(var.label, who, what, dice_count(var), dice_allowed(var),
                              var.stream)
        count = "" if request.count is None else f" ({request.count} value(s))"
        raise Needed(Decision("dice", who, f"{what}: {var.label}{count}", dice=request))

    def resolve(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(self, *args)

    def choose(self, choice: Choice) -> int:
        """A mid-resolution choice (see :mod:`fracas.core.choices`): a person-controlled
        combatant answers, anybody else takes the rules' default."""
        who = next((c for c in choice.among if self.feed.person(c)), choice.who)
        if not self.feed.person(who):
            return choice.default
        options = tuple(Option(str(i + 1), label) for i, label in enumerate(choice.options))
        return self.feed.answer(choice.kind, len(options), lambda: Decision(
            choice.kind, who, choice.prompt, options), lambda name: choice.default)


def action_label(action: Action, roster: Roster) -> str:
    """``attack the vampire: knife, vital_target`` — kind, target, weapon, options."""
    head = action.kind.replace("_", " ")
    if action.target is not None and action.target in roster:
        head += f" {roster[action.target].name}"
    detail = describe_action(action)
    return head if detail in ("plain", action.kind) else f"{head}: {detail}"


def reaction_label(variant: Action, first: Action) -> str:
    """A reaction as the option fields it changes from the plain attack."""
    a = {} if first.options is None else first.options.model_dump()
    b = {} if variant.options is None else variant.options.model_dump()
    changed = [k for k in b if a.get(k) != b[k]]
    if not changed:
        return "no reaction"
    return ", ".join(k if b[k] is True else f"{k}={b[k]}" for k in changed)


class Person(Policy):
    """A person-controlled combatant: answers from the feed, else asks."""

    name = PERSON

    def __init__(self, feed: Feed):
        self.feed = feed

    def choose(self, roller: Roller, system: RuleSystem, actor: str, actions: list[Action],
               roster: Roster) -> Action:
        name = roster[actor].name

        def ask() -> Decision:
            return Decision("action", actor, f"{name}'s action", tuple(
                Option(str(i + 1), action_label(a, roster),
                       action_odds(system, a, roster) if self.feed.odds else None)
                for i, a in enumerate(actions)))
        if self.feed.skipping():
            return Action(actor, kind=PASS, offensive=False)

        def auto(policy: str) -> int:
            return actions.index(POLICIES[policy].choose(roller, system, actor, actions,
                                                         roster))
        action = actions[self.feed.answer("action", len(actions), ask, auto)]
        self.feed.about(actor, f"{name}'s {action_label(action, roster)}", action.target)
        return action

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        target = variants[0].target or ""
        prompt = (f"{roster[target].name}'s reaction to "
                  f"{roster[variants[0].actor].name}'s {action_label(variants[0], roster)}")

        def ask() -> Decision:
            return Decision("reaction", target, prompt, tuple(
                Option(str(i + 1), reaction_label(v, variants[0]),
                       action_odds(system, v, roster) if self.feed.odds else None)
                for i, v in enumerate(variants)))

        def auto(policy: str) -> int:
            return variants.index(POLICIES[policy].react(roller, system, variants, roster))
        return variants[self.feed.answer("reaction", len(variants), ask, auto)]


class _Watch(Policy):
    """A policy that also notes the action in the feed, for the dice prompts."""

    def __init__(self, inner: Policy, feed: Feed):
        self.inner, self.feed, self.name = inner, feed, inner.name  # type: ignore[misc]

    def choose(self, roller: Roller, system: RuleSystem, actor: str, actions: list[Action],
               roster: Roster) -> Action:
        action = self.inner.choose(roller, system, actor, actions, roster)
        self.feed.about(actor, f"{roster[actor].name}'s {action_label(action, roster)}",
                        action.target)
        return action

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        return self.inner.react(roller, system, variants, roster)


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
    people: dict[str, Policy] = {}
    for cid in state.roster:
        name = controllers.get(cid, setup.policy_of(cid))
        people[cid] = Person(feed) if name == PERSON else _Watch(POLICIES[name], feed)
    roller = LiveRoller(feed)
    new, events = step(roller, setup, state, controllers=people, watch=feed.seen.append)
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
