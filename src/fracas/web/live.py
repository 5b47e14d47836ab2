"""The live channel: server-sent events that tell every screen an encounter changed.

The stream carries only the encounter's new version number, never its contents: each
screen then fetches its own view with its own key, so the channel cannot show a player
anything their view would not. Versions are noted in memory by the process that commits
them, and the database is looked at every few seconds too (another server process, or a
restart, may have committed).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable

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
