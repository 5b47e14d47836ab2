"""The GM's commands in ``fracas play`` (the real command, a fresh process): fracas decides
this turn and from now on, a skipped turn, a free-form action with its roll and effects,
all initiative at once, damage, healing, conditions with their rounds left, a combatant
joining after this turn; every one logged, taken back by ``u`` and resumed from the log.
The GM spends Genesys threat by hand by default."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

DUEL = "examples/tristat/duel-fight.yaml"
IMP = json.dumps({"id": "imp", "name": "the imp", "side": "fists", "body": 4, "mind": 4,
                  "soul": 4, "skills": {"melee": 1},
                  "weapons": [{"name": "claws", "kind": "melee", "damage": 4}]})


def play(*args: str, script: str, tmp: Path) -> str:
    path = tmp / "script.txt"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "fracas", "play", *args, "--script",
                           str(path)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return done.stdout


def test_the_gm_commands_at_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(DUEL, "--seed", "3", "--log", str(log), tmp=tmp_path, script="\n".join([
        "gm init",  # every initiative die rolled at once
        "gm auto",  # fracas decides Gorr's turn (his dice after Rin's reaction too)
        "1",  # Rin takes no reaction
        "gm skip",  # Rin's turn passes
        "gm init",  # no initiative is asked now: refused, nothing changes
        "gm do throws sand | roll 2d6 under 8 | damage gorr 3 | cond gorr blinded 2",
        "s",
        "u",
        "s",
        "gm auto gorr cautious",
        "gm hurt gorr 2",
        "gm heal gorr 1",
        "gm cond rin dazed 1",
        "s",
        "q"]))
    assert out.index("Rin rolls 2d6 for initiative") < out.index("> gm auto")
    assert "Gorr rolls 2d6: " in out.split("> 1")[1].split("> gm skip")[0]
    assert "error (input 5): initiative: no GM-side initiative roll is asked now" in out
    assert "Rin: Pass" in out
    assert "Gorr: throws sand" in out
    assert "Gorr rolls 2d6:" in out and "needs at most 8" in out
    assert "Gorr: health 60 → 57" in out and "Gorr is blinded for 2 rounds" in out
    assert "blinded (2 rd)" in out
    assert "undid 1 step" in out
    after_undo = out.split("undid 1 step")[1]
    assert "blinded" not in after_undo.split("gm auto gorr cautious")[0]
    assert "fracas decides for Gorr from now on (cautious)" in out
    assert "Gorr: health 60 → 58" in out and "Gorr: health 58 → 59" in out
    assert "Rin is dazed for 1 round" in out and "dazed (1 rd)" in out
    assert "error" not in after_undo
    # the log holds every GM input: resuming it rebuilds the same fight
    resumed = play("--resume", str(log), tmp=tmp_path, script="s\nq\n")
    assert "dazed (1 rd)" in resumed and "cautious" in resumed


def test_a_combatant_joins_after_this_turn(tmp_path: Path) -> None:
    out = play(DUEL, "--seed", "3", "--roll-all", tmp=tmp_path, script="\n".join([
        "gm auto", "1", f"gm join now {IMP}", "s", "u", "s", "q"]))
    assert "the imp joins this round's order" in out
    shown = out.split("> s")[1]
    assert shown.index("Rin") < shown.index("the imp")  # after the current turn (Rin's)
    assert "the imp" not in out.split("> s")[2]  # taken back by one undo
    assert out.count("for initiative") == 2  # nobody rolled again


def test_the_gm_spends_genesys_threat_by_hand(tmp_path: Path) -> None:
    """Seed 004 · Step 5: the GM decides how threat and despair are spent."""
    lines = ["gm auto red aggressive", "gm auto blue aggressive"]
    out = play("examples/genesys/duel-fight.yaml", "--seed", "3", "--roll-all",
               tmp=tmp_path, script="\n".join([*lines, *["2"] * 60, "q"]))
    assert re.search(r"\? Blue rolled [^\n]*net threat: a (hit|miss); the GM spends", out), out
