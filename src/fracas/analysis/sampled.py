"""The middle simulation path: each rule sub-step drawn from its exact distribution.

A fight whose whole states rarely repeat (many combatants, long fights) gains nothing
from the exact chain, yet its sub-steps do repeat: the same attacker hitting the same
defender with the same action, an initiative draw between the same combatants. Under
:class:`SamplingRoller`, :func:`~fracas.encounter.engine.step` (``lean=True``) routes
every rule call through ``roller.resolve``; the roller computes that sub-step's exact
distribution once, caches it, and draws each later call from it with one random integer.

The cache is keyed by *the part of the state the sub-step reads*, not by the whole fight:
the first enumeration runs the rule with a :class:`ReadTracker` in place of each roster,
recording which combatants its every path looked at. Rule code is pure, so any roster
that agrees on those combatants takes the same paths with the same chances, and the
same cached distribution answers for it. A sub-step that reads the whole roster (an
initiative draw) is keyed by the whole roster, as before.

A sub-step whose enumeration passes :data:`ENUMERATION_RUNS` runs is played directly
(its own nested sub-steps still sampled); a rule that does so :data:`GIVE_UP` times in
the first fights is always played, and so is a random rule that reads every combatant
(or returns a roster) that often: keyed by the whole fight, it would seldom be met
again. The cache's size is estimated as it grows (a fixed cost per entry and per
outcome kept); at its byte budget it is emptied and fills again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any, TypeVar

import numpy as np

from fracas.core.model import Action, Combatant, Roster
from fracas.dice.distribution import Distribution
from fracas.dice.rollers import EnumerationTooLarge, ExactRoller
from fracas.dice.variables import Variable

T = TypeVar("T", bound=Hashable)
R = TypeVar("R")

ENUMERATION_RUNS = 1_000  # the most runs one sub-step's enumeration may take
GIVE_UP = 3  # enumerations of one rule that passed the budget before it is always played
ENTRY_BYTES = 600  # estimated fixed cost of one cached sub-step (key, lists, dict slot)
OUTCOME_BYTES = 400  # estimated cost of each distinct outcome it keeps (events, weights)

_ALL = "*"  # a read set meaning "every combatant"


class ReadTracker(Roster):
    """A roster that records which combatants the code reading it looked at.

    Looking one up by id records that id; anything that sees every combatant (the
    values, ``sides``, ``replace``, the private tuples, equality) records them all.
    The ids themselves (iteration, ``in``, ``len``) are the same in every state of a
    fight, so reading them records nothing.
    """

    __slots__ = ("_inner", "reads")

    def __init__(self, inner: Roster, reads: set[str] | None = None) -> None:
        self._inner = inner  # no super().__init__: the base slots stay empty
        self.reads: set[str] = set() if reads is None else reads

    def replace(self, *combatants: Combatant) -> Roster:
        """Swapping combatants in reads none: the new roster is tracked into the same set."""
        return ReadTracker(self._inner.replace(*combatants), self.reads)

    @property
    def _items(self) -> tuple[Combatant, ...]:  # type: ignore[override]
        self.reads.add(_ALL)
        return self._inner._items

    @property
    def _map(self) -> dict[str, Combatant]:  # type: ignore[override]
        self.reads.add(_ALL)
        return self._inner._map

    @property
    def _hash(self) -> int | None:  # type: ignore[override]
        return id(self)

    def __getitem__(self, key: str) -> Combatant:
        found = self._inner[key]
        self.reads.add(key)
        return found

    def __contains__(self, key: object) -> bool:
        return key in self._inner

    def __iter__(self) -> Iterator[str]:
        return iter(self._inner)

    def __len__(self) -> int:
        return len(self._inner)

    def __hash__(self) -> int:  # never found in a cache filled from another roster
        return id(self)

    def __eq__(self, other: object) -> bool:
        self.reads.add(_ALL)
        return self._inner == other

    def __repr__(self) -> str:
        return f"ReadTracker({self._inner!r})"


def _holds_roster(value: Any, depth: int = 6) -> bool:
    """Whether a sub-step's result carries a roster (then it depends on every combatant)."""
    if isinstance(value, Roster):
        return True
    if depth == 0 or isinstance(value, str | int | float | bool | type(None)):
        return False
    if isinstance(value, tuple | list | frozenset | set):
        return any(_holds_roster(v, depth - 1) for v in value)
    if isinstance(value, dict):
        return any(_holds_roster(v, depth - 1) for v in value.values())
    fields = getattr(value, "__dataclass_fields__", None)
    names = list(fields) if fields else list(getattr(type(value), "__slots__", ()))
    return any(_holds_roster(getattr(value, n, None), depth - 1) for n in names)


def _project(roster: Roster, reads: tuple[str, ...]) -> tuple[Any, ...]:
    """The part of ``roster`` a sub-step read: the states of those combatants (a
    combatant's id, name, side and sheet never change during a fight)."""
    if reads == (_ALL,):
        return (roster,)
    return tuple(roster[i].state for i in reads)


