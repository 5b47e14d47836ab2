"""The ``aggressive`` policy's order of targets: least health left, then least share of
it, then the first in the roster; the share is compared through an integer
(:func:`~fracas.encounter.policies.share_order`), which must order exactly as the
fractions do."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from fracas.encounter.policies import share_order

HEALTH = st.tuples(st.integers(-10**6, 10**6), st.integers(1, 10**6))


@given(st.integers(-10**6, 10**6), st.integers(1, 10**6), st.integers(1, 10**6))
def test_the_share_order_of_equal_health_is_the_fractions_order(current: int, m1: int,
                                                                 m2: int) -> None:
    by_fraction = (Fraction(current, m1) > Fraction(current, m2)) - (
        Fraction(current, m1) < Fraction(current, m2))
    by_integer = (share_order(current, m1) > share_order(current, m2)) - (
        share_order(current, m1) < share_order(current, m2))
    assert by_integer == by_fraction


@given(st.lists(HEALTH, min_size=1, max_size=8))
def test_sorting_by_health_then_share_order_is_sorting_by_health_then_share(
        health: list[tuple[int, int]]) -> None:
    exact = sorted(range(len(health)), key=lambda i: (
        health[i][0], Fraction(health[i][0], health[i][1]), i))
    fast = sorted(range(len(health)), key=lambda i: (
        health[i][0], share_order(*health[i]), i))
    assert fast == exact
