"""Immutable finite distributions with exact integer weights.

A :class:`Distribution` maps each outcome (any hashable value) to a positive
integer weight. Probabilities come out as :class:`fractions.Fraction`; nothing is
ever rounded. Weights are kept reduced by their greatest common divisor, so two
distributions are equal exactly when they give every outcome the same
probability.

>>> d6 = Distribution.uniform(range(1, 7))
>>> two = d6 + d6
>>> two.probability(7)
Fraction(1, 6)
>>> two.mean()
Fraction(7, 1)
"""

from __future__ import annotations

import contextlib
import math
import operator
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import accumulate
from numbers import Integral
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

from fracas.errors import FracasError

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

_INT64_SAFE = 2**62
_DENSE_SPAN_LIMIT = 1_000_000


class EmptyDistributionError(FracasError, ValueError):
    """A distribution with no outcome of positive weight (e.g. conditioning on the impossible)."""


def _is_int(value: object) -> bool:
    return type(value) is int


class Distribution(Generic[T]):
    """An immutable finite distribution over hashable outcomes, with exact weights."""

    __slots__ = ("_cum", "_dict", "_hash", "_in_order", "_items", "_keys", "_total")

    _dict: dict[T, int] | None  # outcome -> weight; made on first lookup when packed
    _in_order: list[int] | None  # the weights in outcomes() order, when packed
    _total: int

    def __init__(self, weights: Mapping[T, int] | Iterable[tuple[T, int]]):
        items = weights.items() if isinstance(weights, Mapping) else weights
        merged: dict[T, int] = {}
        for outcome, weight in items:
            if type(weight) is not int and (isinstance(weight, bool)
                                            or not isinstance(weight, Integral)):
                raise TypeError(f"weight of {outcome!r} must be an integer, not {weight!r}")
            weight = int(weight)
            if weight < 0:
                raise ValueError(f"weight of {outcome!r} is negative: {weight}")
            if weight:
                merged[outcome] = merged.get(outcome, 0) + weight
        if not merged:
            raise EmptyDistributionError("a distribution needs at least one possible outcome")
        g = 0
        for w in merged.values():
            g = math.gcd(g, w)
            if g == 1:
                break
        if g > 1:
            merged = {k: w // g for k, w in merged.items()}
        self._dict = merged
        self._in_order = None
        self._total = sum(merged.values())
        self._hash: int | None = None
        self._keys: Sequence[T] | None = None
        self._items: Sequence[tuple[T, int]] | None = None
        self._cum: list[int] | None = None

    @classmethod
    def packed(cls, outcomes: Sequence[T], weights: Sequence[int]) -> Distribution[T]:
        """Distinct outcomes already in sorted order, with their weights, read lazily.

        Building it costs only the weights (checked, reduced and summed): ``outcomes``
        is kept as given and read only where an outcome is read, so a sequence that
        makes each outcome when it is first indexed (a pool's table of counts) is never
        made whole by :meth:`items`, :meth:`outcomes`, :meth:`sample` or :attr:`total`;
        the outcome-to-weight mapping is made on the first lookup (:meth:`weight`,
        ``in``, ``==``). The caller vouches that ``outcomes`` is distinct, in the order
        :meth:`outcomes` would sort it, and never changes; it equals
        ``Distribution(dict(zip(outcomes, weights)))`` in every respect.
        """
        in_order = list(weights)
        if len(in_order) != len(outcomes):
            raise ValueError(f"{len(outcomes)} outcomes but {len(in_order)} weights")
        if not in_order:
            raise EmptyDistributionError("a distribution needs at least one possible outcome")
        if set(map(type, in_order)) != {int}:
            bad = next(w for w in in_order if type(w) is not int)
            raise TypeError(f"weights must be integers, not {bad!r}")
        if min(in_order) <= 0:
            raise ValueError(f"weights must be positive, not {min(in_order)}")
        g = math.gcd(*in_order)
        if g > 1:
            in_order = [w // g for w in in_order]
        self = cls.__new__(cls)
        self._dict = None
        self._in_order = in_order
        self._total = sum(in_order)
        self._hash = None
        self._keys = outcomes
        self._items = None
        self._cum = None
        return self

    # -- construction -------------------------------------------------------------
    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Distribution[T]:
        """Each listed outcome equally likely (repeats add weight)."""
        counts: dict[T, int] = {}
        for outcome in outcomes:
            counts[outcome] = counts.get(outcome, 0) + 1
        return cls(counts)

    @classmethod
    def constant(cls, outcome: T) -> Distribution[T]:
        """The outcome that always happens."""
        return cls({outcome: 1})

    @classmethod
    def from_probabilities(cls, probabilities: Mapping[T, Fraction | int]) -> Distribution[T]:
        """Exact probabilities (any positive rationals, normalised) to integer weights."""
        fracs = {k: Fraction(p) for k, p in probabilities.items()}
        denominator = 1
        for p in fracs.values():
            denominator = denominator * p.denominator // math.gcd(denominator, p.denominator)
        return cls({k: int(p * denominator) for k, p in fracs.items()})

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Distribution[T], int | Fraction]]) -> Distribution[T]:
        """Pick a part with the given weight, then an outcome from it."""
        probs: dict[T, Fraction] = {}
        pairs = [(d, Fraction(w)) for d, w in parts if w]
        total = sum((w for _, w in pairs), Fraction(0))
        if total <= 0:
            raise EmptyDistributionError("a mixture needs a part with positive weight")
        for dist, weight in pairs:
            for outcome, p in dist.probabilities().items():
                probs[outcome] = probs.get(outcome, Fraction(0)) + p * weight / total
        return cls.from_probabilities(probs)

    # -- access ---------------------------------------------------------------------
    @property
    def _weights(self) -> dict[T, int]:
        """Outcome -> weight (made from the packed weights on first use)."""
        if self._dict is None:
            assert self._keys is not None and self._in_order is not None
            self._dict = dict(zip(self._keys, self._in_order, strict=True))
        return self._dict

    def _pairs(self) -> Iterable[tuple[T, int]]:
        """(outcome, weight) pairs in any order, without making the mapping."""
        if self._dict is None:
            assert self._keys is not None and self._in_order is not None
            return zip(self._keys, self._in_order, strict=True)
        return self._dict.items()

    @property
    def total(self) -> int:
        """The sum of the (reduced) weights: the common denominator of the probabilities."""
        return self._total

    def weight(self, outcome: T) -> int:
        return self._weights.get(outcome, 0)

    def outcomes(self) -> Sequence[T]:
        """The possible outcomes, sorted where they can be, else in insertion order."""
        if self._keys is None:
            keys = list(self._weights)
            with contextlib.suppress(TypeError):
                keys.sort()  # type: ignore[call-arg]
            self._keys = keys
        return self._keys

    def items(self) -> Sequence[tuple[T, int]]:
        """(outcome, weight) pairs in :meth:`outcomes` order (cached: do not mutate)."""
        if self._items is None:
            if self._in_order is not None:
                self._items = _Pairs(self.outcomes(), self._in_order)
            else:
                self._items = [(k, self._weights[k]) for k in self.outcomes()]
        return self._items

    def _weights_in_order(self) -> Iterable[int]:
        """The weights in :meth:`outcomes` order, without making any outcome."""
        if self._in_order is not None:
            return self._in_order
        return (w for _, w in self.items())

    def probability(self, outcome: T) -> Fraction:
        return Fraction(self._weights.get(outcome, 0), self._total)

    def probabilities(self) -> dict[T, Fraction]:
        return {k: Fraction(w, self._total) for k, w in self.items()}

    def chance(self, predicate: Callable[[T], bool]) -> Fraction:
        """The probability that ``predicate(outcome)`` holds."""
        return Fraction(sum(w for k, w in self._pairs() if predicate(k)), self._total)

    def __len__(self) -> int:
        if self._in_order is not None:
            return len(self._in_order)
        return len(self._weights)

    def __iter__(self) -> Iterator[T]:
        return iter(self.outcomes())

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._weights

    # -- transformation -------------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        """The distribution of ``f(outcome)``."""
        out: dict[U, int] = {}
        for k, w in self._pairs():
            v = f(k)
            out[v] = out.get(v, 0) + w
        return Distribution(out)

    def bind(self, f: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """Roll this, then the distribution ``f(outcome)``: a mixture keyed by outcome."""
        return Distribution.mixture((f(k), w) for k, w in self._pairs())

    def condition(self, predicate: Callable[[T], bool]) -> Distribution[T]:
        """The distribution given that ``predicate`` holds."""
        kept = {k: w for k, w in self._pairs() if predicate(k)}
        if not kept:
            raise EmptyDistributionError("conditioning on an event of probability 0")
        return Distribution(kept)

    def joint(self, other: Distribution[U]) -> Distribution[tuple[T, U]]:
        """Independent pair ``(a, b)``."""
        return Distribution(
            ((a, b), wa * wb) for a, wa in self._pairs() for b, wb in other._pairs()
        )

    def convolve(
        self, other: Distribution[U], op: Callable[[T, U], Any] = operator.add
    ) -> Distribution[Any]:
        """The distribution of ``op(a, b)`` for independent a from self and b from other."""
        if op is operator.add:
            dense = _dense_add(self, other)
            if dense is not None:
                return dense
        out: dict[Any, int] = {}
        for a, wa in self._pairs():
            for b, wb in other._pairs():
                v = op(a, b)
                out[v] = out.get(v, 0) + wa * wb
        return Distribution(out)

    def repeat(self, n: int, op: Callable[[Any, Any], Any] = operator.add) -> Distribution[Any]:
        """``op`` over n independent copies (n >= 1), by repeated squaring."""
        if n < 1:
            raise ValueError("repeat needs n >= 1")
        result: Distribution[Any] | None = None
        base: Distribution[Any] = self
        while n:
            if n & 1:
                result = base if result is None else result.convolve(base, op)
            n >>= 1
            if n:
                base = base.convolve(base, op)
        assert result is not None
        return result

    def __add__(self, other: Distribution[Any] | int) -> Distribution[Any]:
        if isinstance(other, int):
            return self.map(lambda x: cast(Any, x) + other)
        return self.convolve(other, operator.add)

    def __radd__(self, other: int) -> Distribution[Any]:
        return self.__add__(other)

    def __sub__(self, other: Distribution[Any] | int) -> Distribution[Any]:
        if isinstance(other, int):
            return self.map(lambda x: cast(Any, x) - other)
        return self.convolve(-other, operator.add)

    def __neg__(self) -> Distribution[Any]:
        return self.map(lambda x: -cast(Any, x))

    def __mul__(self, k: int) -> Distribution[Any]:
        return self.map(lambda x: cast(Any, x) * k)

    # -- statistics -----------------------------------------------------------------
    def mean(self) -> Fraction:
        return Fraction(sum(cast(Any, k) * w for k, w in self._pairs()), self._total)

    def variance(self) -> Fraction:
        mu = self.mean()
        return Fraction(
            sum(w * (cast(Any, k) - mu) ** 2 for k, w in self._pairs()), self._total
        )

    def cdf(self, x: Any) -> Fraction:
        """P(outcome <= x)."""
        return Fraction(sum(w for k, w in self._pairs() if cast(Any, k) <= x), self._total)

    def sf(self, x: Any) -> Fraction:
        """P(outcome >= x): the chance to reach at least x."""
        return Fraction(sum(w for k, w in self._pairs() if cast(Any, k) >= x), self._total)

    def quantile(self, q: Fraction | float) -> T:
        """The smallest outcome whose cdf is at least q (0 < q <= 1)."""
        q = Fraction(q)
        if not 0 < q <= 1:
            raise ValueError("quantile needs 0 < q <= 1")
        target = q * self._total
        running = 0
        for k, w in self.items():
            running += w
            if running >= target:
                return k
        return self.outcomes()[-1]

    def min(self) -> T:
        return self.outcomes()[0]

    def max(self) -> T:
        return self.outcomes()[-1]

    # -- sampling -------------------------------------------------------------------
    def sample(self, rng: np.random.Generator) -> T:
        """One outcome drawn with exact weights from ``rng`` (one integer draw)."""
        keys = self.outcomes()
        if self._cum is None:
            self._cum = list(accumulate(self._weights_in_order()))
        if self._total <= _INT64_SAFE:
            r = int(rng.integers(self._total))
        else:  # draw a big integer uniformly from 64-bit chunks, by rejection
            bits = self._total.bit_length()
            while True:
                r = 0
                for _ in range((bits + 63) // 64):
                    r = (r << 64) | int(rng.integers(0, 2**63)) << 1 | int(rng.integers(2))
                r &= (1 << bits) - 1
                if r < self._total:
                    break
        return keys[bisect_right(self._cum, r)]

    # -- identity -------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self._total == other._total and self._weights == other._weights

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._total, frozenset(self._pairs())))
        return self._hash

    def __repr__(self) -> str:
        shown = ", ".join(f"{k!r}: {w}" for k, w in self.items()[:12])
        more = ", ..." if len(self) > 12 else ""
        return f"Distribution({{{shown}{more}}})"


