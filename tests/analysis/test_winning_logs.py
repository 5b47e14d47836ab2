"""``fracas odds LOG --fight [--at N]`` and ``fracas simulate LOG [--at N]`` (a fresh
process): a fight log or a play log read at any point is the starting state; the exact
odds from there equal the chain's from the state folded by hand; the Python API; errors
name the file and --at; the what-if changes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from fracas.analysis.duel import duel_odds
from fracas.analysis.winning import of_log, of_scenario, what_if, win_chance
from fracas.encounter.engine import Encounter
from fracas.encounter.session import Session
from fracas.encounter.state import fold
from fracas.registry.scenarios import load_scenario

DUEL = "examples/tristat/duel-fight.yaml"


def _fracas(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "COLUMNS": "120"})


@pytest.fixture(scope="module")
def fight_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("logs") / "duel.log"
    done = _fracas("fight", DUEL, "--seed", "3", "--log", str(log))
    assert done.returncode == 0, done.stderr
    return log


def test_odds_of_a_fight_log_at_any_point_are_the_chains_from_that_state(
        fight_log: Path) -> None:
    fight = Encounter.load(fight_log)
    turn_end = fight.marks[6]  # the end of the sixth whole turn
    done = _fracas("odds", str(fight_log), "--fight", "--at", str(turn_end + 2), "--json",
                   "-q")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    state = fold(fight.initial, fight.events[:turn_end])
    exact = duel_odds(fight.setup, state)
    for side, p in exact.outcomes.items():
        assert Fraction(data["outcomes"][side]["exact"]) == p
    assert data["from"]["round"] == state.round
    assert f"event {turn_end}" in data["from"]["where"]  # at the end of the last whole turn
    assert data["from"]["played_by"]["rin"] == {"policy": "aggressive", "why": "default"}
    # the end of the log (the default): the fight is over, its winner's chance is 1
    done = _fracas("odds", str(fight_log), "--fight", "--json", "-q")
    end = json.loads(done.stdout)
    winner = fight.state.winner
    assert winner is not None and end["outcomes"][winner]["exact"] == "1"
    # the text view says where it starts from and who plays whom
    done = _fracas("odds", str(fight_log), "--fight", "--at", "0", "-q")
    assert done.returncode == 0 and "From after event 0 of" in " ".join(done.stdout.split())
    assert "Played by: Rin: aggressive (the default)" in " ".join(done.stdout.split())


def test_simulate_a_play_log_at_an_input(tmp_path: Path) -> None:
    from fracas.encounter.session_log import SessionLog

    scenario = load_scenario(DUEL)
    session = Session.start(scenario, seed=2, controllers={"rin": "person",
                                                           "gorr": "cautious"})
    log = tmp_path / "play.jsonl"
    journal = SessionLog.create(log, session)
    session.play_first(12)
    journal.sync(session)
    journal.detach()
    at = 7
    done = _fracas("simulate", str(log), "--at", str(at), "-n", "600", "--seed", "1",
                   "--json", "--method", "steps", "-q")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["fights"] == 600 and data["from"]["where"].startswith(f"after input {at} of 12")
    assert data["from"]["played_by"] == {"rin": {"policy": "aggressive", "why": "default"},
                                         "gorr": {"policy": "cautious", "why": "controller"}}
    # the same fights as the library gives from that session's state
    position = of_log(log, at)
    again = Session.from_records(session.to_records()[:at + 1])
    assert position.state == again.turn_base
    api = win_chance(log, at=at, method="steps", fights=600, seed=1)
    assert api.sides["blades"].p == data["sides"]["blades"]["p_win"]
    # a plot, as for a scenario
    plot = tmp_path / "sim.png"
    done = _fracas("simulate", str(log), "--at", "3", "-n", "200", "--plot", str(plot), "-q")
    assert done.returncode == 0 and plot.stat().st_size > 1000


def test_bad_at_and_bad_logs_are_named(fight_log: Path, tmp_path: Path) -> None:
    done = _fracas("odds", str(fight_log), "--fight", "--at", "99999")
    assert done.returncode == 2 and "--at" in done.stderr and str(fight_log) in done.stderr
    assert "Traceback" not in done.stderr
    done = _fracas("simulate", DUEL, "--at", "3")
    assert done.returncode == 2 and "--at reads a moment of a log" in done.stderr
    done = _fracas("odds", DUEL, "--at", "3")
    assert done.returncode == 2 and "--fight with a fight or play log" in done.stderr
    other = tmp_path / "other.log"
    other.write_text('{"kind": "something", "seq": 1}\n')
    done = _fracas("simulate", str(other), "-n", "10")
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_what_if_leaves_the_fight_and_its_log_as_they_were(fight_log: Path) -> None:
    before = fight_log.read_bytes()
    position = of_log(fight_log, at=40)
    events = list(Encounter.load(fight_log).events)
    hurt = win_chance(what_if(position, values={"gorr": {"health": 1}}), method="exact")
    assert hurt.sides["blades"].p > win_chance(position, method="exact").sides["blades"].p
    assert "Gorr at health 1" in hurt.position.where
    assert fight_log.read_bytes() == before and Encounter.load(fight_log).events == events
    start = of_scenario(load_scenario(DUEL))
    with pytest.raises(ValueError, match="no value 'hp'"):
        what_if(start, values={"gorr": {"hp": 1}})
    with pytest.raises(ValueError, match="a what-if needs a change"):
        what_if(start)
