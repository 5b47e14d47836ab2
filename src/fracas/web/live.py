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
import contextlib
import json
import os
import threading
import time
from collections.abc import AsyncIterator, Callable

from fracas.web.store import CHANNEL, UNREADABLE

WAKE = 0.5  # a stream looks at whether the server is stopping this often, at least
DB_POLL = float(os.environ.get("FRACAS_LIVE_DB_POLL", "2.0"))  # seconds between looks
KEEPALIVE = 15.0


class Hub:
    """The newest version of each encounter known to this process, and the streams waiting
    for a newer one (woken at once, from whichever thread notes it)."""

    def __init__(self) -> None:
        self._versions: dict[str, int] = {}
        self._waiting: dict[str, dict[asyncio.Event, asyncio.AbstractEventLoop]] = {}
        self._lock = threading.Lock()
        self._last_look = time.monotonic()  # the clock of asyncio's loops
        self.reachable = True  # the database answered the last look (see :func:`stream`)

    def due(self, now: float) -> list[str]:
        """The encounters streams are waiting on, if it is time to look at the database
        for them (once every :data:`DB_POLL` seconds for the whole process, whichever
        stream asks first); else nothing."""
        with self._lock:
            if now - self._last_look < DB_POLL:
                return []
            self._last_look = now
            return list(self._waiting)

    def notify(self, eid: str, version: int) -> None:
        with self._lock:
            if version <= self._versions.get(eid, -1):
                return
            self._versions[eid] = version
            waiting = list(self._waiting.get(eid, {}).items())
        for event, loop in waiting:
            with contextlib.suppress(RuntimeError):  # a loop that has closed meanwhile
                loop.call_soon_threadsafe(event.set)

    def version(self, eid: str) -> int:
        with self._lock:
            return self._versions.get(eid, -1)

    def watch(self, eid: str) -> asyncio.Event:
        """An event set whenever ``eid`` gets a newer version (call from the event loop)."""
        event = asyncio.Event()
        with self._lock:
            self._waiting.setdefault(eid, {})[event] = asyncio.get_running_loop()
        return event

    def unwatch(self, eid: str, event: asyncio.Event) -> None:
        with self._lock:
            waiting = self._waiting.get(eid, {})
            waiting.pop(event, None)
            if not waiting:
                self._waiting.pop(eid, None)


class Listener:
    """A thread that LISTENs on PostgreSQL for the versions every server process commits
    and notes them in the hub; it connects again after a lost connection."""

    def __init__(self, url: str, hub: Hub,
                 heard: Callable[[str, int, int | None], None] | None = None):
        self.url = "postgresql://" + url.split("://", 1)[1]  # psycopg's own form
        self.hub = hub
        self.heard = heard  # also told of each version (e.g. to catch a session up)
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
        """``<encounter> <version> [<kept>]``: ``kept``, when given, counts the records
        the change left as they were (the header aside)."""
        eid, _, rest = payload.partition(" ")
        version, _, kept = rest.partition(" ")
        if version.isdigit():
            self.hub.notify(eid, int(version))
            if self.heard is not None:
                self.heard(eid, int(version), int(kept) if kept.isdigit() else None)


RETRY_MS = 1000  # how soon a browser connects again after a stream is cut (SSE ``retry``)


def sse(event: str, data: object, ident: int | None = None) -> str:
    """One server-sent event; ``ident``: its id (the version). A stream cut (a server or
    database restart) is connected again by the browser (``retry``; the page's
    ``listen`` too), and every stream begins with the version stored now: a screen that
    missed versions meanwhile sees at once that it is behind and fetches its view."""
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data)}\n\n"



async def _look(hub: Hub, watched: list[str],
                db_versions: Callable[[list[str]], dict[str, int]]) -> None:
    """The stored versions of the ``watched`` encounters, into the hub; whether the
    database answered, into ``hub.reachable`` (gone or restarting: the streams stay, and
    look again at the next poll)."""
    try:
        stored_now = await asyncio.to_thread(db_versions, watched)
    except Exception:
        hub.reachable = False
        return
    hub.reachable = True
    for other, stored in stored_now.items():
        hub.notify(other, stored)


async def stream(hub: Hub, eid: str, start: int,
                 db_versions: Callable[[list[str]], dict[str, int]],
                 stopping: Callable[[], bool]) -> AsyncIterator[str]:
    """``version`` events from ``start`` on, until the client leaves or the server stops:
    woken by the hub as soon as a newer version is noted, without polling. Every
    :data:`DB_POLL` seconds one stream of the process reads the versions of every watched
    encounter in one query (a change the hub was not told of: a restart, a lost
    connection to PostgreSQL, another process on the same SQLite file); when that query
    fails, every stream says ``unavailable`` (with the message the page shows), and
    ``available`` once it answers again."""
    seen = start
    yield f"retry: {RETRY_MS}\n" + sse("version", {"version": seen}, seen)
    loop = asyncio.get_running_loop()
    last_sent = loop.time()
    changed = hub.watch(eid)
    told = True  # what this stream last said of the database
    try:
        while not stopping():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), WAKE)
            changed.clear()
            now = loop.time()
            watched = hub.due(now)
            if watched:
                await _look(hub, watched, db_versions)
            if hub.reachable != told:  # the database gone, or back: said once each
                told = hub.reachable
                last_sent = now
                yield sse("available" if told else "unavailable",
                          {} if told else {"error": UNREADABLE})
            current = hub.version(eid)
            if current > seen:
                seen = current
                last_sent = now
                yield sse("version", {"version": seen}, seen)
            elif now - last_sent >= KEEPALIVE:
                last_sent = now
                yield ": keepalive\n\n"
    finally:
        hub.unwatch(eid, changed)
