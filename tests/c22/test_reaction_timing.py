"""Issue 22, c22 (seed 000): the defender chooses its reaction once Accuracy and damage
are known ("Once the extent of damage the attack deals is determined, the target has a few
options"), people and policies alike: in fights (``encounter.engine.step``), in live play
(``fracas play --script``) and in a single attack (``fracas attack``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.dice import ScriptedRoller
from fracas.encounter.engine import Encounter
from fracas.encounter.policies import POLICIES
from fracas.encounter.session_log import load_session
from fracas.registry.scenarios import scenario_from_mapping
from tests.c22.util import person

ASH = person("a", "x", name="Ash", deck=["2S", "2H", "8S", "8H", "4S", "RJ"],
             weapons=[{"name": "dagger", "damage": 4}])
# Armor 2, Block rank 3: a full hit (4) is stopped only by a successful Block (+2 Armor)
BO = person("b", "y", name="Bo", armor=2, skills={"block": 3}, deck=["6C", "6D", "4C"],
            weapons=[{"name": "dagger", "damage": 4}])


def duel(policy: str, rules: dict[str, Any] | None = None) -> Any:
    data: dict[str, Any] = {"system": "c22", "combatants": [ASH, {**BO, "policy": policy}]}
    if rules:
        data["rules"] = rules
    return scenario_from_mapping(data)


def first_attack(policy: str, hand: list[str], bo: list[str],
                 rules: dict[str, Any] | None = None) -> tuple[Encounter, list[str]]:
    """Initiative 4S against 4C (Ash first), then Ash's hand; Bo's cards as given."""
    roller = ScriptedRoller({"a": ["4S", *hand], "b": ["4C", *bo]})
    fight = Encounter(duel(policy, rules), roller=roller)
    events = fight.step()
    assert roller.leftover() == {}
    return fight, [e.text() for e in events]


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_no_policy_spends_a_card_on_a_block_that_cannot_succeed(policy: str) -> None:
    # the red joker as weapon card: Accuracy 14; Block needs card + 3 >= 14 and Bo's number
    # cards are 6C and 6D: no reaction, no card drawn, the hit's 4 less Armor 2
    fight, texts = first_attack(policy, ["RJ", "2H"], [])
    bo = fight.state.roster["b"].state
    assert bo.health == 28 and "6C" in bo.draw_pile
    assert any("sees a full hit coming (Accuracy 14, 4 damage) and chooses no reaction" in t
               for t in texts)


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_every_policy_blocks_a_hit_its_block_is_sure_to_stop(policy: str) -> None:
    # 8S: Accuracy 8, a full hit; Block: 6 + 3 = 9 >= 8 on either card left: +2 Armor, 0
    fight, texts = first_attack(policy, ["8S", "2H"], ["6C"])
    assert fight.state.roster["b"].state.health == 30
    assert any("(Accuracy 8, 4 damage) and chooses Block" in t for t in texts)


def test_the_plan_option_keeps_a_plan_chosen_before_the_attack() -> None:
    # reaction_timing: plan — the cautious defender plans Block on a hit before it sees the
    # red joker, and spends a card on it
    fight, _ = first_attack("cautious", ["RJ", "2H"], ["6C"], {"reaction_timing": "plan"})
    assert "6C" in fight.state.roster["b"].state.discard


def play_duel(tmp_path: Path, moves: str, *options: str) -> str:
    """``fracas play`` of Ash against Bo (seed 1), the moves typed from a script."""
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump({"system": "c22", "title": "a dagger against a blocker",
                                    "combatants": [ASH, BO]}))
    script = tmp_path / "moves.txt"
    script.write_text(moves)
    done = subprocess.run([sys.executable, "-m", "fracas", "play", str(path), "--seed", "1",
                           "--gm-dice", "typed",
                           "--script", str(script), *options],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_live_play_asks_the_reaction_after_the_weapon_card_with_accuracy_and_damage(
        tmp_path: Path) -> None:
    # initiative cards, Ash's usual attack (a), Ash's hand, the split, Bo's reaction (none), quit
    out = play_duel(tmp_path, "4S\n4C\na\nRJ,2H\n1\n1\nq\n",
                    "--log", str(tmp_path / "log.jsonl"))
    cards = out.index("Ash's turn: the next 2 cards")
    split = out.index("which is the weapon card?")
    reaction = out.index("Bo's reaction to Ash's attack: a full hit, Accuracy 14 against "
                         "Avoidance 5, 4 damage before Armor")
    assert cards < split < reaction
    assert "Block: succeeds on 0 of 2 number cards" in out
    assert "Bo loses 2" in out and "error" not in out.lower()
    # the log's inputs in the order asked: the reaction comes after the hand is drawn
    saved = load_session(tmp_path / "log.jsonl")
    assert [e.get("decision", e["kind"]) for e in saved.entries] == [
        "dice", "dice", "action", "dice", "split", "reaction"]


def test_fracas_attack_lets_the_defender_choose_once_the_damage_is_known(tmp_path: Path
                                                                         ) -> None:
    def attack(hand: list[str], bo: list[str]) -> dict[str, Any]:
        scenario = {"system": "c22", "combatants": [ASH, BO],
                    "attack": {"attacker": "a", "defender": "b", "weapon": "dagger"},
                    "cards": {"a": hand, "b": bo}}
        path = tmp_path / "attack.yaml"
        path.write_text(yaml.safe_dump(scenario))
        done = subprocess.run([sys.executable, "-m", "fracas", "attack", str(path), "--json"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        out: dict[str, Any] = json.loads(done.stdout)
        return out

    # no reaction named: Bo blocks the full hit its Block is sure to stop (6C + 3 >= 8)
    blocked = attack(["8S", "2H"], ["6C"])
    assert blocked["damage"] == 0 and blocked["defender"]["discard"] == ["6C"]
    # and spends no card against the red joker (Accuracy 14)
    hopeless = attack(["RJ", "2H"], [])
    assert hopeless["damage"] == 2 and hopeless["defender"]["discard"] == []


def test_a_split_chosen_at_the_table_reads_in_the_tables_words(tmp_path: Path) -> None:
    # Ash takes the other split (2H as the weapon card): the narration says who chose it,
    # in words, not the option's code key
    out = play_duel(tmp_path, "4S\n4C\na\nRJ,2H\n2\n1\nq\n", "--verbose")
    assert "Ash takes 2H as the weapon card and RJ as the maneuver card (chosen by Ash)" in out
    assert "weapon_card" not in out
