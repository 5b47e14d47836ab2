"""Issue 34 item 5: conditions with table durations. "For N rounds" lasts through the
combatant's next N turns (a 1-round condition given in the last slot of a round still holds
through its target's next turn); "until the end of X's next turn"; "until removed". When
the time is up the rules' condition ends with the GM's mark, and the log says so."""

from __future__ import annotations

import os
import subprocess
import sys

from fracas.core.events import TurnStarted
from fracas.encounter import gm
from fracas.encounter.session import Session
from fracas.registry.scenarios import load_scenario

FORD = "examples/zamani/river-crossing-fight.yaml"


def _ford() -> Session:
    scenario = load_scenario(FORD)
    s = Session.start(scenario, seed=1, controllers={
        **dict.fromkeys(scenario.roster, "person"), "gm": "person"}, odds=False)
    while not (s.pending and s.pending.prompt == "Kofi's action"):
        _first(s)
    return s


def _first(s: Session) -> None:
    p = s.pending
    assert p is not None
    s.decide({"option": p.options[0].id} if p.options else {"roll": True})


def _turns_of(s: Session, cid: str) -> int:
    return sum(1 for e in s.events if isinstance(e, TurnStarted) and e.actor == cid)


def test_a_one_round_condition_lasts_through_its_targets_next_turn_then_ends() -> None:
    s = _ford()
    gm.put_condition(s, "jabari", "stunned", 1)
    assert "stunned" in s.state.roster["jabari"].state.conditions
    turns = _turns_of(s, "jabari")
    while _turns_of(s, "jabari") == turns:  # up to Jabari's next turn
        assert "stunned" in s.state.roster["jabari"].state.conditions
        _first(s)
    while s.pending is not None and s.pending.who == "jabari":  # through it
        assert "stunned" in s.state.roster["jabari"].state.conditions
        _first(s)
    assert "stunned" not in s.state.roster["jabari"].state.conditions
    texts = [e.text() for e in s.events]
    assert "Jabari is no longer stunned: its time is up" in texts
    assert gm.marks(s.events).get("jabari") is None
    again = Session.from_records(s.to_records())
    assert again.state == s.state and again.events == s.events


def test_until_the_end_of_another_combatants_next_turn() -> None:
    s = _ford()
    gm.put_condition(s, "jabari", "stunned", until="sefa")
    assert gm.marks(s.events)["jabari"] == [("stunned", 1)]
    assert any(e.text() == "Jabari is stunned until the end of Sefa's next turn"
               for e in s.events)
    turns = _turns_of(s, "sefa")
    while _turns_of(s, "sefa") == turns or (s.pending and s.pending.who == "sefa"):
        _first(s)
    assert "stunned" not in s.state.roster["jabari"].state.conditions


def test_until_removed_holds() -> None:
    s = _ford()
    gm.put_condition(s, "jabari", "stunned")
    for _ in range(15):
        _first(s)
    assert "stunned" in s.state.roster["jabari"].state.conditions
    assert gm.marks(s.events)["jabari"] == [("stunned", None)]


def test_gm_cond_until_at_the_terminal_says_when_it_ends() -> None:
    lines = ["", "", "", "", "", "", "gm cond jabari stunned until sefa", "s", "q"]
    done = subprocess.run([sys.executable, "-m", "fracas", "play", FORD, "--seed", "1"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=600, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Jabari is stunned until the end of Sefa's next turn" in done.stdout, \
        done.stdout[-2000:]


def test_a_condition_put_on_in_the_middle_of_its_targets_own_turn_counts_the_next_one() -> None:
    """Kofi attacks Dura and Dura is asked her reaction: a 1-round condition put on Kofi
    now lasts through Kofi's next turn, not the one he is in the middle of (a mark the rules
    do not know, so that his turns are not changed by it)."""
    s = _ford()
    attack = next(o for o in s.pending.options if "Dura" in o.label and "ttack" in o.label)
    s.decide({"option": attack.id})
    while s.pending is not None and s.pending.who == "kofi":  # the attack's own choices
        _first(s)
    assert s.state.actor == "kofi" and s.pending is not None and s.pending.who != "kofi"
    gm.put_condition(s, "kofi", "dazed", 1)
    assert gm.marks(s.events)["kofi"] == [("dazed", 1)]
    while s.state.actor == "kofi":  # the rest of this turn
        _first(s)
    assert gm.marks(s.events)["kofi"] == [("dazed", 1)]
    while s.state.actor != "kofi":  # up to his next turn (segment 2)
        assert gm.marks(s.events)["kofi"] == [("dazed", 1)]
        _first(s)
    assert gm.marks(s.events)["kofi"] == [("dazed", 1)]  # his next turn: it holds
    turns = _turns_of(s, "kofi")
    while _turns_of(s, "kofi") == turns:  # through it, to the turn after
        _first(s)
    assert gm.marks(s.events).get("kofi") is None
    assert "Kofi is no longer dazed: its time is up" in [e.text() for e in s.events]
    again = Session.from_records(s.to_records())
    assert again.state == s.state and again.events == s.events