class SubstepCache:
    """Exact distributions of rule sub-steps, keyed by the part of the state they read.

    Whether a sub-step is drawn from the cache or enumerated afresh, the draw is the same
    (the same distribution, one draw from the same stream), so a fight's result never
    depends on what the cache held: emptying it at its byte budget changes only the time.
    A sub-step too large to enumerate is played directly, which draws differently; which
    rules are always played (``played``) is fixed before the fights (see :func:`learn`),
    so that too depends only on the seed.
    """

    def __init__(self, max_bytes: int, played: frozenset[Hashable] = frozenset(),
                 learn: bool = False) -> None:
        self.max_bytes = max_bytes
        self.played = set(played)
        self.learn = learn
        self.bytes = 0
        self.emptied = 0
        self.hits = self.misses = self.direct = 0
        self._read_sets: dict[Hashable, list[tuple[tuple[str, ...], ...]]] = {}
        self._dists: dict[Hashable, Distribution[Any]] = {}
        self._failures: dict[Hashable, int] = {}
        self._too_large: set[Hashable] = set()
        self._whole: dict[Hashable, int] = {}

    def draw(self, roller: SamplingRoller, fn: Callable[..., R], args: tuple[Any, ...]) -> R:
        """``fn(roller, *args)``: drawn from the cached exact distribution when there is
        one for this part of the state, else enumerated (and cached), else played."""
        rule = (fn, *(a for a in args if callable(a)),
                *(a.kind for a in args if isinstance(a, Action)))
        if rule in self.played:
            self.direct += 1
            return fn(roller, *args)
        where = [i for i, a in enumerate(args) if isinstance(a, Roster)]
        rest = tuple(None if i in where else a for i, a in enumerate(args))
        base = (fn, rest)
        try:
            known = self._read_sets.get(base, ())
            whole = (fn, args)
            too_large = whole in self._too_large
        except TypeError:  # unhashable arguments: nothing to key a cache by
            self.direct += 1
            return fn(roller, *args)
        for reads in known:
            dist = self._dists.get((base, reads, _key(args, where, reads)))
            if dist is not None:
                self.hits += 1
                return _sample(dist, roller.rng)  # type: ignore[no-any-return]
        self.misses += 1
        if too_large:
            self.direct += 1
            return fn(roller, *args)
        trackers = {i: ReadTracker(args[i]) for i in where}
        tracked = tuple(trackers.get(i, a) for i, a in enumerate(args))
        try:
            dist = ExactRoller(max_runs=ENUMERATION_RUNS).distribution(fn, *tracked)
        except EnumerationTooLarge:
            self._too_large.add(whole)
            self._failures[rule] = self._failures.get(rule, 0) + 1
            if self.learn and self._failures[rule] >= GIVE_UP:
                self.played.add(rule)
            self.direct += 1
            return fn(roller, *args)
        everything = any(_holds_roster(v) for v in dist.outcomes())
        reads = tuple((_ALL,) if everything or _ALL in trackers[i].reads
                      or len(trackers[i].reads) >= len(args[i])
                      else tuple(sorted(trackers[i].reads)) for i in where)
        if self.learn and where and all(r == (_ALL,) for r in reads):
            self._whole[rule] = self._whole.get(rule, 0) + 1
            if self._whole[rule] >= GIVE_UP:  # keyed by the whole fight: seldom met again
                self.played.add(rule)
        size = ENTRY_BYTES + OUTCOME_BYTES * len(dist)
        if self.bytes + size > self.max_bytes:
            self._read_sets.clear()
            self._dists.clear()
            self._too_large.clear()
            self.bytes = 0
            self.emptied += 1
        if reads not in self._read_sets.get(base, ()):
            self._read_sets.setdefault(base, []).append(reads)
        self._dists[(base, reads, _key(args, where, reads))] = dist
        self.bytes += size
        return _sample(dist, roller.rng)  # type: ignore[no-any-return]


def _sample(dist: Distribution[Any], rng: np.random.Generator) -> Any:
    """One draw; a sub-step with one outcome draws nothing (as when it is played)."""
    if len(dist) == 1:
        return dist.outcomes()[0]
    return dist.sample(rng)


def _key(args: tuple[Any, ...], where: list[int], reads: tuple[tuple[str, ...], ...]
         ) -> tuple[Any, ...]:
    return tuple(_project(args[i], r) for i, r in zip(where, reads, strict=True))


class SamplingRoller:
    """A random roller whose sub-steps (``resolve``) are drawn from their exact
    distributions, cached in a :class:`SubstepCache`; plain rolls are drawn directly."""

    kind = "random"

    def __init__(self, rng: np.random.Generator, cache: SubstepCache) -> None:
        self.rng = rng
        self.cache = cache

    def roll(self, var: Variable[T]) -> T:
        return var.sample(self.rng)

    def resolve(self, fn: Callable[..., R], *args: Any) -> R:
        return self.cache.draw(self, fn, args)
