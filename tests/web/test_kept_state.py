"""What a server process keeps between requests (issue 40, item 5: a long fight's request
costs what a short one's does) is the plain state: after random decisions, undos, redos,
hand edits, refused answers and another process's changes, on SQLite and PostgreSQL,
every process's session, its records and the stored log equal a fresh rebuild from the
database (a restarted server); the session's inputs know exactly what changed since they
were saved; the folds carried on from call to call equal the plain folds."""

from __future__ import annotations

import copy
import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.core.events import ActionChosen, Event, RoundStarted, TurnStarted
from fracas.encounter.carried import last_targets
from fracas.encounter.gm import marks, marks_of
from fracas.encounter.session import Session
from fracas.encounter.who_rolls import known_names
from fracas.errors import InputError
from fracas.registry.examples import load_example
from fracas.registry.scenarios import scenario_from_mapping
from fracas.web.live import Hub, Listener
from fracas.web.store import Conflict, Store
from fracas.web.tracker import GM, Tracker, same_records

DUEL = "tristat/duel-fight.yaml"


def answer(session: Session, rng: random.Random) -> dict[str, Any]:
    decision = session.pending.to_dict(wait=False) if session.pending else {}
    options = decision.get("options") or []
    return {"option": rng.choice(options)["id"]} if options else {"roll": True}


def act(session: Session, rng: random.Random) -> None:
    """One random thing a GM does: mostly answers, some undos, redos, hand edits and an
    answer refused (which changes nothing)."""
    roll = rng.random()
    if roll < 0.12 and session.entries:
        session.undo(rng.randint(1, 3) if len(session.entries) > 3 else 1)
    elif roll < 0.2 and session.redo_stack:
        session.redo(rng.randint(1, len(session.redo_stack)))
    elif roll < 0.27:
        cid, value = rng.choice(["rin", "gorr"]), rng.randint(5, 12)
        if session.state.roster[cid].state.health == value:  # changes nothing: refused
            with pytest.raises(InputError, match="nothing changed"):
                session.adjust(cid, "health", value)
        else:
            session.adjust(cid, "health", value)
    elif roll < 0.32 and session.pending is not None:
        with pytest.raises(InputError):
            session.decide({"option": "no such option"})
    elif session.pending is not None:
        session.decide(answer(session, rng))


def test_the_inputs_know_what_changed_since_saved_and_the_folds_equal_the_plain_ones(
        ) -> None:
    rng = random.Random(40)
    scenario = scenario_from_mapping(load_example(DUEL), folder=None)
    session = Session.start(scenario, seed=3, controllers={"rin": "person", "gorr": "person"})
    saved: list[dict[str, Any]] = []
    deep: list[dict[str, Any]] = []
    for step in range(300):
        act(session, rng)
        had, kept, tail = session.unsaved()
        assert had == len(saved), step
        assert all(a is b for a, b in zip(session.entries[:kept], saved, strict=False)), step
        assert session.entries[:kept] == deep[:kept], step  # and none changed in place
        assert tail == [{"type": "Input", **e} for e in session.entries[kept:]], step
        assert session.entries.top() == max(  # type: ignore[attr-defined]
            (int(e.get("n", 0)) for e in session.entries), default=0), step
        assert marks_of(session) == marks(session.events), step
        plain = {cid: c.name for cid, c in scenario.roster.items()}
        plain.update({cid: c.name for cid, c in session.state.roster.items()})
        assert known_names(session) == plain, step
        if rng.random() < 0.5:
            session.saved()
            saved, deep = list(session.entries), copy.deepcopy(list(session.entries))
        if session.pending is None:
            session.undo(2)


def _targets(events: list[Event]) -> dict[str, str]:
    out: dict[str, str] = {}
    for e in events:
        if isinstance(e, ActionChosen) and e.target:
            out[e.actor] = e.target
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "redo_tail", "afresh", "read_part"]),
                          st.integers(0, 300)), max_size=40))
def test_a_carried_fold_equals_the_plain_fold(moves: list[tuple[str, int]]) -> None:
    """Events added, the last ones made afresh (a turn played again), all made afresh (a
    replay), a fold read up to an earlier point: always the plain fold's value."""
    def event(k: int) -> Event:
        kind = k % 3
        if kind == 0:
            return RoundStarted("init", k, ())
        if kind == 1:
            return TurnStarted("init", f"c{k % 5}", "slot", k % 4)
        return ActionChosen("tristat", f"c{k % 5}", "attack", f"c{(k + 1) % 5}", "", "")

    fold = last_targets()  # the fold the session keeps for the last targets
    events: list[Event] = []
    for move, k in moves:
        if move == "add":
            events.extend(event(k + i) for i in range(k % 97))
        elif move == "redo_tail":
            cut = max(0, len(events) - k % 80)
            events[cut:] = [event(k + i) for i in range(k % 80)]
        elif move == "afresh":
            events = [event(i + k) for i in range(len(events))]
        end = k % (len(events) + 1) if move == "read_part" else len(events)
        assert fold.over(events, end) == _targets(events[:end])


