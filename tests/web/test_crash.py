"""Crash safety and the live channel, on a real server process: SIGKILL in the middle of a
fight loses no committed decision and leaves nothing half-written; every screen hears of
each change over server-sent events, and the channel carries no contents."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx

from fracas.encounter.session import Session
from fracas.web.store import Store
from fracas.web.testing import ServerProcess
from fracas.web.views import names_of, teller
from tests.web.helpers import Client, answer_for, invite, new_encounter, new_gm

DUEL = "tristat/duel-fight.yaml"


def test_sigkill_mid_fight_keeps_every_committed_decision(db_url: str) -> None:
    server = ServerProcess(db_url).start()
    acknowledged: list[dict[str, Any]] = []
    try:
        http = httpx.Client(base_url=server.url, timeout=10)
        gm = new_gm(http)
        eid = new_encounter(gm, DUEL, people=["rin", "gorr"])["id"]
        stop = threading.Event()

        def player() -> None:  # decides as fast as it can until the server dies
            try:
                while not stop.is_set():
                    view = gm.view(eid)
                    if view["over"]:
                        return
                    r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
                    if r.status_code == 200:
                        acknowledged.append(r.json())
            except (httpx.HTTPError, AssertionError):
                return

        t = threading.Thread(target=player)
        t.start()
        deadline = time.monotonic() + 20
        while len(acknowledged) < 3 and time.monotonic() < deadline and t.is_alive():
            time.sleep(0.02)
        server.kill()  # SIGKILL, mid-request most likely
        stop.set()
        t.join(10)
    finally:
        server.kill()
    assert len(acknowledged) >= 3
    last = acknowledged[-1]
    # the database on its own: the stored log folds, with at most the one in-flight decision more
    store = Store(db_url)
    records = store.records(eid)
    version = store.version(eid)
    store.close()
    assert last["version"] <= version <= last["version"] + 1
    session = Session.from_records(records)
    names = names_of(session)  # each line in the table's words, as the views tell it
    tell = teller(session, names)
    texts = [tell(e) for e in session.events]
    # the events' lines (not the rolls fracas made in the turn under way, told at the
    # log's end until the turn's own narration tells them)
    acked_texts = [e["text"] for e in last["log"] if e["type"] != "FracasRolled"]
    assert texts[:len(acked_texts)] == acked_texts
    # a restarted server serves the same fight and carries on from it
    again = ServerProcess(db_url).start()
    try:
        http = httpx.Client(base_url=again.url, timeout=10)
        gm2 = Client(http, gm.headers["Authorization"][7:])
        view = gm2.view(eid)
        assert view["version"] == version
        assert [e["text"] for e in view["log"]
                if e["type"] != "FracasRolled"][:len(acked_texts)] == acked_texts
        if not view["over"]:
            r = gm2.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code == 200 and r.json()["version"] == version + 1
    finally:
        again.stop()


def test_the_live_channel_tells_each_screen_of_each_change(sqlite_url: str) -> None:
    server = ServerProcess(sqlite_url).start()
    try:
        http = httpx.Client(base_url=server.url, timeout=10)
        gm = new_gm(http)
        eid = new_encounter(gm, "tristat/alley-fight.yaml", people=["joe"])["id"]
        jo = invite(gm, eid, "Jo", ["joe"])
        gm.put(f"/api/encounters/{eid}/settings", {"others": "bar", "hidden": ["thrall"]})
        start = jo.view(eid)["version"]
        received: list[str] = []
        heard = threading.Event()

        def listen() -> None:
            with httpx.Client(base_url=server.url, timeout=10) as h, h.stream(
                    "GET", f"/api/encounters/{eid}/stream", headers=jo.headers) as r:
                assert r.status_code == 200
                for line in r.iter_lines():
                    received.append(line)
                    if line.startswith("data:") and f'"version": {start + 2}' in line:
                        heard.set()
                        return

        t = threading.Thread(target=listen, daemon=True)
        t.start()
        time.sleep(0.5)
        for _ in range(2):
            view = gm.view(eid)
            r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code == 200, r.text
        assert heard.wait(10), received
        stream_text = "\n".join(received)
        assert f'"version": {start}' in stream_text
        assert "thrall" not in stream_text.lower() and "joe" not in stream_text.lower()
        assert http.get(f"/api/encounters/{eid}/stream").status_code == 401
    finally:
        server.stop()
