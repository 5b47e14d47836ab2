"""Issue 40's reproducers through the real command, each in a fresh process: logs that
``fracas play`` writes read back and resume; no input ends in a traceback; a log edited
by hand (its hash chain recomputed) is refused, naming the line and the field."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliable.rehash import rehash

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "tristat" / "duel-fight.yaml"


def fracas(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "120"}
    return subprocess.run([sys.executable, "-m", "fracas", *args], input=stdin, text=True,
                          capture_output=True, env=env, timeout=120, check=False)


def played(tmp_path: Path, lines: str, scenario: Path = DUEL) -> Path:
    log = tmp_path / "play.jsonl"
    done = fracas("play", str(scenario), "--seed", "1", "--gm-dice", "typed", "--log", str(log),
                  "--script", "/dev/stdin", stdin=lines)
    assert done.returncode == 0, done.stderr
    return log


def reads_back(log: Path) -> str:
    replay = fracas("replay", str(log))
    assert replay.returncode == 0, replay.stderr
    resumed = fracas("play", "--resume", str(log), "--script", "/dev/stdin", stdin="r\nr\n")
    assert resumed.returncode == 0 and "Traceback" not in resumed.stderr, resumed.stderr
    return replay.stdout


def test_gm_auto_at_a_roll_reads_back(tmp_path: Path) -> None:
    log = played(tmp_path, "gm auto\ngm auto\n")
    assert all('"for"' not in line for line in log.read_text().splitlines()[1:])
    assert "2 inputs" in reads_back(log)


def test_gm_remove_in_the_removed_ones_own_turn_resumes(tmp_path: Path) -> None:
    # both initiatives rolled; then whoever acts first is taken out in their own turn
    log = played(tmp_path, "r\nr\ngm remove rin\n")
    out = reads_back(log)
    assert "Rin leaves the fight" in out


def test_a_hand_edit_undone_and_redone_at_a_slot_choice_reads_back(tmp_path: Path) -> None:
    genesys = ROOT / "examples" / "genesys" / "duel-fight.yaml"
    log = played(tmp_path, "r\nr\ngm hurt red 2\nu\nredo\n", genesys)
    assert "round 1" in reads_back(log)


@pytest.mark.parametrize("script", [".", "/dev/zero", "missing.txt"])
def test_a_script_that_is_no_text_file_is_an_error(tmp_path: Path, script: str) -> None:
    done = fracas("play", str(DUEL), "--script", script)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "--script" in done.stderr and done.stderr.startswith("fracas: error:")


@pytest.mark.parametrize("path", [".", "/dev/zero", "missing.yaml"])
def test_a_fight_file_that_is_no_text_file_is_an_error(path: str) -> None:
    done = fracas("play", path, "--script", "/dev/null")
    assert done.returncode == 2 and done.stderr.startswith("fracas: error:"), done.stderr


def test_a_forged_seed_is_refused_not_a_traceback(tmp_path: Path) -> None:
    log = tmp_path / "contest.jsonl"
    fracas("fight", str(ROOT / "examples" / "contest" / "duel-fight.yaml"), "--seed", "4",
           "--log", str(log))
    rehash(log, 1, lambda data: data.update(seed=-1))
    done = fracas("replay", str(log), "--undo", "0")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "line 1: seed" in done.stderr


def test_an_undo_past_the_log_s_start_is_an_error(tmp_path: Path) -> None:
    log = played(tmp_path, "r\nr\n")
    done = fracas("replay", str(log), "--undo", "9")
    assert done.returncode == 2 and "--undo" in done.stderr and "Traceback" not in done.stderr


def test_an_edited_event_text_is_told_naming_its_line(tmp_path: Path) -> None:
    """A text that is not fracas's words for its values (an edit by hand with the hash
    chain recomputed, or a log written in older words) is named in a warning; the values,
    played again through the rules, are what replay shows."""
    log = tmp_path / "fight.jsonl"
    fracas("fight", str(ROOT / "examples" / "contest" / "duel-fight.yaml"), "--seed", "4",
           "--log", str(log))

    def edit(data: dict) -> None:
        data["event"]["text"] = "Rosa rolls a natural 20!"

    rehash(log, 3, edit)
    done = fracas("replay", str(log))
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"fracas: warning: {log}: line 3: an event's text is not "
                                  "what fracas says for its values (the log has 'Rosa rolls "
                                  "a natural 20!'; fracas says 'Grub the Brute rolls d20")
    assert "edited by hand" in done.stderr and "natural 20!" not in done.stdout


def test_an_edited_gm_edit_text_in_a_session_log_is_told(tmp_path: Path) -> None:
    log = played(tmp_path, "gm hurt gorr 3\n")
    line = next(i for i, t in enumerate(log.read_text().splitlines(), 1)
                if '"kind": "gm"' in t)

    def edit(data: dict) -> None:
        data["event"]["text"] = "Gorr: health 20 → 1"

    rehash(log, line, edit)
    for command in (("replay", str(log)), ("play", "--resume", str(log))):
        done = fracas(*command, stdin="q\n")
        assert done.returncode == 0, done.stderr
        assert f"{log}: line {line}: an event's text is not what fracas says" in done.stderr
        assert json.dumps("Gorr: health 20 → 1", ensure_ascii=False)[1:-1] in done.stderr


@pytest.mark.parametrize(("scenario", "lines", "gone"), [
    # issue 40's own case: Dura taken out in Dura's own turn at the ford
    ("zamani/river-crossing-fight.yaml", "n\n" + "gm skip\n" * 5 + "gm remove dura\n",
     "Dura"),
    # a combatant who is not acting, once a turn is over
    ("contest/gate-fight.yaml", "\n1\ngm remove grub\n", "Grub the Brute")])
def test_gm_remove_after_the_first_turn_resumes(tmp_path: Path, scenario: str, lines: str,
                                                gone: str) -> None:
    """The resumed session's narration read the removed combatant's health through the
    roster's mapping get, which raised instead of giving None."""
    log = tmp_path / "play.jsonl"
    done = fracas("play", str(ROOT / "examples" / scenario), "--seed", "1", "--roll-all",
                  "--log", str(log), "--script", "/dev/stdin", stdin=lines + "q\n")
    assert done.returncode == 0, done.stderr
    assert f"{gone} leaves the fight" in reads_back(log)
