"""Distribution: exact weights, the operations of the dice layer, against brute force."""

from __future__ import annotations

import itertools
import pickle
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.dice import Distribution, EmptyDistributionError
from fracas.dice.distribution import LazySequence


def brute(*ranges: range) -> Distribution[int]:
    return Distribution(Counter(sum(c) for c in itertools.product(*ranges)))


D6 = Distribution.uniform(range(1, 7))


def test_two_d6_matches_brute_force() -> None:
    assert brute(range(1, 7), range(1, 7)) == D6 + D6
    assert (D6 + D6).probability(7) == Fraction(1, 6)


def test_weights_are_reduced_so_equal_distributions_are_equal() -> None:
    a = Distribution({1: 2, 2: 2})
    b = Distribution({2: 7, 1: 7})
    assert a == b and hash(a) == hash(b)
    assert a.total == 2


def test_probabilities_are_exact_fractions_summing_to_one() -> None:
    three = D6.repeat(3)
    assert sum(three.probabilities().values()) == 1
    assert three.probability(10) == Fraction(27, 216)


def test_dense_numpy_convolution_matches_dict_convolution() -> None:
    big = Distribution.uniform(range(1, 101))
    dense = big + big  # 10_000 pairs: numpy path
    slow: dict[int, int] = {}
    for a in range(1, 101):
        for b in range(1, 101):
            slow[a + b] = slow.get(a + b, 0) + 1
    assert dense == Distribution(slow)


def test_huge_weights_stay_exact_past_64_bits() -> None:
    d100 = Distribution.uniform(range(1, 101))
    many = d100.repeat(12)  # total 100**12 > 2**63
    assert many.total == 100**12
    assert many.probability(12) == Fraction(1, 100**12)
    assert many.mean() == Fraction(1212, 2)


def test_map_joint_condition_mixture() -> None:
    parity = D6.map(lambda x: x % 2)
    assert parity == Distribution({0: 1, 1: 1})
    pair = D6.joint(D6)
    assert len(pair) == 36 and pair.probability((1, 6)) == Fraction(1, 36)
    high = D6.condition(lambda x: x >= 5)
    assert high == Distribution.uniform([5, 6])
    mix = Distribution.mixture([(Distribution.constant(0), 1), (D6, 3)])
    assert mix.probability(0) == Fraction(1, 4)
    assert mix.probability(6) == Fraction(3, 4) * Fraction(1, 6)


def test_bind_is_a_dependent_roll() -> None:
    # roll a d6, then that many d6... restricted to 1-2 for brute force
    d2 = Distribution.uniform([1, 2])
    dep = d2.bind(lambda n: D6.repeat(n))
    expected: dict[int, Fraction] = {}
    for n in (1, 2):
        for combo in itertools.product(range(1, 7), repeat=n):
            expected[sum(combo)] = expected.get(sum(combo), Fraction(0)) + Fraction(1, 2) / 6**n
    assert dep == Distribution.from_probabilities(expected)


def test_statistics() -> None:
    assert D6.mean() == Fraction(7, 2)
    assert D6.variance() == Fraction(35, 12)
    assert D6.cdf(2) == Fraction(1, 3)
    assert D6.sf(5) == Fraction(1, 3)
    assert D6.quantile(Fraction(1, 2)) == 3
    assert D6.quantile(1) == 6
    assert (D6 - 1).min() == 0 and (-D6).max() == -1 and (D6 * 2).max() == 12


def test_impossible_conditions_raise_a_clear_error() -> None:
    with pytest.raises(EmptyDistributionError):
        D6.condition(lambda x: x > 6)
    with pytest.raises(EmptyDistributionError):
        Distribution({})
    with pytest.raises(ValueError):
        Distribution({1: -1})


def test_sampling_is_reproducible_and_within_support() -> None:
    a = [D6.sample(np.random.Generator(np.random.PCG64(5))) for _ in range(3)]
    b = [D6.sample(np.random.Generator(np.random.PCG64(5))) for _ in range(3)]
    assert a == b
    rng = np.random.Generator(np.random.PCG64(1))
    huge = Distribution.uniform(range(1, 101)).repeat(12)
    assert all(huge.sample(rng) in huge for _ in range(20))


@given(st.dictionaries(st.integers(-50, 50), st.integers(1, 1000), min_size=1, max_size=12),
       st.dictionaries(st.integers(-50, 50), st.integers(1, 1000), min_size=1, max_size=12))
def test_convolution_matches_brute_force_for_any_weights(
        a: dict[int, int], b: dict[int, int]) -> None:
    da, db = Distribution(a), Distribution(b)
    expected: dict[int, int] = {}
    for x, wx in a.items():
        for y, wy in b.items():
            expected[x + y] = expected.get(x + y, 0) + wx * wy
    assert da + db == Distribution(expected)
    assert sum((da + db).probabilities().values()) == 1


