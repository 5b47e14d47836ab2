"""Grappling, escaping, strangling/crushing and throwing (seed 003)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.core.model import Action, apply_events
from fracas.dice import ScriptedRoller
from fracas.errors import InputError
from fracas.systems.tristat.sheet import Options
from tests.tristat.util import after, example, make, person, run, texts

MAUL = {"name": "maul", "damage": 12, "kind": "melee", "hands": 2}
CLUB = {"name": "club", "damage": 6, "kind": "melee"}


def total(result: Any, prefix: str) -> int:
    line = next(t for t in texts(result) if prefix in t)
    return int(line.split(";")[0].rsplit("= ", 1)[1])


def held(attacker: dict[str, Any], defender: dict[str, Any], action: str,
         options: dict[str, Any] | None = None, weapon: str | None = None) -> Any:
    """a acts on b; the one named by ``grappled_by`` in the sheets holds the other."""
    attack = {"action": action, "options": options or {}}
    if weapon:
        attack["weapon"] = weapon
    return make(attacker, defender, attack)


def test_grapple_is_an_unarmed_attack_that_holds_and_deals_no_damage() -> None:
    scenario = example("grapple.yaml")
    result = run(scenario, [3, 3, 5, 4])
    assert (result.outcome, result.hit, result.damage) == ("grappled", True, 0)
    roster = after(scenario, result)
    assert roster["cultist"].state.grappled_by == "brick"
    assert roster["cultist"].state.health == roster["cultist"].state.max_health
    assert any("Brawl" in t and "grapple target" in t for t in texts(result))


def test_a_critical_grapple_rolls_no_critical_die() -> None:
    result = run(held(person("a", "x"), person("b", "y"), "grapple"), [1, 1, 6, 6])
    assert result.outcome == "grappled" and result.damage == 0


def test_held_target_takes_minus_two_to_attacks_and_defenses() -> None:
    victim = person("b", "y", grappled_by="a", skills={"melee": 2, "brawl": 2},
                    weapons=[CLUB, MAUL])
    defending = run(held(person("a", "x", skills={"brawl": 5}), victim, "attack"), [2, 2, 6, 6])
    assert total(defending, "defense target") == 5 + 2 - 2
    # the held one attacks (its grabber): −2 with a club, −4 with a two-handed maul
    striking = make(victim | {"id": "b"}, person("a", "x"),
                    {"attacker": "b", "defender": "a", "weapon": "club"})
    with_club = ScriptedRoller([6, 6]).run(striking.system.resolve, striking.attack,
                                           striking.roster)
    assert total(with_club, "attack target") == 5 + 2 - 2
    maul = Action("b", "a", "maul", "attack", Options())
    with_maul = ScriptedRoller([6, 6]).run(striking.system.resolve, maul, striking.roster)
    assert total(with_maul, "attack target") == 5 + 2 - 4


def test_extreme_mobility_option_gives_minus_four() -> None:
    victim = person("b", "y", grappled_by="a")
    scenario = make(victim, person("a", "x"), {"attacker": "b", "defender": "a",
                                               "options": {"extreme_mobility": True}})
    result = ScriptedRoller([6, 6]).run(scenario.system.resolve, scenario.attack,
                                        scenario.roster)
    assert total(result, "attack target") == 5 - 4


def test_penalties_halved_when_much_stronger_than_the_grabber() -> None:
    strong = person("b", "y", body=9, soul=5, grappled_by="a")  # Body 9 >= 5 + 4
    result = run(held(person("a", "x"), strong, "attack"), [2, 2, 6, 6])
    assert total(result, "defense target") == 6 - 1
    assert any("halved: much stronger" in t for t in texts(result))
    almost = person("b", "y", body=8, soul=5, grappled_by="a")
    assert total(run(held(person("a", "x"), almost, "attack"), [2, 2, 6, 6]),
                 "defense target") == 6 - 2


def test_super_strength_counts_toward_much_stronger() -> None:
    super_strong = person("b", "y", attributes={"super_strength": 1}, grappled_by="a")
    result = run(held(person("a", "x"), super_strong, "attack"), [2, 2, 6, 6])
    assert total(result, "defense target") == 5 - 1
    weak_grabber = person("a", "x", attributes={"not_so_strong": 1})
    result = run(held(weak_grabber, person("b", "y", grappled_by="a"), "attack"), [2, 2, 6, 6])
    assert total(result, "defense target") == 5 - 1


def _escape(dice: list[int]) -> tuple[Any, Any]:
    scenario = make(person("a", "x", skills={"brawl": 2}, grappled_by="b"),
                    person("b", "y", skills={"brawl": 2}), {"action": "escape"})
    result = run(scenario, dice)
    return result, after(scenario, result)["a"].state


def test_escape_greater_degree_frees_and_gives_another_action() -> None:
    # a: 5 + 2 − 2 = 5, rolls 3 (by 2); b: 5 + 2 = 7, rolls 6 (by 1)
    result, state = _escape([1, 2, 3, 3])
    assert result.outcome == "escaped"
    assert (state.grappled_by, state.attacks_used) == (None, 0)


def test_escape_tie_frees_without_a_new_action() -> None:
    result, state = _escape([1, 2, 2, 3])  # by 2 and by 2
    assert result.outcome == "escaped_tie"
    assert (state.grappled_by, state.attacks_used) == (None, 1)


def test_escape_lost_costs_remaining_attacks_and_defenses() -> None:
    result, state = _escape([3, 3, 1, 1])  # fails by 1; b succeeds by 5
    assert result.outcome == "held"
    assert (state.grappled_by, state.attacks_used, state.no_defense) == ("b", 1, True)


def test_escape_fail_by_least_degree_wins() -> None:
    result, _ = _escape([3, 3, 5, 4])  # a fails by 1, b fails by 2
    assert result.outcome == "escaped"


def test_after_a_lost_escape_no_defense_until_the_next_turn() -> None:
    scenario = make(person("a", "x", skills={"brawl": 2}, grappled_by="b"),
                    person("b", "y", skills={"brawl": 2}), {"action": "escape"})
    roster = after(scenario, run(scenario, [6, 6, 1, 1]))
    strangle = Action("b", "a", None, "strangle", Options())
    result = ScriptedRoller([]).run(scenario.system.resolve, strangle, roster)
    assert result.damage == 5
    cleared = scenario.system.start_turn(ScriptedRoller([]), "a", roster)
    assert ("no_defense", False) in [(e.field, e.after) for e in cleared]  # type: ignore[attr-defined]


def test_strangle_is_automatic_defendable_at_the_penalty_and_deals_cv_plus_bonuses() -> None:
    victim = person("b", "y", grappled_by="a")
    grabber = person("a", "x", attributes={"focused_damage": 1})
    result = run(held(grabber, victim, "strangle"), [3, 3])  # defense 5 − 2 = 3: 6 fails
    assert (result.outcome, result.damage) == ("hit", 5 + 5)
    assert total(result, "defense target") == 3
    defended = run(held(grabber, victim, "strangle"), [1, 1])
    assert defended.outcome == "defended" and defended.damage == 0


def test_strangle_needs_a_hold() -> None:
    with pytest.raises(InputError, match="grapple it first") as err:
        held(person("a", "x"), person("b", "y"), "strangle")
    assert err.value.path == "attack.defender"


def test_throw_example_margin_squares_prone_and_wall_capped_at_three() -> None:
    scenario = example("throw.yaml")
    result = run(scenario, [2, 3, 4, 4])
    assert result.outcome == "thrown"
    assert dict(result.details)["squares"] == 5
    assert result.damage == (5 + 5) + 15
    cultist = after(scenario, result)["cultist"].state
    assert cultist.grappled_by is None and "prone" in cultist.conditions
    assert cultist.health == 35 - 25


def test_throw_gets_plus_two_and_spot_on_moves_nothing() -> None:
    scenario = held(person("a", "x", skills={"brawl": 1}), person("b", "y", grappled_by="a"),
                    "throw", {"wall_at": 0})
    result = run(scenario, [4, 4, 6, 6])  # target 5 + 1 + 2 = 8, roll 8
    assert total(result, "throw target") == 8
    assert dict(result.details)["squares"] == 0
    assert result.damage == 10


def test_throw_wall_damage_five_per_blocked_square() -> None:
    scenario = held(person("a", "x", skills={"brawl": 1}), person("b", "y", grappled_by="a"),
                    "throw", {"wall_at": 2})
    result = run(scenario, [2, 2, 6, 6])  # margin 4, wall after 2
    assert result.damage == 10 + 10
    assert "wall damage, direct to Health: 2 × 5 (damage a square, table default) = 10" in texts(
        result)


def test_throw_ends_the_grapple_even_when_it_misses() -> None:
    scenario = held(person("a", "x"), person("b", "y", grappled_by="a"), "throw")
    result = run(scenario, [6, 6])
    assert result.outcome == "miss"
    assert after(scenario, result)["b"].state.grappled_by is None


def test_throw_victim_defends_with_its_held_penalty() -> None:
    scenario = held(person("a", "x"), person("b", "y", grappled_by="a"), "throw")
    result = run(scenario, [3, 3, 1, 1])
    assert result.outcome == "defended"
    assert total(result, "defense target") == 3


def test_grapple_escape_sequence_folds_state() -> None:
    scenario = example("grapple.yaml")
    roster = after(scenario, run(scenario, [3, 3, 5, 4]))
    escape = Action("cultist", "brick", None, "escape", Options())
    result = ScriptedRoller([1, 1, 6, 6]).run(scenario.system.resolve, escape, roster)
    assert result.outcome == "escaped"
    assert apply_events(roster, result.events)["cultist"].state.grappled_by is None
