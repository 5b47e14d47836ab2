"""The model every rule system shares: combatants, rosters, actions, resolutions, slots.

All of it is immutable and hashable, so that the exact roller can memoise on it
and a fight's state can be rebuilt from its events.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, PrivateAttr

from fracas.core.events import Changed, Event
from fracas.core.recur import interned, transition
from fracas.errors import RulesError
from fracas.frozen import HashOnce, cached_hash, freeze, replaced


@dataclass(frozen=True)
class Combatant(HashOnce):
    """A combatant: who (id, name, side), its sheet (fixed) and its state (what changes).
    Its hash is computed once (rosters are hashed at every look-up of a memo; a changed
    combatant is a new one, :func:`~fracas.frozen.replaced` leaves the hash behind)."""

    id: str
    name: str
    side: str
    sheet: Any  # the system's frozen pydantic sheet model
    state: Any  # the system's frozen dataclass of changing values
    policy: str | None = None

    def evolve(self, **changes: Any) -> Combatant:
        """A copy with some state fields changed (the fields must exist: :func:`changed`
        checks them)."""
        state = self.state
        if _plain_state(type(state)):
            state = replaced(state, **changes)
        else:
            state = dataclasses.replace(state, **changes)
        return interned(replaced(self, state=state))

    def __hash__(self) -> int:
        found: int | None = self.__dict__.get("_hash")  # as cached_hash, inline: rosters
        if found is None:  # hash their combatants at every look-up of a memo
            found = hash((self.id, self.name, self.side, self.sheet, self.state, self.policy))
            object.__setattr__(self, "_hash", found)
        return found

    def __eq__(self, other: object) -> bool:
        """Equal fields (the memos compare combatants at every look-up that finds one):
        a plain state compared by its fields' mapping, without building tuples."""
        if self is other:
            return True
        if type(other) is not Combatant:
            return NotImplemented
        mine, theirs = self.state, other.state
        if mine is not theirs:
            if type(mine) is not type(theirs):
                return False
            if _plain_state(type(mine)):
                if mine.__dict__ != theirs.__dict__:
                    return False
            elif mine != theirs:
                return False
        return (self.id == other.id and self.sheet == other.sheet and self.name == other.name
                and self.side == other.side and self.policy == other.policy)

    def state_dict(self) -> dict[str, Any]:
        from fracas.core.events import jsonable

        return {f.name: jsonable(getattr(self.state, f.name))
                for f in dataclasses.fields(self.state)}


_PLAIN: dict[type, bool] = {}


def _plain_state(cls: type) -> bool:
    """Whether a state class can be copied (:func:`~fracas.frozen.replaced`) and compared
    field by field as ``dataclasses.replace`` and its ``__eq__`` would: a dataclass with no
    ``__post_init__``, no slots, no cached properties, and only plain fields, each set by
    ``__init__`` (no init-only or class variables)."""
    plain = _PLAIN.get(cls)
    if plain is None:
        declared = getattr(cls, "__dataclass_fields__", None)
        fields = dataclasses.fields(cls) if declared is not None else ()
        plain = _PLAIN[cls] = bool(
            declared is not None and not hasattr(cls, "__post_init__")
            and "__slots__" not in cls.__dict__ and all(f.init for f in fields)
            and set(declared) == {f.name for f in fields}
            and not any(isinstance(v, functools.cached_property)
                        for k in cls.__mro__ for v in vars(k).values()))
    return plain


