"""Seed 003 rules inside whole fights (issue 15): a turn spans all of a combatant's slots,
two weapons, total attack / defense, escapes, holds, snake eyes, drawing; through
``encounter.engine.step`` with pinned dice and scripted choices."""

from __future__ import annotations

from fracas.core.events import (
    ActionChosen,
    Compared,
    Event,
    Note,
    Outcome,
    Rolled,
    SlotAdded,
    Total,
    TurnStarted,
)
from tests.encounter.scripted import fight
from tests.tristat.util import make, person

SWORD = {"name": "sword", "damage": 8, "kind": "melee"}
LEFT = {"name": "left sword", "damage": 7, "kind": "melee"}
RIGHT = {"name": "right sword", "damage": 7, "kind": "melee"}
FIRST = [6, 6, 1, 1]  # initiative: a rolls 12, b rolls 2: a acts first
MISS = [6, 6]


def chosen(events: list[Event], actor: str) -> list[ActionChosen]:
    return [e for e in events if isinstance(e, ActionChosen) and e.actor == actor]


def totals(events: list[Event], who: str) -> list[Total]:
    return [e for e in events if isinstance(e, Total) and e.name.startswith(who)]


def test_two_weapons_make_both_attacks_in_a_fight() -> None:
    s = make(person("a", "x", skills={"melee": 2}, weapons=[LEFT, RIGHT]),
             person("b", "y", weapons=[SWORD]))
    plan = {"a": [{"kind": "attack", "weapon": "left sword", "two_weapons": "same_target"},
                  {"kind": "attack", "weapon": "right sword", "two_weapons": "same_target"}]}
    _, events = fight(s, FIRST + MISS + MISS, plan, steps=2)
    made = chosen(events, "a")
    assert [c.detail for c in made] == ["left sword, two_weapons=same_target",
                                        "right sword, two_weapons=same_target"]
    # both at −4: Combat Value 5 + Melee 2 − 4 = 3
    assert [t.value for t in totals(events, "A's attack")] == [3, 3]


def test_total_attack_lasts_through_the_extra_attack_slots() -> None:
    s = make(person("a", "x", attributes={"extra_attacks": 1}, weapons=[SWORD]),
             person("b", "y", weapons=[SWORD]))
    plan = {"a": [{"kind": "attack", "weapon": "sword", "total_attack": True},
                  {"kind": "attack", "weapon": "sword", "total_attack": False}]}
    # a misses twice; b attacks a, who may make no defense roll until its next turn
    _, events = fight(s, FIRST + MISS + MISS + [1, 2], plan, steps=3)
    second = totals(events, "A's attack")[1]
    assert ("total attack", 1) in second.parts
    assert any(isinstance(e, Note) and "total attack: no defense rolls" in e.text()
               for e in events)
    assert not [e for e in events if isinstance(e, Rolled) and e.who == "A" and
                e.rule.endswith("Defend against an Attack")]


def test_total_defense_forbids_attacks_in_the_extra_attack_slots() -> None:
    s = make(person("a", "x", attributes={"extra_attacks": 1}, weapons=[SWORD]),
             person("b", "y", weapons=[SWORD]))
    plan = {"a": [{"kind": "total_defense"}]}  # then aggressive: it attacks if it may
    _, events = fight(s, [*FIRST, 1, 2, 6, 6], plan, steps=3)
    assert [c.action for c in chosen(events, "a")] == ["total_defense", "total_defense"]
    # b's attack is defended at +2: Defense Value 5 + 0 + 2 = 7
    assert any(isinstance(e, Total) and e.name == "A's defense target" and e.value == 7
               for e in events)


def held(**extra: object) -> tuple[dict[str, object], dict[str, object]]:
    return (person("a", "x", grappled_by="b", weapons=[SWORD], **extra),
            person("b", "y", skills={"brawl": 2}, weapons=[SWORD]))


def test_a_lost_escape_costs_the_remaining_attacks_and_defenses_until_the_next_turn() -> None:
    a, b = held(attributes={"extra_attacks": 1})
    s = make(a, b)
    # a: escape 12 (fails by 5) vs b 2 (succeeds by 5); a's second slot; b strangles
    # a, who may not defend: no defense roll, straight to damage
    state, events = fight(s, [*FIRST, 6, 6, 1, 1], {"a": [{"kind": "escape"}]}, steps=3)
    assert [e.outcome for e in events if isinstance(e, Outcome)][:1] == ["held"]
    assert [c.action for c in chosen(events, "a")] == ["escape", "total_defense"]
    assert any(isinstance(e, Note) and "lost an escape" in e.text() for e in events)
    strangled = [e for e in events if isinstance(e, Outcome) and e.actor == "B"]
    assert strangled and strangled[0].outcome == "hit"
    assert state.roster["a"].state.health == 50 - 5  # Combat Value 5, no armor


