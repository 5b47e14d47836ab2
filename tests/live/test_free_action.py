"""Issue 34 item 4: free-form actions the table can trust. The roll can be typed (``= N``)
as the table's dice show it; each effect is applied on success, on failure or always (on
success by default when the roll has a target number); a condition the rules know is the
rules' condition, as ``gm cond`` puts it on; the next turn's header follows the action."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fracas.encounter import gm
from fracas.encounter.session import Session
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

FORD = "examples/zamani/river-crossing-fight.yaml"
#: nobody sacrifices before the round's initiative: Kofi's action is asked
FORD_START = ("", "", "", "", "", "")


def _play(*lines: str) -> str:
    done = subprocess.run([sys.executable, "-m", "fracas", "play", FORD, "--seed", "1"],
                          input="\n".join((*lines, "q")) + "\n", capture_output=True,
                          text=True, timeout=600, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_failed_typed_roll_applies_only_what_the_failure_does() -> None:
    """``= 3``: the table's d10 showed 3, which fails against 5: the damage marked for a
    success is not applied, the stun marked ``always`` is, in the rules (Jabari has no
    defense), and the next turn's header is printed after the action."""
    out = _play(*FORD_START, "gm do leaps the rocks at Jabari | roll 1d10 vs 5 = 3 "
                "| damage jabari 3 | always cond jabari stunned 1", "s")
    after = out[out.index("> gm do"):]
    lines = after.splitlines()
    assert "  Kofi: leaps the rocks at Jabari" in lines, after
    assert "  Kofi rolls 1d10: 3, needs at least 5: failure" in lines, after
    assert "Jabari: wounds" not in after.split("> s")[0], after
    assert "  Jabari is stunned for 1 round" in lines, after
    assert "  Jabari: conditions none → stunned" in lines or any(
        "stunned" in x and "conditions" in x for x in lines), after
    header = [x for x in lines[:lines.index("> s")] if x.endswith(")") and "'s turn" in x]
    assert header, after  # the next turn's header follows
    assert "Kofi passes" not in after


def test_a_success_applies_on_success_and_leaves_on_failure() -> None:
    out = _play(*FORD_START, "gm do leaps | roll 1d10 vs 5 = 7 | damage jabari 3 "
                "| on failure damage kofi 2")
    after = out[out.index("> gm do"):]
    assert "Kofi rolls 1d10: 7, needs at least 5: success" in after, after
    assert "Jabari: wounds 18 → 15" in after, after
    assert "Kofi: wounds" not in after, after


def _ford() -> Session:
    scenario = load_scenario(FORD)
    s = Session.start(scenario, seed=1, controllers={
        **dict.fromkeys(scenario.roster, "person"), "gm": "person"}, odds=False)
    while not (s.pending and s.pending.prompt == "Kofi's action"):
        p = s.pending
        assert p is not None
        s.decide({"option": p.options[0].id} if p.options else {"roll": True})
    return s


def test_a_condition_effect_is_the_rules_condition_and_replays() -> None:
    s = _ford()
    events = gm.free_action(s, "throws sand", roll="1d10", value=2, target=5,
                            effects=[{"condition": "stunned", "to": "jabari", "rounds": 1,
                                      "when": "always"},
                                     {"damage": 4, "to": "jabari"}])
    assert "stunned" in s.state.roster["jabari"].state.conditions
    assert s.state.roster["jabari"].state.wounds == 18  # the damage was for a success
    assert any(e.text() == "Kofi rolls 1d10: 2, needs at least 5: failure" for e in events)
    again = Session.from_records(s.to_records())
    assert again.state == s.state and again.events == s.events
    s.undo()
    assert s.pending is not None and s.pending.prompt == "Kofi's action"
    assert "stunned" not in s.state.roster["jabari"].state.conditions


def test_an_effect_on_failure_without_a_target_number_is_refused() -> None:
    s = _ford()
    before = list(s.entries)
    with pytest.raises(InputError, match="needs a roll against a target number"):
        gm.free_action(s, "shouts", effects=[{"damage": 1, "to": "obi",
                                              "when": "failure"}])
    with pytest.raises(InputError, match="unknown moment"):
        gm.free_action(s, "shouts", roll="1d6", target=3,
                       effects=[{"damage": 1, "to": "obi", "when": "later"}])
    assert s.entries == before
