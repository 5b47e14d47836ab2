"""Dice variables: every exact distribution against brute-force enumeration of the dice."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction

import pytest

from fracas.dice import (
    D100,
    Distribution,
    Faces,
    Group,
    Mapped,
    boons_banes,
    d,
    keep,
    nd,
    parse_dice,
)


def brute_keep(count: int, sides: int, kept: int, highest: bool) -> Distribution[int]:
    out: Counter[int] = Counter()
    for roll in itertools.product(range(1, sides + 1), repeat=count):
        out[sum(sorted(roll, reverse=highest)[:kept])] += 1
    return Distribution(out)


@pytest.mark.parametrize(("count", "sides", "kept", "highest"), [
    (3, 20, 1, True), (4, 6, 3, False), (4, 6, 3, True), (2, 20, 1, False), (5, 4, 2, True),
    (3, 8, 3, True),
])
def test_keep_highest_and_lowest_match_brute_force(
        count: int, sides: int, kept: int, highest: bool) -> None:
    assert keep(count, sides, kept, highest).exact() == brute_keep(count, sides, kept, highest)


def test_two_boons_show_a_natural_20_with_probability_1141_over_8000() -> None:
    assert boons_banes(2).exact().probability(20) == Fraction(1141, 8000)
    assert boons_banes(-1).exact().probability(1) == Fraction(39, 400)
    assert boons_banes(0).exact() == d(20).exact()


def test_sums_match_brute_force() -> None:
    five = Counter(sum(r) for r in itertools.product(range(1, 7), repeat=5))
    assert nd(5, 6).exact() == Distribution(five)
    mixed = Counter(a + b - 1 for a in range(1, 9) for b in range(1, 7))
    assert parse_dice("d8+d6-1").exact() == Distribution(mixed)


def test_ten_d6_matches_an_independent_count() -> None:
    @functools.cache
    def ways(n: int, total: int) -> int:
        if n == 0:
            return 1 if total == 0 else 0
        return sum(ways(n - 1, total - f) for f in range(1, 7) if total - f >= 0)

    ten = nd(10, 6).exact()
    assert all(ten.probability(t) == Fraction(ways(10, t), 6**10) for t in range(10, 61))


def test_d100_shows_1_to_100() -> None:
    assert D100.exact() == Distribution.uniform(range(1, 101))
    assert parse_dice("d%").exact() == D100.exact()


def test_custom_faces_with_symbols() -> None:
    boost = Faces("boost", ((), (), ("s",), ("s", "a"), ("a", "a"), ("a",)))
    dist = boost.exact()
    assert dist.probability(()) == Fraction(1, 3)
    assert dist.probability(("a", "a")) == Fraction(1, 6)


def test_group_and_mapped_variables() -> None:
    pair = Group((d(6), d(4))).exact()
    assert pair.probability((6, 4)) == Fraction(1, 24)
    hit = Mapped(nd(2, 6), lambda t: t <= 7, "2d6 <= 7").exact()
    assert hit.probability(True) == Fraction(21, 36)
