"""Fight hooks: initiative from number cards, the actions an actor has, reactions,
effects at the start of a turn, and whole fights with decks that keep cycling."""

from __future__ import annotations

from collections.abc import Callable

import yaml

from fracas.core.model import Action, Roster, apply_events
from fracas.dice import RandomRoller, ScriptedRoller
from fracas.registry.scenarios import scenario_from_mapping
from fracas.systems.c22.sheet import Options, ReactionPlan
from tests.c22.util import EXAMPLES, example, make, person


def order(s: object, cards: dict[str, list[str]], roster: Roster | None = None
          ) -> list[str]:
    slots, _ = s.system.initiative(ScriptedRoller(cards), roster or s.roster, 1)  # type: ignore[attr-defined]
    return [slot.candidates[0] for slot in slots]


def test_initiative_higher_number_card_first() -> None:
    s = make()
    assert order(s, {"a": ["4S"], "b": ["8H"]}) == ["b", "a"]


def test_initiative_ties_by_suit_spades_clubs_diamonds_hearts() -> None:
    s = make(others=(person("c", "z"), person("d", "z")))
    cards = {"a": ["6H"], "b": ["6D"], "c": ["6S"], "d": ["6C"]}
    assert order(s, cards) == ["c", "d", "b", "a"]


def test_initiative_player_character_beats_npc_on_an_exact_tie() -> None:
    s = make(person("a", "x"), person("b", "y", player=True))
    slots, events = s.system.initiative(ScriptedRoller({"a": ["5S"], "b": ["5S"]}),
                                        s.roster, 1)
    assert [x.candidates[0] for x in slots] == ["b", "a"]
    assert "a player character beats an NPC" in events[-1].text()


def test_initiative_passes_over_jokers_and_reshuffles_after() -> None:
    s = make()
    slots, events = s.system.initiative(ScriptedRoller({"a": ["RJ", "2S"], "b": ["4S"]}),
                                        s.roster, 1)
    assert [x.candidates[0] for x in slots] == ["b", "a"]
    roster = apply_events(s.roster, events)
    assert roster["a"].state.discard == () and roster["a"].state.initiative_card == "2S"
    assert roster["b"].state.discard == ("4S",)


def test_initiative_drawn_every_round_unless_the_default_says_once() -> None:
    s = make(rules={"initiative_every_round": False})
    _, events = s.system.initiative(ScriptedRoller({"a": ["8S"], "b": ["2S"]}), s.roster, 1)
    roster = apply_events(s.roster, events)
    slots, again = s.system.initiative(ScriptedRoller({}), roster, 2)  # no card drawn
    assert [x.candidates[0] for x in slots] == ["a", "b"]
    assert "kept from round 1" in again[-1].rule


def test_unconscious_combatants_take_no_initiative_and_no_action() -> None:
    s = make()
    b = s.roster["b"]
    roster = s.roster.replace(b.evolve(health=0))
    assert order(s, {"a": ["4S"]}, roster) == ["a"]
    assert s.system.actions("b", roster) == []


def test_actions_list_every_weapon_and_maneuver_attacks_first() -> None:
    s = make(person("a", "x", weapons=[{"name": "blade", "damage": 10},
                                       {"name": "pistol", "damage": 8, "range": 10}]))
    acts = s.system.actions("a", s.roster)
    attacks = [x for x in acts if x.kind == "attack"]
    assert len(attacks) == 2 * 4  # none, fish in a barrel, heavy swing, evasive
    assert acts[: len(attacks)] == attacks
    assert {x.weapon for x in attacks} == {"blade", "pistol"}
    evasive = [x for x in acts if x.kind == "move"]
    assert evasive and not evasive[-1].offensive


def test_actions_approach_an_enemy_out_of_reach() -> None:
    s = make(person("a", "x", position=[0, 0]), person("b", "y", position=[3, 0]),
             action="move")
    attacks = [x for x in s.system.actions("a", s.roster) if x.kind == "attack"]
    assert attacks and all(isinstance(x.options, Options) and len(x.options.path) == 2
                           for x in attacks)
    far = make(person("a", "x", position=[0, 0]), person("b", "y", position=[6, 0]),
               action="move")
    acts = far.system.actions("a", far.roster)
    dash = [x for x in acts if x.kind == "attack"]
    assert dash and all(x.options.maneuver == "dash" for x in dash)  # type: ignore[union-attr]
    very_far = make(person("a", "x", position=[0, 0]), person("b", "y", position=[20, 0]),
                    action="move")
    moves = [x for x in very_far.system.actions("a", very_far.roster)]
    assert moves[0].kind == "move" and moves[0].options.path[-1] == (6, 0)  # type: ignore[union-attr]


def test_every_listed_action_resolves() -> None:
    for s in (make(), make(person("a", "x", position=[0, 0]),
                           person("b", "y", position=[6, 0]), action="move")):
        for action in s.system.actions("a", s.roster):
            s.system.check_action(action, s.roster)
            s.system.resolve(RandomRoller(3), action, s.roster)


