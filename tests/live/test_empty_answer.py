"""Enter with nothing typed at a reaction or a choice in ``fracas play`` (a fresh process
fed its standard input) asks the question again with one line saying what to type, not
the same list again with no hint."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def play(example: str, typed: str) -> str:
    done = subprocess.run([sys.executable, "-m", "fracas", "play", str(EXAMPLES / example),
                           "--seed", "1", "--roll-all"], input=typed, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def after_enter(out: str, question: str) -> str:
    """What the screen shows after Enter alone at ``question`` (up to the next prompt)."""
    asked = out.index(f"? {question}")
    blank = out.index("> \n", asked) + len("> \n")
    return out[blank:out.index("> ", blank)]


def test_enter_alone_at_a_reaction_says_to_type_its_number() -> None:
    out = play("tristat/duel-fight.yaml", "a\n\nq\n")
    shown = after_enter(out, "Rin's reaction to Gorr's attack")
    assert shown == ("? Rin's reaction to Gorr's attack Rin with brass knuckles\n"
                     "  type the number of an answer (1 or 2), then Enter\n")


def test_enter_alone_at_a_rules_choice_says_to_type_its_number() -> None:
    out = play("genesys/duel-fight.yaml", "\n1\na\n\nq\n")
    assert after_enter(out, "Who takes NPC slot 1?") == (
        "? Who takes NPC slot 1?\n  type the number of an answer (1 or 2), then Enter\n")
    spend = after_enter(out, "Blue rolled 1 net success, 2 net advantage")
    assert spend.endswith("Blue spends 2 advantage\n"
                          "  type the number of an answer (1 to 6), then Enter\n")
    assert "1. notice" not in spend  # the list is on the screen already