def test_a_successful_escape_gives_another_action_at_once() -> None:
    s = make(*held())
    # escape: a rolls 3 on Body 5 + Brawl 0 − 2 (held): by 0; b rolls 12 on 5 + 2: fails by
    # 5: a escapes,
    # and attacks at once (misses), before b's turn
    _, events = fight(s, [*FIRST, 1, 2, 6, 6, *MISS], {"a": [{"kind": "escape"}]}, steps=2)
    assert any(isinstance(e, SlotAdded) and e.actor == "a" and e.after == 0 for e in events)
    turns = [e.actor for e in events if isinstance(e, TurnStarted)]
    assert turns == ["a", "a"]
    assert [c.action for c in chosen(events, "a")] == ["escape", "attack"]


def test_an_escape_tie_gives_no_extra_action() -> None:
    s = make(*held())
    # a: Body 5 + 0 − 2 (held), rolls 3: by 0; b: Body 5 + Brawl 2, rolls 7: by 0: a tie
    state, events = fight(s, [*FIRST, 1, 2, 3, 4, *MISS], {"a": [{"kind": "escape"}]},
                          steps=2)
    assert not any(isinstance(e, SlotAdded) for e in events)
    assert [e.actor for e in events if isinstance(e, TurnStarted)] == ["a", "b"]
    assert state.roster["a"].state.grappled_by is None


def test_a_grabber_that_cannot_act_loses_its_hold() -> None:
    a, b = held()
    b["health"] = 1
    s = make(a, b, others=(person("c", "y"),))
    dice = [6, 6, 1, 1, 3, 4]  # initiative: a 12 + 5, b 2 + 5, c 7 + 5
    # a attacks b (held: −2): 5 + Melee 0 − 2 = 3, rolls 3: hits; b rolls 12: fails
    _, events = fight(s, [*dice, 1, 2, 6, 6], {"a": [{"kind": "attack", "target": "b",
                                                      "weapon": "sword"}]}, steps=1)
    released = [e for e in events if isinstance(e, Note) and "loses its hold" in e.text()]
    assert released
    state, _ = fight(s, [*dice, 1, 2, 6, 6], {"a": [{"kind": "attack", "target": "b",
                                                     "weapon": "sword"}]}, steps=1)
    assert state.roster["a"].state.grappled_by is None
    kept, _ = fight(make(a, b, rules={"out_grabber_releases": False},
                         others=(person("c", "y"),)),
                    [*dice, 1, 2, 6, 6], {"a": [{"kind": "attack", "target": "b",
                                                 "weapon": "sword"}]}, steps=1)
    assert kept.roster["a"].state.grappled_by == "b"


def test_snake_eyes_on_a_defense_roll_always_defends() -> None:
    b = person("b", "y", defense_value=0, weapons=[SWORD])
    s = make(person("a", "x", weapons=[SWORD]), b)
    # a hits (3 ≤ 5); b's defense target is 0 + 0 = 0: only snake eyes can defend
    _, events = fight(s, [*FIRST, 1, 2, 1, 1], {}, steps=1)
    assert [e.outcome for e in events if isinstance(e, Outcome)] == ["defended"]
    off = make(person("a", "x", weapons=[SWORD]), b, rules={"snake_eyes_on_other_rolls": False})
    _, events = fight(off, [*FIRST, 1, 2, 1, 1], {}, steps=1)
    assert [e.outcome for e in events if isinstance(e, Outcome)] == ["hit"]


def test_snake_eyes_on_an_escape_roll_is_at_least_a_tie() -> None:
    a, b = held()
    a["body"] = 1  # Body 1 + Brawl 0 − 2 (held): the 2 fails by 3, but snake eyes: by 0
    s = make(a, b)
    _, events = fight(s, [*FIRST, 1, 1, 6, 6, *MISS], {"a": [{"kind": "escape"}]}, steps=1)
    degrees = [e for e in events if isinstance(e, Compared) and "degree" in e.left]
    assert degrees and degrees[0].left_value == 0 and degrees[0].right_value == -5
    assert [e.outcome for e in events if isinstance(e, Outcome)] == ["escaped"]


def test_drawing_a_weapon_costs_the_first_attack_only() -> None:
    s = make(person("a", "x", attributes={"extra_attacks": 1}, weapons=[SWORD],
                    sheathed=["sword"]), person("b", "y"))
    plan = {"a": [{"kind": "attack", "weapon": "sword"}, {"kind": "attack", "weapon": "sword"}]}
    state, events = fight(s, FIRST + MISS + MISS, plan, steps=2)
    first, second = totals(events, "A's attack")
    assert ("drawing the sword", -3) in first.parts
    assert not any("drawing" in name for name, _ in second.parts)
    assert state.roster["a"].state.sheathed == ()