def test_reactions_offer_each_reaction_on_the_defenders_sheet_under_the_plan_option() -> None:
    raw = yaml.safe_load((EXAMPLES / "one-tough-lizard.yaml").read_text())
    s = scenario_from_mapping({**raw, "rules": {"reaction_timing": "plan"}})
    assert s.attack is not None
    # the default timing: an attack leaving the reaction to the defender (as a fight's
    # are) has no variant; one naming a plan lists it, then choose, then the others
    known = example("one-tough-lizard.yaml")
    assert known.attack is not None
    left = Action(known.attack.actor, known.attack.target, known.attack.weapon, "attack",
                  known.attack.options.model_copy(update={"reaction": ReactionPlan()}))
    assert known.system.reactions(left, known.roster) == [left]
    assert [str(v.options.reaction)  # type: ignore[union-attr]
            for v in known.system.reactions(known.attack, known.roster)] == [
        "block", "choose", "none", "on a hit none, on a graze block",
        "on a hit block, on a graze none"]
    variants = s.system.reactions(s.attack, s.roster)
    plans = [(v.options.reaction.on_hit, v.options.reaction.on_graze)  # type: ignore[union-attr]
             for v in variants]
    assert plans == [("none", "none"), ("none", "block"), ("block", "none"),
                     ("block", "block")]
    s = make(b=person("b", "y", skills={"dodge": 1, "parry": 2, "advance": 0, "block": 1}),
             rules={"reaction_timing": "plan"})
    assert s.attack is not None
    got = {(v.options.reaction.on_hit, v.options.reaction.on_graze)  # type: ignore[union-attr]
           for v in s.system.reactions(s.attack, s.roster)}
    names = ["none", "block", "parry", "dodge", "advance"]
    assert got == {(h, g) for h in names for g in names}


def fight(s: object, rounds: int, seed: int, pick: Callable[[list[object]], object]
          ) -> Roster:
    """A plain fight loop: initiative each round, each actor takes an action."""
    system, roster = s.system, s.roster  # type: ignore[attr-defined]
    rng = RandomRoller(seed)
    for n in range(1, rounds + 1):
        slots, events = system.initiative(rng, roster, n)
        roster = apply_events(roster, events)
        for slot in slots:
            actor = slot.candidates[0]
            roster = apply_events(roster, system.start_turn(rng, actor, roster))
            acts = system.actions(actor, roster)
            if not acts:
                continue
            action = pick(acts)
            if action.kind == "attack":  # type: ignore[attr-defined]
                action = system.reactions(action, roster)[-1]
            roster = apply_events(roster, system.resolve(rng, action, roster).events)
    return roster


def test_a_long_fight_keeps_every_card_in_each_deck() -> None:
    s = make(person("a", "x", health=500, skills={"block": 1}),
             person("b", "y", health=500, skills={"dodge": 1}))
    roster = fight(s, 40, 7, lambda acts: acts[0])
    for c in roster.values():
        cards = sorted(c.state.draw_pile + c.state.discard)
        assert cards == sorted(s.roster[c.id].state.draw_pile)  # 22 cards, none lost


def test_a_fight_on_the_grid_ends_with_someone_unconscious() -> None:
    s = make(person("a", "x", position=[0, 0], health=25),
             person("b", "y", position=[9, 0], health=25, skills={"parry": 1}),
             action="move")
    roster = fight(s, 30, 11, lambda acts: acts[0])
    assert min(c.state.health for c in roster.values()) == 0


def test_a_combatant_far_away_dashes_toward_the_enemy_in_one_search() -> None:
    """Fuzz finding (issue 17): position [10000, 3] made every turn search once per space of
    the distance (minutes a fight). The Dash now reaches as far as in one search."""
    import time

    from fracas.encounter.engine import Encounter, setup_from_scenario
    from fracas.registry.scenarios import scenario_from_mapping
    from fracas.systems.c22.fight import move_choices

    s = scenario_from_mapping({"system": "c22", "combatants": [
        person("a", "x", position=[0, 0]), person("b", "y", position=[10000, 3])]})
    grid = s.system.conf.grid  # type: ignore[attr-defined]
    move = move_choices(s.system, "a", s.roster)[0]  # type: ignore[arg-type]
    assert move.kind == "move" and move.options.maneuver == "dash"
    end = move.options.path[-1]
    # the Dash moves its whole allowance straight toward the enemy
    gained = grid.distance((0, 0), (10000, 3)) - grid.distance(end, (10000, 3))
    assert gained == len(move.options.path) > 0
    started = time.monotonic()
    fight = Encounter(s, setup_from_scenario(s, max_rounds=20), seed=1)
    state = fight.run()
    assert state.over and state.winner is None and state.round == 20
    assert time.monotonic() - started < 60
