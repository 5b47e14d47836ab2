"""Issue 34 item 3: the GM's hand never makes a decision nobody made. A hand edit (damage,
a value set, a combatant knocked out) made while a question is asked leaves that question
asked, in every system; an answer given earlier in the turn is read only for the question it
was given to, never for another one the edit moved into its place."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fracas.encounter import gm
from fracas.encounter.session import Session
from fracas.registry.scenarios import load_scenario

FORD = "examples/zamani/river-crossing-fight.yaml"
FIGHTS = ["examples/zamani/river-crossing-fight.yaml", "examples/contest/gate-fight.yaml",
          "examples/c22/deck-brawl-fight.yaml", "examples/genesys/three-vs-three-fight.yaml",
          "examples/tristat/warehouse-fight.yaml"]


def _session(path: str) -> Session:
    scenario = load_scenario(path)
    people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
    return Session.start(scenario, seed=1, controllers=people, odds=False)


def _answer(s: Session) -> None:
    p = s.pending
    assert p is not None
    s.decide({"option": p.options[0].id} if p.options else {"roll": True})


@pytest.mark.parametrize("path", FIGHTS)
def test_a_hand_edit_at_every_question_leaves_it_asked(path: str) -> None:
    """At each of the first 40 questions of the fight, a hand edit (damage that knocks out
    a combatant the question is not about, nor the one whose turn it is; a graze of 1)
    leaves the same question asked of the same combatant; undo takes the edit back.
    (Healing someone unhurt changes nothing, and is refused: tests/live/test_gm_polish.)"""
    s = _session(path)
    for _ in range(40):
        p = s.pending
        if p is None:
            break
        others = [cid for cid in s.state.roster if cid not in (p.who, s.state.actor)
                  and s.system.is_active(
            s.state.roster[cid]) and (p.dice is None or cid not in {w for _, w in
                                                                     p.dice.rest})]
        for edit in ("knock out", "graze") if others else ():
            cid = others[-1]
            before = (p.who, p.kind, len(s.entries))
            if edit == "knock out":
                gm.damage(s, cid, 1000)
            else:
                gm.damage(s, cid, 1)
            now = s.pending
            assert now is not None, (path, edit, cid, p.prompt)
            assert (now.who, now.kind) == before[:2], (path, edit, cid, p.prompt, now.prompt)
            if p.kind != "dice":  # an edit never answers a question by itself
                assert now.prompt == p.prompt, (path, edit, cid, p.prompt, now.prompt)
            s.undo()
            assert s.pending is not None and s.pending.prompt == p.prompt
        _answer(s)


def test_zamani_hurt_while_kofis_action_is_asked_does_not_make_him_act() -> None:
    """The reported case, through ``fracas play`` in a fresh process: nobody sacrifices,
    ``? Kofi's action`` is asked, ``gm hurt obi 16`` takes Obi out, and Kofi's action is
    still asked (not ``Dura's reaction to Kofi's attack``)."""
    lines = ["", "", "", "", "", "", "gm hurt obi 16", "q"]
    done = subprocess.run([sys.executable, "-m", "fracas", "play", FORD, "--seed", "1"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=600, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    at = out.index("> gm hurt obi 16")
    after = out[at:]
    assert "Obi: wounds 16 → 0" in after, after
    assert "? Kofi's action" in after, after
    assert "reaction to Kofi" not in after, after


def test_an_edit_with_a_value_set_keeps_kofis_action_and_replays() -> None:
    """``gm set obi wounds 0`` likewise; the log replays to the same state and resumes."""
    s = _session(FORD)
    while not (s.pending and s.pending.prompt == "Kofi's action"):
        _answer(s)
    s.adjust("obi", "wounds", 0)
    assert s.pending is not None and s.pending.prompt == "Kofi's action"
    again = Session.from_records(s.to_records())
    assert again.state == s.state
    assert again.pending is not None and again.pending.prompt == "Kofi's action"
