"""A contest typed as a table plays it (issue 34, item 2), in a fresh ``fracas play``:
each die is asked by its roller with what they add, the opponent and which roll of three
it is, the defender's with what it needs once the attack is known (seed 001 · Step 3;
RULES.md: ties go to the defender); each roll's result is told before the next roll is
asked; both dice of a roll may be typed on one line (one undo step)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "examples" / "contest" / "duel-fight.yaml")  # Rosa against Grub the Brute

# initiative 1 and 1, the roll-off 20 then 3 (Rosa first); Rosa's usual attack (Enter),
# Grub dodges (1)
START = ("1", "1", "20 3", "", "1")
ATTACK_1 = "? Rosa's sword attack on Grub the Brute, roll 1 of 3: d20 + 5 (sword 4, strength 1)"
DODGE_1 = "? Grub the Brute's dodge against Rosa, roll 1 of 3: d20 + 1 (dodge 1, agility 0)"
ATTACK_2 = "? Rosa's sword attack on Grub the Brute, roll 2 of 3: d20 + 5 (sword 4, strength 1)"


def _play(*lines: str, seed: int = 3) -> str:
    # the GM types both sides' dice, as a table rolling everything by hand does
    done = subprocess.run([sys.executable, "-m", "fracas", "play", DUEL, "--seed", str(seed),
                           "--gm-dice", "typed"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return " ".join(done.stdout.split())


def test_each_die_is_asked_by_roller_bonus_opponent_and_roll_and_each_roll_told_at_once(
        ) -> None:
    out = _play(*START, "12", "8", "15 4", "6", "q")
    # the attacker's die: who, what for, against whom, which roll, what to add
    assert ATTACK_1 in out
    # the defender's: the same, and what it needs now that the attack is known (Rosa's
    # 12 + 5 = 17; a tie goes to the defender: 16 + 1 = 17 is enough)
    assert (DODGE_1 + ", needs 16 or more (a total of at least Rosa's 17)") in out
    # roll 1 is told (both checks and who won it, with the count) before roll 2 is asked
    told_1 = out.index("Rosa 17 > Grub the Brute 9: roll 1 to Rosa (Rosa 1, Grub the Brute 0)")
    assert out.index("Roll 1 · Rosa, sword attack: d20 shows 12 + 4 (sword) + 1 (strength) = "
                     "17") < told_1
    assert out.index("Roll 1 · Grub the Brute, dodge: d20 shows 8 + 1 (dodge) + 0 (agility) = "
                     "9") < told_1
    assert told_1 < out.index(ATTACK_2) < out.index("> 15 4")
    # both dice of roll 2 on one line: Rosa's 15, Grub's 4; the contest's end is told
    # before the damage is asked (with what Rosa adds to it)
    told_2 = out.index("Rosa 20 > Grub the Brute 5: roll 2 to Rosa (Rosa 2, Grub the Brute 0)")
    end = out.index("Attack contest over after two rolls (2 won rolls end it): Rosa wins "
                    "(Rosa 2, Grub the Brute 0)")
    damage = out.index("? Rosa's damage with sword: d8 + 1 (melee bonus, strength)")
    assert out.index("> 15 4") < told_2 < end < damage
    assert "Rosa's sword damage: d8 shows 6 + 1 (melee bonus, strength) = 7" in out
    assert "error" not in out


def test_the_prompt_says_both_dice_may_be_typed_at_once_and_a_wrong_count_changes_nothing(
        ) -> None:
    out = _play(*START, "12 8 3", "12 8", "u", "q")
    # the attacker's prompt names the defender's die that follows, and how to type both
    assert (ATTACK_1 + " then " + DODGE_1[2:] + " type what the table shows (3), both at "
            "once (3 5: Rosa's, then Grub the Brute's) or r to roll") in out
    assert ("error (input 6): Rosa's sword attack on Grub the Brute, roll 1 of 3: d20 + 5 "
            "(sword 4, strength 1): type 1 (Rosa's) or 2 (Rosa's, then Grub the Brute's), "
            "not 3 (allowed: 1 or 2 values, each 1 to 20)") in out
    # typed together, taken back together: one u asks roll 1 again from the attack
    after_undo = out[out.index("> u"):]
    assert "undid 1 step" in after_undo
    assert after_undo.index(ATTACK_1) < after_undo.index("> q")
    assert DODGE_1 not in after_undo.replace("then " + DODGE_1[2:], "")


def test_a_die_fracas_rolls_is_told_with_its_roll_before_the_next_is_asked() -> None:
    # r for Rosa's die, Grub's typed: what fracas rolled is said with the roll's result
    # before roll 2 is asked
    out = _play(*START, "r", "10", "q")
    rolled = out.index("Roll 1 · Rosa, sword attack: d20 shows ")
    result = out.index(": roll 1 to ")
    assert out.index("> r") < rolled < result < out.index(ATTACK_2)
