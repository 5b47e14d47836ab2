"""Random variables that a rule asks a roller for: dice, sums, keep-highest, custom faces.

A :class:`Variable` knows three things, one per roller:

* ``exact()`` - its :class:`Distribution` (computed once, cached), for the exact roller;
* ``sample(rng)`` - one value, for the random roller;
* ``from_script(script)`` - the value that pinned dice give, for the scripted roller,
  taking as many pinned values as it has physical dice and checking each one.

Rules roll *aggregate* variables (a whole 2d6, a d20 with two boons) so that the
exact roller branches once per distinct result, not once per die.

>>> nd(3, 20).exact().max()
60
>>> keep(3, 20, 1).exact().probability(20)
Fraction(1141, 8000)
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from fracas.dice.distribution import Distribution
from fracas.errors import ScriptError

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


class Script(Protocol):
    """Where the scripted roller's values come from."""

    def take(self, die: str, stream: str = "dice") -> tuple[object, int]:
        """The next pinned value for ``die`` and its 1-based position in its stream."""
        ...


class Variable(ABC, Generic[T]):
    """Something a roller can roll: exact, sampled or scripted."""

    label: str
    stream: str = "dice"
    typed: ClassVar[str] = "values"  # how a table writes what it shows: values or symbols

    @abstractmethod
    def exact(self) -> Distribution[T]:
        """The exact distribution (cached by implementations)."""

    def sample(self, rng: np.random.Generator) -> T:
        """One value drawn from ``rng``; by default one weighted draw from :meth:`exact`."""
        return self.exact().sample(rng)

    def from_script(self, script: Script) -> T:
        """The value pinned dice give; by default one pinned value, checked against the support."""
        value, position = script.take(self.label, self.stream)
        checked: T = check_value(self.label, self.exact(), value, position)
        return checked


def check_value(label: str, dist: Distribution[Any], value: object, position: int) -> Any:
    """A pinned value, checked to be one the die can show (ints may be given as text;
    ``00`` on a d100 is 100, as percentile dice show it, and is refused on any other die)."""
    candidate = value
    if isinstance(value, str) and value.strip() == "00" and _is_d100(dist):
        return 100
    if isinstance(value, str):
        digits = value.strip().removeprefix("-")  # one sign at most: "--5" is no number
        if digits.isascii() and digits.isdigit() and len(digits) <= 30:  # never int() of 5000
            candidate = int(value)
    if candidate in dist and not isinstance(candidate, bool):
        return candidate
    shown = dist.outcomes()
    allowed = (
        f"{shown[0]} to {shown[-1]}"
        if all(type(x) is int for x in shown) and len(shown) == shown[-1] - shown[0] + 1
        else ", ".join(map(str, shown[:20])) + (" ..." if len(shown) > 20 else "")
    ) + (" (00 is 100)" if _is_d100(dist) else "")
    said = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise ScriptError(f"{said} is not a value {label} can show", die=label,
                      position=position, allowed=allowed)


def _is_d100(dist: Distribution[Any]) -> bool:
    """Does ``dist`` show exactly the faces of a d100, 1 to 100?"""
    return 100 in dist and 0 not in dist and list(dist.outcomes()) == list(range(1, 101))


@dataclass(frozen=True, eq=True)
class Fixed(Variable[T]):
    """A variable with a given exact distribution, pinned by one value of its support."""

    dist: Distribution[T]
    label: str = "value"
    stream: str = "dice"

    def exact(self) -> Distribution[T]:
        return self.dist


@dataclass(frozen=True)
class Die(Variable[int]):
    """A die numbered 1..sides (a d100 shows 1 to 100)."""

    sides: int

    def __post_init__(self) -> None:
        if self.sides < 1:
            raise ValueError(f"a die needs at least one side, not {self.sides}")

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"d{self.sides}"

    def exact(self) -> Distribution[int]:
        return _uniform_die(self.sides)


@cache
def _uniform_die(sides: int) -> Distribution[int]:
    return Distribution.uniform(range(1, sides + 1))


