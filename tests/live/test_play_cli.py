"""``fracas play``: a whole fight from a script, errors that change nothing, save and
resume, and a real terminal."""

from __future__ import annotations

import json
import os
import pty
import random
import select
import subprocess
import sys
import time
from pathlib import Path

from fracas.encounter.session import Session
from fracas.encounter.session_log import load_session
from fracas.registry.scenarios import load_scenario
from tests.live.hands import hand_values

DUEL = "examples/tristat/duel-fight.yaml"
C22 = "examples/c22/duel-fight.yaml"


def _play(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``fracas play`` with the GM typing the GM side's dice too (scripts type them)."""
    typed = [] if "--resume" in args else ["--gm-dice", "typed"]
    return subprocess.run([sys.executable, "-m", "fracas", "play", *args, *typed], input=stdin,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "100"})


def _by_hand(path: str, seed: int) -> tuple[Session, list[str]]:
    """A fight played by hand through the API, and the lines a person would type."""
    scenario = load_scenario(path)
    session = Session.start(scenario, seed=seed,
                            controllers=dict.fromkeys(scenario.roster, "person"))
    rng, lines = random.Random(seed), []
    while session.pending is not None:
        p = session.pending
        if p.kind == "dice":
            values = hand_values(p, rng)
            lines.append(",".join(map(str, values)))
            session.decide({"dice": values})
        elif p.menu is not None:  # the first action, composed step by step
            lines.extend(p.menu.keys_for(0))
            session.decide({"option": "1"})
        else:
            lines.append("1")
            session.decide({"option": "1"})
    return session, lines


def test_a_script_plays_a_whole_fight_by_hand_and_its_log_replays(tmp_path: Path) -> None:
    session, lines = _by_hand(C22, 4)
    script, log = tmp_path / "moves.txt", tmp_path / "fight.jsonl"
    script.write_text("\n".join(lines) + "\n")
    done = _play(C22, "--seed", "4", "--script", str(script), "--log", str(log))
    assert done.returncode == 0, done.stderr
    assert "Fight over" in done.stdout and "error" not in done.stdout
    saved = load_session(log)
    assert saved.state == session.state and saved.state.over
    assert [e["dice"] for e in saved.entries if e["kind"] == "dice"] == [
        e["dice"] for e in session.entries if e["kind"] == "dice"]
    assert saved.replayed() == saved.state


def test_bad_input_on_stdin_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    done = _play(DUEL, "--seed", "1", "--log", str(log),
                 stdin="3,9\n3,4,5\nr\nr\n99\nbanana\ngm set gorr hp 4\na\nq\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "9 is not a value d6 can show (allowed: 1 to 6)" in out
    assert "type 2 values, not 3 (allowed: 2 values, each 1 to 6)" in out
    assert "'99' is not on this list" in out
    assert "'banana' is not on this list" in out
    assert "Gorr has no value 'hp'" in out
    assert "Traceback" not in out + done.stderr
    saved = load_session(log)
    # only the good inputs are in the log: two rolls and the action
    assert [(e["kind"], e.get("option")) for e in saved.entries] == [
        ("dice", None), ("dice", None), ("answer", "1")]
    assert saved.pending is not None and saved.pending.kind == "reaction"


def test_save_quit_and_resume_where_it_stopped(tmp_path: Path) -> None:
    session, lines = _by_hand(DUEL, 9)
    half = len(lines) // 2
    # a path longer than the 80-column pipe: the command to go on is still one line
    (folder := tmp_path / ("a-long-folder-name-" * 4)).mkdir()
    log = folder / "fight.jsonl"
    first = _play(DUEL, "--seed", "9", "--log", str(log),
                  stdin="\n".join([*lines[:half], "q"]) + "\n")
    assert first.returncode == 0 and f"--resume {log}" in first.stdout
    assert load_session(log).pending is not None
    second = _play("--resume", str(log), stdin="\n".join(lines[half:]) + "\n")
    assert second.returncode == 0, second.stderr
    assert "Fight over" in second.stdout
    assert load_session(log).state == session.state


def test_a_real_terminal_shows_the_menu_with_odds_takes_keys_and_saves(tmp_path: Path
                                                                        ) -> None:
    log = tmp_path / "fight.jsonl"
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "fracas", "play", DUEL, "--seed", "2",
                             "--log", str(log), "--gm-dice", "typed"],
                            stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True,
                            env={**os.environ, "COLUMNS": "100", "TERM": "xterm"})
    # the slave end stays open until the child has exited: Linux drops what a pty still
    # buffers once every slave end is closed
    seen = b""

    def wait_for(text: bytes, timeout: float = 60) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while text not in seen and time.monotonic() < deadline:
            if select.select([master], [], [], 0.5)[0]:
                seen += os.read(master, 65536)
        assert text in seen, seen.decode("utf-8", "replace")[-2000:]

    for key, expect in (("r", b"Gorr's initiative"), ("r", b"Rin's action"),
                        ("?", b"save and quit"), ("a", b"Gorr's reaction to"),
                        ("u", b"undid 1 step"), ("q", b"log saved")):
        wait_for(b"> ")
        seen_before = len(seen)
        os.write(master, key.encode() + b"\n")
        wait_for(expect)
        assert len(seen) > seen_before
    code = proc.wait(timeout=60)
    while select.select([master], [], [], 0.2)[0]:
        try:
            seen += os.read(master, 65536)
        except OSError:
            break
    os.close(slave)
    os.close(master)
    text = seen.decode("utf-8", "replace")
    assert code == 0, text[-2000:]
    assert "hit 35%, dmg 3.86, out 0%" in text  # the odds beside Rin's first attack
    assert "█" in text and "Traceback" not in text
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["kind"] for r in records] == ["session", "input", "input", "input", "cut"]
    saved = load_session(log)  # two rolls: the action was taken back
    assert [e["kind"] for e in saved.entries] == ["dice", "dice"]


def test_verbose_explain_status_and_gm_commands(tmp_path: Path) -> None:
    done = _play(DUEL, "--seed", "1", "--verbose", "--control", "gorr=aggressive",
                 stdin="3,4\n5,2\ngm set gorr health 5\ns\na\n1\n6,6\n6,6\ne\n"
                       "gm end the watch arrives\nq\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "[seed 003 · How to Attack an Enemy]" in out  # --verbose cites every rule
    assert "Gorr: health 60 → 5  [GM · at the table]" in out
    assert "5/60" in out  # the status line after the hand edit
    assert "the GM ends the fight: the watch arrives" in out
    assert "aggressive" in out and "Traceback" not in out + done.stderr
