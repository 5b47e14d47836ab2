"""seed 002 · Surprise: stealth or ambush against Fitness x 5 (or the target's ambush
skill); a surprised target meets the first column; nobody else acts that round."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from fracas.errors import InputError
from fracas.systems.zamani.percentile import Contest, ContestResult, surprised
from fracas.systems.zamani.state import ZamaniLookup, ZamaniRoll

from .helpers import after, duel, pinned, sheet, texts

# Ann: Stealth 6 + Dexterity 5 = 55%; Bob: Fitness 4 x 5 = 20%.
SNEAK: dict[str, Any] = {"skills": {"swords": 5, "stealth": 6}}
DULL: dict[str, Any] = {"attributes": {"fitness": 4}, "skills": {"swords": 9}}


def rolls(result: Any) -> list[tuple[str, int, int]]:
    return [(e.who, e.roll, e.target) for e in result.events if isinstance(e, ZamaniRoll)]


def test_stealth_roll_against_fitness_times_five_then_the_attack() -> None:
    s = duel(SNEAK, DULL, options={"surprise": "stealth"})
    result = pinned(s, [30, 55, 10])
    assert rolls(result) == [("Ann", 30, 55), ("Bob", 55, 20), ("Ann", 10, 50)]
    assert ("surprise", True) in result.details


def test_a_surprised_target_defends_on_the_first_column() -> None:
    s = duel(SNEAK, DULL, options={"surprise": "stealth"})
    result = pinned(s, [30, 55, 10])
    look = next(e for e in result.events if isinstance(e, ZamaniLookup))
    assert (look.defense, look.column, look.code) == (0, "0-2", "H")
    assert after(s, result)["bob"].state.blocks_used == ()


def test_nobody_else_acts_in_the_round_of_a_successful_surprise() -> None:
    s = duel(SNEAK, DULL, options={"surprise": "stealth"}, others=[sheet("cy", "a")])
    state = after(s, pinned(s, [30, 55, 10]))
    assert state["bob"].state.lost_round and state["cy"].state.lost_round
    assert not state["ann"].state.lost_round
    assert s.system.actions("cy", state) == []


def test_a_failed_surprise_is_an_ordinary_attack() -> None:
    s = duel(SNEAK, DULL, options={"surprise": "stealth"})
    result = pinned(s, [80, 55, 10])  # the stealth roll fails
    look = next(e for e in result.events if isinstance(e, ZamaniLookup))
    assert look.defense == 9
    assert ("surprise", False) in result.details
    assert not after(s, result)["bob"].state.lost_round
    assert "No surprise" in texts(result)


@pytest.mark.parametrize("mine,theirs,expected", [
    (30, 55, True),   # stealth succeeds, Fitness fails
    (80, 55, False),  # stealth fails
    (80, 90, False),  # both fail: not sneaked up
    (10, 15, True),   # both succeed: margin 45 beats 5
    (50, 5, False),   # both succeed: margin 5 loses to 15
    (40, 5, False),   # both succeed by 15: a tie goes to the target
])
def test_the_opposed_surprise_roll(mine: int, theirs: int, expected: bool) -> None:
    s = duel(SNEAK, DULL, options={"surprise": "stealth"})
    assert dict(pinned(s, [mine, theirs, 99]).details)["surprise"] is expected


def test_a_tie_goes_to_the_attacker_when_the_rules_say_so() -> None:
    s = duel(SNEAK, DULL, options={"surprise": "stealth"},
             rules={"surprise_ties": "attacker"})
    assert dict(pinned(s, [40, 5, 99]).details)["surprise"] is True


def test_ambush_is_resisted_by_the_targets_ambush_skill_if_it_has_one() -> None:
    wary = {**DULL, "skills": {"swords": 9, "ambush": 3}}  # (3 + 5) x 5 = 40%
    s = duel({"skills": {"swords": 5, "ambush": 6}}, wary, options={"surprise": "ambush"})
    result = pinned(s, [40, 20, 99])
    assert rolls(result)[:2] == [("Ann", 40, 55), ("Bob", 20, 40)]
    # margin 15 against Bob's 20 (against Fitness x 5 = 20% it would have been 0)
    assert dict(result.details)["surprise"] is False


def test_ambush_without_the_skill_is_resisted_by_fitness_times_five() -> None:
    s = duel({"skills": {"swords": 5, "ambush": 6}}, DULL, options={"surprise": "ambush"})
    result = pinned(s, [30, 55, 99])
    assert rolls(result)[:2] == [("Ann", 30, 55), ("Bob", 55, 20)]
    assert "resists with Fitness × 5" in texts(result)


def test_surprise_cannot_be_a_controlled_attack() -> None:
    with pytest.raises(InputError, match="cannot be a controlled attack"):
        duel(SNEAK, DULL, options={"surprise": "stealth", "controlled": True,
                                   "effect": "limb"})


def test_surprise_with_a_missile_weapon() -> None:
    bow = {"name": "bow", "rating": 4, "kind": "missile", "hands": 2, "skill": "swords"}
    s = duel({**SNEAK, "weapons": [bow]}, DULL, weapon="bow", options={"surprise": "stealth"})
    assert dict(pinned(s, [30, 55, 10]).details)["surprise"] is True


def test_the_contest_odds_match_a_brute_force_count() -> None:
    for mine, theirs, ties in ((55, 20, False), (50, 50, False), (50, 50, True), (0, 30, False),
                               (120, 100, False)):
        wins = 0
        for a, b in itertools.product(range(1, 101), repeat=2):
            a_ok, b_ok = a <= mine, b <= theirs
            if a_ok and (not b_ok or mine - a > theirs - b or (ties and mine - a == theirs - b)):
                wins += 1
        exact = Contest(mine, theirs, ties).exact()
        assert exact.probability(ContestResult(True, 0, 0)) == Fraction(wins, 10_000)


def test_contest_results_compare_by_surprise_only() -> None:
    assert ContestResult(True, 3, 4) == ContestResult(True, 90, 1)
    assert surprised(55, 20, 30, 55, False)
