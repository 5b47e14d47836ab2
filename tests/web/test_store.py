"""The database layer on SQLite and PostgreSQL: migrations, keys, one transaction per change,
and optimistic versions (a stale writer gets a Conflict and writes nothing)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import inspect

from fracas.errors import InputError
from fracas.web.store import Conflict, NotFound, Store, key_hash


def test_migration_creates_the_schema_and_is_idempotent(db_url: str) -> None:
    store = Store(db_url)
    tables = set(inspect(store.engine).get_table_names())
    assert {"gms", "encounters", "players", "records", "alembic_version"} <= tables
    store.close()
    again = Store(db_url)  # a restart runs the migrations again: nothing to do
    assert set(inspect(again.engine).get_table_names()) == tables
    again.close()


def test_keys_are_kept_only_as_hashes(db_url: str) -> None:
    store = Store(db_url)
    gid, key = store.create_gm()
    assert store.gm_by_key(key) == gid
    assert store.gm_by_key(key + "x") is None
    with store.engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT key_hash FROM gms").scalar_one()
    assert stored == key_hash(key) and key not in stored
    store.close()


def test_commit_replaces_the_changed_tail_and_bumps_the_version(db_url: str) -> None:
    store = Store(db_url)
    gid, _ = store.create_gm()
    info = store.create_encounter(gid, "t", "tristat", {"system": "tristat"}, {}, [{"n": 1},
                                                                                   {"n": 2}])
    assert store.version(info.id) == 1
    v = store.commit(info.id, 1, [{"n": 1}, {"n": 2}], [{"n": 1}, {"n": 3}, {"n": 4}])
    assert v == 2 and store.records(info.id) == [{"n": 1}, {"n": 3}, {"n": 4}]
    with pytest.raises(Conflict, match="moved on since version 1"):
        store.commit(info.id, 1, [{"n": 1}], [{"n": 9}])
    assert store.records(info.id) == [{"n": 1}, {"n": 3}, {"n": 4}]
    assert store.version(info.id) == 2
    with pytest.raises(NotFound):
        store.version("nope")
    store.close()


def test_concurrent_commits_on_one_version_exactly_one_wins(db_url: str) -> None:
    store = Store(db_url)
    gid, _ = store.create_gm()
    info = store.create_encounter(gid, "t", "tristat", {}, {}, [{"n": 0}])
    results: list[str] = []
    barrier = threading.Barrier(6)

    def writer(i: int) -> None:
        barrier.wait()
        try:
            store.commit(info.id, 1, [{"n": 0}], [{"n": 0}, {"writer": i}])
            results.append(f"won {i}")
        except Conflict:
            results.append("conflict")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wins = [r for r in results if r.startswith("won")]
    assert len(wins) == 1 and results.count("conflict") == 5
    winner = int(wins[0].split()[1])
    assert store.records(info.id) == [{"n": 0}, {"writer": winner}]
    assert store.version(info.id) == 2
    store.close()


def test_a_database_that_cannot_be_opened_is_a_clear_error(tmp_path: Path) -> None:
    for url in ("nosuchdb://x", f"sqlite:///{tmp_path}/no/such/dir/t.sqlite3"):
        with pytest.raises(InputError, match=r"^--db: cannot open the database"):
            Store(url)
    done = subprocess.run([sys.executable, "-m", "fracas", "serve", "--db", "nosuchdb://x",
                           "--port", "1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("fracas: error: --db: cannot open the database 'nosuchdb://x'")
    assert "Traceback" not in done.stderr


def test_connections_dropped_by_the_database_are_replaced_without_an_error(
        pg_url: str) -> None:
    """The queries asked with every answer do not ping each connection first (a round trip
    each): a connection the database has dropped (a restart) is met, and asked again."""
    store = Store(pg_url)
    gid, _ = store.create_gm()
    info = store.create_encounter(gid, "t", "tristat", {}, {}, [{"n": 0}])
    store.add_player(info.id, "P", ["rin"])
    assert store.version(info.id) == 1  # the pools hold connections now

    def drop_every_connection() -> int:
        with psycopg.connect(pg_url, autocommit=True) as admin:
            return len(admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall())

    assert drop_every_connection() >= 1
    assert store.version(info.id) == 1
    drop_every_connection()
    assert [p.name for p in store.players_of(info.id)] == ["P"]
    drop_every_connection()
    assert store.commit(info.id, 1, [{"n": 0}], [{"n": 0}, {"n": 1}]) == 2
    assert store.records(info.id) == [{"n": 0}, {"n": 1}]
    store.close()
