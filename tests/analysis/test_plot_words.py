"""The words a picture shows read well for any side name (``blades win chance``, never
``blades wins``) and say things in words, not formulas (``P(damage ≥ x)``): each picture is
drawn by the real command in a fresh process as SVG, whose text matplotlib keeps beside
each drawn string."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "tristat" / "duel-fight.yaml"
VAMPIRE = ROOT / "examples" / "tristat" / "vampire.yaml"
SIDES = ("blades", "fists")  # the duel's sides: plural names


def drawn(tmp_path: Path, name: str, *args: str) -> list[str]:
    """The texts of the picture ``fracas ARGS --plot NAME.svg`` draws."""
    picture = tmp_path / f"{name}.svg"
    done = subprocess.run([sys.executable, "-m", "fracas", *args, "--plot", str(picture)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return re.findall(r"<!-- (.*?) -->", picture.read_text(encoding="utf-8"))


def no_side_with_a_singular_verb(texts: list[str]) -> None:
    for side in SIDES:
        assert not [t for t in texts if re.search(rf"\b{side} wins\b", t)], texts


def test_a_balance_picture_says_the_sides_win_chance(tmp_path: Path) -> None:
    texts = drawn(tmp_path, "balance", "balance", str(DUEL), "--vary", "rin.skills.melee=2..4",
                  "--target", "blades=0.6", "--jobs", "1", "--quiet")
    assert texts.count("blades win chance") == 2  # the axis and the line's legend
    no_side_with_a_singular_verb(texts)


def test_a_sweep_and_a_simulation_picture_read_well_for_plural_sides(tmp_path: Path) -> None:
    texts = drawn(tmp_path, "sweep", "sweep", str(DUEL), "--vary", "rin.skills.melee=2..3",
                  "--metric", "win_probability", "--side", "fists", "--jobs", "1", "--quiet")
    assert "fists win chance" in texts
    no_side_with_a_singular_verb(texts)
    texts = drawn(tmp_path, "simulate", "simulate", str(DUEL), "-n", "200", "--quiet")
    assert "Who wins" in texts and {"blades", "fists"} <= set(texts)
    no_side_with_a_singular_verb(texts)


def test_an_odds_picture_says_its_chances_in_words_not_formulas(tmp_path: Path) -> None:
    texts = drawn(tmp_path, "odds", "odds", str(VAMPIRE))
    assert "Chance to deal at least this damage" in texts
    assert not [t for t in texts if "P(" in t or t == "x"], texts
