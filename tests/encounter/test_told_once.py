"""A long fight's log is told once for every screen, not again for each view: the lines
that :func:`event_lines` works out (an event's words, whom it names) may be kept by the
caller between calls, and the lines are then exactly those worked out afresh."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from fracas.core.events import Event
from fracas.encounter.narration import teller
from fracas.encounter.redact import Names, Told, Viewer, event_lines
from fracas.encounter.session import Session, known_names
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def played(example: str, steps: int) -> Session:
    scenario = load_scenario(ROOT / "examples" / example)
    people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
    session = Session.start(scenario, seed=5, controllers=people, roll_all=True)
    session.play_first(steps)
    return session


@pytest.mark.parametrize(("example", "mine", "hidden"), [
    ("tristat/alley-fight.yaml", "joe", "thrall"),
    ("genesys/three-vs-three-fight.yaml", "kira", "bruiser"),
    ("c22/boarding-fight.yaml", "mara", "gull"),
])
def test_lines_kept_between_calls_are_the_lines_worked_out_afresh(
        example: str, mine: str, hidden: str) -> None:
    session = played(example, 40)
    names = Names(known_names(session))
    told = 0
    base = teller(names.names, session.system.words)

    def say(event: Event) -> str:
        nonlocal told
        told += 1
        return base(event)

    viewers = [Viewer(), Viewer.player([mine], {"others": "bar", "hidden": [hidden]}),
               Viewer.player([mine], {"others": "hidden", "hidden": []})]
    memo: Told = {}
    first = len({id(e) for e in session.events})  # an event object met twice is told once
    for viewer in viewers:
        assert event_lines(session.events, names, viewer, say, memo) == \
            event_lines(session.events, names, viewer, base)
    assert told == first  # each event told once, for every viewer
    session.play_first(10)
    for viewer in viewers:
        assert event_lines(session.events, names, viewer, say, memo) == \
            event_lines(session.events, names, viewer, base)
    # told again: the new events, and those of the turn in play (the session plays it
    # again from its start as it decides), never the whole log
    again = told - first
    assert len({id(e) for e in session.events}) - first <= again < first // 2


def test_a_kept_line_is_not_given_to_another_event_at_the_same_address() -> None:
    session = played("tristat/duel-fight.yaml", 5)
    names = Names(known_names(session))
    say: Callable[[Event], str] = teller(names.names, session.system.words)
    event = session.events[0]
    memo: Told = {id(event): (session.events[1], "a line of another event", set())}
    assert event_lines([event], names, Viewer(), say, memo) == [(event, say(event))]
