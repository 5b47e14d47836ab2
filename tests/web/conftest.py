"""Fixtures of the web tracker's tests: databases (a SQLite file, a throwaway PostgreSQL),
an in-process client, and a server in a child process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.web.testing import ServerProcess, throwaway_postgres


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """One throwaway PostgreSQL server for the whole run (started from Debian's package)."""
    with throwaway_postgres() as url:
        yield url


_count = [0]


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """A fresh database on the throwaway server, one per test."""
    import psycopg

    _count[0] += 1
    name = f"t{_count[0]}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg_server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tracker.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each database the tracker supports: SQLite always, PostgreSQL on a throwaway server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tracker.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerProcess]:
    """``fracas serve`` in a child process on a loopback port, one per test module, on a
    SQLite file of its own."""
    db = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]) / "t.sqlite3"
    s = ServerProcess(f"sqlite:///{db}").start()
    yield s
    s.stop()


CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium under Playwright (one per test module)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
