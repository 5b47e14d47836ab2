"""seed 002 · Segment & Initiatives: the 10-to-1 countdown, extra segments, ordering, ties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.dice import RandomRoller, ScriptedRoller
from fracas.errors import InputError
from fracas.systems.zamani import countdown, segments_for

# Every initiative from 1 to 35, written out by hand from the seed's rule.
EXPECTED = {
    1: (1,), 2: (2,), 3: (3,), 4: (4,), 5: (5,), 6: (6,), 7: (7,), 8: (8,), 9: (9,),
    10: (10,),
    11: (10, 1), 12: (10, 2), 13: (10, 3), 14: (10, 4), 15: (10, 5), 16: (10, 6),
    17: (10, 7), 18: (10, 8), 19: (10, 9), 20: (10, 9),
    21: (10, 9, 1), 22: (10, 9, 2), 23: (10, 9, 3), 24: (10, 9, 4), 25: (10, 9, 5),
    26: (10, 9, 6), 27: (10, 9, 7), 28: (10, 9, 8), 29: (10, 9, 8), 30: (10, 9, 8),
    31: (10, 9, 8), 32: (10, 9, 8), 33: (10, 9, 8), 34: (10, 9, 8), 35: (10, 9, 8),
}


@pytest.mark.parametrize("initiative", range(1, 36))
def test_segments_of_every_initiative_1_to_35(initiative: int) -> None:
    assert segments_for(initiative) == EXPECTED[initiative]


def test_seed_worked_examples_of_extra_segments() -> None:
    # "A character with initiative 11 ... can act on segments 10 and segment 1."
    assert segments_for(11) == (10, 1)
    # "A character with initiative 12 would be able to act on segments 10 and 2."
    assert segments_for(12) == (10, 2)
    # "Initiative 20 ... segments 10 and segment 9 (same as Initiative 19)"
    assert segments_for(20) == segments_for(19) == (10, 9)
    # "Initiative 21 would get to do things on segments 10, 9 and 1."
    assert segments_for(21) == (10, 9, 1)


def test_seed_worked_example_20_acts_ahead_of_19_on_their_segments() -> None:
    c = countdown({"nineteen": 19, "twenty": 20})
    assert c.segment(10) == ("twenty", "nineteen")
    assert c.segment(9) == ("twenty", "nineteen")


def test_seed_worked_example_11_goes_before_10_on_segment_10() -> None:
    c = countdown({"ten": 10, "eleven": 11})
    assert c.segment(10) == ("eleven", "ten")
    assert c.segment(1) == ("eleven",)


def test_countdown_of_every_initiative_1_to_35_together() -> None:
    inits = {f"c{i}": i for i in range(1, 36)}
    c = countdown(inits)
    assert c.order == tuple(f"c{i}" for i in range(35, 0, -1))
    assert c.segment(10) == tuple(f"c{i}" for i in range(35, 9, -1))
    assert c.segment(9) == (*tuple(f"c{i}" for i in range(35, 18, -1)), "c9")
    assert c.segment(8) == (*tuple(f"c{i}" for i in range(35, 27, -1)), "c18", "c8")
    assert c.segment(1) == ("c21", "c11", "c1")
    for i in range(1, 36):
        assert c.segments_of(f"c{i}") == EXPECTED[i]


@given(st.integers(1, 60))
def test_at_most_three_distinct_segments_counting_down(initiative: int) -> None:
    segs = segments_for(initiative)
    assert 1 <= len(segs) <= 3
    assert list(segs) == sorted(set(segs), reverse=True)
    assert all(1 <= s <= 10 for s in segs)
    if initiative > 10:
        assert segs[0] == 10


def test_any_segment_may_hold_the_one_offensive_action() -> None:
    c = countdown({"ann": 21})
    assert [(p.segment, p.action, p.offensive) for p in c.places] == [
        (10, 1, True), (9, 2, True), (1, 3, True)]


def test_ties_by_fitness_then_spirit() -> None:
    c = countdown({"a": 7, "b": 7, "c": 7, "d": 7},
                  fitness={"a": 3, "b": 5, "c": 5, "d": 4},
                  spirit={"a": 9, "b": 2, "c": 6, "d": 1})
    assert c.segment(7) == ("c", "b", "d", "a")
    assert [(t.by, t.names) for t in c.ties] == [
        ("Fitness", ("b", "c", "d", "a")), ("Spirit", ("c", "b"))]


def test_ties_left_after_fitness_and_spirit_go_to_a_die_rerolled_while_tied() -> None:
    roller = ScriptedRoller([4, 4, 9, 2, 6])  # a, b, c roll 4, 4, 9; a and b reroll 2, 6
    c = countdown({"a": 12, "b": 12, "c": 12}, roller=roller)
    roller.finish()
    assert c.segment(10) == ("c", "b", "a")
    assert c.segment(2) == ("c", "b", "a")
    dice = [t for t in c.ties if t.by == "d10"]
    assert [(t.names, t.values) for t in dice] == [(("c", "a", "b"), (9, 4, 4)),
                                                    (("b", "a"), (6, 2))]


def test_the_tie_die_is_seeded_and_repeatable() -> None:
    inits = {n: 5 for n in "abcdef"}
    first = countdown(inits, roller=RandomRoller(3))
    again = countdown(inits, roller=RandomRoller(3))
    assert first == again
    assert sorted(first.order) == list("abcdef")


def test_no_die_is_rolled_without_a_tie() -> None:
    roller = ScriptedRoller([])
    c = countdown({"a": 3, "b": 4}, roller=roller)
    assert c.order == ("b", "a") and c.ties == ()


def test_initiative_below_one_is_an_error_naming_the_character() -> None:
    with pytest.raises(InputError, match="joe: initiative 0"):
        countdown({"joe": 0})
    with pytest.raises(InputError):
        segments_for(0)


def test_countdown_json_lists_every_segment() -> None:
    data = countdown({"joe": 12, "ann": 21}).to_json()
    assert data["segments"]["10"] == ["ann", "joe"]
    assert data["segments"]["2"] == ["joe"]
    assert data["segments"]["1"] == ["ann"]
    assert data["segments"]["5"] == []
    assert [p["offensive"] for p in data["places"] if p["name"] == "ann"] == [True, True, True]
    assert data["offensive_actions"] == 1


def _order(roller: object, group: int) -> tuple[str, ...]:
    names = [f"c{i}" for i in range(group)]
    return countdown({n: 5 for n in names}, {n: 4 for n in names}, {n: 3 for n in names},
                     roller).order  # type: ignore[arg-type]


def test_a_die_tie_break_under_the_exact_roller_makes_every_order_equally_likely() -> None:
    # the dice are alike and rolled again among those still tied, without end: each order
    # of three tied characters comes with chance 1/6 (an enumeration of the rolls
    # themselves would never end; the exact roller draws the order at once)
    from fractions import Fraction
    from itertools import permutations

    from fracas.dice import exact

    dist = exact(lambda r: _order(r, 3))
    assert {o: dist.probability(o) for o in dist.outcomes()} == {
        p: Fraction(1, 6) for p in permutations(("c0", "c1", "c2"))}


def test_the_die_rolled_again_while_tied_gives_each_order_the_exact_chance() -> None:
    # the same rule by the dice (a random roller: each d10 rolled, again among those still
    # tied): 6,000 countdowns, each of the 6 orders within 5 standard errors of 1/6
    roller = RandomRoller(11)
    counts: dict[tuple[str, ...], int] = {}
    for _ in range(6_000):
        o = _order(roller, 3)
        counts[o] = counts.get(o, 0) + 1
    assert len(counts) == 6
    sd = (6_000 * (1 / 6) * (5 / 6)) ** 0.5
    assert all(abs(n - 1_000) < 5 * sd for n in counts.values()), counts


def test_too_many_characters_tied_to_the_die_for_the_exact_roller_say_so() -> None:
    from fracas.dice import exact
    from fracas.dice.rollers import EnumerationTooLarge

    with pytest.raises(EnumerationTooLarge, match="8 characters tied at initiative 5"):
        exact(lambda r: _order(r, 8))