class Counting(LazySequence[int]):
    """Every third integer from 0, counting the items it is asked to make."""

    __slots__ = ("made", "n")

    def __init__(self, n: int) -> None:
        self.n = n
        self.made = 0

    def __len__(self) -> int:
        return self.n

    def make(self, index: int) -> int:
        index = range(self.n)[index]  # negative from the end; IndexError out of range
        self.made += 1
        return 3 * index


@given(st.dictionaries(st.integers(-50, 50), st.integers(1, 2**70), min_size=1, max_size=30),
       st.integers(0, 2**32))
def test_a_packed_distribution_is_the_plain_one_in_every_respect(
        weights: dict[int, int], seed: int) -> None:
    """Distribution.packed (outcomes in order, read lazily) against Distribution(dict):
    each check on a fresh packed one, so that each reads its own way (no mapping made)."""
    plain = Distribution(weights)
    keys = sorted(weights)

    def packed() -> Distribution[int]:
        return Distribution.packed(keys, [weights[k] for k in keys])

    assert packed() == plain and plain == packed() and hash(packed()) == hash(plain)
    assert packed().total == plain.total and len(packed()) == len(plain)
    assert list(packed().outcomes()) == list(plain.outcomes()) == list(packed())
    assert list(packed().items()) == list(plain.items())
    assert packed().items()[-3:] == plain.items()[-3:] and packed().items()[0] == plain.items()[0]
    assert packed().probabilities() == plain.probabilities()
    one = packed()
    assert [one.weight(k) for k in range(-51, 52)] == [plain.weight(k) for k in range(-51, 52)]
    assert (packed().probability(keys[0]), 51 in packed()) == (plain.probability(keys[0]),
                                                                51 in plain)
    assert packed().mean() == plain.mean() and packed().variance() == plain.variance()
    assert (packed().cdf(0), packed().sf(0)) == (plain.cdf(0), plain.sf(0))
    assert packed().quantile(Fraction(1, 3)) == plain.quantile(Fraction(1, 3))
    assert (packed().min(), packed().max()) == (plain.min(), plain.max())
    assert packed().map(abs) == plain.map(abs)
    assert packed().chance(lambda k: k % 2 == 0) == plain.chance(lambda k: k % 2 == 0)
    assert packed().condition(lambda k: k >= keys[-1]) == plain.condition(lambda k: k >= keys[-1])
    assert packed() + packed() == plain + plain and packed().joint(D6) == plain.joint(D6)
    assert repr(packed()) == repr(plain)
    draws = packed(), plain
    rngs = [np.random.Generator(np.random.PCG64(seed)) for _ in draws]
    assert [[d.sample(r) for _ in range(5)] for d, r in zip(draws, rngs, strict=True)] == [
        [plain.sample(r) for _ in range(5)] for r in
        [np.random.Generator(np.random.PCG64(seed)) for _ in draws]]
    assert pickle.loads(pickle.dumps(packed())) == plain


def test_a_packed_distribution_reads_only_the_outcomes_asked_for() -> None:
    keys = Counting(334)  # 0, 3, ..., 999
    weights = [1 + i % 7 for i in range(334)]
    dist = Distribution.packed(keys, weights)
    assert keys.made == 0 and dist.total == sum(weights) and len(dist) == 334
    assert dist.sample(np.random.Generator(np.random.PCG64(3))) in range(0, 1000, 3)
    assert keys.made == 1
    assert dist.items()[5] == (15, 6) and dist.max() == 999 and keys.made == 3
    assert dist.probability(15) == Fraction(6, sum(weights))  # the mapping: every outcome
    assert keys.made == 3 + 334
    assert keys[-1] == 999 and keys[1:4] == [3, 6, 9] and list(keys)[:2] == [0, 3]
    with pytest.raises(IndexError):
        keys[334]


def test_a_packed_distribution_refuses_bad_weights() -> None:
    with pytest.raises(ValueError, match="2 outcomes but 1 weights"):
        Distribution.packed([1, 2], [1])
    with pytest.raises(EmptyDistributionError):
        Distribution.packed([], [])
    with pytest.raises(TypeError, match="integers"):
        Distribution.packed([1, 2], [1, 0.5])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="integers"):
        Distribution.packed([1, 2], [1, True])
    with pytest.raises(ValueError, match="positive"):
        Distribution.packed([1, 2], [1, 0])
    assert Distribution.packed([1, 2], [4, 6]).items() == Distribution({1: 2, 2: 3}).items()
    assert Counting(3) == [0, 3, 6] != Counting(2) and Counting(2) != (0, 3)