class Roster(Mapping[str, Combatant]):
    """An immutable, hashable mapping of combatant id to :class:`Combatant`, in order."""

    __slots__ = ("_hash", "_items", "_map")

    def __init__(self, combatants: Iterable[Combatant] = ()):
        self._items = tuple(combatants)
        self._map = {c.id: c for c in self._items}
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Combatant:
        try:
            return self._map[key]
        except KeyError:
            raise RulesError(f"no combatant with id {key!r} (known: "
                             f"{', '.join(self._map)})") from None

    def __contains__(self, key: object) -> bool:
        return key in self._map

    def get(self, key: str, default: Combatant | None = None) -> Combatant | None:  # type: ignore[override]
        """The combatant of that id, or ``default`` (``__getitem__`` raises a
        :class:`RulesError`, which the mapping's own ``get`` would let through)."""
        return self._map.get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._items)
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled without its cached hash (hashes differ from process to process)."""
        return (type(self), (self._items,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Roster) and self._items == other._items

    def __repr__(self) -> str:
        return f"Roster({', '.join(self._map)})"

    def replace(self, *combatants: Combatant) -> Roster:
        """A roster with these combatants swapped in (by id)."""
        new = {c.id: c for c in combatants}
        return Roster(new.get(c.id, c) for c in self._items)

    def sheets(self) -> tuple[tuple[str, Any], ...]:
        """Each combatant's id and sheet, in order. Sheets are fixed for a fight, so a
        rule that reads only them (a check of the scenario's sheets) reads no state."""
        return tuple((c.id, c.sheet) for c in self._items)

    def combatants(self) -> tuple[Combatant, ...]:
        """The combatants, in order."""
        return self._items

    def sides(self) -> dict[str, list[Combatant]]:
        out: dict[str, list[Combatant]] = {}
        for c in self._items:
            out.setdefault(c.side, []).append(c)
        return out

    def enemies_of(self, actor: str) -> list[Combatant]:
        side = self[actor].side
        return [c for c in self._items if c.side != side]

    def allies_of(self, actor: str) -> list[Combatant]:
        side = self[actor].side
        return [c for c in self._items if c.side == side and c.id != actor]


class HashedModel(BaseModel):
    """A frozen sheet model, hashable despite its mappings, its hash computed once (the
    exact roller and the odds cache hash sheets at every look-up); the cached hash is
    neither compared nor carried into another process, where hashes of strings differ."""

    model_config = ConfigDict(frozen=True)
    _hash: int | None = PrivateAttr(default=None)

    def __hash__(self) -> int:
        private = self.__pydantic_private__  # a plain slot: faster than ``self._hash``
        found: int | None = private.get("_hash") if private is not None else None
        if found is None:
            found = hash((type(self).__name__, freeze(self.model_dump())))
            self._hash = found
        return found

    def __setstate__(self, state: dict[Any, Any]) -> None:
        super().__setstate__(state)
        self._hash = None

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Self:
        """A copy with ``update`` applied: its hash is worked out afresh (the copied
        private attributes carried the original's)."""
        new = super().model_copy(update=update, deep=deep)
        if new.__pydantic_private__ is not None:  # where ``_hash`` is kept
            new.__pydantic_private__["_hash"] = None
        return new

    def __eq__(self, other: object) -> bool:
        """Equal fields (the cached hash is not compared); itself at once."""
        return self is other or (type(other) is type(self) and self.__dict__ == other.__dict__)


def apply_event(roster: Roster, event: Event) -> Roster:
    """The roster after one event (only :class:`Changed` changes state)."""
    if not isinstance(event, Changed):
        return roster
    return changed(roster, {event.target: {event.field: event.after}})


def changed(roster: Roster, fields: Mapping[str, Mapping[str, Any]]) -> Roster:
    """The roster with these state fields (per combatant id) set: what applying
    :class:`Changed` events one by one gives, in one new roster (within
    :func:`~fracas.core.recur.recurring_states`, the object the same changes to the same
    roster gave before)."""
    return transition(lambda: (roster, tuple((cid, tuple(values.items()))
                                             for cid, values in fields.items())),
                      lambda: _changed(roster, fields))


def _changed(roster: Roster, fields: Mapping[str, Mapping[str, Any]]) -> Roster:
    combatants = []
    for cid, values in fields.items():
        combatant = roster[cid]
        for name in values:
            if not hasattr(combatant.state, name):
                raise RulesError(f"{cid} has no state field {name!r}")
        combatants.append(combatant.evolve(**values))
    return roster.replace(*combatants)


def apply_events(roster: Roster, events: Iterable[Event]) -> Roster:
    """The fold of events over a roster."""
    for event in events:
        roster = apply_event(roster, event)
    return roster


#: The kind of an action that delays acting until after the next slot of the round (the
#: fight loop moves the slot; it never interrupts another's action). Systems that allow it
#: offer ``Action(actor, kind=DELAY, offensive=False)`` among their actions.
DELAY = "delay"

#: The kind of an action that does nothing: the turn passes (the GM skips it, or takes a
#: free-form action described and applied by hand). Never offered by a system; the fight
#: loop resolves nothing for it.
PASS = "pass"


@dataclass(frozen=True)
class Action:
    """What an actor does: ``kind`` (``attack`` or a system's own, e.g. ``grapple``), its
    target, its weapon and the system's validated options (a frozen pydantic model)."""

    actor: str
    target: str | None = None
    weapon: str | None = None
    kind: str = "attack"
    options: BaseModel | None = None
    offensive: bool = True

    def describe(self) -> str:
        parts = [] if self.weapon is None else [self.weapon]
        if self.options is not None:
            changed = self.options.model_dump(exclude_defaults=True)
            parts += [f"{k}={v}" for k, v in changed.items()]
        return ", ".join(parts)

    def __hash__(self) -> int:
        """Hashed once (exact odds look an action up at every branch; its options are a
        pydantic model, slow to hash)."""
        return cached_hash(self, lambda: hash((self.actor, self.target, self.weapon,
                                                self.kind, self.options, self.offensive)))

    __getstate__ = HashOnce.__getstate__


@dataclass(frozen=True)
class Resolution:
    """What resolving an action gave.

    ``outcome`` is one of the system's outcome names; ``damage`` is what the target
    lost; ``taken_out`` says whether the target can no longer act; ``details`` holds
    further outcomes the odds report on (name, value), e.g. ``("critical", "x3")``.
    """

    outcome: str
    hit: bool
    damage: int
    events: tuple[Event, ...]
    taken_out: bool = False
    details: tuple[tuple[str, Any], ...] = ()

    def summary(self) -> tuple[str, bool, int, bool, tuple[tuple[str, Any], ...]]:
        return (self.outcome, self.hit, self.damage, self.taken_out, self.details)


@dataclass(frozen=True)
class Slot:
    """A place in a round's turn order.

    ``candidates`` are who may take it (one id for most systems; every PC for a
    Genesys PC slot, taken by the first who has not acted). ``label`` says what the
    slot is (``initiative 12``, ``countdown 10``, ``PC slot 1``); ``offensive`` is
    False for a slot in which no attack may be made (no built-in system has one: Zamani's
    one offensive action may go on any of its segments, seed 002 · Segment & Initiatives).
    """

    candidates: tuple[str, ...]
    label: str = ""
    offensive: bool = True
    extra: tuple[tuple[str, Any], ...] = field(default=())
