"""Fight hooks: the round's countdown as slots, the choices of an actor, guard, focus,
sacrifice, movement and the per-round resets (seed 002)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.core.events import Note
from fracas.core.model import Action, Roster, apply_events
from fracas.dice import RandomRoller, ScriptedRoller
from fracas.errors import InputError
from fracas.systems.zamani.sheet import Options
from fracas.systems.zamani.state import ZamaniInitiative, ZamaniTarget, ZamaniTieBreak

from .helpers import after, duel, pinned, scenario, sheet, texts


def fight(*entries: dict[str, Any]) -> Any:
    return scenario(list(entries))


def test_initiative_gives_slots_in_countdown_order_with_extra_segments() -> None:
    s = fight(sheet("ann", "a", attributes={"dexterity": 8},
                    traits=[{"name": "Quick", "initiative": 4}]),  # 12
              sheet("bob", "b", attributes={"dexterity": 9}))
    slots, events = s.system.initiative(RandomRoller(1), s.roster, 1)
    assert [(sl.candidates[0], sl.label, sl.offensive) for sl in slots] == [
        ("ann", "countdown 10", True), ("bob", "countdown 9", True),
        ("ann", "countdown 2 (extra)", True)]
    line = next(e for e in events if isinstance(e, ZamaniInitiative) and e.who == "Ann")
    assert line.text() == ("Ann: initiative 8 (Dexterity) + 4 (trait Quick) = 12; acts on "
                           "segments 10 and 2 (one attack in all)")
    assert dict(slots[2].extra) == {"segment": 2, "action": 2, "round": 1}
    later, _ = s.system.initiative(RandomRoller(1), s.roster, 2)
    assert later[0].label == "countdown 10"


def test_a_turn_is_ten_rounds_and_sacrifice_is_chosen_at_its_start() -> None:
    s = fight(sheet("ann", "a", sacrifice=2), sheet("bob", "b", attributes={"dexterity": 6}))
    for round_number, begins in ((1, True), (2, False), (10, False), (11, True), (21, True)):
        slots, events = s.system.initiative(RandomRoller(1), s.roster, round_number)
        notes = [e.text() for e in events if isinstance(e, Note)]
        assert any("begins" in n for n in notes) is begins, round_number
        choices = s.system.round_choices("ann", s.roster, round_number)
        assert bool(choices) is begins
        if begins:  # the sheet's planned sacrifice is the default choice, 0 to 4 on offer
            assert [c.options.ranks for c in choices] == [2, 0, 1, 3, 4]  # type: ignore[union-attr]
        assert slots[0].candidates == ("ann",)  # Dexterity 5 + 2 sacrificed = 7 beats 6


def test_equal_initiatives_are_ordered_by_fitness_spirit_then_a_die_in_the_events() -> None:
    s = fight(sheet("ann", "a", attributes={"fitness": 4}), sheet("bob", "b"),
              sheet("cy", "b"))
    slots, events = s.system.initiative(ScriptedRoller([2, 8]), s.roster, 1)
    assert [sl.candidates[0] for sl in slots] == ["cy", "bob", "ann"]
    ties = [e for e in events if isinstance(e, ZamaniTieBreak)]
    assert [t.by for t in ties] == ["Fitness", "Spirit", "d10"]
    assert ties[-1].names == ("Cy", "Bob") and ties[-1].values == (8, 2)


def test_focus_for_speed_adds_five_initiative_in_the_round_it_is_used() -> None:
    s = fight(sheet("ann", "a"), sheet("bob", "b", attributes={"dexterity": 7}))
    fast = s.roster.replace(s.roster["ann"].evolve(focus="speed"))
    slots, _ = s.system.initiative(RandomRoller(1), fast, 2)
    assert [sl.candidates[0] for sl in slots] == ["ann", "bob"]  # 10 beats 7


def test_out_of_the_fight_characters_get_no_slot() -> None:
    s = fight(sheet("ann", "a"), sheet("bob", "b", wounds={"max": 5, "current": 0}))
    slots, _ = s.system.initiative(RandomRoller(1), s.roster, 1)
    assert [sl.candidates for sl in slots] == [("ann",)]


def kinds(actions: list[Action]) -> list[str]:
    return [a.kind for a in actions]


def test_actions_list_attacks_first_then_non_offensive_choices() -> None:
    s = fight(sheet("ann", "a"), sheet("bob", "b"))
    acts = s.system.actions("ann", s.roster)
    first_other = kinds(acts).index("guard")
    assert set(kinds(acts[:first_other])) == {"attack"}
    assert all(not a.offensive for a in acts[first_other:])
    assert {"guard", "focus", "move"} <= set(kinds(acts))
    controlled = [a for a in acts if isinstance(a.options, Options) and a.options.controlled]
    assert sorted(a.options.effect or "" for a in controlled  # type: ignore[union-attr]
                  ) == ["armor", "disarm", "limb", "prone"]


def sneaky(acts: list[Action]) -> int:
    return sum(isinstance(a.options, Options) and a.options.surprise != "none" for a in acts)


def test_only_the_opening_offers_surprise_attacks_to_those_with_the_skill() -> None:
    s = fight(sheet("ann", "a", skills={"swords": 5, "ambush": 3}), sheet("bob", "b"))
    ready = s.roster.replace(*(c.evolve(chosen=("sacrifice",)) for c in s.roster.values()))
    assert sneaky(s.system.round_choices("ann", ready, 1)) == 1  # ambush only
    assert s.system.round_choices("bob", ready, 1) == []  # neither stealth nor ambush
    assert s.system.round_choices("ann", ready, 2) == []
    slots, _ = s.system.initiative(RandomRoller(1), s.roster, 1)
    assert sneaky(s.system.actions("ann", s.roster, slots[0])) == 0
    anyone = s.system.with_rules({"surprise_needs_skill": False})
    assert sneaky(anyone.round_choices("bob", ready, 1)) == 2


def test_an_extra_segment_offers_the_attack_not_yet_made() -> None:
    s = fight(sheet("ann", "a", attributes={"dexterity": 12}), sheet("bob", "b"))
    slots, _ = s.system.initiative(RandomRoller(1), s.roster, 1)
    extra = next(sl for sl in slots if "extra" in sl.label)
    assert "attack" in kinds(s.system.actions("ann", s.roster, extra))


def test_one_offensive_action_per_countdown() -> None:
    s = duel()
    spent = after(s, pinned(s, [99]))
    assert "attack" not in kinds(s.system.actions("ann", spent))
    assert "move" in kinds(s.system.actions("ann", spent))


def test_missile_weapons_offer_no_controlled_attack() -> None:
    bow = {"name": "bow", "rating": 4, "kind": "missile", "hands": 2, "skill": "bows"}
    s = fight(sheet("ann", "a", weapons=[bow]), sheet("bob", "b"))
    acts = [a for a in s.system.actions("ann", s.roster) if a.kind == "attack"]
    assert acts and not any(a.options.controlled for a in acts)  # type: ignore[union-attr]


def resolve(s: Any, roster: Roster, actor: str, kind: str, target: str | None = None,
            weapon: str | None = None, **options: Any) -> Roster:
    action = s.system.parse_action(roster, actor, target, weapon, options, kind=kind)
    result = s.system.resolve(RandomRoller(1), action, roster)
    return apply_events(roster, result.events)


def test_guard_self_then_it_ends_at_the_guards_next_turn() -> None:
    s = fight(sheet("ann", "a"), sheet("bob", "b"))
    r = resolve(s, s.roster, "bob", "guard")
    assert r["bob"].state.guarding == "self"
    r = apply_events(r, s.system.start_turn(RandomRoller(1), "bob", r))
    assert r["bob"].state.guarding == ""


def test_guard_over_an_ally_and_no_moving_out_of_reach() -> None:
    s = fight(sheet("ann", "a"), sheet("bob", "b"), sheet("cy", "b"))
    r = resolve(s, s.roster, "cy", "guard", "bob")
    assert r["cy"].state.guarding == "bob"
    with pytest.raises(InputError, match="cannot move out of reach"):
        s.system.parse_action(s.roster, "cy", "bob", None, {"move": "half"}, kind="guard")
    retreat = resolve(s, s.roster, "cy", "guard", move="half")
    assert retreat["cy"].state.half_moves == 1


def test_guarding_needs_a_shield_or_blocking_weapon() -> None:
    s = fight(sheet("ann", "a", weapons=[]), sheet("bob", "b"))
    with pytest.raises(InputError, match="to guard"):
        s.system.parse_action(s.roster, "ann", None, None, {}, kind="guard")
    assert "guard" not in kinds(s.system.actions("ann", s.roster))


def test_focus_skips_the_round_then_adds_25_percent_to_the_next_roll() -> None:
    s = duel()
    r = resolve(s, s.roster, "ann", "focus", focus="effect")
    assert r["ann"].state.focus == "focusing:effect"
    assert s.system.actions("ann", r) == []  # the whole round is spent focusing
    r = apply_events(r, s.system.end_round(RandomRoller(1), r, 1))
    assert r["ann"].state.focus == "effect"
    assert s.attack is not None
    result = pinned(s, [99], roster=r)
    assert next(e.value for e in result.events if isinstance(e, ZamaniTarget)) == 75
    assert after(s, result, r)["ann"].state.focus == ""


def test_focus_for_speed_is_spent_at_the_end_of_the_round_it_is_used() -> None:
    s = duel()
    r = resolve(s, s.roster, "ann", "focus", focus="speed")
    r = apply_events(r, s.system.end_round(RandomRoller(1), r, 1))
    assert r["ann"].state.focus == "speed"
    assert s.system.initiative_parts(r["ann"])[-1] == ("focus for speed", 5)
    r = apply_events(r, s.system.end_round(RandomRoller(1), r, 2))
    assert r["ann"].state.focus == ""


def test_focusing_again_does_not_compound() -> None:
    s = duel()
    ready = s.roster.replace(s.roster["ann"].evolve(focus="effect"))
    action = s.system.parse_action(ready, "ann", None, None, {"focus": "effect"}, kind="focus")
    result = s.system.resolve(RandomRoller(1), action, ready)
    assert "does not compound" in texts(result)
    r = apply_events(ready, result.events)
    r = apply_events(r, s.system.end_round(RandomRoller(1), r, 1))
    assert r["ann"].state.focus == "effect"
    assert next(e.value for e in pinned(s, [99], roster=r).events
                if isinstance(e, ZamaniTarget)) == 75


def test_focus_only_for_a_full_round() -> None:
    s = duel()
    moved = resolve(s, s.roster, "ann", "move", move="half")
    assert "focus" not in kinds(s.system.actions("ann", moved))


def test_a_full_move_leaves_no_attack() -> None:
    s = duel()
    r = resolve(s, s.roster, "ann", "move", move="full")
    assert r["ann"].state.half_moves == 2 and r["ann"].state.offensive_used
    acts = kinds(s.system.actions("ann", r))
    assert "attack" not in acts and "move" not in acts


def test_two_half_moves_at_most_in_a_round() -> None:
    s = duel()
    r = resolve(s, s.roster, "ann", "move", move="half")
    assert "move" in kinds(s.system.actions("ann", r))
    r = resolve(s, r, "ann", "move", move="half")
    assert "move" not in kinds(s.system.actions("ann", r))


def test_readying_a_weapon_changes_what_is_in_hand() -> None:
    bow = {"name": "bow", "rating": 4, "kind": "missile", "hands": 2, "skill": "bows"}
    sword = {"name": "sword", "rating": 4, "blocking": True, "skill": "swords"}
    s = fight(sheet("ann", "a", weapons=[sword, bow], shield={}), sheet("bob", "b"))
    assert s.roster["ann"].state.in_hand == ("sword", "shield")
    r = resolve(s, s.roster, "ann", "ready", weapon="bow")
    assert r["ann"].state.in_hand == ("bow",)
    r = resolve(s, r, "ann", "ready", weapon="shield")
    assert r["ann"].state.in_hand == ("shield",)


def test_a_disarmed_character_can_ready_the_weapon_again() -> None:
    s = duel()
    dropped = s.roster.replace(s.roster["bob"].evolve(in_hand=()))
    acts = s.system.actions("bob", dropped)
    assert [a.weapon for a in acts if a.kind == "ready"] == ["sword"]
    assert "attack" not in kinds(acts)


def test_standing_up_from_prone() -> None:
    s = duel()
    prone = s.roster.replace(s.roster["ann"].evolve(conditions=("prone",)))
    acts = kinds(s.system.actions("ann", prone))
    assert "stand" in acts and "move" not in acts
    r = resolve(s, prone, "ann", "stand")
    assert r["ann"].state.conditions == ()


def test_stunned_or_surprised_characters_cannot_act() -> None:
    s = duel()
    stunned = s.roster.replace(s.roster["ann"].evolve(conditions=("stunned",)))
    assert s.system.actions("ann", stunned) == []
    lost = s.roster.replace(s.roster["ann"].evolve(lost_round=True))
    assert s.system.actions("ann", lost) == []


def test_end_round_resets_the_per_round_counters() -> None:
    s = duel(defender={"skills": {"swords": 8, "acrobatics": 1}})
    r = after(s, pinned(s, [10]))
    r = r.replace(r["bob"].evolve(acrobatics_used=True, lost_round=True, half_moves=1))
    r = apply_events(r, s.system.end_round(RandomRoller(1), r, 1))
    for c in r.values():
        st = c.state
        assert (st.blocks_used, st.acrobatics_used, st.wounded_this_round, st.offensive_used,
                st.half_moves, st.segments_used, st.lost_round) == ((), False, False, False,
                                                                    0, 0, False)
    assert r["bob"].state.wounds < 20  # wounds stay


@pytest.mark.parametrize("kind,options,path", [
    ("dance", {}, "attack.action"),
    ("move", {}, "attack.options.move"),
    ("ready", {}, "attack.weapon"),
])
def test_bad_non_attack_actions_are_input_errors(kind: str, options: Any, path: str) -> None:
    s = duel()
    with pytest.raises(InputError) as err:
        s.system.parse_action(s.roster, "ann", None, None, options, kind=kind)
    assert err.value.path == path
