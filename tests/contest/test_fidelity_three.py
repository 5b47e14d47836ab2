"""Issue 22, contest (seed 001): an attacker's unconfirmed threat no longer ends a dodge,
block or sponge contest (the old reading is a table option), ``hit`` is the seed's hit (a
won attack contest, or one opposed by a counter attack; ``p_hit`` follows), and the
default dodge is named in the reaction menu; through ``fracas attack``, ``fracas odds``
and ``fracas play --script`` in fresh processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from tests.contest.helpers import ATTACKER, DEFENDER
from tests.contest.test_odds import Ref, small

ROOT = Path(__file__).resolve().parents[2]


def _fracas(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "120"})


def _attack(tmp_path: Path, defense: str, dice: list[int],
            rules: dict[str, Any] | None = None) -> dict[str, Any]:
    path = tmp_path / "attack.yaml"
    path.write_text(yaml.safe_dump({
        "system": "contest", "rules": rules or {}, "combatants": [ATTACKER, DEFENDER],
        "attack": {"attacker": "att", "defender": "def", "weapon": "sword",
                   "options": {"defense": defense}}, "dice": dice}))
    done = _fracas("attack", str(path), "--json")
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out


# Att's sword check d20 + 4; Def's block d20 + 3 with the shield (block 3); d6 + 1 damage.
# roll 1: Att 20 (24, a threat) v Def 5 (8); the confirmation 3 (7) does not beat 8;
# rolls 2 and 3: Att 5 (9) v Def 15 (18): Def wins the contest 2-1; the d6 shows 6
PLAYED_ON = [20, 5, 3, 5, 15, 5, 15, 6]


def test_an_unconfirmed_threat_does_not_end_a_block_contest(tmp_path: Path) -> None:
    # seed 001 · Step 2: a block reduces damage "if they win the contest"; Step 3: a threat
    # deals damage "regardless of the outcome of the contest otherwise"
    out = _attack(tmp_path, "block", PLAYED_ON)
    assert out["details"]["contest"] == "defender"
    assert out["details"]["attacker_critical"] == "threat"
    assert (out["outcome"], out["damage"]) == ("blocked", 6 + 1 - 3)
    assert out["hit"] is False  # the attacker lost the contest: damage, but no hit


def test_an_unconfirmed_threat_does_not_end_a_sponge_contest(tmp_path: Path) -> None:
    # seed 001 · Sponge Checks: armour helps "where you have won the contest": DR 2 takes
    # 7 to 5, the mail's 6 HP take all of it
    out = _attack(tmp_path, "sponge", PLAYED_ON)
    assert (out["outcome"], out["damage"]) == ("sponged", 0)
    assert out["defender"]["armour_hp"] == 6 - 5
    assert out["hit"] is True  # a sponging defender "instantly fails the attack contest"


def test_the_threat_ending_the_contest_is_a_table_option(tmp_path: Path) -> None:
    out = _attack(tmp_path, "block", [20, 5, 3, 6],
                  {"contest": {"attacker_threat_ends_contest": True}})
    assert (out["outcome"], out["damage"], out["hit"]) == ("hit", 7, True)


def test_a_threat_in_a_dodge_the_defender_won_deals_damage_but_is_no_hit(tmp_path: Path
                                                                          ) -> None:
    # seed 001 · Step 3: "If the attacking character has won the attack contest or was
    # opposed by a counter attack, they are said to have hit the target. If not, the attack
    # is either missed or deadlocked."
    out = _attack(tmp_path, "dodge", PLAYED_ON)
    assert out["details"]["contest"] == "defender"
    assert (out["outcome"], out["damage"], out["hit"]) == ("threat", 7, False)


def _brute_p_hit(kind: str) -> Fraction:
    """P(hit) by brute force over every face: a won contest (or a sponge, or a counter),
    the attacker not disarmed."""
    total = Fraction(0)
    for (winner, _ac, _dc, af, _df), p in Ref(3, kind, 1, 1, difficulty=3).contest().items():
        if af < 2 and (winner == "attacker" or kind in ("sponge", "counter")):
            total += p
    return total


def test_p_hit_of_fracas_odds_follows_the_seeds_hit(tmp_path: Path) -> None:
    for kind in ("dodge", "block"):
        s = small(kind)
        path = tmp_path / f"{kind}.yaml"
        attack = s.attack
        assert attack is not None and attack.options is not None
        path.write_text(yaml.safe_dump({
            "system": "contest",
            "rules": {"check": {"die": 3, "critical_threat": 3},
                      "weapon_roll": {"difficulty": 3}, "called_shot": {"banes": 0}},
            "combatants": [c.sheet.model_dump(mode="json", exclude_none=True) | {
                "id": c.id, "name": c.name, "side": c.side} for c in s.roster.values()],
            "attack": {"attacker": "att", "defender": "def", "weapon": "blade",
                       "options": {"defense": kind}}}))
        done = _fracas("odds", str(path), "--json")
        assert done.returncode == 0, done.stderr
        assert Fraction(json.loads(done.stdout)["p_hit"]) == _brute_p_hit(kind)


def test_the_default_dodge_is_named_in_the_reaction_menu(tmp_path: Path) -> None:
    # seed 001 · Step 2 has no "no defense" option: the default reaction is a dodge
    script = tmp_path / "moves.txt"
    # each one's initiative die (Rosa's, then Grub's), Grub's usual attack (a): Rosa's
    # reaction next
    script.write_text("r\nr\na\n")
    done = _fracas("play", str(ROOT / "examples/contest/duel-fight.yaml"), "--seed", "1",
                   "--script", str(script))
    assert done.returncode == 0, done.stderr
    menu = done.stdout[done.stdout.index("reaction to"):]
    assert "1. Dodge" in menu and "no reaction" not in menu.lower()
