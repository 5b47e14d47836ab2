"""Typed, frozen events: what happened, and which rule made it so.

Every resolution step emits events. Each event names the rule step it applies
(``rule``, e.g. ``"seed 003 · Damage"``) and renders to one line of plain text.
State changes are :class:`Changed` events, so the state of a fight is the fold
of its event log (see :func:`fracas.core.model.apply_events`).

Event classes register themselves by class name, so a log saved as JSON can be
read back into the same typed events (:func:`event_from_dict`).

>>> e = Changed(rule="seed 003 · Damage", target="vampire", field="health",
...             before=30, after=9)
>>> e.text()
'vampire: health 30 → 9'
>>> event_from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from fracas.errors import InputError

_EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass(frozen=True)
class Event:
    """Base of every event: ``rule`` cites the rule step; :meth:`text` is one line."""

    rule: str

    kind: ClassVar[str] = "event"
    #: What the event's numbers tell, for the one redaction step every view for a person
    #: goes through (:mod:`fracas.encounter.redact`): ``public`` (what the whole table sees:
    #: whose turn, the action declared, the dice shown), ``condition`` (a combatant's
    #: condition, seen wherever its status is), ``opposed`` (a roll said aloud between an
    #: action's two sides, as a contest's checks: its public line told to the players of
    #: either side, nothing to others), ``private`` (private facts of the combatants it concerns:
    #: health, defence totals, armour, sheet values), ``gm`` (the GM's alone: a roll behind
    #: the screen). An event type is private unless it says otherwise.
    facts: ClassVar[str] = "private"
    #: Told in the brief narration a table hears, as a :class:`Rolled` is: a system's own
    #: event for a roll and what it showed (a d100 against its target, a contest's check,
    #: the cards drawn), so a roll fracas made is never hidden from the table.
    brief: ClassVar[bool] = False
    #: Told in the line of the outcome it belongs to, not on a line of its own (Zamani's
    #: controlled attack: ``controlled hit: Obi drops the club``).
    with_outcome: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _EVENT_TYPES[cls.__name__] = cls

    @property
    def type(self) -> str:
        return type(self).__name__

    def text(self) -> str:
        """One line of plain text a GM can read."""
        return self.type

    def fact_kind(self) -> str:
        """``public``, ``condition`` or ``private`` (see :attr:`facts`) for this event."""
        return self.facts

    def public_text(self) -> str | None:
        """The line without its private facts, for a viewer who may not see them; None
        when nothing is left to show (the viewer then does not see the event)."""
        return None

    def rolled_by(self) -> str | None:
        """Who made the roll this event records (a name or an id), or None: not a roll."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``type``, ``rule``, ``text`` and the event's own fields."""
        out: dict[str, Any] = {"type": self.type, "rule": self.rule, "text": self.text()}
        for f in fields(self):
            if f.name != "rule":
                out[f.name] = jsonable(getattr(self, f.name))
        return out


def jsonable(value: Any) -> Any:
    """A JSON-ready copy: tuples and lists become lists, mapping keys strings, dataclasses
    dicts of their fields (an event's fields as its log line holds them)."""
    if isinstance(value, tuple | list):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    return value


def from_jsonable(value: Any) -> Any:
    """JSON lists back to tuples, dicts to (key, value) pairs in order: an event's field
    as the event holds it (events and states are hashable)."""
    if isinstance(value, list):
        return tuple(from_jsonable(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, from_jsonable(v)) for k, v in value.items())
    return value


def event_from_dict(data: dict[str, Any]) -> Event:
    """The typed event a :meth:`Event.to_dict` came from."""
    name = data.get("type")
    cls = _EVENT_TYPES.get(str(name))
    if cls is None:
        raise InputError(f"unknown event type {name!r}", path="type",
                         allowed=", ".join(sorted(_EVENT_TYPES)))
    kwargs = {}
    for f in fields(cls):
        if f.name not in data and f.default is not dataclasses.MISSING:
            continue  # a field added since the log was written keeps its default
        if f.name not in data:
            raise InputError(f"event {name} lacks the field {f.name!r}", path=f.name)
        kwargs[f.name] = from_jsonable(data[f.name])
    return cls(**kwargs)


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


@dataclass(frozen=True)
class Note(Event):
    """A rule applied, explained in words (no numbers to compute)."""

    message: str

    def text(self) -> str:
        return self.message


@dataclass(frozen=True)
class Rolled(Event):
    """Somebody rolled (or drew) and got a value."""

    who: str
    what: str
    value: Any
    meaning: str = ""

    def text(self) -> str:
        tail = f" ({self.meaning})" if self.meaning else ""
        return f"{self.public_text()}{tail}"

    def rolled_by(self) -> str:
        return self.who

    def fact_kind(self) -> str:
        """The dice are on the table; what they mean may need a private number."""
        return "private" if self.meaning else "public"

    def public_text(self) -> str:
        shown = self.value if not isinstance(self.value, tuple) else ", ".join(map(str, self.value))
        return f"{self.who} rolls {self.what}: {shown}"


