"""Issue 22, genesys (seed 004): a new Critical Injury each time wounds go past the
threshold (the old reading an option), one truth about ``threshold_injury`` on the docs
page, "boost ally" boosting the next allied active character's check, and a table option
that lets the players spend an NPC's threat; through ``fracas attack``, ``fracas play
--script`` and ``encounter.engine.step``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from fracas.core.model import apply_events
from fracas.dice import RandomRoller, ScriptedRoller
from fracas.encounter.engine import FightSetup, step
from fracas.encounter.state import FightState
from fracas.systems.genesys import SYSTEM
from fracas.systems.genesys.events import GenesysRolled
from tests.genesys.helpers import pc, scenario
from tests.genesys.test_attack import SWORD

DOCS = Path(__file__).resolve().parents[2] / "docs" / "systems" / "genesys.md"


def _fracas(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "120"})


def _attack_file(tmp_path: Path, defender: dict[str, Any], dice: list[Any],
                 rules: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
                 others: list[dict[str, Any]] | None = None,
                 weapon: dict[str, Any] = SWORD) -> dict[str, Any]:
    data = {"system": "genesys", "rules": rules or {},
            "combatants": [{"id": "a", "name": "Ana", "side": "heroes", **pc(weapons=[weapon])},
                           {"id": "b", "name": "Bo", "side": "villains", **defender},
                           *(others or [])],
            "attack": {"attacker": "a", "defender": "b", "weapon": weapon["name"],
                       "options": options or {}},
            "dice": dice}
    path = tmp_path / "attack.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    done = _fracas("attack", str(path), "--json")
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_wounds_past_the_threshold_again_give_a_new_critical_injury(tmp_path: Path) -> None:
    # seed 004 · Step 6: "because the target suffers a number of wounds greater than its
    # wound threshold": Bo is at 6 wounds of a threshold of 5; the sword's 5 + 2 successes
    # and 4 successes less soak 3 = 6 more wounds, and a Critical Injury (d100 10)
    out = _attack_file(tmp_path, pc(wound_threshold=5, wounds=6), ["ss ss", 10])
    assert out["outcome"] == "critical injury"
    assert out["defender"]["wounds"] == 6 + 6
    assert len(out["defender"]["critical_injuries"]) == 1
    assert "already past its wound threshold" in json.dumps(out["events"])


def test_no_new_critical_injury_past_the_threshold_is_a_table_option(tmp_path: Path) -> None:
    out = _attack_file(tmp_path, pc(wound_threshold=5, wounds=6), ["ss ss"],
                       rules={"threshold_injury_when_incapacitated": False})
    assert out["outcome"] == "plain hit" and out["defender"]["critical_injuries"] == []


def test_the_docs_page_gives_one_default_for_threshold_injury() -> None:
    text = DOCS.read_text(encoding="utf-8")
    default = SYSTEM.load_yaml("defaults.yaml")["threshold_injury"]
    said = re.findall(r"table default\s+`threshold_injury:\s*(\w+)`", text)
    rows = re.findall(r"^\| `threshold_injury` \| `(\w+)` \|", text, re.M)
    assert said and rows and set(said) == set(rows) == {default}


def _with_ally(boost: str) -> Any:
    ally = {"id": "cy", "name": "Cy", **pc(), "side": "heroes"}
    return scenario(pc(weapons=[SWORD]), pc(), options={"spend": [boost],
                                                        "advantage_policy": "none"},
                    others=[ally], dice=["s a"])


def test_boost_ally_gives_the_next_allied_active_character_a_boost_die() -> None:
    # seed 004 · Table I.6-2 (Step 4): "a boost die on the next allied active character's
    # check": Ana hits with one advantage and spends it so; Cy's next check has the die
    sc = _with_ally("boost_ally")
    assert sc.attack is not None
    res = ScriptedRoller(sc.pins()).run(sc.system.resolve, sc.attack, sc.roster)
    roster = apply_events(sc.roster, res.events)
    assert roster["cy"].state.next_check == ("boost",)
    assert roster["a"].state.next_check == () and roster["b"].state.next_check == ()
    # ... and Cy's attack in the fight rolls it (through the fight loop)
    setup = FightSetup(sc.system, tuple((cid, "aggressive") for cid in roster), 5)
    state = FightState(roster)
    rng = RandomRoller(3)
    rolled: list[GenesysRolled] = []
    for _ in range(8):
        state, events = step(rng, setup, state)
        rolled += [e for e in events if isinstance(e, GenesysRolled) and e.who == "cy"
                   and "Initiative" not in e.rule]  # a combat check, not initiative
        if rolled or state.over:
            break
    assert rolled and "B" in rolled[0].pool
    assert state.roster["cy"].state.next_check == ()


def test_boost_ally_is_not_bought_without_an_active_ally() -> None:
    sc = scenario(pc(weapons=[SWORD]), pc(), options={"spend": ["boost_ally"],
                                                      "advantage_policy": "none"},
                  dice=["s a"])
    assert sc.attack is not None
    res = ScriptedRoller(sc.pins()).run(sc.system.resolve, sc.attack, sc.roster)
    texts = " ".join(e.text() for e in res.events)
    assert "boost_ally: the attacker has no allied active character" in texts


FIGHT = {
    "system": "genesys", "title": "Thug against hero",
    "combatants": [
        {"id": "thug", "name": "Thug", "side": "villains", "adversary": "rival",
         "characteristics": {"brawn": 2, "agility": 2, "intellect": 1, "cunning": 2,
                             "willpower": 1, "presence": 1},
         "skills": {"Brawl": 1, "Cool": 3}, "soak": 3, "wound_threshold": 10,
         "weapons": [{"name": "knife", "skill": "Brawl", "damage": "+1", "crit": 3}]},
        {"id": "hero", "name": "Hero", "side": "heroes", "adversary": "pc",
         "characteristics": {"brawn": 3, "agility": 2, "intellect": 2, "cunning": 2,
                             "willpower": 2, "presence": 2},
         "skills": {"Brawl": 1, "Cool": 0}, "soak": 3, "wound_threshold": 14,
         "strain_threshold": 12,
         "weapons": [{"name": "fists", "skill": "Brawl", "damage": "+0", "crit": 5}]}]}


def _play_threat(tmp_path: Path, rules: dict[str, Any] | None) -> str:
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump({**FIGHT, "rules": rules or {}}, sort_keys=False))
    script = tmp_path / "moves.txt"
    # initiative rolled (the thug first with Cool 3), the thug's usual attack (a): one
    # success, two threat, as the table writes the symbols
    script.write_text("r\nr\na\ns hh\n")
    done = _fracas("play", str(path), "--seed", "1", "--gm-dice", "typed", "--script",
                   str(script), "--verbose")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_gm_spends_an_npcs_threat_by_default(tmp_path: Path) -> None:
    out = _play_threat(tmp_path, None)
    # the GM is asked (by hand, the table default of fracas play)
    assert ("? Thug rolled s hh → 1 net success, 2 net threat: a hit of 4 damage before "
            "soak; the GM spends 2 threat") in out and "spending the NPC's threat" not in out


def test_a_table_may_let_the_players_spend_an_npcs_threat(tmp_path: Path) -> None:
    # seed 004 · Step 5: "in some cases (such as checks made by NPCs) they may give the
    # players the option to spend these instead"
    out = _play_threat(tmp_path, {"npc_threat": "players"})
    assert ("? Thug rolled s hh → 1 net success, 2 net threat: a hit of 4 damage before soak; "
            "Hero (a player, spending the NPC's threat) spends 2 threat") in " ".join(
        out.split())  # the prompt, as one line however the terminal wrapped it


REPEATER = {"name": "repeater", "skill": "Ranged (Heavy)", "damage": 8, "crit": 5,
            "range": "long", "qualities": ["Auto-fire"]}


def _auto_fire_on(tmp_path: Path, wounds: int) -> dict[str, Any]:
    # Ana's repeater on auto-fire: two successes and four advantage buy two more hits
    # (hits_first), three hits of 8 + 2 = 10 less soak 3 = 7 wounds each on Bo (threshold 12)
    return _attack_file(tmp_path, pc(adversary="nemesis", wound_threshold=12, wounds=wounds),
                        ["ss aaaa", 30], weapon=REPEATER,
                        options={"range": "short", "advantage_policy": "hits_first"})


def _again_notes(out: dict[str, Any]) -> list[str]:
    return [e["text"] for e in out["events"] if "already past" in e["text"]]


def test_an_attack_of_several_hits_past_the_threshold_tells_one_critical_injury(
        tmp_path: Path) -> None:
    # seed 004 · Step 6: "An attack may also generate a Critical Injury ... because the
    # target suffers a number of wounds greater than its wound threshold": one per attack,
    # however many of its hits wound; the narration says so once, not once per hit
    out = _auto_fire_on(tmp_path, wounds=13)
    assert out["defender"]["wounds"] == 13 + 3 * 7
    assert len(out["defender"]["critical_injuries"]) == 1
    assert len(_again_notes(out)) == 1 and _again_notes(out)[0].startswith("Bo is")


def test_a_target_that_crosses_its_threshold_in_an_attack_is_not_told_as_past_it_already(
        tmp_path: Path) -> None:
    # Bo at 10 of 12 goes past the threshold on the first hit: the attack's one Critical
    # Injury is for crossing it; the later hits of the same attack add wounds only
    out = _auto_fire_on(tmp_path, wounds=10)
    assert out["defender"]["wounds"] == 10 + 3 * 7
    assert len(out["defender"]["critical_injuries"]) == 1
    assert _again_notes(out) == []
