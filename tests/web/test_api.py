"""The JSON API end to end (in process): encounters, roles, a whole fight, undo, resume
after a restart, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from fracas.encounter.session import Session
from fracas.errors import InputError
from fracas.registry.examples import load_example
from fracas.registry.scenarios import scenario_from_mapping
from fracas.web.app import create_app
from tests.web.helpers import (
    Client,
    advance_to,
    answer_for,
    invite,
    new_encounter,
    new_gm,
    play_to_end,
)

DUEL = "tristat/duel-fight.yaml"


@pytest.fixture
def http(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url)) as client:
        yield client


def test_a_whole_fight_through_the_api_then_resumed_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as http:
        gm = new_gm(http)
        enc = new_encounter(gm, DUEL, people=["rin"], roll_all=True)
        eid = enc["id"]
        ann = invite(gm, eid, "Ann", ["rin"])
        assert [e["id"] for e in gm.get("/api/encounters").json()] == [eid]
        final, made = play_to_end(eid, gm, {"rin": ann})
        assert made > 0 and final["over"] and final["winner"] in ("blades", "fists", None)
        assert final["log"][-1]["type"] == "FightEnded"
        before = final
    # a new app on the same database: the fight is there, folded from the stored log
    with TestClient(create_app(db_url)) as http:
        gm2 = type(gm)(http, gm.headers["Authorization"][7:])
        after = gm2.view(eid)
        assert after["version"] == before["version"]
        assert after["log"] == before["log"]
        assert after["combatants"] == before["combatants"]


def test_player_answers_only_for_their_own_combatants(http: TestClient) -> None:
    gm = new_gm(http)
    enc = new_encounter(gm, "tristat/alley-fight.yaml", people=["joe", "ada"])
    eid = enc["id"]
    joe = invite(gm, eid, "Jo", ["joe"])
    ada = invite(gm, eid, "Al", ["ada"])
    view = advance_to(eid, gm, {"joe", "ada"})
    who = view["pending"]["who"]
    owner, other = (joe, ada) if who == "joe" else (ada, joe)
    theirs = other.view(eid)
    assert theirs["pending"]["mine"] is False and theirs["pending"]["decision"] is None
    decision = owner.view(eid)["pending"]["decision"]
    r = other.decide(eid, view["version"], answer_for(decision))
    # refused without naming whose decision it is (it may be a combatant hidden from them)
    assert r.status_code == 403 and "not yours" in r.json()["error"]
    assert who not in r.json()["error"]
    assert gm.view(eid)["version"] == view["version"]  # nothing was written
    r = owner.decide(eid, view["version"], answer_for(decision))
    assert r.status_code == 200, r.text


def test_only_the_gm_may_undo_edit_or_change_settings(http: TestClient) -> None:
    gm = new_gm(http)
    enc = new_encounter(gm, DUEL, people=["rin"])
    eid = enc["id"]
    ann = invite(gm, eid, "Ann", ["rin"])
    advance_to(eid, gm, {"rin"})
    v = ann.view(eid)
    r = ann.decide(eid, v["version"], answer_for(v["pending"]["decision"]))
    assert r.status_code == 200
    version = r.json()["version"]
    for path, body in (("undo", {"version": version}), ("redo", {"version": version}),
                       ("end", {"version": version}),
                       ("adjust", {"version": version, "combatant": "rin", "field": "health",
                                   "value": 99})):
        r = ann.post(f"/api/encounters/{eid}/{path}", body)
        assert r.status_code == 403, (path, r.text)
        assert "only the GM" in r.json()["error"]
    assert ann.put(f"/api/encounters/{eid}/settings", {"others": "exact"}).status_code == 403
    assert ann.post(f"/api/encounters/{eid}/players",
                    {"name": "x", "combatants": ["gorr"]}).status_code == 403
    assert gm.view(eid)["version"] == version
    before_log = gm.view(eid)["log"]
    r = gm.post(f"/api/encounters/{eid}/undo", {"version": version})
    assert r.status_code == 200, r.text
    undone = r.json()
    assert undone["version"] == version + 1 and len(undone["log"]) <= len(before_log)
    assert undone["pending"]["who"] == "rin" and undone["pending"]["decision"] == v["pending"][
        "decision"]
    r = gm.post(f"/api/encounters/{eid}/redo", {"version": version + 1})
    assert r.status_code == 200 and r.json()["log"] == before_log
    r = gm.post(f"/api/encounters/{eid}/adjust", {"version": version + 2, "combatant": "gorr",
                                                   "field": "health", "value": 7})
    assert r.status_code == 200, r.text
    gorr = next(c for c in r.json()["combatants"] if c["id"] == "gorr")
    assert gorr["health"]["current"] == 7
    edit = r.json()["new_events"]
    assert len(edit) == 1 and edit[0]["rule"] == "GM · at the table"
    assert edit[0]["text"].startswith("Gorr: health") and edit[0] in r.json()["log"]


def test_the_same_decision_sent_twice_at_once_one_wins_one_conflicts(http: TestClient) -> None:
    gm = new_gm(http)
    eid = new_encounter(gm, DUEL, people=["rin"])["id"]
    ann = invite(gm, eid, "Ann", ["rin"])
    advance_to(eid, gm, {"rin"})
    v = ann.view(eid)
    answer = answer_for(v["pending"]["decision"])
    barrier = threading.Barrier(2)
    results: dict[str, Response] = {}

    def send(name: str, client: Client) -> None:
        barrier.wait()
        results[name] = client.decide(eid, v["version"], answer)

    threads = [threading.Thread(target=send, args=(n, c)) for n, c in (("ann", ann), ("gm", gm))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results.values())
    assert codes == [200, 409], {n: r.text for n, r in results.items()}
    loser = next(r for r in results.values() if r.status_code == 409)
    assert "moved on" in loser.json()["error"]
    assert gm.view(eid)["version"] == v["version"] + 1


def test_the_gm_lists_several_encounters_and_another_gm_sees_none(http: TestClient) -> None:
    gm = new_gm(http)
    ids = {new_encounter(gm, ex, people=[])["id"]
           for ex in (DUEL, "genesys/duel-fight.yaml", "zamani/duel-fight.yaml")}
    assert {e["id"] for e in gm.get("/api/encounters").json()} == ids
    other = new_gm(http)
    assert other.get("/api/encounters").json() == []
    for eid in ids:
        r = other.get(f"/api/encounters/{eid}")
        assert r.status_code == 403


def test_the_gm_adds_and_removes_combatants_with_the_cli_messages(http: TestClient) -> None:
    gm = new_gm(http)
    eid = new_encounter(gm, DUEL, people=["rin"])["id"]
    ann = invite(gm, eid, "Ann", ["rin"])
    v = gm.view(eid)["version"]
    bad = {"id": "thug", "side": "fists", "body": 0, "mind": 2, "soul": 2}
    with pytest.raises(InputError) as cli:  # play's ``gm add`` on the same fight
        Session.start(scenario_from_mapping(load_example(DUEL))).add_combatant(bad)
    assert str(cli.value).startswith("entry.body: ")
    r = gm.post(f"/api/encounters/{eid}/combatants", {"version": v, "entry": bad})
    assert r.status_code == 400 and r.json()["error"] == str(cli.value)
    entry = ("{id: thug, name: Thug, side: fists, body: 3, mind: 2, soul: 2,\n"
             " weapons: [{name: club, kind: melee, damage: 3}]}")
    r = ann.post(f"/api/encounters/{eid}/combatants", {"version": v, "entry_yaml": entry})
    assert r.status_code == 403
    r = gm.post(f"/api/encounters/{eid}/combatants", {"version": v, "entry_yaml": entry})
    assert r.status_code == 200, r.text
    assert "thug" in [c["id"] for c in r.json()["combatants"]]
    assert "Thug" in [c["name"] for c in ann.view(eid)["combatants"]]
    r = gm.post(f"/api/encounters/{eid}/combatants/thug/remove", {"version": v + 1})
    assert r.status_code == 200, r.text
    assert "thug" not in [c["id"] for c in r.json()["combatants"]]
    r = gm.post(f"/api/encounters/{eid}/combatants/nobody/remove", {"version": v + 2})
    assert r.status_code == 400 and "rin" in r.json()["error"]


def test_sessions_dropped_from_memory_are_rebuilt_from_the_database(
        http: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import fracas.web.tracker as tracker_module

    monkeypatch.setattr(tracker_module, "CACHED", 1)
    gm = new_gm(http)
    first = new_encounter(gm, DUEL, people=["rin"])["id"]
    second = new_encounter(gm, "zamani/duel-fight.yaml", people=["kofi"])["id"]
    for _ in range(3):  # each turn evicts the other encounter's session
        for eid in (first, second):
            view = gm.view(eid)
            r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code == 200, r.text
            assert r.json()["version"] == view["version"] + 1
    assert len(http.app.state.tracker._cache) == 1  # type: ignore[attr-defined]
    assert gm.view(first)["version"] == 4 and gm.view(second)["version"] == 4
