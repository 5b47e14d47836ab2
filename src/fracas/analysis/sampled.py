"""The middle simulation path: each rule sub-step drawn from its exact distribution.

A fight whose whole states rarely repeat (many combatants, long fights) gains nothing
from the exact chain, yet its sub-steps do repeat: the same attacker hitting the same
defender with the same action, an initiative draw between the same combatants. Under
:class:`SamplingRoller`, :func:`~fracas.encounter.engine.step` (the ``LEAN`` mode) routes
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

import math
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import numpy as np

from fracas.analysis.trace import NODE_BYTES, CacheRoller, ReplayRoller, RollTree
from fracas.core.events import Event
from fracas.core.model import Action, Roster
from fracas.dice.distribution import Distribution
from fracas.dice.rollers import EnumerationTooLarge, ExactRoller
from fracas.odds.reads import EVERY, ReadTracker, project

T = TypeVar("T", bound=Hashable)
R = TypeVar("R")

ENUMERATION_RUNS = 1_000  # the most runs one sub-step's enumeration may take
GIVE_UP = 3  # enumerations of one rule that passed the budget before it is always played
ENTRY_BYTES = 600  # estimated fixed cost of one cached sub-step (key, lists, dict slot)
OUTCOME_BYTES = 400  # estimated cost of each distinct outcome it keeps (events, weights)

def _holds_roster(value: Any, depth: int = 6) -> bool:
    """Whether a sub-step's result carries a roster (then it depends on every combatant).
    Events are plain data for logs, never a roster: they are not searched."""
    if isinstance(value, Roster):
        return True
    if depth == 0 or isinstance(value, str | int | float | bool | type(None) | Event):
        return False
    if isinstance(value, tuple | list | frozenset | set):
        return any(_holds_roster(v, depth - 1) for v in value)
    if isinstance(value, dict):
        return any(_holds_roster(v, depth - 1) for v in value.values())
    fields = getattr(value, "__dataclass_fields__", None)
    names = list(fields) if fields else list(getattr(type(value), "__slots__", ()))
    return any(_holds_roster(getattr(value, n, None), depth - 1) for n in names)


class WorkCapReached(Exception):
    """A trial's cache did more work than it was allowed (``max_work``)."""


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
                 learn: bool = False, traced: frozenset[Hashable] = frozenset(),
                 max_work: float | None = None) -> None:
        self.max_bytes = max_bytes
        self.max_work = max_work  # enumeration runs and traces: past it, WorkCapReached
        self.played = set(played)
        self.traced = set(traced)
        self.traces = 0
        self.learn = learn
        self.bytes = 0
        self.emptied = 0
        self.hits = self.misses = self.direct = 0
        self.fixed = 0  # hits on a sub-step of one outcome (nothing drawn, nothing saved)
        self.runs = 0  # runs of every enumeration, for auto's count of the work
        self._read_sets: dict[Hashable, list[tuple[tuple[str, ...], ...]]] = {}
        self._dists: dict[Hashable, Distribution[Any] | RollTree] = {}
        self._failures: dict[Hashable, int] = {}
        self._too_large: set[Hashable] = set()
        self._whole: dict[Hashable, int] = {}

    def play(self, roller: SamplingRoller, fn: Callable[..., R], args: tuple[Any, ...]) -> R:
        """``fn(roller, *args)``: drawn from the cached exact distribution or roll tree when
        there is one for this part of the state, else enumerated (and cached), else traced
        into a roll tree (a rule too large to enumerate), else played."""
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
            found = self._dists.get((base, reads, _key(args, where, reads)))
            if found is None:
                continue
            if isinstance(found, RollTree):
                stayed, got = found.walk(roller.rng)
                if stayed:
                    self.hits += 1
                    return got  # type: ignore[no-any-return]
                self.misses += 1
                return self._trace(roller, fn, args, where, base, got, (found, reads))
            self.hits += 1
            if len(found) == 1:
                self.fixed += 1
            return _sample(found, roller.rng)  # type: ignore[no-any-return]
        self.misses += 1
        if too_large or rule in self.traced:
            return self._trace(roller, fn, args, where, base, [])
        trackers = {i: ReadTracker(args[i]) for i in where}
        tracked = tuple(trackers.get(i, a) for i, a in enumerate(args))
        exact = ExactRoller(max_runs=self._runs_allowed())
        try:
            dist = exact.distribution(fn, *tracked)
        except EnumerationTooLarge:
            self.runs += exact.runs
            self._check_work()
            self._too_large.add(whole)
            self._failures[rule] = self._failures.get(rule, 0) + 1
            if self.learn and self._failures[rule] >= GIVE_UP:
                self.traced.add(rule)
            return self._trace(roller, fn, args, where, base, [])
        self.runs += exact.runs
        self._check_work()
        everything = any(_holds_roster(v) for v in dist.outcomes())
        reads = _reads(args, where, trackers, everything)
        if self.learn and where and all(r == (EVERY,) for r in reads):
            self._whole[rule] = self._whole.get(rule, 0) + 1
            if self._whole[rule] >= GIVE_UP:  # keyed by the whole fight: seldom met again
                self.played.add(rule)
        self._store(base, reads, _key(args, where, reads), dist,
                    ENTRY_BYTES + OUTCOME_BYTES * len(dist))
        return _sample(dist, roller.rng)  # type: ignore[no-any-return]

    def _trace(self, roller: SamplingRoller, fn: Callable[..., R], args: tuple[Any, ...],
               where: list[int], base: Hashable, drawn: list[Any],
               into: tuple[RollTree, tuple[tuple[str, ...], ...]] | None = None) -> R:
        """Play ``fn`` replaying the values ``drawn`` so far, then drawing on, and record
        the path in the roll tree of the part of the state it read (``into``: the tree
        whose walk left it, kept only while the path read nothing outside its part)."""
        self.traces += 1
        self._check_work()
        trackers = {i: ReadTracker(args[i]) for i in where}
        tracked = tuple(trackers.get(i, a) for i, a in enumerate(args))
        replay = ReplayRoller(roller.rng, drawn)
        result: R = fn(replay, *tracked)
        reads = _reads(args, where, trackers, _holds_roster(result))
        if into is not None:
            tree, within = into
            if all(w == (EVERY,) or set(r) <= set(w) for r, w in zip(reads, within, strict=True)):
                self._charge(NODE_BYTES * tree.add(replay.path, result))
            return result
        key = (base, reads, _key(args, where, reads))
        found = self._dists.get(key)
        if not isinstance(found, RollTree):
            found = RollTree()
            self._store(base, reads, key[2], found, ENTRY_BYTES)
        self._charge(NODE_BYTES * found.add(replay.path, result))
        return result

    def _runs_allowed(self) -> int:
        """The runs the next enumeration may take: :data:`ENUMERATION_RUNS`, and past
        ``max_work`` none (one over it, so that the cap is reached, not overshot by up to
        a whole enumeration: a trial that would pass it stops there, as it did at the
        enumeration's end before)."""
        if self.max_work is None:
            return ENUMERATION_RUNS
        left = math.floor(self.max_work - self.runs - self.traces) + 1
        return max(1, min(ENUMERATION_RUNS, left))

    def _check_work(self) -> None:
        if self.max_work is not None and self.runs + self.traces > self.max_work:
            raise WorkCapReached

    def _charge(self, size: int) -> None:
        """Count ``size`` bytes; at the byte budget the cache is emptied first."""
        if self.bytes + size > self.max_bytes:
            self._read_sets.clear()
            self._dists.clear()
            self._too_large.clear()
            self.bytes = 0
            self.emptied += 1
        self.bytes += size

    def _store(self, base: Hashable, reads: tuple[tuple[str, ...], ...], key: Hashable,
               found: Distribution[Any] | RollTree, size: int) -> None:
        self._charge(size)
        if reads not in self._read_sets.get(base, ()):
            self._read_sets.setdefault(base, []).append(reads)
        self._dists[(base, reads, key)] = found


def _reads(args: tuple[Any, ...], where: list[int], trackers: dict[int, ReadTracker],
           everything: bool) -> tuple[tuple[str, ...], ...]:
    """Per roster argument, the ids its reading looked at (``(EVERY,)``: every one)."""
    return tuple((EVERY,) if everything or EVERY in trackers[i].reads
                 or len(trackers[i].reads) >= len(args[i])
                 else tuple(sorted(trackers[i].reads)) for i in where)


def _sample(dist: Distribution[Any], rng: np.random.Generator) -> Any:
    """One draw; a sub-step with one outcome draws nothing (as when it is played)."""
    if len(dist) == 1:
        return dist.outcomes()[0]
    return dist.sample(rng)


def _key(args: tuple[Any, ...], where: list[int], reads: tuple[tuple[str, ...], ...]
         ) -> tuple[Any, ...]:
    return tuple(project(args[i], r) for i, r in zip(where, reads, strict=True))


class SamplingRoller(CacheRoller):
    """A random roller whose sub-steps (``resolve``) are drawn from their exact
    distributions, cached in a :class:`SubstepCache`; plain rolls are drawn directly."""
