"""A contest's follow-up rolls (a threat's confirmation, a weapon roll after a critical
failure) are the die of the combatant who rolls them (seed 001 · Step 3), in a fresh
``fracas play``: asked by that character's name, and rolled by fracas with the rest of a
turn the GM lets fracas decide, as the attack die and the damage are."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "examples" / "contest" / "duel-fight.yaml")  # Rosa against Grub the Brute


def _play(seed: int, *lines: str) -> str:
    done = subprocess.run([sys.executable, "-m", "fracas", "play", DUEL, "--seed", str(seed),
                           "--control", "grub=aggressive", "--gm-dice", "typed",
                           "--gm-dice", "grub=typed"],
                          input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return " ".join(done.stdout.split())


def test_each_threat_is_confirmed_by_its_own_roller_by_name() -> None:
    # initiative 1 and 1, roll-off 20 then 3: Rosa first; she attacks (Enter), both roll
    # a natural 20: Rosa confirms hers (18), then Grub his (2); her damage, 4
    out = _play(3, "1", "1", "20 3", "", "20", "20", "18", "2", "4", "q")
    asks = ["? Rosa's sword attack on Grub the Brute, roll 1 of 3: d20 + 5",
            "? Grub the Brute's dodge against Rosa, roll 1 of 3: d20 + 1",
            "? Rosa's roll to confirm the critical hit: d20",
            "? Grub the Brute's roll to confirm the critical: d20"]
    places = [out.index(a) for a in asks]
    assert places == sorted(places)
    assert "Roll 1 · Rosa, confirming the sword attack threat: d20 shows 18" in out


def test_fracas_rolls_the_confirmation_in_a_turn_the_gm_lets_it_decide() -> None:
    # "gm auto" at Rosa's action: fracas chooses her attack and rolls her dice; the GM
    # types Grub's two dodges; her second attack die (fracas's, seed 3) is a natural 20,
    # and its confirmation is hers too: rolled by fracas, not asked of the table
    out = _play(3, "1", "1", "20 3", "gm auto", "5", "5", "q")
    assert "Roll 2 · Rosa, sword attack: d20 shows 20 + 4 (sword) + 1 (strength) = 25 — " \
           "critical threat" in out
    assert "Roll 2 · Rosa, confirming the sword attack threat: d20 shows " in out
    assert "? Rosa's roll to confirm" not in out
    assert "? Rosa's damage" not in out
    assert "Rosa's sword damage: d8 shows" in out
    assert "? Rosa's reaction to Grub the Brute's attack" in out  # Grub's turn, then
