"""Exact odds from the current state of both decks, against brute-force enumeration of
every order of small decks (itertools.permutations), and random sampling against them."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import permutations
from typing import Any

from fracas.core.model import Roster
from fracas.dice import Distribution, RandomRoller, ScriptedRoller
from fracas.dice.cards import parse_card
from fracas.odds.attack import attack_odds
from fracas.systems.c22 import cards
from fracas.systems.c22.cards import CardReads, CardValues, HandDraw, HandKey, UntilNumber
from tests.c22.util import example, make, person


def value(label: str) -> int:
    jokers = {"RJ": 14, "BJ": 0}
    return jokers[label] if label in jokers else int(label[:-1])


def raises(label: str, suit: str, least: int) -> bool:
    if label == "BJ":
        return False
    return (label == "RJ" or label[-1] == suit) and value(label) >= least


def brute_fish_block(pile_a: list[str], pile_b: list[str], general: int, block: int,
                     avoidance: int, armor: int, damage: int) -> Distribution[tuple[str, int]]:
    """Fish in a Barrel (Pierce 3; raised with diamonds 6+: Pierce 5), weapon card = the
    first card drawn, the defender blocks (+2 Armor): written from the rules, not the code."""
    counts: Counter[tuple[str, int]] = Counter()
    for order_a in permutations(pile_a):
        for order_b in permutations(pile_b):
            weapon, maneuver = order_a[0], order_a[1]
            pierce = 5 if raises(maneuver, "D", 6) else 3
            accuracy = value(weapon) + general
            dmg = damage + 2  # trained
            graze = accuracy <= avoidance
            if graze:
                dmg = math.ceil(dmg / 2)
            card = next(c for c in order_b if c not in ("RJ", "BJ"))
            armor_now = armor + (2 if value(card) + block >= accuracy else 0)
            dmg = max(0, dmg - max(0, armor_now - pierce))
            counts[("graze" if graze else "hit", dmg)] += 1
    return Distribution(counts)


def fish_block(deck_a: list[str], deck_b: list[str]) -> Any:
    return make(person("a", "x", skills={"general": 1}, trained=["blade"], deck=deck_a),
                person("b", "y", avoidance=5, armor=4, skills={"block": 1}, deck=deck_b),
                options={"weapon_card": "first", "maneuver": "fish in a barrel",
                         "reaction": "block"})


def outcome_damage(s: Any, roster: Roster | None = None) -> Distribution[tuple[str, int]]:
    odds = attack_odds(s.system, s.attack, roster or s.roster)
    return odds.joint.map(lambda r: (r[0], r[2]))


def test_exact_odds_match_every_order_of_both_decks() -> None:
    deck_a = ["2S", "5D", "6D", "RJ", "BJ"]
    deck_b = ["4C", "8S", "BJ", "6D"]
    s = fish_block(deck_a, deck_b)
    assert outcome_damage(s) == brute_fish_block(deck_a, deck_b, 1, 1, 5, 4, 10)


def test_exact_odds_use_what_is_left_in_the_decks() -> None:
    deck_a = ["2S", "5D", "6D", "8H", "RJ", "BJ"]
    deck_b = ["2C", "4C", "8S", "BJ", "6D"]
    s = fish_block(deck_a, deck_b)
    a, b = s.roster["a"], s.roster["b"]
    roster = s.roster.replace(  # RJ and 8H already drawn; the defender's 8S too
        a.evolve(draw_pile=("2S", "5D", "6D", "BJ"), discard=("RJ", "8H")),
        b.evolve(draw_pile=("2C", "4C", "6D", "BJ"), discard=("8S",)))
    want = brute_fish_block(["2S", "5D", "6D", "BJ"], ["2C", "4C", "6D", "BJ"], 1, 1, 5, 4, 10)
    assert outcome_damage(s, roster) == want
    assert outcome_damage(s, roster) != outcome_damage(s)


def scripted_enumeration(s: Any) -> Distribution[Any]:
    """Every order of both decks fed to the scripted roller: the joint of full results."""
    a, b = s.roster["a"].state, s.roster["b"].state
    counts: Counter[Any] = Counter()
    for order_a in permutations(a.draw_pile):
        for order_b in permutations(b.draw_pile):
            roller = ScriptedRoller({"a": list(order_a), "b": list(order_b)})
            counts[s.system.resolve(roller, s.attack, s.roster).summary()] += 1
    return Distribution(counts)


def test_default_split_policy_odds_match_enumeration() -> None:
    s = make(person("a", "x", skills={"general": 1}, deck=["2S", "6H", "8C", "RJ", "BJ"]),
             person("b", "y", avoidance=4, armor=3, skills={"dodge": 1},
                    deck=["4C", "8S", "BJ", "2D"]),
             options={"maneuver": "heavy swing", "reaction": "dodge"})
    assert attack_odds(s.system, s.attack, s.roster).joint == scripted_enumeration(s)


def test_higher_and_lower_choices_odds_match_enumeration() -> None:
    for choice, reaction in (("higher", "parry"), ("lower", "advance")):
        s = make(person("a", "x", deck=["2S", "6D", "6S", "8D", "BJ"]),
                 person("b", "y", skills={reaction: 2}, deck=["5C", "RJ", "2H", "8D"]),
                 options={"weapon_card": choice, "maneuver": "fish_in_a_barrel",
                          "reaction": reaction})
        assert attack_odds(s.system, s.attack, s.roster).joint == scripted_enumeration(s)


def test_named_weapon_card_odds_match_enumeration() -> None:
    s = make(person("a", "x", deck=["2S", "6D", "6S", "8D", "RJ"]),
             person("b", "y", deck=["5C", "2H"]),
             options={"weapon_card": "6D", "maneuver": "evasive"})
    assert attack_odds(s.system, s.attack, s.roster).joint == scripted_enumeration(s)


def test_hand_draw_classes_weigh_every_ordered_pair() -> None:
    pile = tuple(sorted(parse_card(c) for c in ["2S", "4S", "4H", "6D", "8D", "RJ", "BJ"]))
    key = HandKey(CardReads(CardValues(), (("D", 6),)), None, ordered=False)
    dist = HandDraw(pile, "a", 2, key).exact()
    assert sum(dist.probabilities().values()) == 1
    # no rule left reads the 4s' suits: one class, both orders of both pairs
    fours = [h for h in dist.outcomes() if {c.rank for c in h} == {"4"}]
    assert len(fours) == 1 and dist.probability(fours[0]) == Fraction(2, 42)


def test_hand_draw_keeps_apart_cards_a_later_rule_reads() -> None:
    """A 4 of spades and a 4 of hearts are one class only while no rule that can still
    run reads their suits: a raised maneuver on spades 4+, or an initiative draw that may
    compare them with a rival's 4 of clubs, keeps them apart (seed 000 and the public
    initiative rule: ties by suit)."""
    pile = tuple(sorted(parse_card(c) for c in ["4S", "4H", "6D"]))
    for reads in (CardReads(CardValues(), (("S", 4),)),
                  CardReads(CardValues(), (), frozenset({(4, 1)}))):
        dist = HandDraw(pile, "a", 1, HandKey(reads)).exact()
        assert len(dist) == 3 and set(dist.probabilities().values()) == {Fraction(1, 3)}
    # a rival's 4 of spades: 4S ties with it, 4H loses to it (still two classes of 4)
    dist = HandDraw(pile, "a", 1, HandKey(CardReads(CardValues(), (),
                                                    frozenset({(4, 0)})))).exact()
    assert len(dist) == 3
    # a rival 6 only: nothing reads the suits of the 4s, which merge
    dist = HandDraw(pile, "a", 1, HandKey(CardReads(CardValues(), (),
                                                    frozenset({(6, 2)})))).exact()
    assert len(dist) == 2


def test_an_initiative_draw_s_classes_are_memoised_by_what_is_read() -> None:
    """The classes of an initiative draw (cards until a number card) are worked out once
    for a pile and what the rules read of it, even when each draw brings its own (equal)
    reads, as every run of an enumeration does; and equal what is worked out afresh. The
    memo was once keyed by a bound method, which compares its object by identity: it
    missed on every draw and grew by one entry each (issue 39: auto's trial of the c22
    deck brawl, 4,776 misses in 8 s)."""
    pile = tuple(sorted(parse_card(c) for c in ["4S", "4H", "6D", "8C", "RJ"]))
    rivals = frozenset({(4, 1)})
    cards._until_number_classes.cache_clear()
    drawn = [UntilNumber(pile, "a", CardReads(CardValues(), (), rivals)).exact()
             for _ in range(3)]
    info = cards._until_number_classes.cache_info()
    assert (info.misses, info.hits) == (1, 2)
    afresh = cards._until_number_classes.__wrapped__(pile, CardReads(CardValues(), (), rivals))
    assert drawn == [afresh] * 3
    assert sum(afresh.probabilities().values()) == 1
    # the 4s are kept apart (a rival's 4 of clubs reads their suits), each with or without
    # the joker passed over first: 4 number cards of 5, so no joker first with 4/5 ...
    assert afresh.probability((parse_card("4S"),)) == Fraction(1, 4) * Fraction(4, 5)
    # ... and the joker first with 1/5
    joker_first = (parse_card("RJ"), parse_card("4H"))
    assert afresh.probability(joker_first) == Fraction(1, 4) * Fraction(1, 5)


def test_random_sampling_agrees_with_the_exact_odds() -> None:
    """5000 seeded samples of the lizard attack: every damage value's frequency lies
    within 5 standard deviations of its exact probability."""
    s = example("one-tough-lizard.yaml")
    exact = attack_odds(s.system, s.attack, s.roster).damage
    n = 5000
    rng = RandomRoller(20240601)
    seen = Counter(s.system.resolve(rng, s.attack, s.roster).damage for _ in range(n))
    assert set(seen) <= set(exact.outcomes())
    for dmg, p in exact.probabilities().items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(seen[dmg] / n - float(p)) <= 5 * sigma + 1e-9, dmg


def test_odds_of_a_raised_dash_are_the_chance_of_a_raising_card() -> None:
    s = example("dash-square-grid.yaml")
    odds = attack_odds(s.system, s.attack, s.roster)
    # 5S, 6S, 8S and the red joker raise Dash: 1 - C(18, 2) / C(22, 2)
    assert odds.outcomes["moved"] == 1 - Fraction(math.comb(18, 2), math.comb(22, 2))


def test_discarded_cards_on_the_sheet_change_the_odds_as_brute_force_says() -> None:
    deck_a = ["2S", "5D", "6D", "8H", "RJ", "BJ"]
    deck_b = ["2C", "4C", "8S", "BJ", "6D"]
    s = make(person("a", "x", skills={"general": 1}, trained=["blade"], deck=deck_a,
                    discard=["RJ", "8H"]),
             person("b", "y", avoidance=5, armor=4, skills={"block": 1}, deck=deck_b,
                    discard=["8S"]),
             options={"weapon_card": "first", "maneuver": "fish in a barrel",
                      "reaction": "block"})
    want = brute_fish_block(["2S", "5D", "6D", "BJ"], ["2C", "4C", "6D", "BJ"], 1, 1, 5, 4, 10)
    assert outcome_damage(s) == want
