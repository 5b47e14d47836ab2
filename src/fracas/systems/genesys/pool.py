"""Exact pool distributions by dense convolution, and the pool as one random variable.

The distribution of a pool's result (net successes, net advantage, triumphs,
despairs) is a 4-d array of integer counts: entry ``[s, a, t, d]`` is the number
of ways the dice can fall to give that result (offset so indices start at 0).
Each die is added by a shifted add of the array per distinct face, over the box
of cells that can be non-zero so far: the work is a few dozen numpy slice
operations, never a loop over symbol objects. Counts stay exact: int64 while a
bound on the largest count proves it cannot overflow; past that, int64 limbs of
31 bits each, joined into Python integers (an object array) at the end.

>>> table = pool_table(PoolSpec(ability=2, difficulty=1))
>>> table.p_success()
Fraction(295, 512)
>>> GenesysPool(PoolSpec(ability=1)).exact().probability(PoolResult(1, 0))
Fraction(1, 4)
"""

from __future__ import annotations

import decimal
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from fracas.dice.distribution import Distribution, LazySequence
from fracas.dice.variables import Script, Variable
from fracas.errors import ScriptError
from fracas.systems.genesys.dice import (
    DIE_ORDER,
    PoolResult,
    PoolSpec,
    Symbols,
    die_faces,
)

if TYPE_CHECKING:
    import numpy as np

_INT64_MAX = 2**63 - 1
DIRECT_ROLL_FROM = 20  # pools of more dice are rolled die by die, not from their table
SMALL_POOL = 12  # a pool of at most this many dice is convolved in Python while no numpy
JOINT_LIMIT = 2_000_000  # the most results a joint distribution may have
_Vector = tuple[int, int, int, int]
# dice that do not touch the triumph/despair axes first, so the array stays small longest
_CONVOLUTION_ORDER = ("boost", "setback", "ability", "difficulty", "proficiency", "challenge")


@dataclass(frozen=True)
class PoolTable:
    """The exact distribution of a pool as a dense array of counts."""

    spec: PoolSpec
    counts: np.ndarray[Any, Any]  # [net s - s_min, net a - a_min, triumphs, despairs]
    s_min: int
    a_min: int

    @property
    def total(self) -> int:
        """The sum of the counts: the product of the dice's sides."""
        return self.spec.sides_total()

    @property
    def exact_python_ints(self) -> bool:
        """True when the counts needed Python integers (past 64 bits)."""
        return bool(self.counts.dtype == object)

    def items(self) -> Iterator[tuple[tuple[int, int, int, int], int]]:
        """((net s, net a, triumphs, despairs), count) for every possible result."""
        import numpy as np

        idx = np.nonzero(self.counts)
        weights = self.counts[idx].tolist()
        s_min, a_min = self.s_min, self.a_min
        for s, a, t, d, w in zip(*(i.tolist() for i in idx), weights, strict=True):
            yield (s + s_min, a + a_min, t, d), int(w)

    def packed(self) -> tuple[PoolResults, list[int]]:
        """Every possible result in order, each made when it is first read (from its place
        in the table), and the list of their counts divided by their greatest common
        divisor (exact Python integers; the division in numpy while they are int64)."""
        import numpy as np

        flat = np.ascontiguousarray(self.counts).ravel()
        places = np.flatnonzero(flat)
        counts = flat[places]
        if counts.dtype != object:
            counts //= np.gcd.reduce(counts)
        n_a, n_t, n_d = self.counts.shape[1:]
        return (PoolResults(places.tolist(), (n_a, n_t, n_d), self.s_min, self.a_min),
                counts.tolist())

    def as_dict(self) -> dict[tuple[int, int, int, int], int]:
        return dict(self.items())

    def _sum(self, part: np.ndarray[Any, Any]) -> int:
        return sum(int(x) for x in part.ravel().tolist())

    def p_success(self) -> Fraction:
        """P(net successes >= 1)."""
        return Fraction(self._sum(self.counts[max(0, 1 - self.s_min):]), self.total)

    def marginal(self, axis: str) -> dict[int, Fraction]:
        """One component's exact distribution: successes, advantage, triumphs or despairs."""
        names = ("successes", "advantage", "triumphs", "despairs")
        k = names.index(axis)
        offset = (self.s_min, self.a_min, 0, 0)[k]
        other = tuple(i for i in range(4) if i != k)
        counts = self.counts.astype(object).sum(axis=other) if self.counts.size else []
        return {i + offset: Fraction(int(c), self.total)
                for i, c in enumerate(list(counts)) if c}


