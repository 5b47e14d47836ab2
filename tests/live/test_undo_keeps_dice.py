"""Dice fracas rolled and told never change (issue 34): a GM edit made before the first
answer of a fight, undone, redone and undone again in ``fracas play`` (a fresh process),
gives back the fight as it was before the edit, the GM side's initiative dice fracas had
already rolled and told read again, never drawn anew; the log resumes to the same dice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fracas.core.events import Rolled
from fracas.encounter.session_log import load_session
from tests.live.test_gm_play import play

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, lines: list[str], tmp: Path) -> tuple[str, list[str]]:
    """What ``fracas play`` printed (its lines joined) and the questions it asked."""
    out = play(*args, script="\n".join([*lines, "q"]) + "\n", tmp=tmp)
    return " ".join(out.split()), re.findall(r"^\? (.*)$", out, re.M)


def _initiative(text: str) -> list[str]:
    return re.findall(r"(?:fracas rolls [^→]*initiative[^→]*→ \d+|\S+ rolls \S+ for "
                      r"initiative: \d+)", text)


def _rolls(log: Path) -> list[str]:
    return [e.text() for e in load_session(log).events if isinstance(e, Rolled)]


@pytest.mark.parametrize(("example", "player", "edit", "typed"), [
    ("contest/duel-fight.yaml", "rosa", "gm hurt grub 1", "11"),  # Grub's d20 rolled first
    ("tristat/warehouse-fight.yaml", "ada", "gm hurt vampire 1", "3,4"),  # Joe's 2d6 first
])
def test_undoing_an_edit_before_the_first_answer_keeps_fracas_dice(
        tmp_path: Path, example: str, player: str, edit: str, typed: str) -> None:
    path = str(ROOT / "examples" / example)
    first = tmp_path / "straight.jsonl"
    straight, _ = _run(path, "--seed", "1", "--player", player, "--log", str(first),
                    lines=[typed], tmp=tmp_path)
    log = tmp_path / "fight.jsonl"
    undone, asked = _run(path, "--seed", "1", "--player", player, "--log", str(log),
                  lines=[edit, "u", "redo", "u", typed], tmp=tmp_path)
    assert "undid 1 step" in undone and "redid 1 step" in undone
    told = re.findall(r"fracas rolls [^→]*→ \d+", straight)
    assert told and told == re.findall(r"fracas rolls [^→]*→ \d+", undone)[:len(told)]
    # the same question after the undo as before the edit: the GM side's die is not asked
    assert len(set(asked[:4])) == 1 and asked[0].lower().startswith(player), asked
    assert _initiative(straight) == _initiative(undone)
    # the log plays back to the very rolls of the fight without the edit
    assert _rolls(log) == _rolls(first)
    resumed = " ".join(play("--resume", str(log), script="q\n", tmp=tmp_path).split())
    for line in _initiative(straight):
        assert line.startswith("fracas rolls") or line in resumed
