"""The exact initiative roll of many combatants: found order by order, it must equal the
face-by-face enumeration (the brute force) in its weights, its shown faces and its order."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice import Distribution
from fracas.dice.reading import Reading
from fracas.dice.rollers import EnumerationTooLarge
from fracas.systems.contest.fight import InitiativeRoll


def face_by_face(var: InitiativeRoll) -> Distribution[Reading]:
    counts: dict[Reading, int] = {}
    for naturals in itertools.product(range(1, var.sides + 1), repeat=len(var.ids)):
        seen = var.meaning(naturals)
        counts[seen] = counts.get(seen, 0) + 1
    return Distribution(counts)


@settings(max_examples=80)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from([0, 0, 1, 2, 5, 25]), min_size=n, max_size=n),
    st.sampled_from([2, 3, 4, 6, 20] if n <= 3 else [2, 3, 4, 6]))))
def test_orders_equal_the_face_by_face_enumeration(case: tuple[list[int], int]) -> None:
    ranks, sides = case
    var = InitiativeRoll(tuple(f"c{i}" for i in range(len(ranks))), tuple(ranks), sides)
    got = [(s.meaning, s.face, w) for s, w in var.exact().items()]
    assert got == [(s.meaning, s.face, w) for s, w in face_by_face(var).items()]


def test_five_equal_combatants_on_d20() -> None:
    """Five combatants of one rank: a given order with no tie needs five different faces
    in that order, C(20, 5) of 20^5; all tied needs one face for all, 20 of 20^5."""
    ids = ("a", "b", "c", "d", "e")
    probs = InitiativeRoll(ids, (1,) * 5, 20).exact().probabilities()
    assert len(probs) == 541  # every order with ties of five
    strict = tuple((cid,) for cid in ("c", "a", "e", "b", "d"))
    assert probs[Reading(strict, ())] == Fraction(comb(20, 5), 20**5)
    assert probs[Reading((ids,), ())] == Fraction(20, 20**5)


def test_eight_combatants_are_past_the_exact_budget() -> None:
    with pytest.raises(EnumerationTooLarge, match="8 combatants has 545,835 possible orders"):
        InitiativeRoll(tuple("abcdefgh"), (0,) * 8, 20).exact()