@cache
def _kernel(name: str) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
    """A die's distinct faces as shifts in the internal layout (t, d, s, a), with counts."""
    return tuple(((v[2], v[3], v[0], v[1]), m) for v, m in die_faces()[name].kernel())


def _convolve(cur: np.ndarray[Any, Any], origin: list[int], name: str
              ) -> tuple[np.ndarray[Any, Any], list[int]]:
    """Add one die: a shifted add per distinct face into a grown array."""
    import numpy as np

    kernel = _kernel(name)
    k_lo = [min(v[i] for v, _ in kernel) for i in range(4)]
    k_hi = [max(v[i] for v, _ in kernel) for i in range(4)]
    shape = tuple(n + b - a for n, a, b in zip(cur.shape, k_lo, k_hi, strict=True))
    out = np.zeros(shape, dtype=cur.dtype)
    for vector, mult in kernel:
        dst = tuple(slice(v - a, v - a + n)
                    for v, a, n in zip(vector, k_lo, cur.shape, strict=True))
        if mult == 1:
            out[dst] += cur
        else:
            out[dst] += mult * cur
    return out, [o - a for o, a in zip(origin, k_lo, strict=True)]


@lru_cache(maxsize=512)
def pool_table(spec: PoolSpec) -> PoolTable:
    """The exact distribution of ``spec`` by dense convolution (cached per pool).

    Counts are int64 while a bound on the largest count (the previous largest times
    the die's sides) proves the next die cannot overflow. Past that they are kept as
    base-2**31 limbs, each an int64 array convolved on its own, carries propagated
    after every die; the limbs are joined into Python integers at the end.
    """
    import numpy as np

    faces = die_faces()
    cur: np.ndarray[Any, Any] = np.ones((1, 1, 1, 1), dtype=np.int64)
    limbs: list[np.ndarray[Any, Any]] | None = None
    origin = [0, 0, 0, 0]  # index of the result (t=0, d=0, s=0, a=0)
    bound = 1  # no count exceeds this
    for name in _CONVOLUTION_ORDER:
        sides = len(faces[name].faces)
        for _ in range(spec.count(name)):
            if limbs is None and bound * sides > _INT64_MAX:
                bound = int(cur.max())
                if bound * sides > _INT64_MAX:  # past 64 bits
                    limbs = _normalise([cur & _LIMB_MASK, cur >> _LIMB_BITS])
            if limbs is None:
                cur, new_origin = _convolve(cur, origin, name)
            else:
                convolved = [_convolve(limb, origin, name) for limb in limbs]
                limbs = _normalise([c for c, _ in convolved])
                new_origin = convolved[0][1]
            origin = new_origin
            bound *= sides
    if limbs is not None:
        cur = _join(limbs)
    # expose as [s, a, t, d]
    return PoolTable(spec, cur.transpose(2, 3, 0, 1), -origin[2], -origin[3])


_LIMB_BITS = 31
_LIMB_MASK = (1 << _LIMB_BITS) - 1


def _normalise(limbs: list[np.ndarray[Any, Any]]) -> list[np.ndarray[Any, Any]]:
    """Carry each limb's overflow into the next, adding a limb when the top overflows.
    (A die multiplies a limb by at most its sides, 12 < 2**32: no int64 overflow.)"""
    out = []
    carry: np.ndarray[Any, Any] | None = None
    for limb in limbs:
        if carry is not None:
            limb = limb + carry
        carry = limb >> _LIMB_BITS
        out.append(limb & _LIMB_MASK)
    while carry is not None and carry.any():
        out.append(carry & _LIMB_MASK)
        carry = carry >> _LIMB_BITS
    return out


