"""Property (issue 35): c22's exact fight odds (the chain, with its merged card classes)
equal an independent brute force over every card of small random fights."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.analysis.duel import LIMIT, NOBODY, duel_odds
from fracas.encounter.engine import setup_from_scenario
from fracas.registry.scenarios import scenario_from_mapping
from tests.properties.brute import Budget, fight_outcomes

CARDS = [f"{v}{s}" for v in (2, 4, 5, 6) for s in "SCDH"] + ["RJ", "BJ"]


def _fighter(cid: str, side: str, deck: list[str], draw: Any) -> dict[str, Any]:
    return {"id": cid, "name": cid.upper(), "side": side, "player": draw(st.booleans()),
            "avoidance": draw(st.integers(3, 6)), "armor": draw(st.integers(0, 1)),
            "health": draw(st.integers(3, 9)), "deck": deck,
            "skills": {"general": draw(st.integers(0, 1))},
            "weapons": [{"name": "blade", "damage": draw(st.integers(4, 9))}]}


@st.composite
def fights(draw: Any) -> dict[str, Any]:
    """Two fighters with 3-card decks (the cards of a later draw: suits that raise
    maneuvers or break initiative ties), at most 2 rounds."""
    decks = [draw(st.lists(st.sampled_from(CARDS), min_size=3, max_size=3)) for _ in "ab"]
    for deck in decks:  # a deck needs a number card for initiative
        if all(c in ("RJ", "BJ") for c in deck):
            deck[0] = "4S"
    rules: dict[str, Any] = {} if draw(st.booleans()) else {"maneuvers": {}}
    rules["initiative_every_round"] = draw(st.booleans())
    return {"system": "c22", "title": "property", "max_rounds": 2, "rules": rules,
            "combatants": [_fighter("a", "x", decks[0], draw),
                           _fighter("b", "y", decks[1], draw)]}


def _sides(odds: dict[str, Fraction]) -> dict[str, Fraction]:
    out = {k: v for k, v in odds.items() if v and k not in (LIMIT, NOBODY)}
    rest = sum((v for k, v in odds.items() if k in (LIMIT, NOBODY)), Fraction(0))
    if rest:
        out[""] = rest
    return out


#: Suits decide who acts first (tests/c22/data/suits-decide-initiative.yaml with 4-card
#: decks): the merged hands once made it 5/6 where the truth is 1/2.
SUITS = {"system": "c22", "title": "suits", "max_rounds": 2, "rules": {"maneuvers": {}},
         "combatants": [
             {"id": "a", "name": "A", "side": "x", "avoidance": 4, "armor": 0, "health": 20,
              "deck": ["5S", "5S", "5H", "5H"], "weapons": [{"name": "axe", "damage": 10}]},
             {"id": "b", "name": "B", "side": "y", "avoidance": 4, "armor": 0, "health": 20,
              "deck": ["5C", "5C", "5D", "5D"], "weapons": [{"name": "axe", "damage": 10}]}]}


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(fights())
def test_c22_fight_odds_equal_a_brute_force_over_every_card(data: dict[str, Any]) -> None:
    sc = scenario_from_mapping(data)
    setup = setup_from_scenario(sc)
    try:
        truth = fight_outcomes(setup, sc.roster, max_paths=4_000)
    except Budget:
        return  # too many paths for the brute force: another example
    assert _sides(duel_odds(setup, sc.roster).outcomes) == {k: v for k, v in truth.items()
                                                              if v}


def test_c22_fight_where_suits_decide_initiative_equals_the_brute_force() -> None:
    """The merged hands once gave side x all of it; the truth is 1/2 (about 3,500 paths)."""
    sc = scenario_from_mapping(SUITS)
    setup = setup_from_scenario(sc)
    truth = fight_outcomes(setup, sc.roster, max_paths=10_000)
    assert truth == {"x": Fraction(1, 2), "y": Fraction(1, 2)}
    assert _sides(duel_odds(setup, sc.roster).outcomes) == truth
