"""Making an attack (seed 000): Accuracy, graze, damage, the order of reductions,
reactions, maneuvers, Health; each rule with its own test."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice import ScriptedRoller
from fracas.errors import InputError, RulesError
from tests.c22.util import after, make, of_type, person, run


def total(result: object, name: str) -> int:
    return next(e.value for e in of_type(result.events, "Total") if e.name == name)  # type: ignore[attr-defined]


# -- Accuracy against Avoidance -------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(card=st.sampled_from(["2S", "4C", "5D", "6H", "8S"]), general=st.integers(0, 3),
       avoidance=st.integers(0, 12), damage=st.integers(0, 30), armor=st.integers(0, 8),
       pierce=st.integers(0, 5), trained=st.booleans())
def test_accuracy_damage_graze_and_armor_follow_the_seed(card: str, general: int,
                                                         avoidance: int, damage: int,
                                                         armor: int, pierce: int,
                                                         trained: bool) -> None:
    s = make(person("a", "x", skills={"general": general},
                    weapons=[{"name": "blade", "damage": damage, "pierce": pierce}],
                    trained=["blade"] if trained else []),
             person("b", "y", avoidance=avoidance, armor=armor),
             options={"weapon_card": "first"})
    r = run(s, {"a": [card, "2H" if card != "2H" else "4H"]})
    accuracy = int(card[:-1]) + general
    dealt = damage + (2 if trained else 0)
    graze = accuracy <= avoidance
    if graze:
        dealt = math.ceil(dealt / 2)
    final = max(0, dealt - max(0, armor - pierce))
    assert total(r, "Accuracy") == accuracy
    assert r.outcome == ("graze" if graze else "hit") and r.hit is not graze
    assert r.damage == min(final, 30)


def test_accuracy_equal_to_avoidance_grazes_for_half_rounded_up() -> None:
    s = make(person("a", "x", weapons=[{"name": "blade", "damage": 15}]),
             person("b", "y", avoidance=5), options={"weapon_card": "first"})
    r = run(s, {"a": ["5S", "2H"]})
    assert r.outcome == "graze" and r.damage == 8
    r = run(s, {"a": ["6S", "2H"]})
    assert r.outcome == "hit" and r.damage == 15


def test_general_rank_adds_accuracy_per_rank_and_is_overridable() -> None:
    s = make(person("a", "x", skills={"general": 2}), options={"weapon_card": "first"})
    assert total(run(s, {"a": ["4S", "2H"]}), "Accuracy") == 6
    s = make(person("a", "x", skills={"general": 2}), options={"weapon_card": "first"},
             rules={"general_accuracy_per_rank": 2})
    assert total(run(s, {"a": ["4S", "2H"]}), "Accuracy") == 8


def test_trained_weapon_adds_two_damage_as_in_the_seed() -> None:
    trained = make(person("a", "x", trained=["blade"]), options={"weapon_card": "first"})
    untrained = make(options={"weapon_card": "first"})
    assert total(run(trained, {"a": ["8S", "2H"]}), "Damage") == 12
    assert total(run(untrained, {"a": ["8S", "2H"]}), "Damage") == 10
    r = run(make(person("a", "x", trained=["blade"]), options={"weapon_card": "first"},
                 rules={"trained_damage_bonus": 3}), {"a": ["8S", "2H"]})
    assert total(r, "Damage") == 13


# -- the order of reductions -----------------------------------------------------------------
def test_reductions_apply_graze_then_reaction_then_armor() -> None:
    # 21 damage grazes to 11; Parry: 8; Armor 3: 5. (Armor first would give 18 -> 9 -> 6.)
    s = make(person("a", "x", weapons=[{"name": "blade", "damage": 21}]),
             person("b", "y", avoidance=9, armor=3, skills={"parry": 0}),
             options={"weapon_card": "first", "reaction": "parry"})
    r = run(s, {"a": ["5S", "2H"], "b": ["8C"]})
    steps = [(e.step, e.before, e.after) for e in of_type(r.events, "C22Reduced")]
    assert steps == [("Graze", 21, 11), ("Parry", 11, 8), ("Armor", 8, 5)]
    assert r.damage == 5


def test_dodge_halves_the_damage_left_rounded_down() -> None:
    s = make(person("a", "x", weapons=[{"name": "blade", "damage": 15}]),
             person("b", "y", avoidance=2, skills={"dodge": 1}),
             options={"weapon_card": "first", "reaction": "dodge"})
    r = run(s, {"a": ["5S", "2H"], "b": ["4C"]})  # 4 + 1 >= 5
    assert next((e.step, e.before, e.after) for e in of_type(r.events, "C22Reduced")) == (
        "Dodge", 15, 7)


def test_block_adds_two_armor_which_pierce_also_ignores() -> None:
    s = make(person("a", "x", weapons=[{"name": "blade", "damage": 10, "pierce": 1}]),
             person("b", "y", avoidance=2, armor=1, skills={"block": 0}),
             options={"weapon_card": "first", "reaction": "block"})
    r = run(s, {"a": ["5S", "2H"], "b": ["8C"]})
    assert total(r, "Armor") == 3 and total(r, "Armor after Pierce") == 2
    assert r.damage == 8


def test_pierce_above_armor_leaves_no_armor_and_damage_never_goes_negative() -> None:
    s = make(person("a", "x", weapons=[{"name": "blade", "damage": 0, "pierce": 9}]),
             person("b", "y", avoidance=0, armor=2), options={"weapon_card": "first"})
    r = run(s, {"a": ["5S", "2H"]})
    assert total(r, "Armor after Pierce") == 0 and r.damage == 0


def test_advance_takes_one_damage() -> None:
    s = make(b=person("b", "y", avoidance=0, skills={"advance": 3}),
             options={"weapon_card": "first", "reaction": "advance"})
    r = run(s, {"a": ["2S", "4H"], "b": ["2C"]})
    assert r.damage == 9


def test_a_failed_reaction_changes_nothing() -> None:
    s = make(b=person("b", "y", avoidance=0, skills={"parry": 0}),
             options={"weapon_card": "first", "reaction": "parry"})
    r = run(s, {"a": ["8S", "2H"], "b": ["2C"]})  # 2 < 8
    assert r.damage == 10 and dict(r.details)["reaction"] == "failed"
    assert "the parry fails" in [e.text() for e in r.events][-4]


def test_reaction_check_passes_over_jokers_until_a_number_card() -> None:
    s = make(b=person("b", "y", avoidance=0, skills={"block": 0}),
             options={"weapon_card": "first", "reaction": "block"})
    r = run(s, {"a": ["8S", "2H"], "b": ["RJ", "BJ", "8C"]})
    check = next(e for e in of_type(r.events, "Total") if e.name == "Block check")
    assert check.value == 8  # the red joker (14) is not a number card: passed over
    roster = after(s, r)
    assert roster["b"].state.discard == () and len(roster["b"].state.draw_pile) == 22


def test_reaction_must_be_on_the_defenders_sheet() -> None:
    with pytest.raises(InputError) as err:
        make(options={"reaction": "block"})
    assert err.value.path == "attack.options.reaction"
    assert "has no block skill" in str(err.value)


def test_reaction_effects_are_table_defaults_that_can_be_overridden() -> None:
    s = make(b=person("b", "y", avoidance=0, skills={"parry": 0}),
             options={"weapon_card": "first", "reaction": "parry"},
             rules={"reactions": {"parry": {"damage": 5}}})
    assert run(s, {"a": ["2S", "4H"], "b": ["8C"]}).damage == 5


# -- maneuvers ----------------------------------------------------------------------------
@pytest.mark.parametrize(("maneuver", "card", "option", "accuracy", "damage"), [
    ("fish in a barrel", "2H", "base", 8, 10),
    ("fish in a barrel", "6D", "raised", 8, 10),
    ("heavy swing", "2H", "base", 5, 12),
    ("heavy swing", "6H", "raised", 5, 14),
    ("evasive", "2H", "base", 8, 10),
    ("evasive", "2C", "raised", 8, 10),
])
def test_maneuver_base_and_raised_options(maneuver: str, card: str, option: str,
                                          accuracy: int, damage: int) -> None:
    s = make(b=person("b", "y", avoidance=0, armor=6),
             options={"weapon_card": "first", "maneuver": maneuver})
    r = run(s, {"a": ["8S", card]})
    (m,) = of_type(r.events, "C22Maneuver")
    assert m.option == option
    assert total(r, "Accuracy") == accuracy and total(r, "Damage") == damage


def test_fish_in_a_barrel_pierces_3_and_raised_5() -> None:
    s = make(b=person("b", "y", avoidance=0, armor=6),
             options={"weapon_card": "first", "maneuver": "fish_in_a_barrel"})
    assert run(s, {"a": ["8S", "2H"]}).damage == 7  # Armor 6 - 3
    assert run(s, {"a": ["8S", "6D"]}).damage == 9  # Armor 6 - 5


def test_evasive_gives_avoidance_until_the_next_turn() -> None:
    s = make(options={"weapon_card": "first", "maneuver": "evasive"})
    r = run(s, {"a": ["8S", "5C"]})
    roster = after(s, r)
    assert roster["a"].state.avoidance_bonus == 2
    # b attacks a: Avoidance 5 + 2 = 7, so Accuracy 6 grazes
    back = s.system.parse_action(roster, "b", "a", "blade", {"weapon_card": "first"})
    r2 = ScriptedRoller({"b": ["6S", "2H"]}).run(s.system.resolve, back, roster)
    assert r2.outcome == "graze"
    assert total(r2, "Avoidance") == 7
    ended = s.system.start_turn(ScriptedRoller([]), "a", roster)
    assert [(e.field, e.before, e.after) for e in ended] == [("avoidance_bonus", 2, 0)]


def test_red_joker_raises_any_maneuver_and_black_joker_none() -> None:
    s = make(b=person("b", "y", avoidance=0),
             options={"weapon_card": "first", "maneuver": "heavy swing"})
    assert of_type(run(s, {"a": ["8S", "RJ"]}).events, "C22Maneuver")[0].option == "raised"
    assert of_type(run(s, {"a": ["8S", "BJ"]}).events, "C22Maneuver")[0].option == "base"


def test_black_joker_as_weapon_card_is_accuracy_zero() -> None:
    s = make(options={"weapon_card": "first"})
    r = run(s, {"a": ["BJ", "8S"]})
    assert total(r, "Accuracy") == 0 and r.outcome == "graze"


def test_raised_false_keeps_the_base_option() -> None:
    s = make(options={"weapon_card": "first", "maneuver": "heavy swing", "raised": False})
    (m,) = of_type(run(s, {"a": ["8S", "8H"]}).events, "C22Maneuver")
    assert m.option == "base" and "not raised, by choice" in m.text()


def test_unknown_maneuver_is_a_clear_error() -> None:
    with pytest.raises(InputError) as err:
        make(options={"maneuver": "backflip"})
    assert err.value.path == "attack.options.maneuver"
    assert "fish_in_a_barrel" in (err.value.allowed or "")


def test_maneuvers_are_data_and_can_be_added() -> None:
    feint = {"name": "Feint", "base": {"accuracy": 2},
             "raised": {"suit": "S", "min_value": 4, "accuracy": 4}}
    s = make(options={"weapon_card": "first", "maneuver": "feint"},
             rules={"maneuvers": {"feint": feint}})
    assert total(run(s, {"a": ["2H", "4S"]}), "Accuracy") == 6


# -- the split of the hand ---------------------------------------------------------------------
@pytest.mark.parametrize(("choice", "weapon"), [
    ("first", "2S"), ("second", "8D"), ("higher", "8D"), ("lower", "2S"), ("8D", "8D"),
    ("2s", "2S"),
])
def test_weapon_card_choice(choice: str, weapon: str) -> None:
    s = make(options={"weapon_card": choice})
    (split,) = of_type(run(s, {"a": ["2S", "8D"]}).events, "C22Split")
    assert split.weapon_card == weapon


def test_a_named_weapon_card_not_drawn_falls_back_to_the_default_policy() -> None:
    s = make(options={"weapon_card": "4S"})
    (split,) = of_type(run(s, {"a": ["2S", "8D"]}).events, "C22Split")
    assert split.weapon_card == "8D" and "4S was not drawn" in split.why


def test_default_policy_takes_the_split_with_more_expected_damage() -> None:
    # 8C as weapon card + 6H raising Heavy Swing: full hit 16; the other split grazes
    s = make(b=person("b", "y", avoidance=4), options={"maneuver": "heavy swing"})
    (split,) = of_type(run(s, {"a": ["6H", "8C"]}).events, "C22Split")
    assert (split.weapon_card, split.maneuver_card) == ("8C", "6H")
    assert "expected damage" in split.why


def test_default_policy_prefers_raising_the_maneuver_on_equal_damage() -> None:
    s = make(b=person("b", "y", avoidance=0), options={"maneuver": "evasive"})
    (split,) = of_type(run(s, {"a": ["5C", "5H"]}).events, "C22Split")
    assert split.maneuver_card == "5C"


def test_bad_weapon_card_option_is_a_clear_error() -> None:
    with pytest.raises(InputError) as err:
        make(options={"weapon_card": "11X"})
    assert "weapon_card" in (err.value.path or "")


# -- Health ---------------------------------------------------------------------------------
def test_health_zero_knocks_unconscious_and_the_loss_stops_at_zero() -> None:
    s = make(b=person("b", "y", avoidance=0, health=4), options={"weapon_card": "first"})
    r = run(s, {"a": ["8S", "2H"]})
    assert r.damage == 4 and r.taken_out
    b = after(s, r)["b"]
    assert b.state.health == 0 and b.state.conditions == ("unconscious",)
    assert not s.system.is_active(b)
    with pytest.raises(RulesError, match="unconscious"):
        s.system.parse_action(after(s, r), "b", "a", "blade", {})
