"""Redo after undo is kept in the database (issue 26, item 13): it survives a restart of the
server, on SQLite and PostgreSQL, and a new decision still clears it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from fracas.web.app import create_app
from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, answer_for, new_encounter, new_gm

DUEL = "tristat/duel-fight.yaml"


def play(gm: Client, eid: str, n: int) -> dict[str, Any]:
    view = gm.view(eid)
    for _ in range(n):
        r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def test_redo_survives_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as http:
        gm = new_gm(http)
        eid = new_encounter(gm, DUEL, people=["rin", "gorr"], roll_all=True)["id"]
        before = play(gm, eid, 4)
        r = gm.post(f"/api/encounters/{eid}/undo", {"version": before["version"], "steps": 3})
        assert r.status_code == 200, r.text
        undone = r.json()
        assert len(undone["log"]) < len(before["log"])
        key = gm.headers["Authorization"].split()[1]
    with TestClient(create_app(db_url)) as http:  # a new server: nothing in memory
        gm = Client(http, key)
        r = gm.post(f"/api/encounters/{eid}/redo", {"version": undone["version"], "steps": 2})
        assert r.status_code == 200, r.text
        r = gm.post(f"/api/encounters/{eid}/redo", {"version": r.json()["version"]})
        assert r.status_code == 200, r.text
        redone = r.json()
        assert redone["log"] == before["log"] and redone["pending"] == before["pending"]
        r = gm.post(f"/api/encounters/{eid}/redo", {"version": redone["version"]})
        assert r.status_code == 400 and "only 0 steps to redo" in r.json()["error"]
        # undo, then a new decision: the redo stack is gone, in the database too
        r = gm.post(f"/api/encounters/{eid}/undo", {"version": redone["version"]})
        assert r.status_code == 200, r.text
        play(gm, eid, 1)
    with TestClient(create_app(db_url)) as http:
        gm = Client(http, key)
        r = gm.post(f"/api/encounters/{eid}/redo", {"version": gm.view(eid)["version"]})
        assert r.status_code == 400 and "only 0 steps to redo" in r.json()["error"]


def test_redo_after_the_server_process_is_killed(tmp_path: Path) -> None:
    """The real ``fracas serve``: undo, SIGKILL, start again, redo."""
    db = f"sqlite:///{tmp_path / 'tracker.sqlite3'}"
    server = ServerProcess(db).start()
    try:
        http = httpx.Client(base_url=server.url, timeout=30)
        gm = new_gm(http)  # type: ignore[arg-type]
        eid = new_encounter(gm, DUEL, people=["rin", "gorr"], roll_all=True)["id"]
        before = play(gm, eid, 3)
        r = gm.post(f"/api/encounters/{eid}/undo", {"version": before["version"], "steps": 2})
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        server.kill()
        server = ServerProcess(db, port=server.port).start()
        r = gm.post(f"/api/encounters/{eid}/redo", {"version": version, "steps": 2})
        assert r.status_code == 200, r.text
        assert r.json()["log"] == before["log"]
    finally:
        server.stop()


def test_a_database_of_the_first_schema_is_migrated(db_url: str) -> None:
    """An encounter stored before redo was kept gets an empty redo stack and plays on."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from fracas.web.db import MIGRATIONS, make_engine
    from fracas.web.store import Store

    engine = make_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO gms (id, key_hash, created) "
                          "VALUES (1, 'h', '2026-01-01')"))
        conn.execute(text("INSERT INTO encounters (id, gm_id, title, system, scenario, "
                          "settings, version, created, updated) VALUES ('old', 1, 't', "
                          "'tristat', '{}', '{}', 3, '2026-01-01', '2026-01-01')"))
    engine.dispose()
    store = Store(db_url)  # migrates to the newest schema
    try:
        info, records, redo = store.load("old")
        assert (info.version, info.title, records, redo) == (3, "t", [], [])
    finally:
        store.close()
