"""The words a table reads in a fight's narration, from the sheets and the data pack: no
code value (``None``) and no code key shown where a person reads the line."""

from __future__ import annotations

from pathlib import Path

from fracas.core.events import Changed
from fracas.encounter import gm
from fracas.encounter.engine import Encounter
from fracas.encounter.narration import teller
from fracas.encounter.redact import Names, Viewer, event_lines
from fracas.encounter.session import Session, known_names
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_a_value_given_for_the_first_time_is_set_not_changed_from_none() -> None:
    # tristat: initiative is rolled at the start of the first round; nothing was there
    scenario = load_scenario(ROOT / "examples" / "tristat" / "alley-fight.yaml")
    fight = Encounter(scenario, seed=1)
    events = fight.step()
    roster = fight.state.roster
    say = teller({c: roster[c].name for c in roster}, scenario.system.words)
    firsts = [e for e in events if isinstance(e, Changed) and e.field == "initiative"
              and e.before is None]
    assert firsts
    for event in firsts:
        line = say(event)
        assert line == f"{roster[event.target].name}: initiative set to {event.after}", line


def log_lines(session: Session, viewer: Viewer) -> list[str]:
    names = Names(known_names(session))
    return [line for _, line in event_lines(session.events, names, viewer,
                                            teller(names.names, session.system.words))]


def test_a_gm_free_form_action_is_not_told_as_a_pass_first() -> None:
    # Gorr's turn: the GM describes what he does; the log (the GM's and a player's) tells
    # the action, not "Gorr: Pass" before it; a turn the GM skips still reads as a pass
    scenario = load_scenario(ROOT / "examples" / "tristat" / "duel-fight.yaml")
    people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
    session = Session.start(scenario, seed=3, controllers=people, roll_all=True)
    assert session.pending is not None and session.pending.kind == "action"
    first = scenario.roster[session.pending.who].name
    gm.free_action(session, "throws sand")
    assert session.pending is not None and session.pending.kind == "action"
    second = scenario.roster[session.pending.who].name
    gm.skip_turn(session)
    player = Viewer.player([session.pending.who if session.pending else ""], {})
    for viewer in (Viewer(), player):
        lines = log_lines(session, viewer)
        assert f"{first}: throws sand" in lines
        assert f"{first}: Pass" not in lines
        assert f"{first}'s turn" in lines
        assert f"{second}: Pass" in lines
