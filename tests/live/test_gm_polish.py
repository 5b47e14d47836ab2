"""Small things a GM met at the terminal (issue 34, noticed after the GMs' trial): the
fight's end said once, an edit that changes nothing said plainly and kept out of the log,
and the status's order as it is after an edited initiative. Each through ``fracas play``
in a fresh process fed what a GM typed."""

from __future__ import annotations

import os
import subprocess
import sys

DUEL = "examples/contest/duel-fight.yaml"


def _play(path: str, *lines: str, options: tuple[str, ...] = ()) -> str:
    """``fracas play PATH`` fed ``lines`` on stdin, then ``q``: what it printed."""
    done = subprocess.run([sys.executable, "-m", "fracas", "play", path, "--seed", "1",
                           *options], input="\n".join((*lines, "q")) + "\n",
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    return done.stdout


def test_the_end_of_a_fight_is_said_once_in_the_tables_words() -> None:
    """Both fighters run by fracas: Rosa takes Grub down in round 1. The end is one line
    (the event's words, with why), the status under it does not say it again in other
    words; ``s`` afterwards heads the status with that same line."""
    out = _play(DUEL, "s", options=("--control", "rosa=aggressive",
                                    "--control", "grub=aggressive"))
    ended = "Fight over after 1 round: watch win: nobody else can act"
    before, after = out.split("> s\n", 1)
    said = [line for line in before.splitlines() if "Fight over" in line]
    assert said == [ended], said
    assert "after round 1" not in out
    assert after.splitlines()[0] == ended, after[:500]


def test_a_gm_ending_the_fight_is_said_once() -> None:
    """``gm end`` with the GM's reason: one line says it, the status follows without a
    second heading."""
    out = _play(DUEL, "", "", "gm end the watch arrives", "s")
    out = out.split("> s\n", 1)[0]
    said = [line for line in out.splitlines() if "Fight over" in line]
    ended = "Fight over after 1 round: the GM ends the fight: the watch arrives"
    assert said == [ended], out[-2000:]
