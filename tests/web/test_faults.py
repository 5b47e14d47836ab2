"""Faults answer clearly (issue 40), against real servers on loopback: a SQLite file on a
small full disk (a tmpfs of a few MiB) and a PostgreSQL server restarted mid-fight give
503 with a message the page shows and a Retry-After, never a bare 500; nothing is lost;
the live stream outlives the restart and tells of the versions made after it."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fracas.web.store import UNAVAILABLE, UNREADABLE
from fracas.web.testing import ServerProcess, _as_postgres, postgres_bin, throwaway_postgres
from tests.web.helpers import Client, answer_for, new_gm, open_example

EXAMPLE = "tristat/duel-fight.yaml"


@contextlib.contextmanager
def small_disk(folder: Path, mib: int = 4) -> Iterator[Path]:
    """A tmpfs of ``mib`` MiB mounted at ``folder`` (root only; skipped elsewhere)."""
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={mib}m", "tmpfs",
                           str(folder)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Fill the disk at ``folder`` to the last byte."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 4096, 1):  # big blocks, then the last odd bytes
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    return filler


def unavailable(r: httpx.Response) -> bool:
    """A 503 as the issue asks: the message, and when to try again."""
    return (r.status_code == 503 and r.json()["error"] == UNAVAILABLE
            and int(r.headers["Retry-After"]) > 0)


def waited(done: Callable[[], bool], seconds: float = 30) -> bool:
    """Whether ``done()`` came true within ``seconds`` (asked five times a second)."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.2)
    return done()


def decide_once(gm: Client, eid: str) -> httpx.Response:
    view = gm.get(f"/api/encounters/{eid}")
    if view.status_code != 200:
        return view
    body = view.json()
    return gm.decide(eid, body["version"], answer_for(body["pending"]["decision"]))


def replayed(db: str, gm: Client, eid: str) -> dict[str, Any]:
    """The GM's view of ``eid`` from a fresh server process on ``db``: the stored log
    replayed from its start (who's winning, figured apart, left out)."""
    fresh = ServerProcess(db).start()
    try:
        with httpx.Client(base_url=fresh.url, timeout=30) as http:
            return same_view(Client(http, gm.headers["Authorization"].split()[1]).view(eid))
    finally:
        fresh.stop()