def _join(limbs: list[np.ndarray[Any, Any]]) -> np.ndarray[Any, Any]:
    """Limbs to one array of exact Python integers."""
    total = limbs[-1].astype(object)
    for limb in reversed(limbs[:-1]):
        total = total * (1 << _LIMB_BITS) + limb.astype(object)
    return total


@cache
def _face_vectors(name: str) -> np.ndarray[Any, Any]:
    """(sides, 4) array of each face's (net s, net a, triumphs, despairs)."""
    import numpy as np

    die = die_faces()[name]
    return np.array([die.vector(face) for face in die.faces], dtype=np.int64)


def roll_directly(spec: PoolSpec, rng: np.random.Generator) -> PoolResult:
    """Roll every die of the pool (seed 004 · Steps 2 and 3: roll, then cancel)."""
    import numpy as np

    total = np.zeros(4, dtype=np.int64)
    for name in DIE_ORDER:
        n = spec.count(name)
        if n:
            faces = _face_vectors(name)
            total += faces[rng.integers(0, len(faces), size=n)].sum(axis=0)
    s, a, t, d = (int(x) for x in total)
    return PoolResult(s, a, t, d)


_EXACT = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX,
                         Emin=decimal.MIN_EMIN, traps=[decimal.Inexact, decimal.Overflow])


