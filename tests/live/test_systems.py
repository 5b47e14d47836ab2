"""Every system: an example fight played to its end through the session API, with every
decision made by a person and every die entered by hand, checked against its log."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from fracas.core.events import ActionChosen, FightEnded
from fracas.encounter.session import Session
from fracas.registry.scenarios import load_scenario
from tests.live.hands import hand_values

# each system's example fight, and the mid-resolution choice it asks a person to make
FIGHTS = [("examples/tristat/duel-fight.yaml", None),
          ("examples/contest/duel-fight.yaml", None),
          ("examples/genesys/duel-fight.yaml", "spend"),
          ("examples/c22/duel-fight.yaml", "split"),
          ("examples/zamani/duel-fight.yaml", None)]


@pytest.mark.parametrize(("path", "choice"), FIGHTS)
def test_a_fight_played_by_hand_to_its_end_replays_from_its_log(path: str, choice: str | None
                                                                 ) -> None:
    scenario = load_scenario(path)
    people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
    session = Session.start(scenario, seed=5, controllers=people)
    rng = random.Random(path)
    asked: dict[str, int] = {}
    while session.pending is not None:
        pending = session.pending
        asked[pending.kind] = asked.get(pending.kind, 0) + 1
        if pending.kind == "dice":
            session.decide({"dice": hand_values(pending, rng)})
        else:  # the first action (an attack where there is one), any reaction or choice
            pick = "1" if pending.kind == "action" else rng.choice(pending.options).id
            session.decide({"option": pick}, by=pending.who)
        assert len(session.entries) < 2000, "the fight should end"
    assert session.state.over and isinstance(session.events[-1], FightEnded)
    assert session.state.winner in {c.side for c in scenario.roster.values()}
    assert asked.get("action", 0) >= 1 and asked.get("dice", 0) >= 2
    if choice is not None:
        assert asked.get(choice, 0) >= 1, asked
    # every action was a person's, every die came from the table
    assert {e.policy for e in session.events if isinstance(e, ActionChosen)} == {"person"}
    assert all("dice" in e for e in session.entries if e["kind"] == "dice")
    # the log replays to the same fight
    assert session.replayed() == session.state
    back = Session.from_records(json.loads(json.dumps(session.to_records())))
    assert back.state == session.state and back.events == session.events
    assert back.pending is None


@pytest.mark.parametrize("path", sorted(str(p) for p in Path("examples").glob("*/*-fight.yaml")))
def test_every_example_fight_can_be_played_by_hand_to_its_end(path: str) -> None:
    """Every decision by a person (first option, any reaction or choice), every die typed;
    odds are left out here for speed (the test above and test_odds cover them)."""
    scenario = load_scenario(path)
    people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
    session = Session.start(scenario, seed=5, controllers=people, odds=False)
    rng = random.Random(path)
    while session.pending is not None and len(session.entries) < 3000:
        pending = session.pending
        if pending.kind == "dice":
            session.decide({"dice": hand_values(pending, rng)})
        else:
            pick = "1" if pending.kind == "action" else rng.choice(pending.options).id
            session.decide({"option": pick}, by=pending.who)
    assert session.state.over and session.replayed() == session.state
    assert session.state.winner is not None, session.events[-1].text()