@dataclass(frozen=True)
class Total(Event):
    """A value computed from named parts: ``Accuracy 4 + 1 (General) = 5``."""

    name: str
    parts: tuple[tuple[str, int], ...]
    value: int
    note: str = ""

    def text(self) -> str:
        terms = ""
        for i, (label, amount) in enumerate(self.parts):
            number = str(amount) if i == 0 else _signed(amount).replace("+", "+ ").replace(
                "−", "− ")
            terms += (" " if i else "") + number + (f" ({label})" if label else "")
        tail = f"; {self.note}" if self.note else ""
        return f"{self.name}: {terms} = {self.value}{tail}"


@dataclass(frozen=True)
class Compared(Event):
    """Two values compared under a rule, with what the comparison means."""

    left: str
    left_value: int
    relation: str
    right: str
    right_value: int
    result: str

    def text(self) -> str:
        return (f"{self.left} {self.left_value} {self.relation} {self.right} "
                f"{self.right_value}: {self.result}")


@dataclass(frozen=True)
class Changed(Event):
    """A combatant's state field changed: the only event that changes state."""

    target: str
    field: str
    before: Any
    after: Any

    def text(self) -> str:
        return f"{self.target}: {self.field} {_show(self.before)} → {_show(self.after)}"

    def fact_kind(self) -> str:
        """A flag or the list of named conditions is a condition; a number, a deck or
        any other value is private."""
        def named(v: Any) -> bool:
            return isinstance(v, bool) or (self.field == "conditions" and isinstance(
                v, tuple) and all(isinstance(x, str) for x in v))
        return "condition" if named(self.before) and named(self.after) else "private"


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]" if len(value) <= 8 else f"[{len(value)}]"
    return str(value)


@dataclass(frozen=True)
class Outcome(Event):
    """The result of an action: its outcome name, whether it hit, what the target lost."""

    actor: str
    target: str
    outcome: str
    hit: bool
    damage: int

    def text(self) -> str:
        hurt = f"; {self.target} loses {self.damage}" if self.damage and self.target else ""
        return f"{self.public_text()}{hurt}"

    def fact_kind(self) -> str:
        """Hit or miss is seen by all; what the target lost tells of its health."""
        return "private" if self.damage and self.target else "public"

    def public_text(self) -> str:
        if not self.target:
            return f"{self.actor}: {self.outcome}"
        return f"{self.actor} → {self.target}: {self.outcome}"


@dataclass(frozen=True)
class RoundStarted(Event):
    """A new round of the fight, with its turn order: ``slots`` holds each slot's
    (candidates, label, offensive, extra)."""

    facts: ClassVar[str] = "public"

    round: int
    slots: tuple[tuple[Any, ...], ...]

    def text(self) -> str:
        order = []
        for candidates, label, *_ in self.slots:
            who = candidates[0] if len(candidates) == 1 else label
            order.append(f"{who} ({label})" if label and len(candidates) == 1 else who)
        return f"Round {self.round}: " + ", ".join(order)


@dataclass(frozen=True)
class TurnStarted(Event):
    """Somebody takes a slot of the round: their turn (or segment) begins."""

    facts: ClassVar[str] = "public"

    actor: str
    slot: str
    slot_index: int

    def text(self) -> str:
        return f"{self.actor}'s turn ({self.slot})" if self.slot else f"{self.actor}'s turn"


@dataclass(frozen=True)
class SlotAdded(Event):
    """A slot added to the current round for ``actor``: ``after`` of the round's remaining
    slots come first (0: another action at once; 1: a delayed action, after the next one).
    The new slot is offensive when ``offensive``; a delayed slot keeps the current slot's
    ``extra``."""

    facts: ClassVar[str] = "public"

    actor: str
    label: str
    after: int = 0
    offensive: bool = True

    def text(self) -> str:
        when = "at once" if self.after == 0 else "later in the round"
        return f"{self.actor} acts again {when} ({self.label})"


#: The events that change a fight: what the simulation's lean loop keeps of a rule's
#: events (the rest only tell).
EFFECTS = (Changed, Outcome, SlotAdded)


@dataclass(frozen=True)
class SlotPassed(Event):
    """A slot of the round goes by with nobody able to take it."""

    facts: ClassVar[str] = "public"

    slot: str
    slot_index: int
    reason: str

    def text(self) -> str:
        return f"{self.slot or 'a slot'} passes: {self.reason}"


@dataclass(frozen=True)
class ActionChosen(Event):
    """The action an actor takes (chosen by a person or a policy)."""

    facts: ClassVar[str] = "public"

    actor: str
    action: str
    target: str
    detail: str
    policy: str
    said: str = ""  # the action in the table's words (the system's data pack), names

    def text(self) -> str:
        on = f" on {self.target}" if self.target else ""
        how = f" [{self.detail}]" if self.detail else ""
        by = f" (policy: {self.policy})" if self.policy else ""
        return f"{self.actor}: {self.action}{on}{how}{by}"


@dataclass(frozen=True)
class FightEnded(Event):
    """The fight is over: a side won, or the round limit was reached."""

    facts: ClassVar[str] = "public"

    winner: str
    rounds: int
    reason: str

    def text(self) -> str:
        rounds = "round" if self.rounds == 1 else "rounds"
        return f"Fight over after {self.rounds} {rounds}: {self.reason}"
