"""Small random fights of each system for the property tests (issue 35): few combatants,
small pools, low health and one or two rounds, so that a brute force over every outcome
stays within a few thousand paths."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Draw = Any


def _fight(system: str, rounds: int, combatants: list[dict[str, Any]]) -> dict[str, Any]:
    return {"system": system, "title": "property", "max_rounds": rounds,
            "combatants": combatants}


@st.composite
def zamani(draw: Draw) -> dict[str, Any]:
    """Two or three fighters, 1 to 3 wounds, percentile skills low and high, 1-2 rounds."""
    def one(i: int, side: str) -> dict[str, Any]:
        return {"id": f"z{i}", "name": f"Z{i}", "side": side,
                "attributes": {"dexterity": draw(st.integers(3, 8)),
                               "fitness": draw(st.integers(3, 8)),
                               "spirit": draw(st.integers(2, 6))},
                "skills": {"swords": draw(st.integers(0, 8))},
                "wounds": {"max": draw(st.integers(1, 3))},
                "armor": {"absorption": draw(st.integers(0, 2))},
                "weapons": [{"name": "sword", "rating": draw(st.integers(2, 6)),
                             "kind": "melee", "skill": "swords"}]}
    sides = ["a", "b", *draw(st.lists(st.sampled_from("ab"), max_size=1))]
    return _fight("zamani", draw(st.integers(1, 2)),
                  [one(i, side) for i, side in enumerate(sides)])


@st.composite
def tristat(draw: Draw) -> dict[str, Any]:
    """Two fighters with 1 to 6 Health, one round (each 2d6 for initiative is eleven
    branches)."""
    def one(i: int, side: str) -> dict[str, Any]:
        return {"id": f"t{i}", "name": f"T{i}", "side": side,
                "body": draw(st.integers(3, 8)), "mind": draw(st.integers(2, 6)),
                "soul": draw(st.integers(2, 6)), "skills": {"melee": draw(st.integers(0, 3))},
                "health": draw(st.integers(1, 6)),
                "armor": {"name": "hide", "rating": draw(st.integers(0, 2))},
                "weapons": [{"name": "blade", "damage": draw(st.integers(2, 8)),
                             "kind": "melee"}]}
    return _fight("tristat", 1, [one(0, "a"), one(1, "b")])


@st.composite
def genesys(draw: Draw) -> dict[str, Any]:
    """A minion or a rival against an unarmed one, thresholds 1 to 4, one round (a pool
    against two Difficulty dice has some forty outcomes the rules tell apart)."""
    def one(i: int, side: str) -> dict[str, Any]:
        kind = draw(st.sampled_from(["minion", "rival"]))
        return {"id": f"g{i}", "name": f"G{i}", "side": side, "adversary": kind,
                **({"group_size": 1} if kind == "minion" else {}),
                "characteristics": {"brawn": draw(st.integers(1, 3)),
                                    "agility": draw(st.integers(1, 2)), "intellect": 1,
                                    "cunning": 1, "willpower": 1, "presence": 1},
                "skills": {"Brawl": 0 if kind == "minion" else draw(st.integers(0, 1))},
                "soak": draw(st.integers(0, 3)),
                "wound_threshold": draw(st.integers(1, 4)),
                "weapons": [{"name": "club", "skill": "Brawl", "damage": "+1",
                             "crit": draw(st.integers(2, 4))}][:1 - i]}
    return _fight("genesys", 1, [one(0, "a"), one(1, "b")])


@st.composite
def contest(draw: Draw) -> dict[str, Any]:
    """Two fighters, 1 to 3 hit points, one round, checks mostly on a small die (the
    table's d20 is a default the scenario overrides: threat on its top face, critical
    failure on 1), contests of one to three rolls; armour, blocking items, Parry and a
    start disarmed now and then, so that every defense and both critical kinds come up.
    A contest of several rolls, or on the d20, is one-sided (the second fighter starts
    disarmed: one contest in the round) and a d20 contest is one roll."""
    die = draw(st.sampled_from([3, 4, 5, 20]))
    rolls, wins = (1, 1) if die == 20 else draw(st.sampled_from([(1, 1), (2, 2), (3, 2)]))

    def one(i: int, side: str) -> dict[str, Any]:
        armour = draw(st.none() | st.fixed_dictionaries(
            {"dr": st.integers(0, 1), "hp": st.integers(1, 2)}))
        return {"id": f"c{i}", "name": f"C{i}", "side": side,
                "skills": {"sword": draw(st.integers(0, 2)), "dodge": draw(st.integers(0, 2)),
                           "block": draw(st.integers(0, 1)), "sponge": draw(st.integers(0, 1)),
                           "initiative": draw(st.integers(0, 1))},
                "attributes": {"strength": draw(st.integers(0, 1)),
                               "agility": draw(st.integers(0, 1))},
                "hp": draw(st.integers(1, 3)),
                **({"armour": armour} if armour else {}),
                "traits": draw(st.sampled_from([[], ["parry"]])),
                "disarmed": ["sword"] if i and (rolls > 1 or die == 20 or draw(st.booleans()))
                else [],
                "weapons": [{"name": "sword", "skill": "sword", "kind": "melee",
                             "damage": draw(st.sampled_from(["1", "d2", "d3"])),
                             "crit_multiplier": draw(st.integers(2, 3)),
                             "block": draw(st.integers(0, 1))}]}
    return {**_fight("contest", 1, [one(0, "a"), one(1, "b")]),
            "rules": {"check": {"die": die, "critical_threat": die, "critical_failure": 1},
                      "contest": {"rolls": rolls, "wins_needed": wins},
                      "initiative": {"die": 4}}}
