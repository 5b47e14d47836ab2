"""Fight hooks: initiative (table default), actions, reactions, turn and round upkeep."""

from __future__ import annotations

from fracas.core.events import Changed, Rolled
from fracas.core.model import apply_events
from fracas.dice import RandomRoller, ScriptedRoller
from tests.tristat.util import after, example, make, person, run

SWORD = {"name": "sword", "damage": 8, "kind": "melee"}
DAGGER = {"name": "dagger", "damage": 3, "kind": "melee"}


def test_initiative_is_2d6_plus_combat_value_highest_first() -> None:
    scenario = make(person("a", "x", body=2, mind=2, soul=2), person("b", "y"))
    slots, events = scenario.system.initiative(ScriptedRoller([6, 6, 1, 1]), scenario.roster, 1)
    assert [s.candidates for s in slots] == [("a",), ("b",)]  # 12 + 2 = 14 beats 2 + 5 = 7
    rolled = [e.text() for e in events if isinstance(e, Rolled)]
    assert "= 14" in rolled[0] and "= 7" in rolled[1]
    places = {e.target: e.after for e in events if isinstance(e, Changed)}
    assert places == {"a": 1, "b": 2}  # the state keeps the place in the order


def test_initiative_ties_go_to_combat_value_then_a_roll_off() -> None:
    scenario = make(person("a", "x", body=2, mind=2, soul=2), person("b", "y"))
    slots, _ = scenario.system.initiative(ScriptedRoller([6, 3, 3, 3]), scenario.roster, 1)
    assert [s.candidates for s in slots] == [("b",), ("a",)]  # 9 + 2 = 11 = 6 + 5: CV 5 wins
    even = make(person("a", "x"), person("b", "y"))
    slots, events = even.system.initiative(ScriptedRoller([3, 3, 4, 2, 2, 2, 5, 5]),
                                           even.roster, 1)
    assert [s.candidates for s in slots] == [("b",), ("a",)]  # roll-off 4 vs 10
    assert any("roll-off" in e.text() for e in events)


def test_initiative_is_rolled_once_at_the_start_of_the_fight() -> None:
    scenario = make(person("a", "x"), person("b", "y"))
    system = scenario.system
    roster = apply_events(scenario.roster, system.start_fight(RandomRoller(1), scenario.roster))
    _, events = system.initiative(ScriptedRoller([]), roster, 2)
    assert events == ()


def test_extra_attacks_give_more_slots_and_attacks() -> None:
    scenario = make(person("a", "x", attributes={"extra_attacks": 1}, weapons=[SWORD]),
                    person("b", "y"), {"weapon": "sword"})
    slots, _ = scenario.system.initiative(ScriptedRoller([6, 6, 1, 1]), scenario.roster, 1)
    assert [s.candidates for s in slots] == [("a",), ("a",), ("b",)]
    roster = after(scenario, run(scenario, [6, 6]))
    assert scenario.system.actions("a", roster)  # a second attack this round
    roster = after(scenario, run(scenario, [6, 6]))
    roster = roster.replace(roster["a"].evolve(attacks_used=2))
    assert [x for x in scenario.system.actions("a", roster) if x.offensive] == []


def test_one_attack_a_round_then_refreshed_at_end_of_round() -> None:
    scenario = make(person("a", "x", weapons=[SWORD]), person("b", "y"), {"weapon": "sword"})
    system = scenario.system
    roster = after(scenario, run(scenario, [6, 6]))
    assert [x for x in system.actions("a", roster) if x.offensive] == []
    roster = apply_events(roster, system.end_round(ScriptedRoller([]), roster, 1))
    assert roster["a"].state.attacks_used == 0
    assert [x for x in system.actions("a", roster) if x.offensive]


def test_defenses_used_reset_at_end_of_round() -> None:
    scenario = make(person("a", "x", skills={"melee": 5}, weapons=[SWORD]), person("b", "y"),
                    {"weapon": "sword"})
    roster = after(scenario, run(scenario, [1, 2, 6, 6]))
    assert roster["b"].state.defenses_used == 1
    roster = apply_events(roster, scenario.system.end_round(ScriptedRoller([]), roster, 1))
    assert roster["b"].state.defenses_used == 0


def test_actions_cover_weapons_options_grappling_and_total_defense() -> None:
    scenario = make(person("a", "x", weapons=[SWORD, DAGGER]),
                    person("b", "y", armor={"rating": 2}, weapons=[SWORD]))
    actions = scenario.system.actions("a", scenario.roster)
    kinds = {x.kind for x in actions}
    assert kinds == {"attack", "grapple", "disarm", "total_defense"}
    assert {x.weapon for x in actions if x.kind == "attack"} == {"sword", "dagger", None}
    options = {name for x in actions if x.options is not None
               for name in x.options.model_dump(exclude_defaults=True)}
    assert {"vital_target", "chink", "trick_shot", "total_attack", "willpower",
            "two_weapons"} <= options
    (defensive,) = [x for x in actions if not x.offensive]
    assert defensive.kind == "total_defense"


def test_held_actor_may_escape_and_grabber_may_strangle_or_throw() -> None:
    scenario = example("throw.yaml")
    system, roster = scenario.system, scenario.roster
    assert "escape" in {x.kind for x in system.actions("cultist", roster)}
    assert {"strangle", "throw"} <= {x.kind for x in system.actions("brick", roster)}


def test_reactions_offer_willpower_on_the_defense() -> None:
    scenario = example("vampire.yaml")
    assert scenario.attack is not None
    variants = scenario.system.reactions(scenario.attack, scenario.roster)
    assert len(variants) == 2
    assert [v.options.model_dump()["defense_willpower"] for v in variants
            if v.options is not None] == [False, True]


def test_every_action_offered_resolves() -> None:
    for name in ("vampire.yaml", "throw.yaml", "disarm.yaml", "two_weapons.yaml"):
        scenario = example(name)
        for cid in scenario.roster:
            for action in scenario.system.actions(cid, scenario.roster):
                result = scenario.system.resolve(RandomRoller(7), action, scenario.roster)
                assert result.events


def test_initiative_dice_are_a_table_default() -> None:
    scenario = make(person("a", "x", body=2, mind=2, soul=2), person("b", "y"),
                    rules={"initiative": {"dice": 1, "add_combat_value": False}})
    slots, events = scenario.system.initiative(ScriptedRoller([6, 5]), scenario.roster, 1)
    assert [s.candidates for s in slots] == [("a",), ("b",)]
    assert [e.value for e in events if isinstance(e, Rolled)] == [6, 5]
    assert {e.target: e.after for e in events if isinstance(e, Changed)} == {"a": 1, "b": 2}
