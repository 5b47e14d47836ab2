"""A check's dice in the table's words, at the dice prompt and in the told log: ``d20``,
``2d20 with a bane, keep the lower`` — not the notation ``1d20kh1`` / ``2d20kl1``. Logs
keep the notation as the event's key, so fight logs and session logs written before
still replay and resume (tests/contest/logs: written by fracas before this change)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "examples" / "contest" / "duel-fight.yaml")  # Rosa against Grub the Brute
LOGS = Path(__file__).resolve().parent / "logs"
NOTATION = ("1d20kh1", "2d20kh1", "2d20kl1", "3d20kh1", "3d20kl1")


def _fracas(*args: str, stdin: str = "") -> str:
    done = subprocess.run([sys.executable, "-m", "fracas", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return " ".join(done.stdout.split())


def test_the_dice_prompt_of_fracas_play_names_a_checks_dice_in_words() -> None:
    # initiative 1 and 1, the roll-off 20 then 3 (Rosa first); Rosa switches "fight
    # defensively" on (a bane on her attack) and goes; she rolls 20 and 20, Grub 5: a
    # threat, so she rolls to confirm it with the same dice
    out = _fracas("play", DUEL, "--seed", "7", "--control", "grub=aggressive",
                  "--gm-dice", "typed", "--gm-dice", "grub=typed",
                  stdin="1\n1\n20 3\n1\n\n20 20\n5\n15 16\nq\n")
    assert ("? Rosa's sword attack on Grub the Brute, roll 1 of 3: 2d20 with a bane, keep "
            "the lower + 5 (sword 4, strength 1)") in out
    assert ("? Grub the Brute's dodge against Rosa, roll 1 of 3: d20 + 1 (dodge 1, "
            "agility 0), needs ") in out
    assert ("? Rosa's roll to confirm the critical hit: 2d20 with a bane, keep the lower"
            in out)
    assert not [n for n in NOTATION if n in out]


def test_the_told_log_names_a_checks_dice_in_words() -> None:
    # seed 4, random policies: Grub attacks fighting defensively (a bane on his attack),
    # then counters Rosa's attack still fighting defensively (a boon on his counter)
    out = _fracas("fight", DUEL, "--seed", "4", "--policy", "random")
    assert "club attack: 2d20 with a bane (the lower kept) shows" in out
    assert "club counter attack: 2d20 with a boon (the higher kept) shows" in out
    assert "one bane (fighting defensively); net one bane: rolls 2d20, keeps the lower" in out
    assert not [n for n in NOTATION if n in out]


def test_a_fight_log_written_with_the_notation_still_replays() -> None:
    log = LOGS / "fight-dice-notation.jsonl"
    assert '"dice": "2d20kl1"' in log.read_text()  # the old key, as fracas wrote it
    # every event is played again from the log's inputs and must match the logged one
    out = _fracas("replay", str(log))
    assert "a fight log (fracas fight --log): 53 events, over" in out
    assert "Fight over after 1 round" in out


def test_a_session_log_written_with_the_notation_still_resumes(tmp_path: Path) -> None:
    log = tmp_path / "session.jsonl"
    shutil.copy(LOGS / "session-dice-notation.jsonl", log)
    # the log stops at Rosa's second attack roll, fighting defensively; the table goes on
    # with the second and third rolls and the damage
    out = _fracas("play", "--resume", str(log), stdin="6 7\n19\n10 11\n2\n5\nq\n")
    assert ("? Rosa's sword attack on Grub the Brute, roll 2 of 3: 2d20 with a bane, keep "
            "the lower + 5 (sword 4, strength 1)") in out
    assert ("Roll 1 · Rosa, confirming the sword attack threat: 2d20 with a bane (the lower "
            "kept) shows 15 + 4 (sword) + 1 (strength) = 20" in out)
    assert "Roll 3 · Grub the Brute, dodge: d20 shows 2 + 1 (dodge)" in out
    assert "Rosa → Grub the Brute: critical hit" in out
    assert not [n for n in NOTATION if n in out]
