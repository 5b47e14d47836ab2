"""At the table percentile dice show ``00`` for 100: typed for a d100 in ``fracas play`` (a
fresh process fed its standard input) it counts as 100 in the narration and the outcome,
and the saved log replays it so; on any other die (a d6, a d10) ``00`` is refused naming
the values the die shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def fracas(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], input=typed,
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "COLUMNS": "200"})


def test_00_typed_for_a_d100_is_100_in_the_narration_and_the_outcome(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    # both sacrifice nothing, Kofi attacks (Dura has no defense to choose: only her
    # Dexterity), the d100 shows 00
    done = fracas("play", str(EXAMPLES / "zamani" / "duel-fight.yaml"), "--seed", "1",
                  "--gm-dice", "typed",
                  "--log", str(log), typed="\n\na\n00\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "? Kofi's short sword roll (swords): d100, needs 65% or less" in out
    assert "allowed: 1 to 100 (00 is 100)" in out
    assert "Kofi rolls d100 for short sword (swords): 100 > 65%: failure" in out
    assert "Kofi → Dura: miss" in out and "error" not in out
    replayed = fracas("replay", str(log))
    assert replayed.returncode == 0, replayed.stderr
    assert "Kofi rolls d100 for short sword (swords): 100 > 65%: failure" in replayed.stdout


def test_00_on_a_d6_or_a_d10_is_refused_naming_the_values_it_shows() -> None:
    done = fracas("play", str(EXAMPLES / "tristat" / "duel-fight.yaml"), "--seed", "1",
                  "--gm-dice", "typed",
                  typed="00,3\n3,4\nq\n")
    assert done.returncode == 0, done.stderr
    assert ("error (input 1): Rin's initiative: 2d6: '00' is not a "
            "value d6 can show (allowed: 1 to 6)") in done.stdout
    assert "> 3,4\n? Gorr's initiative: 2d6" in done.stdout  # 3,4 then taken
    pins = "14,6,11,13,19,17,15,10,8,12,9,11"  # the called shot's dice, less its d10
    done = fracas("attack", str(EXAMPLES / "contest" / "called-shot.yaml"), "--dice",
                  f"{pins},00")
    assert done.returncode == 2
    assert ("pinned value #13 for d10: '00' is not a value d10 can show (allowed: 1 to 10)"
            in done.stderr)
    done = fracas("attack", str(EXAMPLES / "contest" / "called-shot.yaml"), "--dice",
                  f"{pins},6")
    assert done.returncode == 0, done.stderr
