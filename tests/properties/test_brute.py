"""The brute force's own roll-off (tests/properties/brute.py): every face of the die counted,
a roll that ties everybody again divided out as a loop, it puts every order at the same
chance, as :class:`~fracas.dice.variables.RollOff` says, on a die and on a sum of dice."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import permutations

import pytest

from fracas.dice.variables import Variable, d, nd
from tests.properties.brute import roll_off


@pytest.mark.parametrize(("names", "die"), [
    (("a", "b"), d(2)), (("a", "b"), d(20)), (("a", "b", "c"), d(6)),
    (("a", "b", "c", "e"), d(3)), (("a", "b", "c"), nd(2, 6))])
def test_every_order_of_a_roll_off_is_as_likely(names: tuple[str, ...], die: Variable[int]
                                              ) -> None:
    orders = roll_off(names, die)
    assert orders == dict.fromkeys(permutations(names), Fraction(1, math.factorial(len(names))))


def test_a_roll_off_on_a_die_of_one_face_never_ends() -> None:
    with pytest.raises(ValueError, match="never ends"):
        roll_off(("a", "b"), d(1))
