"""The live channel: server-sent events that tell every screen an encounter changed.

The stream carries only the encounter's new version number, never its contents: each
screen then fetches its own view with its own key, so the channel cannot show a player
anything their view would not. Versions are noted in memory by the process that commits
them; on PostgreSQL every commit is also a ``NOTIFY`` that a :class:`Listener` in each
server process hears, so a screen following one process sees a decision made through
another at once. The database is looked at every few seconds too (a restart, or a lost
connection, may have hidden a change).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable

from fracas.web.store import CHANNEL

POLL = 0.1
DB_POLL = 2.0
KEEPALIVE = 15.0


class Hub:
    """The newest version of each encounter known to this process."""

    def __init__(self) -> None:
        self._versions: dict[str, int] = {}
        self._lock = threading.Lock()

    def notify(self, eid: str, version: int) -> None:
        with self._lock:
            if version > self._versions.get(eid, -1):
                self._versions[eid] = version

    def version(self, eid: str) -> int:
        with self._lock:
            return self._versions.get(eid, -1)


class Listener:
    """A thread that LISTENs on PostgreSQL for the versions every server process commits
    and notes them in the hub; it connects again after a lost connection."""

    def __init__(self, url: str, hub: Hub):
        self.url = "postgresql://" + url.split("://", 1)[1]  # psycopg's own form
        self.hub = hub
        self.listening = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fracas-listen", daemon=True)

    def start(self) -> Listener:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._heard(note.payload)
            except psycopg.Error:
                self.listening.clear()
                self._stop.wait(1.0)

    def _heard(self, payload: str) -> None:
        eid, _, version = payload.partition(" ")
        if version.isdigit():
            self.hub.notify(eid, int(version))


def sse(event: str, data: object) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


async def stream(hub: Hub, eid: str, start: int, db_version: Callable[[], int],
                 stopping: Callable[[], bool]) -> AsyncIterator[str]:
    """``version`` events from ``start`` on, until the client leaves or the server stops."""
    seen = start
    yield sse("version", {"version": seen})
    loop = asyncio.get_running_loop()
    last_db = last_sent = loop.time()
    while not stopping():
        await asyncio.sleep(POLL)
        now = loop.time()
        current = hub.version(eid)
        if now - last_db >= DB_POLL:
            last_db = now
            stored = await asyncio.to_thread(db_version)
            hub.notify(eid, stored)
            current = max(current, stored)
        if current > seen:
            seen = current
            last_sent = now
            yield sse("version", {"version": seen})
        elif now - last_sent >= KEEPALIVE:
            last_sent = now
            yield ": keepalive\n\n"
