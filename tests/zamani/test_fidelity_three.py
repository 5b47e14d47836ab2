"""Issue 22, zamani (seed 002): focusing keeps its round apart from its bonus, the bonus
goes to the next action, standing guard's +5 only where its blocking item could be used,
the countdown's one offensive action on any segment (command and fight agree), and the
surprise contest's prompt asks for both dice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from fracas.core.events import ActionChosen, Event, TurnStarted
from fracas.systems.zamani.state import ZamaniTarget
from tests.encounter.scripted import fight

from .helpers import scenario, sheet

MISS = 99


def _fracas(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], input=stdin,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "120"})


def chosen(events: list[Event], actor: str) -> list[str]:
    return [e.action for e in events if isinstance(e, ActionChosen) and e.actor == actor
            and e.action != "sacrifice"]


def _fast_and_slow(**bob: Any) -> Any:
    # Ann: initiative 12, segments 10 and 2; Bob: initiative 5
    return scenario([sheet("ann", "a", attributes={"dexterity": 12}),
                     sheet("bob", "b", attributes={"dexterity": 5}, **bob)])


def test_a_focus_lost_to_a_knock_down_does_not_give_back_the_skipped_round() -> None:
    # seed 002 · Focusing: focusing, Ann skips the round; Bob knocks her prone on segment 5
    # (a controlled attack: Swords 15 + Dexterity 5 = 100%, roll 10, margin 90: X); on her
    # extra segment 2 she is still in the round she chose to skip
    s = _fast_and_slow(skills={"swords": 15})
    plan = {"ann": [{"kind": "focus"}],
            "bob": [{"kind": "attack", "controlled": True, "effect": "prone", "target": "ann"}]}
    state, events = fight(s, [10, MISS, MISS], plan, steps=3)
    assert "prone" in state.roster["ann"].state.conditions
    assert state.roster["ann"].state.focus == ""  # the benefit is lost
    turns = [(e.actor, e.slot) for e in events if isinstance(e, TurnStarted)]
    assert ("ann", "countdown 2 (extra)") in turns
    assert chosen(events, "ann") == ["focus"]  # no attack on segment 2


def _focus_then_move_then_attack(rules: dict[str, Any] | None) -> list[ZamaniTarget]:
    ann = sheet("ann", "a", attributes={"dexterity": 12})
    s = scenario([ann, sheet("bob", "b", attributes={"dexterity": 5})], rules=rules)
    plan = {"ann": [{"kind": "focus"}, {"kind": "focus_use", "focus": "effect"},
                    {"kind": "move", "move": "half"}, {"kind": "attack", "target": "bob"}]}
    _, events = fight(s, [MISS] * 6, plan, steps=6)
    assert chosen(events, "ann")[:4] == ["focus", "focus_use", "move", "attack"]
    return [e for e in events if isinstance(e, ZamaniTarget) and e.who == "Ann"]


def test_the_focus_bonus_goes_to_the_next_action_by_default() -> None:
    # seed 002 · Focusing: "they will get a bonus to the next action": Ann's next action
    # after the focus is a half move, which spends it; her attack later gets no +25 %
    targets = _focus_then_move_then_attack(None)
    assert targets and ("focus", 25) not in targets[0].modifiers
    assert targets[0].value == (5 + 12) * 5


def test_the_focus_bonus_may_wait_for_the_next_attack_roll_as_a_table_option() -> None:
    targets = _focus_then_move_then_attack({"focus_effect": "next_attack"})
    assert targets and ("focus", 25) in targets[0].modifiers


def _guard_behind_cover(tmp_path: Path, rules: dict[str, Any] | None) -> str:
    # Sade shoots (Firearms 10 + Dexterity 5 = 75 %, roll 20: margin 55) at Tomas, Dexterity
    # 3, shield in hand, standing guard behind 80 % cover
    data: dict[str, Any] = {
        "system": "zamani",
        "combatants": [
            {"id": "sade", "name": "Sade", "side": "posse",
             "attributes": {"dexterity": 5, "fitness": 4, "spirit": 4},
             "skills": {"firearms": 10}, "wounds": {"max": 30},
             "weapons": [{"name": "revolver", "rating": 6, "kind": "firearm",
                          "skill": "firearms"}]},
            {"id": "tomas", "name": "Tomas", "side": "gang",
             "attributes": {"dexterity": 3, "fitness": 5, "spirit": 3},
             "skills": {"shield": 6}, "wounds": {"max": 30},
             "shield": {"name": "round shield"}, "in_hand": ["round shield"]}],
        "attack": {"attacker": "sade", "defender": "tomas", "weapon": "revolver",
                   "options": {"cover": True, "guard": "self"}},
        "dice": [20],
    }
    if rules:
        data["rules"] = rules
    path = tmp_path / "guard_cover.yaml"
    path.write_text(yaml.safe_dump(data))
    done = _fracas("attack", str(path), "--json")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_standing_guard_adds_nothing_where_its_shield_cannot_be_used(tmp_path: Path) -> None:
    # seed 002 · Defense: bullets cannot be blocked with a shield, nor a shield used with
    # cover; standing guard needs that shield: Dexterity 3 + cover 4 = 7 ranks, M (x2)
    out = json.loads(_guard_behind_cover(tmp_path, None))
    text = json.dumps(out)
    assert "= 7 ranks" in text and "standing guard gives no bonus here" in text
    assert out["damage"] == 12


def test_the_old_guard_reading_adds_the_bonus_behind_cover_as_an_option(tmp_path: Path
                                                                         ) -> None:
    out = json.loads(_guard_behind_cover(tmp_path, {"guard_bonus": "always"}))
    assert "= 12 ranks" in json.dumps(out) and out["damage"] == 6  # L (x1)


def test_the_countdown_command_and_the_fight_agree_on_the_offensive_action() -> None:
    # seed 002 · Segment & Initiatives: "Only one action of a countdown can be an offensive
    # combat action": the command marks every segment able to hold it, one in all
    done = _fracas("zamani", "countdown", "ann=12", "bob=5", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    data = data.get("data", data)
    ann = [(p["segment"], p["offensive"]) for p in data["places"] if p["name"] == "ann"]
    assert ann == [(10, True), (2, True)] and data["offensive_actions"] == 1
    # ... and the fight lets Ann take it on her extra segment 2, once
    s = _fast_and_slow()
    _, events = fight(s, [MISS, MISS], {"ann": [{"kind": "move", "move": "half"}]}, steps=3)
    assert chosen(events, "ann") == ["move", "attack"]


def test_the_surprise_contest_asks_for_both_of_its_dice(tmp_path: Path) -> None:
    # seed 002 · Surprise: the stealth roll and the target's Fitness roll, two d100s
    fight_file = tmp_path / "ambush.yaml"
    ann = sheet("ann", "a", skills={"swords": 5, "stealth": 6})
    bob = sheet("bob", "b", attributes={"fitness": 4})
    fight_file.write_text(yaml.safe_dump({"system": "zamani", "title": "Ambush",
                                          "combatants": [ann, bob]}))
    script = tmp_path / "moves.txt"
    # both sacrifice nothing; Ann opens with her usual surprise attack (Bob has only his
    # Dexterity: no defense to choose)
    script.write_text("\n\n\n30 55\n")
    done = _fracas("play", str(fight_file), "--seed", "1", "--gm-dice", "typed", "--script",
                   str(script))
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert ("Surprise contest: Ann's stealth roll, then Bob's Fitness roll: d100 twice, "
            "needs Ann at most 55% and beating Bob's margin") in out
    assert "error" not in out.lower()
    assert "> 30 55 ? Ann's sword roll (swords): d100, needs" in out  # both taken: the attack next
