"""A fight log a GM edits by hand (or feeds to the wrong command), replayed by the real
``fracas`` command in a fresh process: the error names the line the GM edited, quotes the
events as the table reads them, and says which log is wanted in words, not code names."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

DUEL = "examples/tristat/duel-fight.yaml"


def fracas(*args: object, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *map(str, args)], input=stdin,
                          capture_output=True, text=True, timeout=300)


def rechained(records: list[dict[str, Any]], path: Path) -> Path:
    """The records written with their hash chain recomputed, as a forger would."""
    previous, lines = "fracas-log-1", []
    for r in records:
        canon = json.dumps([r["seq"], r["kind"], r["data"]], sort_keys=True,
                           separators=(",", ":"), ensure_ascii=False)
        r["hash"] = previous = hashlib.sha256(f"{previous}\n{canon}".encode()).hexdigest()
        lines.append(json.dumps(r, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_hand_edited_value_is_named_at_the_line_edited(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    assert fracas("fight", DUEL, "--seed", "3", "--log", log).returncode == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    line, event = next((n, r["data"]["event"]) for n, r in enumerate(records, start=1)
                       if r["data"].get("event", {}).get("field") == "health")
    assert event["target"] == "gorr" and event["before"] == 60 and event["after"] == 50
    event["after"] = 40  # the GM's edit: one value, later events left as they were
    done = fracas("replay", rechained(records, tmp_path / "edited.jsonl"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        f"fracas: error: {tmp_path / 'edited.jsonl'}: line {line}: an event the rules did "
        "not produce: the log has 'Gorr: health 60 → 40'; played again from the log's "
        "inputs, the rules give 'Gorr: health 60 → 50' (allowed: a fight log "
        "(fracas fight --log), unedited)")
    assert fracas("replay", log).returncode == 0  # the log as written replays


def test_a_log_given_to_the_wrong_command_says_which_log_it_is(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    assert fracas("fight", DUEL, "--seed", "3", "--log", log).returncode == 0
    done = fracas("play", "--resume", log)
    assert done.returncode == 2
    assert (f"{log}: line 1: this is a fight log (fracas fight --log), not a live "
            "session's log (fracas play --log)") in done.stderr
    records = [json.loads(line) for line in log.read_text().splitlines()]
    records[0]["data"]["system"] = "nosuch"
    done = fracas("replay", rechained(records, tmp_path / "other.jsonl"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"fracas: error: {tmp_path / 'other.jsonl'}: line 1: system: no rule system "
        "'nosuch' (allowed: c22, contest, genesys, tristat, zamani)")
    done = fracas("replay", DUEL)
    assert done.returncode == 2 and "FightLog" not in done.stderr
    assert "line 1: not JSON (allowed: a fight log (fracas fight --log)" in done.stderr


def test_a_hand_edited_session_log_is_refused_naming_the_line_of_the_input(
        tmp_path: Path) -> None:
    log = tmp_path / "session.jsonl"
    typed = "3,4\n5,2\na\n1\n2,2\n5,6\ngm hurt rin 2\nq\n"
    assert fracas("play", DUEL, "--seed", "1", "--gm-dice", "typed", "--log", log,
                  stdin=typed).returncode == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    dice_line = next(n for n, r in enumerate(records, start=1)
                     if r["data"].get("dice") == [2, 2])
    edit_line = next(n for n, r in enumerate(records, start=1)
                     if r["data"].get("kind") == "gm")
    cases = [
        (dice_line, lambda d: d.update(dice=[2, 9]),
         f"line {dice_line}: pinned value #2 for d6: 9 is not a value d6 can show "
         "(allowed: 1 to 6)"),
        (edit_line, lambda d: d["event"].update(after="x"),
         f"line {edit_line}: health: 'x' does not fit health (allowed: a whole number)"),
        (1, lambda d: d.update(system="genesys"),
         "line 1: system: the system does not match the scenario's (allowed: 'tristat')"),
    ]
    for number, change, message in cases:
        edited = [json.loads(json.dumps(r)) for r in records]
        change(edited[number - 1]["data"])
        path = rechained(edited, tmp_path / f"edited-{number}.jsonl")
        for command in (("replay", path), ("play", "--resume", path)):
            done = fracas(*command)
            assert done.returncode == 2 and "Traceback" not in done.stderr, command
            assert done.stderr.strip() == f"fracas: error: {path}: {message}", command


def test_a_session_log_cut_short_goes_on_in_a_new_log(tmp_path: Path) -> None:
    """A laptop that died while writing the last input: the log cannot be appended to
    after the cut, the error says how to go on, and going on into a new log works."""
    log = tmp_path / "session.jsonl"
    typed = "3,4\n5,2\na\n1\n2,2\n5,6\ngm hurt rin 2\nq\n"
    assert fracas("play", DUEL, "--seed", "1", "--gm-dice", "typed", "--log", log,
                  stdin=typed).returncode == 0
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(log.read_bytes()[:-30])
    done = fracas("play", "--resume", cut, stdin="q\n")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"fracas: error: {cut}: cannot continue a damaged log: line 8 is cut short "
        f"(allowed: its whole lines go on in a new log: fracas play --resume {cut} --log "
        "NEW.jsonl)")
    kept = cut.read_bytes()
    new = tmp_path / "new.jsonl"
    done = fracas("play", "--resume", cut, "--log", new, stdin="q\n")
    assert done.returncode == 0, done.stderr
    assert "? Rin's action" in done.stdout  # where the whole lines stop: the edit is lost
    assert cut.read_bytes() == kept
    again = fracas("replay", new)
    assert again.returncode == 0 and "6 inputs" in again.stdout


def test_a_log_told_in_older_words_replays_but_not_a_changed_choice(tmp_path: Path) -> None:
    """A chosen action's wording (``said``, from the data pack) may be reworded between
    versions: a log written before ("Sacrifice" where fracas now says "Sacrifice
    nothing") plays again; a changed choice is still refused at its line."""
    log = tmp_path / "fight.jsonl"
    assert fracas("fight", "examples/zamani/duel-fight.yaml", "--seed", "7", "--log",
                  log).returncode == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    chosen = [r["data"]["event"] for r in records
              if r["data"].get("event", {}).get("type") == "ActionChosen"]
    assert "Sacrifice nothing" in {e["said"] for e in chosen}
    for event in chosen:
        event["said"] = "in older words"
    done = fracas("replay", rechained(records, tmp_path / "older.jsonl"))
    assert done.returncode == 0, done.stderr
    line, event = next((n, r["data"]["event"]) for n, r in enumerate(records, start=1)
                       if r["data"].get("event", {}).get("action") == "attack")
    event["detail"] = "a spear never drawn"
    done = fracas("replay", rechained(records, tmp_path / "changed.jsonl"))
    assert done.returncode == 2 and f": line {line}: an event the rules did not produce" in (
        done.stderr)
