"""Issue 22, tristat (seed 003): two-weapon pairs follow the pair the first attack declared,
willpower on every roll the target really makes (the Body check too, no defense during a
total attack), and flanking as a table option. Through ``encounter.engine.step`` and the
real ``fracas attack`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from fracas.core.events import ActionChosen, Event, Total
from fracas.core.model import Action, Roster
from fracas.core.scenario import Scenario
from fracas.core.system import RuleSystem
from fracas.dice.rollers import Roller, ScriptedRoller
from fracas.encounter.engine import FightSetup, step
from fracas.encounter.modes import Live
from fracas.encounter.state import FightState
from tests.encounter.scripted import Scripted, Want
from tests.tristat.util import EXAMPLES, make, person

LEFT = {"name": "left sword", "damage": 7, "kind": "melee"}
RIGHT = {"name": "right sword", "damage": 7, "kind": "melee"}
SWORD = {"name": "sword", "damage": 8, "kind": "melee"}
MISS = [6, 6]


class Recorder(Scripted):
    """The scripted policy that also keeps every menu and every reaction list it is shown;
    ``reacts`` names the option fields its reaction turns on (else no reaction)."""

    def __init__(self, plan: Mapping[str, list[Want]], reacts: tuple[str, ...] = ()):
        super().__init__(plan)
        self.menus: list[tuple[str, list[Action]]] = []
        self.reactions: list[list[Action]] = []
        self.reacts = reacts

    def choose(self, roller: Roller, system: RuleSystem, actor: str, actions: list[Action],
               roster: Roster) -> Action:
        self.menus.append((actor, list(actions)))
        return super().choose(roller, system, actor, actions, roster)

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        self.reactions.append(list(variants))
        for v in variants:
            if all(getattr(v.options, name) for name in self.reacts):
                return v
        return variants[0]


def play(s: Scenario, dice: list[int], who: Recorder, steps: int
         ) -> tuple[FightState, list[Event]]:
    """``steps`` slots of a fight, every combatant controlled by ``who``."""
    setup = FightSetup(s.system, tuple((cid, "aggressive") for cid in s.roster), 50)
    roller, state, events = ScriptedRoller(dice), FightState(s.roster), []
    for _ in range(steps):
        state, new = step(roller, setup, state, Live(dict.fromkeys(s.roster, who)))
        events += new
        if state.over:
            break
    return state, events


def totals(events: list[Event], name: str) -> list[Total]:
    return [e for e in events if isinstance(e, Total) and e.name == name]


def pair_fight() -> Scenario:
    """Kit (a sword in each hand) against two guards; initiative: Kit, then b, then c."""
    return make(person("a", "x", skills={"melee": 2}, weapons=[LEFT, RIGHT]),
                person("b", "y", weapons=[SWORD]), others=(person("c", "y", weapons=[SWORD]),))


FIRST = [6, 6, 1, 1, 2, 2]  # initiative 2d6 each: a 12, b 2, c 4


def follow_ups(menu: list[Action]) -> list[tuple[str | None, str | None]]:
    return [(a.target, getattr(a.options, "two_weapons", None)) for a in menu]


def test_a_pair_declared_at_one_target_keeps_its_second_attack_on_that_target() -> None:
    who = Recorder({"a": [{"kind": "attack", "target": "b", "weapon": "left sword",
                           "two_weapons": "same_target"}]})
    _, events = play(pair_fight(), FIRST + MISS + MISS, who, steps=2)
    second = who.menus[1][1]
    # the second-weapon slot offers one follow-up: at b, declared same_target; not at c
    # as a "two targets" attack still counted at −4 for the first, and not twice
    assert follow_ups(second) == [("b", "same_target")]
    assert [t.value for t in totals(events, "A's attack target")] == [5 + 2 - 4] * 2


def test_a_fight_offers_the_two_target_pair_and_its_second_attack_goes_elsewhere() -> None:
    who = Recorder({"a": [{"kind": "attack", "target": "b", "weapon": "left sword",
                           "two_weapons": "two_targets"}]})
    _, events = play(pair_fight(), FIRST + MISS + MISS, who, steps=2)
    (_, first), (_, second) = who.menus[:2]
    declared = {(a.target, a.weapon) for a in first
                if getattr(a.options, "two_weapons", None) == "two_targets"}
    assert declared >= {("b", "left sword"), ("c", "left sword"), ("b", "right sword")}
    assert follow_ups(second) == [("c", "two_targets")]
    # both attacks at −6 (Combat Value 5 + Melee 2 − 6), the second on c
    assert [t.value for t in totals(events, "A's attack target")] == [1, 1]
    assert [e.target for e in events if isinstance(e, ActionChosen)] == ["b", "c"]


def disarm_fight(energy: int = 50) -> Scenario:
    vex = person("a", "x", skills={"melee": 3}, weapons=[SWORD])
    ogre = person("b", "y", body=9, energy=energy,
                  weapons=[{"name": "maul", "damage": 12, "kind": "melee", "hands": 2}])
    return make(vex, ogre)


def test_willpower_is_offered_and_spent_on_the_body_check_of_a_melee_disarm() -> None:
    # initiative a 12 + 5, b 2 + 6; a disarms (5 + Melee 3 − 2 = 6, rolls 2); the ogre
    # defends (Defense Value 6 + two hands 1 = 7, rolls 12: fails); its Body check: Body 9
    # + willpower 1 = 10, rolls 5 + 5 = 10: it holds on
    who = Recorder({"a": [{"kind": "disarm"}]}, reacts=("body_check_willpower",))
    state, events = play(disarm_fight(), [6, 6, 1, 1, 1, 1, 6, 6, 5, 5], who, steps=1)
    offered = {tuple(n for n in ("defense_willpower", "body_check_willpower")
                     if getattr(v.options, n)) for v in who.reactions[0]}
    assert offered == {(), ("defense_willpower",), ("body_check_willpower",),
                       ("defense_willpower", "body_check_willpower")}
    check = totals(events, "B's Body check")
    assert check and ("willpower", 1) in check[0].parts and check[0].value == 10
    assert state.roster["b"].state.energy == 50 - 5
    assert state.roster["b"].state.loosened == "maul"


def test_both_willpowers_need_the_energy_for_both() -> None:
    who = Recorder({"a": [{"kind": "disarm"}]})
    play(disarm_fight(energy=7), [6, 6, 1, 1, 1, 1, 6, 6, 5, 5], who, steps=1)
    assert len(who.reactions[0]) == 3  # none, defense, Body check: not both (10 Energy)


def test_no_willpower_on_a_defense_is_offered_during_a_total_attack() -> None:
    s = make(person("a", "x", weapons=[SWORD]), person("b", "y", weapons=[SWORD]))
    # initiative: b 12, a 2; b attacks on a total attack (misses), then a attacks b, who
    # may make no defense roll: nothing to spend willpower on, so no reaction is asked
    who = Recorder({"b": [{"kind": "attack", "weapon": "sword", "total_attack": True}],
                    "a": [{"kind": "attack", "weapon": "sword"}]})
    play(s, [1, 1, 6, 6, *MISS, 1, 2], who, steps=2)
    asked = [v[0].target for v in who.reactions]
    assert asked == ["a"]  # only a, defending against b's total attack, was asked


def test_flanking_applies_in_fights_under_the_ally_table_option() -> None:
    def defense(rules: dict[str, Any] | None) -> list[Total]:
        s = make(person("a", "x", weapons=[SWORD]), person("b", "y", weapons=[SWORD]),
                 others=(person("c", "x", weapons=[SWORD]),), rules=rules)
        # a (12) hits b (3 ≤ 5); b's defense rolls 12
        _, events = play(s, [6, 6, 1, 1, 2, 2, 1, 2, 6, 6], Recorder({}), steps=1)
        return totals(events, "B's defense target")

    flanked = defense({"flanking": "ally"})[0]
    assert flanked.value == 5 - 1
    assert any("flanked by A and C" in name for name, _ in flanked.parts)
    assert defense(None)[0].value == 5  # the default: only a declared `flanked`


def test_fracas_attack_adds_willpower_to_the_body_check(tmp_path: Path) -> None:
    scenario = yaml.safe_load((EXAMPLES / "disarm.yaml").read_text())
    scenario["attack"]["options"] = {"body_check_willpower": True}
    scenario["dice"] = [3, 4, 5, 3, 5, 5]  # Body check 10 > 9, but ≤ 9 + 1
    path = tmp_path / "disarm.yaml"
    path.write_text(yaml.safe_dump(scenario))
    done = subprocess.run([sys.executable, "-m", "fracas", "attack", str(path), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["outcome"] == "weapon_kept"
    assert out["defender"]["energy"] == 30 - 5
    ranged = dict(scenario, attack={**scenario["attack"],
                                    "options": {"body_check_willpower": True,
                                                "no_body_check": True}})
    path.write_text(yaml.safe_dump(ranged))
    bad = subprocess.run([sys.executable, "-m", "fracas", "attack", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "attack.options.body_check_willpower" in bad.stderr
    assert "Traceback" not in bad.stderr
