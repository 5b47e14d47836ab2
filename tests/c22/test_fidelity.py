"""Issue 15 (c22, seed 000): the reaction is chosen once the extent of damage is known (a
plan per extent), citations of options the seed does not state, reactions that combine
effects, damage dealt and Health lost in --json; through the fight loop or ``attack``."""

from __future__ import annotations

import json
from itertools import permutations
from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.core.events import Event
from fracas.dice import RandomRoller, ScriptedRoller
from fracas.encounter.engine import Encounter
from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping
from tests.c22.util import EXAMPLES, make, of_type, person, run


def _duel(defender_policy: str) -> Any:
    """A 4-damage dagger against Armor 2, Avoidance 5: a graze (2 left) is stopped by the
    Armor alone, a full hit (4) only with a successful Block (+2 Armor). The table option
    ``reaction_timing: plan``: the defender's policy picks a plan per extent before the
    attack (the default, ``known``, is in test_reaction_timing)."""
    a = person("a", "x", deck=["2S", "2H", "8S", "8H", "4S"],
               weapons=[{"name": "dagger", "damage": 4}])
    b = person("b", "y", armor=2, skills={"block": 3}, deck=["6C", "6D", "4C"],
               policy=defender_policy)
    return scenario_from_mapping({"system": "c22", "combatants": [a, b],
                                  "rules": {"reaction_timing": "plan"}})


def _texts(events: tuple[Event, ...] | list[Event]) -> list[str]:
    return [e.text() for e in events]


def test_a_cautious_defender_plans_block_on_a_hit_and_nothing_on_a_graze() -> None:
    s = _duel("cautious")
    assert s.system.reactions is not None
    # initiative: 4S v 4C, spades first; A draws 2S and 2H: a graze (Accuracy 2 <= 5)
    roller = ScriptedRoller({"a": ["4S", "2S", "2H"], "b": ["4C"]}, fallback=RandomRoller(3))
    fight = Encounter(s, roller=roller)
    events = fight.step()
    b = fight.state.roster["b"]
    assert b.state.discard == ("4C",)  # no card drawn for a reaction on a graze
    assert any("sees a graze coming and chooses no reaction" in t for t in _texts(events))
    assert b.state.health == 30


def test_on_a_full_hit_the_same_defender_blocks() -> None:
    s = _duel("cautious")
    # A draws 8S and 2H: 8S is the weapon card, a full hit (8 > 5) for 4; B blocks with
    # 6C + 3 = 9 >= 8: Armor 4, no damage
    roller = ScriptedRoller({"a": ["4S", "8S", "2H"], "b": ["4C", "6C"]})
    fight = Encounter(s, roller=roller)
    events = fight.step()
    assert roller.leftover() == {}
    assert any("sees a full hit coming and chooses Block" in t for t in _texts(events))
    assert fight.state.roster["b"].state.health == 30


def test_a_scenario_gives_a_reaction_plan_per_extent_to_attack_and_odds() -> None:
    options = {"weapon_card": "first", "reaction": {"on_hit": "block", "on_graze": "none"}}
    s = make(b=person("b", "y", skills={"block": 1}), options=options)
    grazed = run(s, {"a": ["4S", "6H"]})  # Accuracy 4 <= 5: a graze, no card for B
    assert dict(grazed.details)["reaction"] == "none" and grazed.damage == 5
    hit = run(s, {"a": ["8S", "6H"], "b": ["8C"]})  # a hit: B blocks, 8 + 1 >= 8
    assert dict(hit.details)["reaction"] == "succeeded" and hit.damage == 8


def test_a_plan_naming_a_reaction_the_defender_lacks_names_the_extent() -> None:
    with pytest.raises(InputError) as err:
        make(b=person("b", "y", skills={"block": 1}),
             options={"reaction": {"on_hit": "block", "on_graze": "dodge"}})
    assert err.value.path == "attack.options.reaction.on_graze"
    with pytest.raises(InputError) as err:
        make(options={"reaction": "duck"})
    assert err.value.path is not None and err.value.path.startswith("attack.options.reaction")