def _wait_heard(hub: Hub, eid: str, version: int) -> None:
    deadline = time.monotonic() + 10
    while hub.version(eid) < version and time.monotonic() < deadline:
        time.sleep(0.02)


def _check(trackers: list[Tracker], store: Store, url: str, eid: str) -> None:
    """Each process's session equals a fresh one rebuilt from the database (a restart)."""
    stored = store.records(eid)
    fresh = Tracker(Store(url))
    try:
        version, rebuilt, _ = fresh.session(eid)
        assert same_records(rebuilt.to_records(), stored)
        for tracker in trackers:
            v, session, _ = tracker.session(eid)
            assert v == version
            assert same_records(session.to_records(), stored)
            kept = tracker._cache[eid].records
            assert same_records(kept, stored)
            assert [e.to_dict() for e in session.events] == [
                e.to_dict() for e in rebuilt.events]
            assert session.redo_stack == rebuilt.redo_stack
            assert session.unsaved()[1:] == (len(stored) - 1, [])
    finally:
        fresh.store.close()
        fresh.close()


def test_each_process_keeps_the_state_a_fresh_rebuild_has(db_url: str) -> None:
    """Two processes (two trackers with their own connections) take turns at random on
    one encounter; on PostgreSQL each hears the other's changes as a server does (LISTEN,
    caught up in the background, reading only the added records)."""
    rng = random.Random(26)
    stores = [Store(db_url), Store(db_url)]
    hubs = [Hub(), Hub()]
    trackers = [Tracker(s) for s in stores]
    listeners = [Listener(db_url, hub, t.catch_up).start()
                 for hub, t in zip(hubs, trackers, strict=True)] if stores[0].postgres else []
    for listener in listeners:
        assert listener.listening.wait(10)
    try:
        gm, _ = stores[0].create_gm()
        eid = trackers[0].create(gm, load_example(DUEL), seed=5).id
        for step in range(60):
            who = rng.randrange(2)
            tracker = trackers[who]
            version = tracker.session(eid)[0]
            try:
                version, _ = tracker.change(eid, version, GM, lambda s: act(s, rng),
                                            note="test")
            except InputError:
                pass  # nothing changed: checked below all the same
            except Conflict:
                pytest.fail(f"step {step}: a conflict with nobody else writing")
            if listeners:
                _wait_heard(hubs[1 - who], eid, version)
            if step % 5 == 4 or rng.random() < 0.2:
                _check(trackers, stores[0], db_url, eid)
            if tracker.session(eid)[1].pending is None:
                v = tracker.session(eid)[0]
                tracker.change(eid, v, GM, lambda s: s.undo(2), note="undo")
        _check(trackers, stores[0], db_url, eid)
    finally:
        for listener in listeners:
            listener.stop()
        for t, s in zip(trackers, stores, strict=True):
            t.close()
            s.close()


def test_a_view_of_the_newest_lines_hides_what_the_whole_log_hides() -> None:
    """A combatant revealed during a long fight: the view's newest lines (told from the
    start of their round) leave out what it did while hidden exactly as the whole log
    does (the window knows where in the fight it begins)."""
    from fracas.encounter.redact import Viewer
    from fracas.web.views import lines_for, names_of

    raw = dict(load_example(DUEL))
    raw["max_rounds"] = 500
    raw["combatants"] = [{**c, "armor": {"name": "plate of legend", "rating": 99}}
                         for c in raw["combatants"]]
    scenario = scenario_from_mapping(raw, folder=None)
    session = Session.start(scenario, seed=2, controllers={"rin": "person", "gorr": "person"})
    rng = random.Random(5)
    while len(session.events) < 400:
        session.decide(answer(session, rng))
    sides = {cid: c.side for cid, c in session.state.roster.items()}
    revealed = len(session.events) - 60  # gorr seen only from then on
    viewer = Viewer.player(["rin"], {"others": "exact", "hidden": [],
                                     "revealed": {"gorr": revealed}}, sides)
    names = names_of(session)
    whole = lines_for(session, names, viewer)
    newest = lines_for(session, names, viewer, 100)
    last = {id(e) for e in session.events[-100:]}
    assert [line for line in newest if id(line[0]) in last] == [
        line for line in whole if id(line[0]) in last]
    assert any(id(e) in last for e in session.events[:revealed])  # hidden ones in view
    assert len(whole) < len(lines_for(session, names, Viewer()))  # some were left out
