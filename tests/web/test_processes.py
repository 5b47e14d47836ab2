"""Several server processes on one PostgreSQL (issue 26, many tables): a decision made
through one reaches a live stream on another (LISTEN/NOTIFY), simultaneous decisions
through two give one 200 and one 409, ``fracas serve --workers N`` runs N processes, and
SQLite refuses more than one with a clear message. All real ``fracas serve`` processes."""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, advance_to, answer_for, invite, new_encounter, new_gm

DUEL = "tristat/duel-fight.yaml"


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    a = ServerProcess(pg_url)
    b = ServerProcess(pg_url, env={"FRACAS_LIVE_DB_POLL": "600"})  # only NOTIFY tells B
    try:
        a.start()
        b.start()
        yield a, b
    finally:
        a.stop()
        b.stop()


def follow(url: str, eid: str, key: str, into: queue.Queue[tuple[float, int]]) -> None:
    """Read the live stream of ``eid`` and put (arrival time, version) of each event,
    until the server ends the stream (at the end of the test, when it stops: the events
    the test waits for are checked from the queue, so a stream cut short fails it there)."""
    with contextlib.suppress(httpx.TransportError), \
            httpx.Client(base_url=url, timeout=httpx.Timeout(5, read=30)) as http, \
            http.stream("GET", f"/api/encounters/{eid}/stream",
                        headers={"Authorization": f"Bearer {key}"}) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                into.put((time.monotonic(), json.loads(line[6:])["version"]))


def key_of(client: Client) -> str:
    return client.headers["Authorization"].split()[1]