class LazySequence(Sequence[T]):
    """A read-only sequence whose items are worked out when they are read: a subclass
    gives ``__len__`` and :meth:`make`; slices and iteration read through it."""

    __slots__ = ()

    def make(self, index: int) -> T:
        """Item ``index``, negative from the end, IndexError out of range (as a list's)."""
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self.make(i) for i in range(*index.indices(len(self)))]
        return self.make(index)

    def __iter__(self) -> Iterator[T]:
        return map(self.make, range(len(self)))

    def __eq__(self, other: object) -> bool:
        """Equal to a list (or another lazy sequence) of the same items, as a list is."""
        if not isinstance(other, list | LazySequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]


class _Pairs(LazySequence[tuple[T, int]]):
    """(outcome, weight) pairs of a packed distribution, each outcome read only when its
    pair is (the exact roller's branches read them one by one)."""

    __slots__ = ("_keys", "_weights")

    def __init__(self, keys: Sequence[T], weights: list[int]) -> None:
        self._keys = keys
        self._weights = weights

    def __len__(self) -> int:
        return len(self._weights)

    def make(self, index: int) -> tuple[T, int]:
        return self._keys[index], self._weights[index]


def _dense_add(a: Distribution[Any], b: Distribution[Any]) -> Distribution[Any] | None:
    """Sum of two integer distributions by dense convolution (numpy when it cannot overflow)."""
    ka, kb = a.outcomes(), b.outcomes()
    if not (all(_is_int(k) for k in ka) and all(_is_int(k) for k in kb)):
        return None
    lo_a, hi_a, lo_b, hi_b = ka[0], ka[-1], kb[0], kb[-1]
    span = (hi_a - lo_a) + (hi_b - lo_b) + 1
    if span > _DENSE_SPAN_LIMIT or len(ka) * len(kb) < 64:
        return None
    if a.total * b.total < _INT64_SAFE:
        import numpy as np

        va = np.zeros(hi_a - lo_a + 1, dtype=np.int64)
        vb = np.zeros(hi_b - lo_b + 1, dtype=np.int64)
        for k, w in a.items():
            va[k - lo_a] = w
        for k, w in b.items():
            vb[k - lo_b] = w
        out = np.convolve(va, vb)
        base = lo_a + lo_b
        return Distribution({base + i: int(w) for i, w in enumerate(out.tolist()) if w})
    return None