@dataclass(frozen=True)
class Faces(Variable[T]):
    """A die with custom faces (symbols, words, numbers); equal faces add weight."""

    name: str
    faces: tuple[T, ...]

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.name

    @cached_property
    def _dist(self) -> Distribution[T]:
        return Distribution.uniform(self.faces)

    def exact(self) -> Distribution[T]:
        return self._dist


@dataclass(frozen=True)
class Sum(Variable[int]):
    """The sum of independent numeric parts plus a constant: ``2d6+3``, ``d8+d6-1``."""

    parts: tuple[tuple[int, Variable[int]], ...]  # (sign, part)
    constant: int = 0
    name: str | None = None

    @property
    def label(self) -> str:  # type: ignore[override]
        if self.name:
            return self.name
        text = ""
        for sign, part in self.parts:
            text += ("-" if sign < 0 else "+" if text else "") + part.label
        if self.constant:
            text += f"{self.constant:+d}"
        return text or str(self.constant)

    @cached_property
    def _dist(self) -> Distribution[int]:
        dist: Distribution[int] = Distribution.constant(self.constant)
        for sign, part in self.parts:
            d = part.exact()
            dist = dist + (d if sign > 0 else -d)
        return dist

    def exact(self) -> Distribution[int]:
        return self._dist

    def from_script(self, script: Script) -> int:
        total = self.constant
        for sign, part in self.parts:
            total += sign * part.from_script(script)
        return total


@dataclass(frozen=True)
class Pool(Variable[int]):
    """n identical dice summed (``3d6``); scripted one die at a time."""

    count: int
    die: Variable[int]

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"{self.count}{self.die.label}"

    @cached_property
    def _dist(self) -> Distribution[int]:
        return self.die.exact().repeat(self.count, operator.add)

    def exact(self) -> Distribution[int]:
        return self._dist

    def from_script(self, script: Script) -> int:
        return sum(self.die.from_script(script) for _ in range(self.count))


@dataclass(frozen=True)
class Keep(Variable[int]):
    """Roll ``count`` dice of ``sides`` and sum the ``keep`` highest (or lowest).

    Boons and banes are this with keep=1: ``3d20kh1`` is a d20 with two boons.
    """

    count: int
    sides: int
    keep: int
    highest: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.keep <= self.count:
            raise ValueError(f"can keep 1 to {self.count} dice, not {self.keep}")

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"{self.count}d{self.sides}{'kh' if self.highest else 'kl'}{self.keep}"

    def exact(self) -> Distribution[int]:
        return _keep_dist(self.count, self.sides, self.keep, self.highest)

    def from_script(self, script: Script) -> int:
        die = Die(self.sides)
        values = sorted((die.from_script(script) for _ in range(self.count)),
                        reverse=self.highest)
        return sum(values[: self.keep])

    def kept_naturals(self) -> Distribution[tuple[int, ...]]:
        """The kept dice themselves (sorted), for rules that read naturals (a natural 20)."""
        return _keep_tuples(self.count, self.sides, self.keep, self.highest)


@cache
def _keep_tuples(count: int, sides: int, keep: int, highest: bool) -> Distribution[tuple[int, ...]]:
    """Distribution of the kept dice, by adding one die at a time and keeping a sorted tuple."""
    states: dict[tuple[int, ...], int] = {(): 1}
    for _ in range(count):
        nxt: dict[tuple[int, ...], int] = {}
        for state, w in states.items():
            for v in range(1, sides + 1):
                new = tuple(sorted((*state, v), reverse=highest)[:keep])
                nxt[new] = nxt.get(new, 0) + w
        states = nxt
    return Distribution(states)


@cache
def _keep_dist(count: int, sides: int, keep: int, highest: bool) -> Distribution[int]:
    return _keep_tuples(count, sides, keep, highest).map(sum)


