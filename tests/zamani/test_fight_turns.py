"""Seed 002 rules inside whole fights (issue 15): guard, the offensive action on any segment,
delaying, sacrifice each Turn, focus declared when used, surprise before initiative; through
``encounter.engine.step`` with pinned dice and scripted choices."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.core.events import ActionChosen, Event, RoundStarted, SlotAdded, TurnStarted
from fracas.errors import InputError
from fracas.systems.zamani.state import ZamaniDefense, ZamaniInitiative, ZamaniTarget
from tests.encounter.scripted import fight

from .helpers import duel, pinned, scenario, sheet

MISS = 99


def two(ann: dict[str, Any], bob: dict[str, Any]) -> Any:
    return scenario([sheet("ann", "a", **ann), sheet("bob", "b", **bob)])


def chosen(events: list[Event], actor: str | None = None) -> list[ActionChosen]:
    return [e for e in events if isinstance(e, ActionChosen) and actor in (None, e.actor)]


def initiative_of(events: list[Event], who: str) -> list[ZamaniInitiative]:
    return [e for e in events if isinstance(e, ZamaniInitiative) and e.who == who]


def test_a_guard_lasts_through_the_guards_extra_segments_and_it_does_not_attack() -> None:
    # Ann: initiative 12, segments 10 and 2; Bob: 1, segment 1 (after Ann's extra segment)
    s = two({"attributes": {"dexterity": 12}}, {"attributes": {"dexterity": 1}})
    plan = {"ann": [{"kind": "guard", "target": None}, {"kind": "move", "move": "half"}]}
    _, events = fight(s, [10], plan, steps=3)
    ann = chosen(events, "ann")
    assert [c.action for c in ann if c.action != "sacrifice"] == ["guard", "move"]
    defense = [e for e in events if isinstance(e, ZamaniDefense)]
    assert defense and ("standing guard", 5) in defense[0].parts
    # guarding, Ann may not attack on her extra segment (where her one attack could go)
    _, events = fight(s, [10], {"ann": [{"kind": "guard", "target": None}]}, steps=3)
    assert "attack" not in [c.action for c in chosen(events, "ann")]


def test_the_offensive_action_may_be_taken_on_an_extra_segment() -> None:
    s = two({"attributes": {"dexterity": 12}}, {"attributes": {"dexterity": 5}})
    plan = {"ann": [{"kind": "move", "move": "half"}]}  # segment 10: a half move
    _, events = fight(s, [MISS, MISS], plan, steps=3)  # Bob on 5, then Ann on 2 attacks
    turns = [(e.actor, e.slot) for e in events if isinstance(e, TurnStarted)]
    assert turns == [("ann", "countdown 10"), ("bob", "countdown 5"),
                     ("ann", "countdown 2 (extra)")]
    assert [c.action for c in chosen(events, "ann") if c.action != "sacrifice"] == [
        "move", "attack"]


def test_a_character_may_delay_until_after_the_next_action() -> None:
    s = two({"attributes": {"dexterity": 8}}, {"attributes": {"dexterity": 5}})
    _, events = fight(s, [MISS, MISS], {"ann": [{"kind": "delay"}]}, steps=3)
    assert any(isinstance(e, SlotAdded) and e.actor == "ann" and e.after == 1 for e in events)
    turns = [(e.actor, e.slot) for e in events if isinstance(e, TurnStarted)]
    assert turns == [("ann", "countdown 8"), ("bob", "countdown 5"),
                     ("ann", "countdown 8 (delayed)")]
    assert [c.action for c in chosen(events, "ann") if c.action != "sacrifice"] == [
        "delay", "attack"]


def test_the_last_slot_of_a_round_cannot_be_delayed() -> None:
    s = two({"attributes": {"dexterity": 8}}, {"attributes": {"dexterity": 5}})
    _, events = fight(s, [MISS, MISS], {"bob": [{"kind": "delay"}]}, steps=2)
    assert [c.action for c in chosen(events, "bob") if c.action != "sacrifice"] == ["attack"]


def test_sacrifice_is_chosen_at_the_start_of_each_turn() -> None:
    s = two({"attributes": {"dexterity": 5}}, {"attributes": {"dexterity": 6}})
    plan = {"ann": [{"kind": "sacrifice", "ranks": 2}, {"kind": "sacrifice", "ranks": 0}]}
    _, events = fight(s, [MISS] * 22, plan, steps=22)
    rounds = [e.round for e in events if isinstance(e, RoundStarted)]
    assert rounds == list(range(1, 12))
    sacrifices = [c.detail for c in chosen(events, "ann") if c.action == "sacrifice"]
    assert sacrifices == ["ranks=2", ""]  # rounds 1 and 11 only: a Turn is 10 rounds
    ann = initiative_of(events, "Ann")
    assert [i.value for i in ann] == [7] * 10 + [5]  # Dexterity 5 + 2 for the first Turn
    targets = [e for e in events if isinstance(e, ZamaniTarget) and e.who == "Ann"]
    assert targets[0].value == (5 + 5) * 5 - 10 and targets[-1].value == 50


def test_the_per_roll_sacrifice_override_is_gone() -> None:
    with pytest.raises(InputError) as err:
        duel(options={"sacrifice": 2})
    assert err.value.path == "attack.options.sacrifice"


def test_a_focus_is_declared_for_speed_in_the_round_it_is_used() -> None:
    s = two({"attributes": {"dexterity": 8}}, {"attributes": {"dexterity": 5}})
    plan = {"ann": [{"kind": "focus", "focus": "none"},
                    {"kind": "focus_use", "focus": "speed"}]}
    _, events = fight(s, [MISS, MISS, MISS], plan, steps=3)
    uses = [c for c in chosen(events, "ann") if c.action in ("focus", "focus_use")]
    assert [c.detail for c in uses] == ["", "focus=speed"]
    second = initiative_of(events, "Ann")[1]
    assert ("focus for speed", 5) in second.parts and second.value == 13


def test_any_character_with_a_surprise_skill_may_open_before_initiative() -> None:
    # Ann is faster, but only Bob (the slower) can sneak: he opens, then initiative is taken
    s = two({"attributes": {"dexterity": 9}},
            {"attributes": {"dexterity": 3}, "skills": {"swords": 5, "stealth": 5}})
    _, events = fight(s, [10, 99, MISS], {}, steps=1)
    first_attack = next(i for i, e in enumerate(events)
                        if isinstance(e, ActionChosen) and e.action == "attack")
    assert events[first_attack].actor == "bob" and "surprise=stealth" in events[
        first_attack].detail
    first_initiative = next(i for i, e in enumerate(events) if isinstance(e, ZamaniInitiative))
    assert first_attack < first_initiative
    # Bob surprised Ann: she loses the round; Bob's one attack of the countdown is spent
    _, more = fight(s, [10, 99, MISS], {}, steps=2)
    assert [c.action for c in chosen(more) if c.action not in ("sacrifice", "wait")] == [
        "attack", "move"]


def test_stunned_or_unseen_targets_get_no_dexterity_against_area_weapons() -> None:
    grenade = {"name": "grenade", "rating": 5, "kind": "area", "hands": 0, "skill": "throwing"}
    for defender, options in (({"conditions": ["stunned"]}, {}), ({}, {"unseen": True})):
        s = duel({"weapons": [grenade], "skills": {"throwing": 5}}, defender,
                 weapon="grenade", options=options)
        result = pinned(s, [10])
        defense = [e for e in result.events if isinstance(e, ZamaniDefense)]
        assert defense[0].ranks == 0 and defense[0].parts == ()
