"""A throw into a wall (seed 003 · Throwing) in the table's words, through the real
commands (a fresh process): one square is "1 square", never "1 squares" or "square(s)"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tristat" / "throw.yaml"


def fracas(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "fracas", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_wall_one_square_away_and_the_squares_thrown_read_in_the_right_number(
        tmp_path: Path) -> None:
    # the example's dice: a throw of 5 squares, the wall after 1
    told = " ".join(fracas("attack", str(EXAMPLE)).split())
    assert "thrown 5 squares (the throw's margin)" in told
    assert "a wall stops the cultist after 1 square: 4 squares it cannot move" in told
    assert "square(s)" not in told
    assert "Throw · a wall 1 square away" in fracas("advise", str(EXAMPLE))
    # a wall two squares away: plural
    data = yaml.safe_load(EXAMPLE.read_text())
    data["attack"]["options"]["wall_at"] = 2
    two = tmp_path / "throw.yaml"
    two.write_text(yaml.safe_dump(data))
    assert "Throw · a wall 2 squares away" in fracas("advise", str(two))
