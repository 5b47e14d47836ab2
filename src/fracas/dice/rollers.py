"""The three rollers: random, scripted and exact, behind one protocol.

Rule code is written once against :class:`Roller`:

* ``roller.roll(variable)`` - a value of a random variable;
* ``roller.resolve(fn, *args)`` - the result of a sub-step ``fn(roller, *args)``.
  The random and scripted rollers just call it; the exact roller computes the
  exact distribution of the sub-step once per distinct ``args`` (memoised) and
  branches over its results, so a rule written as a chain of steps over
  hashable state gets exact odds without enumerating every die.

>>> from fracas.dice.variables import nd
>>> def attack(roller, target):
...     return "hit" if roller.roll(nd(2, 6)) <= target else "miss"
>>> ExactRoller().distribution(attack, 7).probability("hit")
Fraction(7, 12)
>>> ScriptedRoller([3, 5]).run(attack, 7)
'miss'
>>> RandomRoller(1).resolve(attack, 12)
'hit'
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from fracas.dice.distribution import Distribution
from fracas.dice.variables import RollOff, Variable
from fracas.errors import FracasError, ScriptError
from fracas.memo_marks import Mark, added_since, mark

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T", bound=Hashable)
R = TypeVar("R")
RH = TypeVar("RH", bound=Hashable)


@runtime_checkable
class Roller(Protocol):
    """What rule code asks for random values."""

    def roll(self, var: Variable[T]) -> T:
        """A value of ``var``."""
        ...

    def resolve(self, fn: Callable[..., R], *args: Any) -> R:
        """The result of the sub-step ``fn(self, *args)``."""
        ...


class RandomRoller:
    """Seeded random values: the same seed gives the same values on every run and machine.

    Uses numpy's PCG64 bit generator, whose stream is fixed by the seed alone.
    """

    kind = "random"

    def __init__(self, seed: int | None = None, rng: np.random.Generator | None = None):
        self.seed = seed
        if rng is None:
            import numpy as np

            rng = np.random.Generator(np.random.PCG64(seed))
        self.rng = rng

    def roll(self, var: Variable[T]) -> T:
        return var.sample(self.rng)

    def resolve(self, fn: Callable[..., R], *args: Any) -> R:
        return fn(self, *args)


class ScriptedRoller:
    """Values given in order (the dice rolled at a real table, a test's dice, a replay).

    ``values`` is a list (the ``dice`` stream) or a mapping of stream name to list
    (e.g. one stream of cards per deck owner). A value the die cannot show, running
    out of values, or values left over (see :meth:`finish`) is a :class:`ScriptError`
    naming the die and the position. With a ``fallback`` roller, running out of
    values rolls on instead of failing.
    """

    kind = "scripted"

    def __init__(
        self,
        values: Sequence[object] | Mapping[str, Sequence[object]],
        fallback: Roller | None = None,
    ):
        streams = values if isinstance(values, Mapping) else {"dice": values}
        self._streams: dict[str, list[object]] = {k: list(v) for k, v in streams.items()}
        self._used: dict[str, int] = dict.fromkeys(self._streams, 0)
        self.fallback = fallback

    def take(self, die: str, stream: str = "dice") -> tuple[object, int]:
        values = self._streams.get(stream, [])
        used = self._used.get(stream, 0)
        if used >= len(values):
            raise ScriptError(
                f"no value left to roll (the {stream} given had {len(values)})",
                die=die, position=used + 1,
                allowed=f"pin {used + 1} or more values for {stream}",
            )
        self._used[stream] = used + 1
        return values[used], used + 1

    def roll(self, var: Variable[T]) -> T:
        if self.fallback is not None and self._used.get(var.stream, 0) >= len(
            self._streams.get(var.stream, [])
        ):
            return self.fallback.roll(var)
        return var.from_script(self)

    def resolve(self, fn: Callable[..., R], *args: Any) -> R:
        return fn(self, *args)

    def streams(self) -> dict[str, list[object]]:
        """Every value given, per stream (used or not)."""
        return {k: list(v) for k, v in self._streams.items()}

    def leftover(self) -> dict[str, list[object]]:
        """Values not used, per stream."""
        return {k: v[self._used[k]:] for k, v in self._streams.items() if self._used[k] < len(v)}

    def finish(self) -> None:
        """Raise if pinned values were left over: the script did not fit the resolution."""
        for stream, rest in self.leftover().items():
            position = self._used[stream] + 1
            used = self._used[stream]
            raise ScriptError(
                f"{len(rest)} {_values(len(rest))} left over ({', '.join(map(str, rest))}): "
                "the resolution needed fewer",
                die=stream, position=position,
                allowed=f"exactly {used} {_values(used)} for {stream}",
            )

    def run(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(self, *args)``, then check that every pinned value was used."""
        result = fn(self, *args)
        self.finish()
        return result


class EnumerationTooLarge(FracasError):
    """Exact enumeration would take more runs than its budget allows."""


class ExactRoller:
    """Every outcome with its exact probability.

    :meth:`distribution` runs ``fn(roller, *args)`` once per distinct path of
    outcomes (re-running from the start with the path fixed, depth first) and
    collects its results with exact probabilities. Each ``roll`` branches once per
    distinct outcome of the variable; each ``resolve`` branches once per distinct
    result of the sub-step, whose distribution is computed once per ``args`` and
    memoised. ``fn`` must be pure: all state goes in through its arguments.

    With ``summaries_only`` the caller reads no more of each resolution than its
    ``summary()`` (the odds of one attack): rule code may then leave out what the
    summary does not show, so that results equal in it merge early (see
    :func:`summaries_only`).
    """

    kind = "exact"

    def __init__(self, max_runs: int | None = None, deadline: float | None = None,
                 summaries_only: bool = False) -> None:
        self.summaries_only = summaries_only
        self._memo: dict[tuple[Any, ...], Distribution[Any]] = {}
        self.runs = 0
        self.max_runs = max_runs  # a budget on runs in all; None: no limit
        self.memo_outcomes = 0  # outcomes held by the memoised distributions (memory)
        self.deadline = deadline  # a time.monotonic() past which enumeration stops

    def distribution(self, fn: Callable[..., RH], *args: Any) -> Distribution[RH]:
        key: tuple[Any, ...] = (fn, args)
        try:
            cached = self._memo.get(key)
        except TypeError:  # unhashable arguments: no memo
            cached, key = None, ()
        if cached is not None:
            return cached
        results: dict[RH, list[tuple[int, int]]] = {}
        stack: list[tuple[int, ...]] = [()]
        while stack:
            path = stack.pop()
            branch = _Branch(self, path, stack)
            result = fn(branch, *args)
            self.runs += 1
            if self.max_runs is not None and self.runs > self.max_runs:
                raise EnumerationTooLarge(
                    f"exact enumeration passed its budget of {self.max_runs:,} runs")
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise EnumerationTooLarge("exact enumeration passed its time budget")
            results.setdefault(result, []).append((branch.numerator, branch.denominator))
        dist = _from_paths(results)
        if key:
            self._memo[key] = dist
            self.memo_outcomes += len(dist)
        return dist

    def known_memo(self, since: Mark | None = None
                   ) -> list[tuple[tuple[Any, ...], Distribution[Any]]]:
        """The memoised sub-step distributions (those added since ``since``, a
        :meth:`memo_mark`), as picklable data for a worker process (:meth:`learn_memo`):
        exact and keyed by the sub-step and its arguments."""
        return added_since(self._memo, since)

    def memo_mark(self) -> Mark:
        """Where the memo stands now (:meth:`known_memo` gives what it gains after)."""
        return mark(self._memo)

    def learn_memo(self, items: list[tuple[tuple[Any, ...], Distribution[Any]]]) -> None:
        """Take in another roller's memo (:meth:`known_memo`): the distributions are the
        ones this roller would work out."""
        for key, dist in items:
            if key not in self._memo:
                self._memo[key] = dist
                self.memo_outcomes += len(dist)

    def trim_memo(self, limit: int) -> None:
        """Forget the memoised distributions once more than ``limit`` are held (a roller
        shared by many enumerations keeps its memory bounded)."""
        if len(self._memo) > limit:
            self._memo.clear()

    # An ExactRoller can also stand where a roller is expected at the top level:
    def roll(self, var: Variable[T]) -> T:
        raise TypeError("use ExactRoller.distribution(fn, ...) to enumerate a resolution")

    def resolve(self, fn: Callable[..., R], *args: Any) -> R:
        raise TypeError("use ExactRoller.distribution(fn, ...) to enumerate a resolution")


class _Branch:
    """One path through the outcomes, as seen by rule code during exact enumeration."""

    kind = "exact"

    def __init__(self, owner: ExactRoller, path: tuple[int, ...], stack: list[tuple[int, ...]]):
        self._owner = owner
        self._path = path
        self._stack = stack
        self._taken: list[int] = []
        self.numerator = 1
        self.denominator = 1

    @property
    def probability(self) -> Fraction:
        return Fraction(self.numerator, self.denominator)

    @property
    def summaries_only(self) -> bool:
        return self._owner.summaries_only

    def _choose(self, dist: Distribution[Any]) -> Any:
        items = dist.items()
        depth = len(self._taken)
        if depth < len(self._path):
            index = self._path[depth]
        else:
            index = 0
            prefix = tuple(self._taken)
            for alternative in range(len(items) - 1, 0, -1):
                self._stack.append((*prefix, alternative))
        self._taken.append(index)
        outcome, weight = items[index]
        self.numerator *= weight
        self.denominator *= dist.total
        return outcome

    def roll(self, var: Variable[T]) -> T:
        return self._choose(var.exact())  # type: ignore[no-any-return]

    def resolve(self, fn: Callable[..., R], *args: Any) -> R:
        return self._choose(self._owner.distribution(fn, *args))  # type: ignore[no-any-return]


def _from_paths(results: Mapping[RH, list[tuple[int, int]]]) -> Distribution[RH]:
    """Integer weights from each result's paths (numerator, denominator), over their LCM."""
    lcm = 1
    for paths in results.values():
        for _, den in paths:
            lcm = math.lcm(lcm, den)
    return Distribution({r: sum(num * (lcm // den) for num, den in paths)
                         for r, paths in results.items()})


def summaries_only(roller: Roller) -> bool:
    """True when ``roller`` enumerates for a caller that reads each resolution's
    ``summary()`` only (an :class:`ExactRoller` made with ``summaries_only``)."""
    return bool(getattr(roller, "summaries_only", False))


def narrated(roller: Roller) -> bool:
    """False when nobody reads what ``roller``'s rules say, only what they change (the
    simulation's lean loop keeps :class:`~fracas.core.events.Changed` and outcome events
    alone): rules may then skip building narration. A roller says so with
    ``narrates = False``; every other roller narrates."""
    return bool(getattr(roller, "narrates", True))


@dataclass(frozen=True)
class Part:
    """How one owner's part of a roll of several people's dice is asked (see
    :func:`announce`): whose (``{actor}``, ``{target}``, an id or a name), what for, what
    the roller adds to the die (``+ 5 (sword 4, strength 1)``) and what it needs; a need
    that rests on the parts rolled before it (a defence against the attack just rolled)
    is a function of their values, in order."""

    who: str
    what: str
    bonus: str = ""
    needs: str | Callable[[tuple[Any, ...]], str] = ""

    def needs_after(self, earlier: tuple[Any, ...]) -> str:
        """What this part needs, the parts before it having shown ``earlier``."""
        return self.needs(earlier) if callable(self.needs) else self.needs


def announce(roller: Roller, who: str, what: str, needs: str = "",
             owners: tuple[tuple[str, str] | Part, ...] = (), bonus: str = "") -> None:
    """Say what the next roll is for, as a table asks for it: whose roll (a combatant
    id or name, or ``gm`` for a roll of the table's), what for (``defence``, ``critical
    die``; ``{actor}`` and ``{target}`` stand for the names of the acting combatant and
    its target), what it needs (``6 or less``) and what the roller adds to the die
    (``bonus``: ``+ 5 (sword 4, strength 1)``). ``owners``: for a roll of several
    people's dice at once (see :mod:`fracas.dice.joint`), whose each part is and what
    for (``("{actor}", "attack")``, or a :class:`Part` with its bonus and needs), so that
    each owner is asked for their own part. Only a roller that asks people for dice
    listens (a live session's); the others do not have the hook, and the call costs
    nothing."""
    hook = getattr(roller, "announce", None)
    if hook is not None:
        parts = tuple(o if isinstance(o, Part) else Part(*o) for o in owners)
        if parts or bonus:
            hook(who, what, needs, parts, bonus)
        else:
            hook(who, what, needs)


def roll_off(roller: Roller, ids: Sequence[str], names: Sequence[str], die: Variable[int],
             label: str, told: Sequence[Any] = ()) -> list[str]:
    """The order a roll-off puts tied ``ids`` in (highest first, again while tied), asked
    as a table says it: ``initiative roll-off between Rosa and Grub the Brute: d20 each``
    (``label``: what the system's pack calls the roll-off; ``names``: the tied ones'
    names). A live table asks a player in the tie for that player's own die (see
    :class:`~fracas.encounter.live.LiveRoller`); ``told``: the events that tied them,
    told first."""
    tell(roller, told)
    said = [n.replace("{", "{{").replace("}", "}}") for n in names]
    between = " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)
    announce(roller, "gm", f"{label} between {between}")
    return list(roller.roll(RollOff(tuple(ids), die, label)))


def listens(roller: Roller) -> bool:
    """Does ``roller`` ask people for dice (a live session's), so that what the rules
    announce and tell is heard? Rules may then say more than a roll needs."""
    return getattr(roller, "announce", None) is not None


def tell(roller: Roller, events: Sequence[Any]) -> None:
    """Tell the table what the rules have found out so far, before they go on to ask for
    more dice (each roll of a contest as it is made): the first events of the resolution
    under way, in the order it will give them. Only a live session's roller listens; the
    resolution's events replace what was told of it when it ends."""
    hook = getattr(roller, "tell", None)
    if hook is not None and events:
        hook(tuple(events))


def exact(fn: Callable[..., RH], *args: Any) -> Distribution[RH]:
    """The exact distribution of ``fn(roller, *args)`` with a fresh :class:`ExactRoller`."""
    return ExactRoller().distribution(fn, *args)


def _values(n: int) -> str:
    """``value`` or ``values``, as ``n`` needs (dice sit below the words of ``core``)."""
    return "value" if n == 1 else "values"