def test_a_decision_through_one_process_reaches_a_stream_on_the_other(
        two: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = two
    with httpx.Client(base_url=a.url, timeout=30) as on_a, \
            httpx.Client(base_url=b.url, timeout=30) as on_b:
        gm_a = new_gm(on_a)  # type: ignore[arg-type]
        eid = new_encounter(gm_a, DUEL, people=["rin"])["id"]
        player_a = invite(gm_a, eid, "Ann", ["rin"])
        view = advance_to(eid, gm_a, {"rin"})
        player_b = Client(on_b, key_of(player_a))  # type: ignore[arg-type]
        assert player_b.view(eid)["pending"]["mine"]  # the same encounter on process B
        heard: queue.Queue[tuple[float, int]] = queue.Queue()
        threading.Thread(target=follow, args=(b.url, eid, key_of(player_a), heard),
                         daemon=True).start()
        _, first = heard.get(timeout=20)
        assert first == view["version"]
        time.sleep(0.3)
        sent = time.monotonic()
        mine = player_a.view(eid)
        r = player_a.decide(eid, mine["version"], answer_for(mine["pending"]["decision"]))
        assert r.status_code == 200, r.text
        arrived, version = heard.get(timeout=20)
        assert version == r.json()["version"]
        # heard through NOTIFY: B looks at the database only every 600 s
        assert arrived - sent < 5, arrived - sent
        assert player_b.view(eid)["version"] == version


def test_simultaneous_decisions_on_two_processes_give_one_200_and_one_409(
        two: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = two
    with httpx.Client(base_url=a.url, timeout=30) as on_a, \
            httpx.Client(base_url=b.url, timeout=30) as on_b:
        gm_a = new_gm(on_a)  # type: ignore[arg-type]
        eid = new_encounter(gm_a, DUEL, people=["rin", "gorr"])["id"]
        gm_b = Client(on_b, key_of(gm_a))  # type: ignore[arg-type]
        for _ in range(5):
            view = gm_a.view(eid)
            if view["over"]:
                break
            answer = answer_for(view["pending"]["decision"])
            gm_b.view(eid)  # both processes have the session in memory
            start = threading.Barrier(2)
            statuses: list[int] = []

            def send(client: Client, view: dict[str, Any] = view,
                     answer: dict[str, Any] = answer, start: threading.Barrier = start,
                     statuses: list[int] = statuses) -> None:
                start.wait()
                statuses.append(client.decide(eid, view["version"], answer).status_code)

            pair = [threading.Thread(target=send, args=(c,)) for c in (gm_a, gm_b)]
            for t in pair:
                t.start()
            for t in pair:
                t.join()
            assert sorted(statuses) == [200, 409], statuses
            assert gm_b.view(eid)["version"] == view["version"] + 1


def test_serve_workers_runs_several_processes_on_postgresql(pg_url: str) -> None:
    server = ServerProcess(pg_url, workers=2).start()
    try:
        assert server.proc is not None
        deadline = time.monotonic() + 30
        workers: list[str] = []
        while time.monotonic() < deadline and len(workers) < 2:
            children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children")
            pids = children.read_text().split()
            workers = [p for p in pids
                       if "multiprocessing" in Path(f"/proc/{p}/cmdline").read_text()]
            time.sleep(0.2)
        assert len(workers) >= 2, workers
        with httpx.Client(base_url=server.url, timeout=30) as http:
            # no ~40 ms per response waiting on delayed ACKs (Nagle left on): see
            # fracas.cli.serve.serve_processes
            took = []
            for _ in range(15):
                began = time.perf_counter()
                assert http.get("/api/examples").status_code == 200
                took.append(time.perf_counter() - began)
            assert sorted(took)[len(took) // 2] < 0.03, took
            gm = new_gm(http)  # type: ignore[arg-type]
            eid = new_encounter(gm, DUEL, people=["rin"])["id"]
            for _ in range(6):  # requests land on either process; all see the same fight
                view = gm.view(eid)
                if view["over"]:
                    break
                r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
                assert r.status_code == 200, r.text
    finally:
        server.stop()


def test_workers_on_sqlite_are_refused_with_a_clear_message(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "fracas", "serve", "--db",
                           str(tmp_path / "t.sqlite3"), "--workers", "2", "--port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--workers: 2 server processes need PostgreSQL" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_a_process_catches_up_on_decisions_made_elsewhere_without_replaying(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two trackers on one database (two processes): each answers in turn; the other
    plays the new answers on its cached session instead of replaying the whole fight, and
    both always hold exactly the stored records. An undo is replayed in full."""
    from fracas.encounter.session import Session
    from fracas.registry.examples import load_example
    from fracas.web.store import Store
    from fracas.web.tracker import GM, Tracker, same_records

    store_a, store_b = Store(db_url), Store(db_url)
    try:
        a, b = Tracker(store_a), Tracker(store_b)
        gid, _ = store_a.create_gm()
        eid = a.create(gid, load_example(DUEL), file=DUEL, seed=5,
                       controllers={"rin": "person", "gorr": "person"}).id
        b.session(eid)
        replays: list[int] = []
        real = Session.from_records.__func__  # type: ignore[attr-defined]
        monkeypatch.setattr(Session, "from_records", classmethod(
            lambda cls, records, file=None: replays.append(1) or real(cls, records, file)))
        for turn in range(12):
            here = (a, b)[turn % 2]
            version, session, _ = here.session(eid)
            if session.pending is None:
                break
            pending = session.pending
            answer = ({"option": pending.options[0].id} if pending.options
                      else {"roll": True} if turn % 4 else {"dice": [3, 4]})
            try:
                here.decide(eid, version, GM, answer)
            except Exception:  # typed dice that do not fit this die: roll instead
                here.decide(eid, version, GM, {"roll": True})
            for tracker in (a, b):
                _, mine, _ = tracker.session(eid)
                assert same_records(mine.to_records(), store_a.records(eid))
        assert replays == []
        version, _, _ = a.session(eid)
        a.change(eid, version, GM, lambda s: s.undo(1), note="undo")
        _, mine, _ = b.session(eid)
        assert same_records(mine.to_records(), store_a.records(eid)) and replays == [1]
    finally:
        store_a.close()
        store_b.close()


def test_a_process_catches_up_in_the_background_when_notified(pg_url: str) -> None:
    """On PostgreSQL, the NOTIFY of a decision made through one app brings the other app's
    cached session up to date before any request asks it for that encounter."""
    from fastapi.testclient import TestClient

    from fracas.web.app import create_app

    with TestClient(create_app(pg_url)) as on_a, TestClient(create_app(pg_url)) as on_b:
        gm_a = new_gm(on_a)
        eid = new_encounter(gm_a, DUEL, people=["rin", "gorr"])["id"]
        gm_b = Client(on_b, key_of(gm_a))
        assert on_b.app.state.listener.listening.wait(10)  # type: ignore[attr-defined]
        view = gm_b.view(eid)  # B has the session in memory, at this version
        r = gm_a.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
        assert r.status_code == 200, r.text
        entry = on_b.app.state.tracker._cache[eid]  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while entry.version != r.json()["version"] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert entry.version == r.json()["version"]
        assert gm_b.view(eid)["log"] == r.json()["log"]


def test_catching_up_on_an_answer_reads_only_the_records_it_added(pg_url: str) -> None:
    """The NOTIFY says how many records a change kept: a process holding them reads only
    the rest (not the whole log); an undo, which rewrites the log, is read in full. Either
    way the process's view equals the one that made the change."""
    from fastapi.testclient import TestClient

    from fracas.web.app import create_app

    with TestClient(create_app(pg_url)) as on_a, TestClient(create_app(pg_url)) as on_b:
        gm_a = new_gm(on_a)
        eid = new_encounter(gm_a, DUEL, people=["rin", "gorr"])["id"]
        gm_b = Client(on_b, key_of(gm_a))
        assert on_b.app.state.listener.listening.wait(10)  # type: ignore[attr-defined]
        view = gm_b.view(eid)  # B holds the session
        store_b = on_b.app.state.tracker.store  # type: ignore[attr-defined]
        reads: list[str] = []
        for name in ("load", "tail"):
            def counted(*args: Any, _name: str = name, _real: Any = getattr(store_b, name)
                        ) -> Any:
                reads.append(_name)
                return _real(*args)
            setattr(store_b, name, counted)
        entry = on_b.app.state.tracker._cache  # type: ignore[attr-defined]

        def caught_up_with(version: int) -> None:
            deadline = time.monotonic() + 10
            while entry[eid].version != version and time.monotonic() < deadline:
                time.sleep(0.02)
            assert entry[eid].version == version

        for _ in range(3):
            r = gm_a.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code == 200, r.text
            view = r.json()
            caught_up_with(view["version"])
        assert reads == ["tail"] * 3
        assert gm_b.view(eid)["log"] == view["log"]
        r = gm_a.post(f"/api/encounters/{eid}/undo", {"version": view["version"], "steps": 2})
        assert r.status_code == 200, r.text
        caught_up_with(r.json()["version"])
        assert reads[3:] == ["load"]
        assert gm_b.view(eid)["log"] == r.json()["log"]