def _axis_counts(spec: PoolSpec, k: int) -> dict[int, int]:
    """The counts of component ``k`` of the pool's result (0 net successes, 1 net
    advantage, 2 triumphs, 3 despairs) on its own: the product over the dice of each
    die's counts polynomial, computed as one big number (Kronecker substitution).

    Each value's count sits in a slot of ``width`` decimal digits, wide enough for the
    pool's total (no count can be larger), so that exact ``**`` and ``*`` do the whole
    convolution. The numbers are exact ``Decimal`` integers (inexact results trap):
    their multiplication of huge numbers is by number-theoretic transform, several times
    faster than Python's ints at the limit; the slots are read back from the digits.
    """
    width = spec.sides_total().bit_length() * 3 // 10 + 2  # digits: room for any count
    product, low = decimal.Decimal(1), 0
    for name in DIE_ORDER:
        n = spec.count(name)
        if not n:
            continue
        kernel: dict[int, int] = {}
        die = die_faces()[name]
        for face in die.faces:
            v = die.vector(face)[k]
            kernel[v] = kernel.get(v, 0) + 1
        least = min(kernel)
        digits = "".join(str(kernel.get(v, 0)).zfill(width)
                         for v in range(max(kernel), least - 1, -1))
        product = _EXACT.multiply(product, _EXACT.power(decimal.Decimal(digits), n))
        low += least * n
    text = str(product)
    text = text.zfill(-(-len(text) // width) * width)
    out: dict[int, int] = {}
    for i, end in enumerate(range(len(text), 0, -width)):
        count = int(text[end - width:end])
        if count:
            out[low + i] = count
    return out


@lru_cache(maxsize=512)
def pool_marginals(spec: PoolSpec) -> dict[str, dict[int, Fraction]]:
    """Each component's exact distribution on its own (net successes, net advantage,
    triumphs, despairs), by 1-d convolution on big integers: fast for any pool within
    the limit, no joint needed."""
    total = spec.sides_total()
    return {axis: {v: Fraction(c, total) for v, c in sorted(_axis_counts(spec, k).items())}
            for k, axis in enumerate(("successes", "advantage", "triumphs", "despairs"))}


def joint_size(spec: PoolSpec) -> int:
    """An upper bound on the number of results of the pool's joint distribution."""
    reach = {axis: len(m) for axis, m in pool_marginals(spec).items()}
    return reach["successes"] * reach["advantage"] * reach["triumphs"] * reach["despairs"]


@lru_cache(maxsize=512)
def pool_distribution(spec: PoolSpec) -> Distribution[PoolResult]:
    """The pool's exact distribution over :class:`PoolResult` values (cached), from its
    dense table; a small pool's, while numpy is not loaded, by convolving its dice in
    plain Python (quicker than loading numpy for it; once numpy is loaded, the table is
    quicker for any pool). Both in the order of the results, packed: the distribution
    holds the counts, and each :class:`PoolResult` is made when it is first read
    (:class:`PoolResults`), so building it costs about what the table does."""
    if _in_python(spec):
        counts = _small_pool_counts(spec)
        return Distribution.packed(PoolResults.of([key for key, _ in counts]),
                                   [w for _, w in counts])
    return Distribution.packed(*pool_table(spec).packed())


def _in_python(spec: PoolSpec) -> bool:
    """Convolve ``spec`` in plain Python: a small pool, while numpy is not loaded."""
    return spec.dice() <= SMALL_POOL and "numpy" not in sys.modules


class PoolResults(LazySequence[PoolResult]):
    """A pool's results in order, each given by its place in the pool's table (its index
    in the flattened array [net successes, net advantage, triumphs, despairs]): result i
    is worked out and made when it is first read, then kept."""

    __slots__ = ("_a_min", "_made", "_places", "_s_min", "_shape")

    def __init__(self, places: list[int], shape: tuple[int, int, int], s_min: int,
                 a_min: int) -> None:
        self._places = places
        self._shape = shape  # the table's extent in advantage, triumphs, despairs
        self._s_min, self._a_min = s_min, a_min
        self._made: list[PoolResult | None] = [None] * len(places)

    @classmethod
    def of(cls, keys: list[_Vector]) -> PoolResults:
        """The results of these (net s, net a, triumphs, despairs), distinct and sorted."""
        s_min, a_min = keys[0][0], min(k[1] for k in keys)
        n_a, n_t, n_d = (max(k[i] for k in keys) - low + 1
                         for i, low in ((1, a_min), (2, 0), (3, 0)))
        places = [(((s - s_min) * n_a + a - a_min) * n_t + t) * n_d + d for s, a, t, d in keys]
        return cls(places, (n_a, n_t, n_d), s_min, a_min)

    def __len__(self) -> int:
        return len(self._made)

    def make(self, index: int) -> PoolResult:
        made = self._made[index]
        if made is None:
            n_a, n_t, n_d = self._shape
            rest, d = divmod(self._places[index], n_d)
            rest, t = divmod(rest, n_t)
            s, a = divmod(rest, n_a)
            made = self._made[index] = _result((s + self._s_min, a + self._a_min, t, d))
        return made


@lru_cache(maxsize=8192)
def _result(key: _Vector) -> PoolResult:
    """The result of these net successes, advantage, triumphs and despairs, made once:
    pools share most of their results."""
    return PoolResult(*key)


def clear_caches() -> None:
    """Forget every pool's table, distribution and results made so far (a benchmark
    times them cold)."""
    for cached in (pool_table, pool_distribution, pool_marginals, _result):
        cached.cache_clear()


def _small_pool_counts(spec: PoolSpec) -> list[tuple[_Vector, int]]:
    """(net s, net a, triumphs, despairs) with the number of ways the dice show it, for
    every result of a small pool, in order: each die's distinct faces added in turn."""
    counts: dict[_Vector, int] = {(0, 0, 0, 0): 1}
    for name in _CONVOLUTION_ORDER:
        kernel = die_faces()[name].kernel()
        for _ in range(spec.count(name)):
            added: dict[_Vector, int] = {}
            get = added.get
            for (s, a, t, d), w in counts.items():
                for (ds, da, dt, dd), m in kernel:
                    key = (s + ds, a + da, t + dt, d + dd)
                    added[key] = get(key, 0) + w * m
            counts = added
    return sorted(counts.items())


@lru_cache(maxsize=512)
def raw_reachable(spec: PoolSpec, positive: bool) -> frozenset[tuple[int, int, int]]:
    """Every (s, a, t) the positive dice (or (f, h, d) the negative dice) can show."""
    faces = die_faces()
    states: set[tuple[int, int, int]] = {(0, 0, 0)}
    letters = "sat" if positive else "fhd"
    for name in DIE_ORDER:
        die = faces[name]
        if die.positive != positive:
            continue
        shown = {tuple(face.count(c) for c in letters) for face in die.faces}
        for _ in range(spec.count(name)):
            states = {(x + u[0], y + u[1], z + u[2]) for x, y, z in states for u in shown}
    return frozenset(states)


def check_symbols(spec: PoolSpec, symbols: Symbols) -> str | None:
    """Why the pool cannot show these symbols, or None when it can."""
    if (symbols.s, symbols.a, symbols.t) not in raw_reachable(spec, True):
        return "the positive dice cannot show " + (
            Symbols(symbols.s, symbols.a, symbols.t).text())
    if (symbols.f, symbols.h, symbols.d) not in raw_reachable(spec, False):
        return "the negative dice cannot show " + (
            Symbols(f=symbols.f, h=symbols.h, d=symbols.d).text())
    return None


def symbol_ranges(spec: PoolSpec) -> str:
    """What each symbol can number in this pool, for error messages."""
    pos = raw_reachable(spec, True)
    neg = raw_reachable(spec, False)
    most, never = [], []
    for letter, states, i in (("s", pos, 0), ("a", pos, 1), ("t", pos, 2),
                              ("f", neg, 0), ("h", neg, 1), ("d", neg, 2)):
        top = max(x[i] for x in states)
        if top:
            most.append(f"{top} {letter}")
        else:
            never.append(letter)
    shown = f"up to {', '.join(most)}" if most else "blanks only"
    if never:
        shown += f"; no {', '.join(never)} in this pool"
    return (f"{SYMBOL_WORDS} (counts like 2s1a too): {shown}; Enter or '-' for all blanks")


#: The letters typed for the symbols, as the table names them (public fact · dice faces).
SYMBOL_WORDS = ("s success, a advantage, t triumph, f failure, h threat, d despair")


@dataclass(frozen=True)
class GenesysPool(Variable[PoolResult]):
    """A whole Genesys dice pool rolled at once: ``roller.roll(GenesysPool(spec))``.

    * exact: the dense-convolution distribution over :class:`PoolResult`;
    * sample: one draw from that exact distribution;
    * scripted: one pinned value, the symbols the dice showed (``"ss a t f"``,
      ``"2s1a1t1f"``, ``"-"``), checked against what the pool can show, then cancelled.
    """

    spec: PoolSpec
    name: str = ""
    typed: ClassVar[str] = "symbols"

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.name or f"pool {self.spec.notation()}"

    @cached_property
    def _dist(self) -> Distribution[PoolResult]:
        return pool_distribution(self.spec)

    def exact(self) -> Distribution[PoolResult]:
        return self._dist

    @cached_property
    def _small(self) -> bool:
        return self.spec.dice() <= DIRECT_ROLL_FROM

    def sample(self, rng: np.random.Generator) -> PoolResult:
        """One roll: a draw from the exact distribution for a small pool, else each die
        rolled (one face per die, uniformly), so a pool of any size answers at once."""
        if self._small:
            return self._dist.sample(rng)
        return roll_directly(self.spec, rng)

    def from_script(self, script: Script) -> PoolResult:
        value, position = script.take(self.label, self.stream)
        allowed = symbol_ranges(self.spec)
        if not isinstance(value, str):
            if isinstance(value, int) and not isinstance(value, bool) and value == 0:
                value = "-"
            else:
                raise ScriptError(f"{value!r} is not a set of symbols", die=self.label,
                                  position=position, allowed=allowed)
        try:
            symbols = Symbols.parse(value)
        except ValueError as err:
            raise ScriptError(f"{value!r}: {err}", die=self.label, position=position,
                              allowed=allowed) from None
        why = check_symbols(self.spec, symbols)
        if why is not None:
            raise ScriptError(f"{value!r}: {why}", die=self.label, position=position,
                              allowed=allowed)
        return symbols.cancel()
