"""Dice notation: every valid expression parses to a distribution summing to 1; any other
string raises DiceSyntaxError (with a column), never another exception."""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice import Distribution, parse_dice
from fracas.errors import DiceSyntaxError


@st.composite
def die_terms(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 4))
    sides = draw(st.sampled_from(["4", "6", "8", "10", "12", "20", "%"]))
    text = ("" if count == 1 and draw(st.booleans()) else str(count)) + "d" + sides
    if draw(st.booleans()) and sides in ("4", "6", "8", "10", "12"):  # keeps stay quick
        text += draw(st.sampled_from(["kh", "kl"])) + str(draw(st.integers(1, count)))
    return text


terms = st.one_of(die_terms(), st.integers(0, 30).map(str))


@st.composite
def expressions(draw: st.DrawFn) -> str:
    parts = draw(st.lists(terms, min_size=1, max_size=3))
    text = parts[0]
    for part in parts[1:]:
        text += draw(st.sampled_from(["+", "-", " + ", " - "])) + part
    return text


@settings(max_examples=150, deadline=None)
@given(expressions())
def test_every_valid_expression_parses_and_sums_to_one(text: str) -> None:
    dist = parse_dice(text).exact()
    assert sum(dist.probabilities().values()) == 1


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789dDkhl%+- x.", max_size=12))
def test_any_string_parses_or_raises_dice_syntax_error(text: str) -> None:
    try:
        dist = parse_dice(text).exact()
    except DiceSyntaxError as err:
        assert 1 <= err.column <= len(text) + 1
        assert err.expected
    else:
        assert sum(dist.probabilities().values()) == 1


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=10))
def test_arbitrary_unicode_never_raises_anything_else(text: str) -> None:
    with contextlib.suppress(DiceSyntaxError):
        parse_dice(text)


@pytest.mark.parametrize(("text", "column", "expected"), [
    ("2d6+", 5, "a number or a die"),
    ("", 1, "a number or a die"),
    ("2d", 3, "the number of sides"),
    ("3d20kh4", 7, "how many dice to keep (1 to 3)"),
    ("2d6kx", 5, "'h' or 'l' after 'k'"),
    ("2d6 3", 5, "'+', '-' or the end"),
    ("0d6", 1, "a dice count from 1"),
    ("d0", 2, "the number of sides"),
])
def test_errors_name_the_column_and_what_was_expected(
        text: str, column: int, expected: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse_dice(text)
    assert info.value.column == column
    assert expected in info.value.expected
    assert f"column {column}" in str(info.value)


def test_the_documented_forms() -> None:
    assert parse_dice("d100").exact() == Distribution.uniform(range(1, 101))
    assert parse_dice("2d6+3").exact().min() == 5
    assert parse_dice("3d20kh1").exact().probability(20) == Fraction(1141, 8000)
    brute = Counter(sum(sorted(r)[:3]) for r in itertools.product(range(1, 7), repeat=4))
    assert parse_dice("4d6kl3").exact() == Distribution(brute)
    assert parse_dice("D6 - 1").exact().max() == 5