def test_the_attackers_split_does_not_read_the_defenders_reaction() -> None:
    # every hand of two cards, every reaction plan: the split is the same as with none
    b = person("b", "y", avoidance=3, skills={"block": 0, "parry": 2, "dodge": 1, "advance": 0},
               deck=["2S", "4S", "5S", "6S", "8S", "8D"])
    s = make(b=b, options={"maneuver": "heavy swing"})
    assert s.attack is not None
    for first, second in permutations(["2S", "4H", "6H", "8C", "RJ"], 2):
        splits = set()
        for variant in s.system.reactions(s.attack, s.roster):
            r = ScriptedRoller({"a": [first, second]}, fallback=RandomRoller(1)).run(
                s.system.resolve, variant, s.roster)
            (split,) = of_type(r.events, "C22Split")
            splits.add((split.weapon_card, split.maneuver_card))
        assert len(splits) == 1, (first, second, splits)


# -- reactions that combine effects ----------------------------------------------------------
def test_a_reaction_override_with_several_effects_applies_and_says_each() -> None:
    rules = {"reactions": {"parry": {"armor": 1, "damage": 3, "halve": True}}}
    s = make(b=person("b", "y", armor=2, skills={"parry": 2}),
             options={"weapon_card": "first", "reaction": "parry"}, rules=rules)
    r = run(s, {"a": ["8S", "6H"], "b": ["8C"]})  # a hit for 10; parry 8 + 2 >= 8
    steps = [(e.step, e.before, e.after) for e in of_type(r.events, "C22Reduced")]
    assert steps == [("Parry", 10, 7), ("Parry", 7, 3), ("Armor", 3, 0)]
    assert any("Parry: +1 Armor against this attack" in t for t in _texts(r.events))
    assert r.damage == 0


# -- citations ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("maneuver", "cards", "rule"), [
    ("fish in a barrel", ["8S", "6D"], "c22 table default · maneuvers"),  # raised: ours
    ("fish in a barrel", ["8S", "2H"], "seed 000 · Example: One Tough Lizard"),  # base
    ("heavy swing", ["8S", "2C"], "table default · c22 maneuvers"),  # base
    ("heavy swing", ["8S", "6H"], "c22 table default · maneuvers"),  # raised: ours
    ("evasive", ["8S", "2H"], "c22 table default · maneuvers"),  # base: ours
    ("evasive", ["8S", "2C"], "table default · c22 maneuvers"),  # raised
])
def test_a_maneuver_option_cites_its_source(maneuver: str, cards: list[str], rule: str
                                            ) -> None:
    s = make(options={"weapon_card": "first", "maneuver": maneuver})
    r = run(s, {"a": cards})
    (man,) = of_type(r.events, "C22Maneuver")
    assert man.rule == rule
    assert not any(e.rule.startswith("public fact · Maneuvers") for e in r.events
                   if "maneuver" in e.text().lower() and "plays no" not in e.text())


def test_a_maneuver_a_scenario_changes_cites_the_table_default() -> None:
    s = make(options={"weapon_card": "first", "maneuver": "fish in a barrel"},
             rules={"maneuvers": {"fish_in_a_barrel": {"base": {"pierce": 4}}}})
    (man,) = of_type(run(s, {"a": ["8S", "2H"]}).events, "C22Maneuver")
    assert man.rule == "c22 table default · maneuvers"


def test_the_worked_examples_odds_use_only_what_the_seed_states() -> None:
    out = CliRunner().invoke(app, ["odds", str(EXAMPLES / "one-tough-lizard.yaml"),
                                   "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["details"]["maneuver"] == {"base": "1"}


# -- --json: damage dealt and Health lost ------------------------------------------------------
def test_attack_json_gives_the_damage_dealt_and_the_health_lost(tmp_path: Any) -> None:
    path = tmp_path / "low.yaml"
    path.write_text(json.dumps({
        "system": "c22", "combatants": [person("a", "x"), person("b", "y", health=3)],
        "attack": {"attacker": "a", "defender": "b", "weapon": "blade",
                   "options": {"weapon_card": "first"}},
        "cards": {"a": ["8S", "2H"]}}))
    out = CliRunner().invoke(app, ["attack", str(path), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["details"]["damage_dealt"] == 10 and data["details"]["health_lost"] == 3
    assert data["damage"] == 3
