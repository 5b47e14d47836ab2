"""Small things a GM met at the terminal (issue 34, noticed after the GMs' trial): the
fight's end said once, an edit that changes nothing said plainly and kept out of the log,
and the status's order as it is after an edited initiative. Each through ``fracas play``
in a fresh process fed what a GM typed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

DUEL = "examples/contest/duel-fight.yaml"


def _play(path: str, *lines: str, options: tuple[str, ...] = ()) -> str:
    """``fracas play PATH`` fed ``lines`` on stdin, then ``q``: what it printed."""
    where = [path, "--seed", "1"] if path else []
    done = subprocess.run([sys.executable, "-m", "fracas", "play", *where, *options],
                          input="\n".join((*lines, "q")) + "\n",
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


FORD = "examples/zamani/river-crossing-fight.yaml"
#: the ford: nobody sacrifices; Kofi's action is asked
FORD_START = ("", "", "", "", "", "")


def test_an_edit_that_changes_nothing_says_so_and_is_not_logged(tmp_path: Path) -> None:
    """``gm set obi wounds 0`` twice: the first takes Obi out, the second is told plainly
    (already 0, nothing changed, what would change it) and no ``0 → 0`` reaches the
    narration or the log; healing someone unhurt is refused the same way; ``none``
    clears a list (it is not a condition named "none"). Undo then takes back the one
    edit that changed something, and the log resumes to the same fight."""
    log = tmp_path / "ford.jsonl"
    out = _play(FORD, *FORD_START, "gm set obi wounds 0", "gm set obi wounds 0",
                "gm heal kofi 3", "gm set obi conditions none", "s",
                options=("--log", str(log)))
    assert "Obi: wounds 16 → 0" in out
    assert ("Obi: wounds already 0; nothing changed (allowed: a value other than 0)"
            in out), out[-3000:]
    assert ("Kofi: wounds already 20; healing 3 changes nothing (allowed: healing of 1 or "
            "more for someone who has lost some)") in out
    assert ("Obi: conditions already none; nothing changed (allowed: a value other than "
            "none)") in out
    assert "0 → 0" not in out and "none → none" not in out and "20 → 20" not in out
    edits = [json.loads(line) for line in log.read_text().splitlines()]
    changed = [e for e in edits if e.get("data", {}).get("event", {}).get("type")
               == "Changed"]
    assert len(changed) == 1, changed
    resumed = _play("", "u", "s", options=("--resume", str(log)))
    status = resumed.split("> s\n", 1)[1]
    obi = next(line for line in status.splitlines() if " Obi " in line)
    assert "16/16" in obi, status


GATE = "examples/contest/gate-fight.yaml"


def _status_rows(out: str, after: str) -> list[str]:
    """The rows of the status ``s`` printed after the line ``after``."""
    status = out.split(after, 1)[1].split("> s\n", 1)[1]
    return [line for line in status.splitlines()[1:] if "█" in line or "░" in line]


def test_an_initiative_set_by_hand_shows_in_the_order_as_it_now_is(tmp_path: Path) -> None:
    """The gate fight (seed 1: Amanda, Amy, Rosa, Tony, Grub): in Amy's turn the GM sets
    Rosa's initiative place to 9. The status puts Rosa last with the place she now has
    (``initiative place 9``), not the one she was rolled; resumed from the log, the
    round's order reads the same."""
    log = tmp_path / "gate.jsonl"
    out = _play(GATE, "", "1", "", "", "", "gm set rosa initiative 9", "s",
                options=("--log", str(log)))
    assert "Rosa: initiative place 3 → 9" in out, out[-3000:]
    rows = _status_rows(out, "> gm set rosa initiative 9")
    assert " Rosa " in rows[-1] and "initiative place 9" in rows[-1], rows
    assert not any("initiative place 3" in row for row in rows), rows
    resumed = _play("", "s", options=("--resume", str(log)))
    assert _status_rows(resumed, "for help") == rows


def test_a_turn_half_played_is_not_put_off_by_a_new_order(tmp_path: Path) -> None:
    """Amy's crossbow attack is chosen and Rosa's reaction asked when the GM sets Grub's
    initiative place to 1: Grub moves up among the turns after Amy's, Amy's attack goes
    on (Rosa's reaction still asked), and a move before Amy's turn is refused with the
    reason; resumed from the log, the same."""
    log = tmp_path / "gate.jsonl"
    out = _play(GATE, "", "1", "", "", "", "gm set grub initiative 1",
                "gm move rosa before amy", "s", options=("--log", str(log)))
    after = out.split("> gm set grub initiative 1", 1)[1]
    assert ("the order from now on: Big Angry Amy, Grub the Brute, Rosa, Tony the Gate "
            "Guardsman") in after, after[:2000]
    prompts = [line for line in after.splitlines() if line.startswith("? ")]
    assert prompts[0] == prompts[1] == prompts[2] == (
        "? Rosa's reaction to Big Angry Amy's attack Rosa with crossbow"), prompts
    assert ("Big Angry Amy's turn is under way (its action chosen): it is played out first "
            "(allowed: a move among the turns after Big Angry Amy's)") in after
    rows = _status_rows(out, "> gm move rosa before amy")
    assert ["Big Angry Amy" in rows[1], "Grub the Brute" in rows[2]] == [True, True], rows
    resumed = _play("", "s", options=("--resume", str(log)))
    assert _status_rows(resumed, "for help") == rows