def same_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view without what the background workers fill in when they are done (who's
    winning; the options' odds, ready in one process and not yet in a fresh one)."""
    return {k: _without_odds(v) for k, v in view.items() if k != "winning"}


def _without_odds(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_odds(v) for k, v in value.items()
                if k not in ("odds", "odds_pending")}
    if isinstance(value, list):
        return [_without_odds(v) for v in value]
    return value


@contextlib.contextmanager
def fight(url: str, seed: int, answered: int) -> Iterator[tuple[Client, str]]:
    """A new GM's encounter on the server at ``url`` with ``answered`` decisions taken:
    the GM's client, and the encounter's id."""
    with httpx.Client(base_url=url, timeout=30) as http:
        gm = new_gm(http)
        eid = open_example(gm, EXAMPLE, seed=seed)
        for _ in range(answered):
            assert decide_once(gm, eid).status_code == 200
        yield gm, eid


def full_then_freed(server: ServerProcess, disk: Path) -> None:
    """Fill ``disk`` mid-fight: answers go in until one needs more room (the database's
    last pages may still have some), then each is a 503 with the message and Retry-After,
    the views still read and the server runs on; once space is freed, every answer goes
    through and the state equals a fresh process's replay of the stored log."""
    with fight(server.url, seed=3, answered=4) as (gm, eid):
        before = gm.view(eid)
        filler = fill(disk)
        answers = [decide_once(gm, eid)]
        while answers[-1].status_code == 200 and len(answers) < 80:
            answers.append(decide_once(gm, eid))
        answers += [decide_once(gm, eid) for _ in range(3)]
        assert all(r.status_code in (200, 503) for r in answers), [
            (r.status_code, r.text) for r in answers]
        refused = [r for r in answers if r.status_code == 503]
        assert refused and all(unavailable(r) for r in refused)
        taken = sum(r.status_code == 200 for r in answers)
        read = gm.get(f"/api/encounters/{eid}")
        assert read.status_code == 200 and read.json()["version"] == before["version"] + taken
        assert server.proc is not None and server.proc.poll() is None
        filler.unlink()
        for _ in range(3):
            ok = decide_once(gm, eid)
            assert ok.status_code == 200, ok.text
        after = gm.view(eid)
        # every answer taken is kept, and the ones after on top of them
        assert after["version"] == before["version"] + taken + 3
        assert same_view(after) == replayed(server.db, gm, eid)


def test_a_full_disk_is_503_and_nothing_is_lost(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        server = ServerProcess(f"sqlite:///{disk / 't.sqlite3'}").start()
        try:
            full_then_freed(server, disk)
        finally:
            server.stop()
        check = sqlite3.connect(disk / "t.sqlite3").execute("PRAGMA integrity_check")
        assert check.fetchone()[0] == "ok"


@contextlib.contextmanager
def postgres_on_a_small_disk(mib: int, wal_only: bool = False
                             ) -> Iterator[tuple[str, Path]]:
    """A throwaway PostgreSQL whose whole data directory (``wal_only``: its write-ahead
    log, in a folder of its own) is on a tmpfs of ``mib`` MiB, in 1 MiB WAL segments: its
    URL, and the disk."""
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed")
    top = Path(tempfile.mkdtemp(prefix="fracas-full-"))  # where user postgres may go
    top.chmod(0o755)
    try:
        with small_disk(top / "disk", mib=mib) as disk:
            if os.geteuid() == 0:
                shutil.chown(disk, "postgres")
            initdb = ["--wal-segsize=1", *([f"--waldir={disk / 'wal'}"] if wal_only else [])]
            with throwaway_postgres(folder=None if wal_only else disk, initdb=initdb) as url:
                yield url, disk
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_a_full_disk_under_postgresql_is_503_and_nothing_is_lost() -> None:
    """PostgreSQL's whole data directory on a small disk, filled mid-fight: what it
    really does is refuse to extend a table's file (an ERROR, ``DiskFull``) and stay up:
    every change is a 503 with the message and Retry-After while views still read; once
    space is freed, every answer goes through and the state is the stored log's."""
    with postgres_on_a_small_disk(mib=48) as (url, disk):  # initdb takes some 30 MiB
        server = ServerProcess(url).start()
        try:
            full_then_freed(server, disk)
        finally:
            server.stop()


def test_a_full_log_disk_takes_postgresql_down_and_it_is_503_until_it_is_back() -> None:
    """PostgreSQL's write-ahead log on a small disk, filled mid-fight: what it really
    does, once a write needs a new log segment (here another program's large write on
    the same server), is PANIC, fail its crash recovery for want of space and shut down,
    and stay down after the space is freed until it is started again. Meanwhile every
    request that needs it is a 503 with the message and Retry-After, and the server runs
    on; started again, the fight goes on from where it was, nothing lost."""
    import psycopg

    with postgres_on_a_small_disk(mib=8, wal_only=True) as (url, disk):
        database = Restartable(url)
        server = ServerProcess(url).start()
        try:
            with fight(server.url, seed=3, answered=4) as (gm, eid):
                before = gm.view(eid)
                filler = fill(disk)
                with pytest.raises(psycopg.Error), psycopg.connect(url, autocommit=True) as c:
                    c.execute("CREATE TABLE pad (x text)")
                    for _ in range(50):  # some 50 MB of log, far more than the disk holds
                        c.execute("INSERT INTO pad SELECT repeat('x', 1000) "
                                  "FROM generate_series(1, 1000)")
                assert waited(lambda: not Path(database.data, "postmaster.pid").exists())
                down = [gm.decide(eid, before["version"], {"roll": True}) for _ in range(3)]
                assert all(unavailable(r) for r in down), [(r.status_code, r.text)
                                                          for r in down]
                read = gm.get(f"/api/encounters/{eid}")
                assert read.status_code == 503 and read.json()["error"] == UNREADABLE
                filler.unlink()
                time.sleep(3)  # freed, it does not come back by itself
                assert gm.get(f"/api/encounters/{eid}").status_code == 503
                assert server.proc is not None and server.proc.poll() is None
                database.start()  # its crash recovery now has room
                r = decide_when_back(gm, eid)
                assert r.status_code == 200, r.text
                assert r.json()["version"] == before["version"] + 1
                assert same_view(gm.view(eid)) == replayed(url, gm, eid)
        finally:
            server.stop()


class Restartable:
    """The throwaway PostgreSQL server at ``url``, stopped and started again as it was."""

    def __init__(self, url: str):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            self.data = str(conn.execute("SHOW data_directory").fetchone()[0])  # type: ignore[index]
        self.pg_ctl = str(postgres_bin() / "pg_ctl")  # type: ignore[operator]
        # the server's own options, to start it again as it was
        opts = shlex.split(Path(self.data, "postmaster.opts").read_text())[1:]
        self.options = " ".join(shlex.quote(o) for o in opts if o not in ("-D", self.data))

    def stop(self) -> None:
        subprocess.run(_as_postgres([self.pg_ctl, "-D", self.data, "-m", "fast", "stop"]),
                       check=True, capture_output=True)

    def start(self) -> None:
        subprocess.run(_as_postgres([self.pg_ctl, "-D", self.data, "-w", "-o", self.options,
                                     "-l", str(Path(self.data).parent / "log2"), "start"]),
                       check=True, capture_output=True)


def decide_when_back(gm: Client, eid: str, seconds: float = 30) -> httpx.Response:
    """One decision, sent again after each 503's Retry-After for up to ``seconds``."""
    deadline = time.monotonic() + seconds
    r = decide_once(gm, eid)
    while r.status_code == 503 and time.monotonic() < deadline:
        time.sleep(float(r.headers["Retry-After"]))
        r = decide_once(gm, eid)
    return r


def _versions(url: str, key: str, eid: str, heard: queue.Queue[int],
              told: list[tuple[str, Any]], stop: threading.Event) -> None:
    """Read the live stream, putting each version it tells into ``heard`` and what else
    it tells into ``told`` (until the test stops the server)."""
    with contextlib.suppress(httpx.TransportError):
        _read(url, key, eid, heard, told, stop)


def _read(url: str, key: str, eid: str, heard: queue.Queue[int],
          told: list[tuple[str, Any]], stop: threading.Event) -> None:
    with httpx.Client(base_url=url, timeout=httpx.Timeout(5, read=60)) as http, http.stream(
            "GET", f"/api/encounters/{eid}/stream",
            headers={"Authorization": f"Bearer {key}"}) as r:
        assert r.status_code == 200
        ident, event = None, ""
        for line in r.iter_lines():
            if stop.is_set():
                return
            if line.startswith("id: "):
                ident = int(line[4:])
            if line.startswith("event: "):
                event = line[7:]
            if line.startswith("data: ") and event == "version":
                assert ident is not None  # every version carries its id
                heard.put(int(json.loads(line[6:])["version"]))
            elif line.startswith("data: "):  # the database gone, or back: no id
                told.append((event, json.loads(line[6:])))


def test_a_postgresql_restart_mid_fight_is_503_then_goes_on(tmp_path: Path) -> None:
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed")
    with throwaway_postgres() as url:
        database = Restartable(url)
        server = ServerProcess(url).start()
        stop = threading.Event()
        try:
            with fight(server.url, seed=5, answered=3) as (gm, eid):
                heard: queue.Queue[int] = queue.Queue()
                told: list[tuple[str, Any]] = []
                key = gm.headers["Authorization"].split()[1]
                reader = threading.Thread(target=_versions, daemon=True,
                                          args=(server.url, key, eid, heard, told, stop))
                reader.start()
                first = heard.get(timeout=30)
                database.stop()
                down = [gm.decide(eid, first, {"roll": True}) for _ in range(3)]
                assert all(unavailable(r) for r in down), [(r.status_code, r.text)
                                                          for r in down]
                read = gm.get(f"/api/encounters/{eid}")
                assert read.status_code == 503 and read.json()["error"] == UNREADABLE
                assert int(read.headers["Retry-After"]) > 0
                # the open stream says so too, once (a page shows it without asking)
                assert waited(lambda: bool(told))
                assert told == [("unavailable", {"error": UNREADABLE})]
                database.start()
                r = decide_when_back(gm, eid)
                assert r.status_code == 200, r.text
                now = r.json()["version"]
                assert now == first + 1  # nothing was written while the database was away
                # the stream opened before the restart tells of the version after it
                while (seen := heard.get(timeout=30)) < now:
                    pass
                assert seen == now
                # and, at its next look at the database, that it is back
                assert waited(lambda: len(told) == 2)
                assert told == [("unavailable", {"error": UNREADABLE}), ("available", {})]
        finally:
            stop.set()
            server.stop()