@dataclass(frozen=True)
class Mapped(Variable[U], Generic[T, U]):
    """A variable seen through a function: ``Mapped(two_d6, lambda t: t <= 7, 'hit?')``."""

    source: Variable[T]
    f: Callable[[T], U] = field(compare=False)
    name: str = ""

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.name or self.source.label

    @property
    def stream(self) -> str:  # type: ignore[override]
        return self.source.stream

    @cached_property
    def _dist(self) -> Distribution[U]:
        return self.source.exact().map(self.f)

    def exact(self) -> Distribution[U]:
        return self._dist

    def sample(self, rng: np.random.Generator) -> U:
        return self.f(self.source.sample(rng))

    def from_script(self, script: Script) -> U:
        return self.f(self.source.from_script(script))


@dataclass(frozen=True)
class Group(Variable[tuple[Any, ...]]):
    """Several independent variables rolled together as one aggregate (a tuple of results)."""

    parts: tuple[Variable[Any], ...]
    name: str = ""

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.name or " & ".join(p.label for p in self.parts)

    @cached_property
    def _dist(self) -> Distribution[tuple[Any, ...]]:
        dist: Distribution[tuple[Any, ...]] = Distribution.constant(())
        for part in self.parts:
            dist = dist.convolve(part.exact(), lambda acc, v: (*acc, v))
        return dist

    def exact(self) -> Distribution[tuple[Any, ...]]:
        return self._dist

    def from_script(self, script: Script) -> tuple[Any, ...]:
        return tuple(p.from_script(script) for p in self.parts)


@cache
def d(sides: int) -> Die:
    """The die dN (cached)."""
    return Die(sides)


@cache
def nd(count: int, sides: int) -> Variable[int]:
    """NdM, the sum of N dice of M sides (cached)."""
    return d(sides) if count == 1 else Pool(count, d(sides))


@cache
def keep(count: int, sides: int, kept: int, highest: bool = True) -> Keep:
    """NdMkhK / NdMklK (cached)."""
    return Keep(count, sides, kept, highest)


def boons_banes(net: int, sides: int = 20) -> Keep:
    """A check die with ``net`` boons (> 0) or banes (< 0): extra dice, keep best or worst."""
    return keep(1 + abs(net), sides, 1, highest=net >= 0)


D100 = d(100)
TWO_D6 = nd(2, 6)


def dice_values(values: Sequence[object]) -> list[object]:
    """Pinned dice given as a list or a comma string, normalised to a list."""
    if isinstance(values, str):
        return [v.strip() for v in values.split(",") if v.strip()]
    return list(values)


@dataclass(frozen=True)
class RollOff(Variable[tuple[str, ...]]):
    """A roll-off among tied names: each rolls ``die``, highest first, again while tied.

    Rolling again until nobody is tied is the same as a uniformly random order of the
    names, which is the exact distribution (finite, so the exact roller can enumerate
    it, where a "roll again while tied" loop would never end). Scripted, it reads one
    die per still-tied name, round after round, as a table would.
    """

    names: tuple[str, ...]
    die: Variable[int] = field(default_factory=lambda: d(6))
    name: str = "roll-off"

    @property
    def label(self) -> str:  # type: ignore[override]
        """The dice as a table says them (``d20 each``): what the roll-off is for is said
        by whoever asks for it."""
        return f"{self.die.label} each"

    @cached_property
    def _dist(self) -> Distribution[tuple[str, ...]]:
        import itertools

        return Distribution.uniform(itertools.permutations(self.names))

    def exact(self) -> Distribution[tuple[str, ...]]:
        return self._dist

    def sample(self, rng: np.random.Generator) -> tuple[str, ...]:
        order = rng.permutation(len(self.names))
        return tuple(self.names[i] for i in order)

    def from_script(self, script: Script) -> tuple[str, ...]:
        keys: dict[str, tuple[int, ...]] = dict.fromkeys(self.names, ())
        while True:
            groups: dict[tuple[int, ...], list[str]] = {}
            for n in self.names:
                groups.setdefault(keys[n], []).append(n)
            tied = [g for g in groups.values() if len(g) > 1]
            if not tied:
                return tuple(sorted(self.names, key=lambda n: keys[n], reverse=True))
            for group in tied:
                for n in group:
                    keys[n] = (*keys[n], self.die.from_script(script))
