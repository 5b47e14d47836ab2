"""Issue 26, the command line: every finding of the CLI fuzz, each through the real command
in a fresh process (several hid because the tests import every system in one process), and
issue 24's ``fracas replay`` of a ``play --log`` session log."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fracas.encounter.log import CHAIN_START, _digest
from fracas.registry.scenarios import load_scenario

FRACAS = [sys.executable, "-m", "fracas"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "tristat" / "duel-fight.yaml"
FIGHTS = {"c22": "c22/boarding-fight.yaml", "contest": "contest/duel-fight.yaml",
          "genesys": "genesys/duel-fight.yaml", "tristat": "tristat/duel-fight.yaml",
          "zamani": "zamani/duel-fight.yaml"}


def fracas(*args: Any, timeout: float = 120, stdin: str | None = None,
           cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real command in a fresh process; never a traceback nor a crash signal."""
    done = subprocess.run([*FRACAS, *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, input=stdin, cwd=cwd)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode >= 0, f"killed by signal {-done.returncode}"
    return done


def refused(*args: Any, **kw: Any) -> str:
    """The one-line error of a refused command (exit 2)."""
    done = fracas(*args, **kw)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.startswith("fracas: error: ") or "Error: " in done.stderr
    return done.stderr


def rechain(records: list[dict[str, Any]], path: Path) -> Path:
    """Write records as a log whose hash chain is recomputed (a forger's edit)."""
    previous = CHAIN_START
    with path.open("w", encoding="utf-8") as out:
        for r in records:
            r["hash"] = previous = _digest(previous, r["seq"], r["kind"], r["data"])
            out.write(json.dumps(r) + "\n")
    return path


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# -- 1: every system's fight log replays in a fresh process --------------------------------
@pytest.mark.parametrize("system", sorted(FIGHTS))
def test_a_fight_log_of_every_system_replays_in_a_fresh_process(system: str,
                                                                 tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    fracas("fight", EXAMPLES / FIGHTS[system], "--seed", "5", "--log", log, "--json")
    done = fracas("replay", log, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["system"] == system and data["log"]["kind"] == "fight"
    assert data["log"]["complete"] and data["winner"] is not None
    told = fracas("replay", log)  # as a person reads it: names from the sheets
    assert told.returncode == 0, told.stderr
    last = told.stdout.split("\n", 1)[1]
    scenario = load_scenario(EXAMPLES / FIGHTS[system])
    for cid, c in scenario.roster.items():
        if c.name != cid:
            assert not re.search(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", last), last
    assert not re.findall(r"\b(None|True|False)\b", last), last


# -- 2 and 3: nesting bounded before parsing; text that is not Unicode -------------------
@pytest.mark.parametrize("levels, closed", [(22_000, True), (2_500, False), (150, True)])
def test_a_scenario_nested_deeply_is_refused_before_parsing(tmp_path: Path, levels: int,
                                                            closed: bool) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("system: tristat\ncombatants: " + "[" * levels
                    + ("]" * levels if closed else "") + "\n", encoding="utf-8")
    for command in (["fight", deep], ["sweep", deep, "--vary", "max_rounds=1,2"]):
        err = refused(*command)
        assert "deep.yaml" in err and "nested more than 100 levels deep" in err


def test_a_scenario_nested_by_indentation_is_refused(tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("system: tristat\ncombatants:\n"
                    + "".join(" " * i + "- \n" for i in range(3_000)), encoding="utf-8")
    assert "nested more than 100 levels deep" in refused("odds", deep)


def test_a_log_line_of_100000_brackets_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "deep.jsonl"
    log.write_text("[" * 100_000 + "\n", encoding="utf-8")
    err = refused("replay", log)
    assert "line 1: lists and objects nested more than 100 levels deep" in err
    assert "nested more than 100" in refused("play", "--resume", log)


def test_a_lone_surrogate_escape_in_a_log_line_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    fracas("fight", DUEL, "--seed", "1", "--log", log, "--json")
    text = log.read_text(encoding="utf-8").replace('"title": "', '"title": "\\ud800', 1)
    log.write_text(text, encoding="utf-8")
    assert "line 1: text that is not Unicode" in refused("replay", log)


# -- 4: session logs checked field by field ---------------------------------------------
@pytest.fixture(scope="module")
def session_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("session")
    log = folder / "session.jsonl"
    fracas("play", DUEL, "--seed", "3", "--gm-dice", "typed", "--log", log, stdin="r\nr\n\nq\n")
    assert [r["kind"] for r in records(log)] == ["session", "input", "input", "input"]
    return log


@pytest.mark.parametrize("line, key, value, words", [
    (2, "rolled", "x", "line 2.rolled: Input should be a valid integer"),
    (2, "rolled", [1], "line 2.rolled: Input should be a valid integer"),
    (2, "rolled", -1, "line 2.rolled: Input should be greater than or equal to 0"),
    (1, "max_rounds", "x", "line 1.max_rounds: Input should be a valid integer"),
    (1, "controllers", None, "line 1.controllers: Input should be a valid dictionary"),
    (2, "kind", "roll", "line 2.kind: an input of kind 'roll'"),
    (1, "seed", -1, "line 1.seed: Input should be greater than or equal to 0"),
    (2, "extra", 1, "line 2.extra: unknown key 'extra'"),
    (4, "option", 1, "line 4.option: Input should be a valid string"),
])
def test_a_session_log_with_a_field_of_the_wrong_type_is_refused(
        session_log: Path, tmp_path: Path, line: int, key: str, value: Any,
        words: str) -> None:
    edited = records(session_log)
    edited[line - 1]["data"][key] = value
    log = rechain(edited, tmp_path / "edited.jsonl")
    assert words in refused("play", "--resume", log, stdin="q\n")
    assert words in refused("replay", log)


def test_a_session_log_with_a_key_twice_is_refused(session_log: Path, tmp_path: Path) -> None:
    lines = session_log.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1].replace('"by": "gm"', '"by": "gm", "by": "rin"', 1)
    log = tmp_path / "twice.jsonl"
    log.write_text("".join(lines), encoding="utf-8")
    assert "line 2: the key 'by' twice in one object" in refused("replay", log)


# -- 5: a refused undo changes nothing -----------------------------------------------------
def test_undo_past_the_start_changes_nothing(tmp_path: Path) -> None:
    log = tmp_path / "session.jsonl"
    done = fracas("play", DUEL, "--seed", "3", "--gm-dice", "typed", "--log", log,
                  stdin="3,5\nu 2\n9,9\nq\n")
    assert "only 1 step to undo" in done.stdout
    assert "9 is not a value d6 can show" in done.stdout  # still asking for Gorr's 2d6
    assert [r["data"].get("dice") for r in records(log)[1:]] == [[3, 5]]
    again = fracas("play", "--resume", log, stdin="q\n")
    assert again.returncode == 0 and "? Gorr's initiative: 2d6" in again.stdout


# -- 6: GM hand edits validated like the sheet and the state ---------------------------
@pytest.mark.parametrize("file, line, words", [
    ("tristat/duel-fight.yaml", "gm add []", "a combatant entry is a mapping, not a list"),
    ("tristat/duel-fight.yaml", "gm set rin health x", "'x' does not fit health"),
    ("tristat/duel-fight.yaml", "gm set rin health 10000000000000",
     "out of range for health"),
    ("genesys/duel-fight.yaml", "gm set red initiative x", "does not fit initiative"),
    ("c22/dash-square-grid.yaml", "gm set nix position 1.5", "does not fit position"),
])
def test_a_gm_edit_of_the_wrong_type_is_refused(tmp_path: Path, file: str, line: str,
                                                words: str) -> None:
    log = tmp_path / "session.jsonl"
    done = fracas("play", EXAMPLES / file, "--seed", "1", "--gm-dice", "typed", "--log", log,
                  stdin=f"{line}\nq\n")
    assert done.returncode == 0 and words in done.stdout, done.stdout
    assert len(records(log)) == 1  # nothing was added
    assert fracas("play", "--resume", log, stdin="q\n").returncode == 0


def test_a_gm_edit_of_the_wrong_type_in_a_log_is_refused(session_log: Path,
                                                         tmp_path: Path) -> None:
    edited = records(session_log)[:1]
    event = {"type": "Changed", "rule": "GM · at the table", "text": "", "target": "rin",
             "field": "health", "before": 45, "after": "lots"}
    edited.append({"seq": 2, "kind": "input",
                   "data": {"kind": "gm", "event": event, "by": "gm"}})
    log = rechain(edited, tmp_path / "gm.jsonl")
    assert "'lots' does not fit health" in refused("play", "--resume", log)


# -- 7: unwritable logs, memory budgets ---------------------------------------------------
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_log_on_a_full_disk_is_a_clear_error() -> None:
    err = refused("fight", DUEL, "--seed", "1", "--log", "/dev/full")
    assert "/dev/full: cannot write the log: No space left on device" in err


def test_an_absurd_memory_budget_is_a_usage_error() -> None:
    err = refused("simulate", DUEL, "-n", "10", "--max-memory", "1e300")
    assert "--max-memory" in err and "1000000" in err


# -- 8: the report of an unmodified example --------------------------------------------
def test_the_report_of_a_one_sided_fight_draws_its_interval(tmp_path: Path) -> None:
    done = fracas("report", EXAMPLES / "c22" / "deck-brawl-fight.yaml", "-n", "50",
                  "--max-states", "500", "--max-seconds", "5", "-q", "--output",
                  tmp_path / "r.html", timeout=240)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "r.html").stat().st_size > 10_000


# -- 9: every path honours a time budget and reports progress --------------------------
@pytest.mark.parametrize("file", ["genesys/ranged_extreme.yaml", "c22/dash-square-grid.yaml"])
def test_the_fast_path_stops_at_its_time_budget_and_says_how_far(file: str) -> None:
    done = fracas("simulate", EXAMPLES / file, "-n", "40", "--method", "fast",
                  "--max-seconds", "3", timeout=60)
    assert done.returncode == 2
    assert "the fast path passed its time budget of 3 s (--max-seconds)" in done.stderr
    assert "of 40 fights" in done.stderr


def test_the_steps_path_stops_at_its_time_budget() -> None:
    err = refused("simulate", DUEL, "-n", "5000", "--method", "steps", "--max-seconds",
                  "0.2", "-q")
    assert "the fights passed their time budget of 0.2 s after" in err


def test_the_fast_path_reports_fights_as_they_end() -> None:
    from fracas.analysis.simulate import simulate
    from fracas.encounter.engine import setup_from_scenario

    scenario = load_scenario(DUEL)
    told: list[int] = []
    simulate(setup_from_scenario(scenario), scenario.roster, 300, seed=2, method="fast",
             progress=told.append, max_seconds=60)
    assert sum(told) == 300 and len(told) > 3  # one batch, told as its fights end
    done = fracas("simulate", DUEL, "-n", "300", "--method", "fast", "--seed", "2")
    assert done.returncode == 0 and "300 fights (fast path)" in done.stdout


# -- 10: one validation of pinned dice for every command ------------------------------
@pytest.mark.parametrize("command", [["attack"], ["attack", "--seed", "1"], ["fight"],
                                     ["odds"], ["simulate", "-n", "5"], ["advise"],
                                     ["play"]])
def test_pinned_dice_no_die_can_show_are_refused_by_every_command(tmp_path: Path,
                                                                  command: list[str]) -> None:
    text = (EXAMPLES / "tristat" / "called_shot.yaml").read_text(encoding="utf-8")
    lines = [("dice: [-1, 99]" if ln.startswith("dice:") else ln) for ln in text.splitlines()]
    pinned = tmp_path / "pinned.yaml"
    pinned.write_text("\n".join(lines) + "\n", encoding="utf-8")
    err = refused(command[0], pinned, *command[1:], stdin="q\n")
    assert "pinned.yaml: dice: pinned value #1 for d6: -1 is not a value d6 can show" in err


# -- 11: a log's events are the rules' ------------------------------------------------
def test_a_log_edited_with_its_hash_chain_recomputed_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    fracas("fight", EXAMPLES / "tristat" / "alley-fight.yaml", "--log", log, "--json")
    edited = records(log)
    first = next(i for i, r in enumerate(edited)
                 if r["data"].get("event", {}).get("field") == "health")
    target = edited[first]["data"]["event"]["target"]
    for r in edited[first:]:  # +1000 health from there on, every value consistent
        e = r["data"].get("event")
        if e and e["type"] == "Changed" and e["target"] == target and e["field"] == "health":
            if r is not edited[first]:
                e["before"] += 1000
            e["after"] += 1000
    forged = rechain(edited, tmp_path / "forged.jsonl")
    err = refused("replay", forged)
    assert f"line {first + 1}: an event the rules did not produce" in err
    assert "the rules give" in err
    assert fracas("replay", log).returncode == 0  # the log as written replays


# -- issue 24, item 8: replay reads a play --log session log ------------------------
def test_replay_reads_a_session_log_and_says_so(session_log: Path) -> None:
    done = fracas("replay", session_log)
    assert done.returncode == 0
    assert "a live session's log (fracas play --log)" in done.stdout
    data = json.loads(fracas("replay", session_log, "--json").stdout)
    assert data["log"]["kind"] == "session" and data["log"]["inputs"] == 3
    assert data["system"] == "tristat" and data["seed"] == 3
    fight_log = fracas("replay", session_log, "--undo", "3", "--json")
    assert json.loads(fight_log.stdout)["events"] == []
