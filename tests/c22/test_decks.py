"""Each combatant's own deck: card notation and values, drawing without replacement, the
discard pile, the joker reshuffle, running out, pinned cards."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import permutations
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.core.events import Changed, Note, Outcome
from fracas.core.model import apply_events
from fracas.dice import RandomRoller, ScriptedRoller
from fracas.dice.cards import RANKS, SUITS, parse_card
from fracas.dice.rollers import ExactRoller
from fracas.errors import InputError, RulesError, ScriptError
from fracas.systems.c22.cards import CardValues
from tests.c22.util import EXAMPLES, after, make, of_type, person, run


def test_default_deck_is_the_22_card_level_1_deck() -> None:
    s = make()
    pile = s.roster["a"].state.draw_pile
    assert len(pile) == 22 and "RJ" in pile and "BJ" in pile
    assert sorted(c for c in pile if c[:-1] in {"2", "4", "5", "6", "8"}) == sorted(
        f"{r}{s}" for r in ("2", "4", "5", "6", "8") for s in "SCDH")


@given(rank=st.sampled_from(RANKS), suit=st.sampled_from(sorted(SUITS)))
def test_card_values_number_cards_by_rank_faces_by_the_table(rank: str, suit: str) -> None:
    value = CardValues().value(parse_card(rank + suit))
    assert value == {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank, value)
    if rank.isdigit():
        assert value == int(rank)


def test_jokers_red_14_any_suit_black_0_no_suit() -> None:
    values = CardValues()
    assert values.value(parse_card("RJ")) == 14 and values.value(parse_card("BJ")) == 0
    for suit in "SCDH":
        assert values.meets(parse_card("RJ"), suit, 14)
        assert not values.meets(parse_card("BJ"), suit, 0)


def test_face_card_values_are_overridable() -> None:
    s = make(person("a", "x", deck=["KS", "QH", "2C"]), options={"weapon_card": "first"},
             rules={"face_card_values": {"K": 20}})
    r = run(s, {"a": ["KS", "QH"]})
    assert next(e.value for e in of_type(r.events, "Total") if e.name == "Accuracy") == 20


def test_a_custom_deck_with_lower_case_cards_is_normalised() -> None:
    s = make(person("a", "x", deck=["4s", "10h", "rj"]))
    assert s.roster["a"].state.draw_pile == ("10H", "4S", "RJ")


def test_a_bad_card_in_a_deck_names_the_entry() -> None:
    with pytest.raises(InputError) as err:
        make(person("a", "x", deck=["4S", "11X"]))
    assert err.value.path == "combatants[0].deck[1]"
    assert "'11X' is not a card" in str(err.value)


@pytest.mark.parametrize("deck", [["4S"], ["RJ", "BJ"]])
def test_a_deck_too_small_or_without_a_number_card_is_refused(deck: list[str]) -> None:
    with pytest.raises(InputError) as err:
        make(person("a", "x", deck=deck))
    assert err.value.path == "combatants[0].deck"


def test_drawn_cards_leave_the_draw_pile_for_the_discard_pile() -> None:
    s = make(options={"weapon_card": "first"})
    roster = after(s, run(s, {"a": ["4S", "8H"]}))
    assert roster["a"].state.discard == ("4S", "8H")
    assert "4S" not in roster["a"].state.draw_pile and len(roster["a"].state.draw_pile) == 20
    # the next turn cannot draw 4S again
    again = s.system.parse_action(roster, "a", "b", "blade", {})
    with pytest.raises(ScriptError, match="4S is not left in a's draw pile"):
        ScriptedRoller({"a": ["4S", "2H"]}).run(s.system.resolve, again, roster)


def test_a_joker_reshuffles_the_discard_pile_once_the_action_ends() -> None:
    s = make(options={"weapon_card": "first"})
    a = s.roster["a"]
    roster = s.roster.replace(a.evolve(draw_pile=tuple(x for x in a.state.draw_pile
                                                       if x not in ("5C", "6C")),
                                       discard=("5C", "6C")))
    r = ScriptedRoller({"a": ["RJ", "2H"]}).run(s.system.resolve, s.attack, roster)
    outcome_at = next(i for i, e in enumerate(r.events) if isinstance(e, Outcome))
    reshuffle = [e for e in r.events[outcome_at:] if isinstance(e, Changed)]
    assert [e.field for e in reshuffle] == ["draw_pile", "discard"]
    assert reshuffle[1].before == ("5C", "6C", "RJ", "2H") and reshuffle[1].after == ()
    state = after(s, r)["a"].state
    assert len(state.draw_pile) == 22 and state.discard == ()
    assert any(isinstance(e, Note) and "RJ" in e.text() for e in r.events[outcome_at:])


def test_an_empty_draw_pile_takes_the_discard_pile_back_but_not_the_cards_in_play() -> None:
    s = make(person("a", "x", deck=["2S", "4S", "8H"]), options={"weapon_card": "first"})
    a = s.roster["a"]
    roster = s.roster.replace(a.evolve(draw_pile=("8H",), discard=("2S", "4S")))
    r = ScriptedRoller({"a": ["8H", "4S"]}).run(s.system.resolve, s.attack, roster)
    assert any("draw pile is empty" in e.text() for e in r.events)
    state = after(s, r)["a"].state
    assert state.draw_pile == ("2S",) and state.discard == ("8H", "4S")
    # 8H, in play, is not shuffled back: it cannot be drawn twice
    with pytest.raises(ScriptError, match="8H is not left"):
        ScriptedRoller({"a": ["8H", "8H"]}).run(s.system.resolve, s.attack, roster)


def test_a_deck_that_runs_out_is_a_clear_error() -> None:
    s = make(person("a", "x", deck=["2S", "4S", "8H"]), options={"weapon_card": "first"},
             rules={"empty_deck": "error"})
    a = s.roster["a"]
    roster = s.roster.replace(a.evolve(draw_pile=("8H",), discard=("2S", "4S")))
    with pytest.raises(RulesError, match="A's deck has run out of cards"):
        s.system.resolve(RandomRoller(1), s.attack, roster)


def test_a_deck_with_nothing_left_anywhere_has_run_out() -> None:
    s = make(person("a", "x", deck=["2S", "4S"]), options={"weapon_card": "first"})
    a = s.roster["a"]
    roster = s.roster.replace(a.evolve(draw_pile=("2S",), discard=()))
    with pytest.raises(RulesError, match="no card is left to shuffle back"):
        s.system.resolve(RandomRoller(1), s.attack, roster)


def test_a_reaction_with_only_jokers_left_draws_them_then_reshuffles() -> None:
    s = make(b=person("b", "y", avoidance=0, skills={"block": 0}, deck=["RJ", "BJ", "8C"]),
             options={"weapon_card": "first", "reaction": "block"})
    b = s.roster["b"]
    roster = s.roster.replace(b.evolve(draw_pile=("BJ", "RJ"), discard=("8C",)))
    r = ScriptedRoller({"a": ["2S", "4H"], "b": ["RJ", "BJ", "8C"]}).run(
        s.system.resolve, s.attack, roster)
    drew = [e.cards for e in of_type(r.events, "C22Drew") if e.who == "B"]
    assert drew == [("RJ",), ("BJ",), ("8C",)]
    assert dict(r.details)["reaction"] == "succeeded"


def test_pinned_cards_must_be_cards() -> None:
    with pytest.raises(InputError) as err:
        make(cards={"a": ["4S", "11X"]})
    assert err.value.path == "cards.a[1]"


def test_pinned_cards_must_name_a_combatant() -> None:
    with pytest.raises(InputError) as err:
        make(cards={"zed": ["4S"]})
    assert err.value.path == "cards.zed"


def test_too_few_pinned_cards_names_the_deck() -> None:
    s = make(options={"weapon_card": "first"})
    with pytest.raises(ScriptError, match="a's next 2 cards"):
        run(s, {"a": ["4S"]})


def test_pinned_cards_on_the_command_line() -> None:
    path = str(EXAMPLES / "one-tough-lizard.yaml")
    out = CliRunner().invoke(app, ["attack", path, "--json", "--dice",
                                   "jace:8S,jace:4H,lizard:2C"])
    assert out.exit_code == 0, out.output
    assert '"outcome": "hit"' in out.output


def test_the_draw_order_is_documented_in_dice_order() -> None:
    s = make()
    assert "cards" in type(s.system).dice_order


def test_a_sheet_may_start_with_cards_already_discarded() -> None:
    s = make(person("a", "x", discard=["RJ", "8s"]))
    state = s.roster["a"].state
    assert state.discard == ("RJ", "8S") and len(state.draw_pile) == 20
    assert "RJ" not in state.draw_pile
    with pytest.raises(InputError) as err:
        make(person("a", "x", deck=["2S", "4S", "8H"], discard=["2S", "2S"]))
    assert err.value.path == "combatants[0].discard[1]"


def _initiative_states(roller: ExactRoller | Any, s: Any) -> tuple[tuple[Any, ...], ...]:
    _, events = s.system.initiative(roller, s.roster, 1)
    roster = apply_events(s.roster, events)
    return tuple((c.state.draw_pile, tuple(sorted(c.state.discard)), c.state.initiative_card)
                 for c in roster.values())


def _brute_initiative(deck: list[str]) -> Counter[tuple[Any, ...]]:
    """Every order of the deck equally likely: cards until a number card; a joker passed
    over reshuffles the discard pile back in once the draw is over."""
    out: Counter[tuple[Any, ...]] = Counter()
    for order in permutations(deck):
        first = next(i for i, c in enumerate(order) if not parse_card(c).is_joker)
        number = order[first]
        if first:  # jokers passed over: everything goes back into the deck
            state = (tuple(sorted(deck, key=parse_card)), (), number)
        else:
            left = list(deck)
            left.remove(number)
            state = (tuple(sorted(left, key=parse_card)), (number,), number)
        out[state] += 1
    return out


def test_exact_initiative_keeps_the_joker_reshuffle_of_a_joker_passed_over() -> None:
    """The state after the draws is what later turns of a fight read: its exact
    distribution (used by the exact fight odds) equals every order of both decks."""
    decks = {"a": ["2S", "5S", "BJ"], "b": ["3C", "RJ", "6D"]}
    s = make(person("a", "x", deck=decks["a"]), person("b", "y", deck=decks["b"]))
    exact = ExactRoller().distribution(_initiative_states, s).probabilities()
    want: dict[tuple[Any, ...], Fraction] = {}
    brute = {cid: _brute_initiative(d) for cid, d in decks.items()}
    total = math.factorial(3) ** 2
    for sa, na in brute["a"].items():
        for sb, nb in brute["b"].items():
            key = tuple((tuple(parse_card(c) for c in pile), tuple(sorted(disc)), card)
                        for pile, disc, card in (sa, sb))
            want[key] = want.get(key, Fraction(0)) + Fraction(na * nb, total)
    got = {tuple((tuple(parse_card(c) for c in pile), disc, card)
                 for pile, disc, card in k): p for k, p in exact.items()}
    assert got == want
