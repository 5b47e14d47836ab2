"""The words a table reads in a fight's narration, from the sheets and the data pack: no
code value (``None``) and no code key shown where a person reads the line."""

from __future__ import annotations

from pathlib import Path

from fracas.core.events import Changed
from fracas.encounter.engine import Encounter
from fracas.encounter.narration import teller
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
